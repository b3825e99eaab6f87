"""Build output committed beside its source: a bundler's or compiler's file, known by its text.

A JavaScript or CSS file whose last line points at its source map (``//# sourceMappingURL=``,
``/*# sourceMappingURL= */``, or the older ``//@``) was written by a tool: Rollup, webpack,
esbuild, tsc, Babel and Sass end their output with it, and nobody writes it by hand. Libraries
commit such files (DOMPurify's ``dist/purify.js``, ``dist/purify.es.mjs`` and
``dist/purify.cjs.js`` rebuilt from ``src/purify.ts`` in the same PR), so a change to the
source shows three or four times over. The mark is content, not a path: ``dist/`` holds
hand-written files in some repositories and bundles live in ``lib/``, ``build/`` or the root
in others.

Like a generator's header (:mod:`pr_review.evidence.generated`), the mark is the PR's own
claim, so it counts for a new file or for a file whose base version ended with it too.

Examples (run by the test suite): :data:`BUNDLE_EXAMPLES` (a file's last lines, marked?).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

BUNDLE_TAIL = re.compile(
    r"^\s*(?://[#@]\s*sourceMappingURL=\S+|/\*[#@]\s*sourceMappingURL=\S+?\s*\*/)\s*$"
)
"""A source-map comment as bundlers and compilers write it, alone on its line."""

TAIL_LINES = 3
"""The mark is the last line; a blank line or two after it is allowed."""

BUNDLE_EXAMPLES: tuple[tuple[tuple[str, ...], bool], ...] = (
    (("}));", "//# sourceMappingURL=purify.js.map"), True),
    (("export { purify as default };", "//# sourceMappingURL=purify.es.mjs.map", ""), True),
    (("module.exports = x;", "//# sourceMappingURL=data:application/json;base64,eyJ2In0="), True),
    ((".a{color:red}", "/*# sourceMappingURL=site.css.map */"), True),
    (("var a = 1;", "//@ sourceMappingURL=old.js.map"), True),
    # a source file that talks about source maps, or reads the comment, is not a bundle
    (("const re = /\\/\\/# sourceMappingURL=(\\S+)/;", "export default re;"), False),
    (('const tail = "//# sourceMappingURL=" + name;',), False),
    (("//# sourceMappingURL=app.js.map", "console.log('after the mark');"), False),
    (("// see sourceMappingURL in the bundler docs",), False),
    ((), False),
)
"""Last lines of a file, and whether they mark it as build output."""


def bundle_mark(lines: Sequence[str]) -> bool:
    """Whether the last non-blank line of ``lines`` is a source-map comment."""
    seen = 0
    for line in reversed(lines):
        if not line.strip():
            seen += 1
            if seen >= TAIL_LINES:
                return False
            continue
        return BUNDLE_TAIL.match(line) is not None
    return False


def bundle_text(text: str | None) -> bool:
    """:func:`bundle_mark` of a whole text (None: no such file)."""
    if text is None:
        return False
    return bundle_mark(text[-4096:].splitlines())


def counts_as_bundle(
    head: Sequence[str] | None, base: Sequence[str] | None, *, added: bool
) -> bool:
    """The head file is build output and the PR did not make it so: marked, and either new or
    marked in the base too (a mark appended to a hand-written file does not hide it)."""
    if head is None or not bundle_mark(head):
        return False
    return added or (base is not None and bundle_mark(base))
