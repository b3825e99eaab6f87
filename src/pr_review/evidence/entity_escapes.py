"""HTML character references written in code, counted on both sides of a PR.

A string literal that is exactly a character reference for an ASCII punctuation character
(``'&lt;'``, ``"&quot;"``, ``'&#x27;'``, ``'&#x3D;'``, ``"&#96;"``, ``'&#92;'``: characters
with syntax in markup, in the scripts and styles markup holds, and in URLs) is how code
escapes markup by hand, in every language: an escape table (``{'<': '&lt;', ...}``), a
``.replace('"', '&quot;')`` chain, a Go ``strings.NewReplacer``. One added or removed
changes what a value can carry into HTML: a template engine escaping ``=`` (handlebars,
CVE-2015-8861), a Markdown converter escaping the quotes of an image URL or a bare ``<``, a
sanitizer escaping quotes in attribute values, a template engine escaping a backslash for
values that land in inline scripts (nunjucks, CVE-2023-2142). Other references (``&nbsp;``, a
typographer's ``&#8220;`` and ``&hellip;``: not ASCII) decide nothing about markup and are not
counted.

Factor ``html-entity-escaping-changed`` (red): the PR's code files hold such literals a
different number of times after the PR than before, counted by the character they stand for
(a table reformatted, reordered or moved between files of the PR, or ``'&#39;'`` written
``'&#x27;'``, is no change). Python is read with :mod:`ast`, JavaScript, TypeScript and Go on
tree-sitter (:func:`pr_review.evidence.grammars.string_literals`); comments are not literals,
and test code is not read.

Examples (run by the test suite, ``ENTITY_EXAMPLES``): (path, base, head, changed?).
"""

from __future__ import annotations

import ast
import html
import re
import string
from collections.abc import Sequence
from dataclasses import dataclass

from pr_review.evidence.grammars import string_literals
from pr_review.evidence.pyast import parse_python
from pr_review.evidence.scopes import PYTHON_EXTENSIONS
from pr_review.evidence.sides import code_sides, first_moved, red_when_moved
from pr_review.schema.pack import RiskFactor
from pr_review.sources.diff import FileDiff
from pr_review.sources.model import RepoTree

FACTOR = "html-entity-escaping-changed"
MARKUP_CHARACTERS = frozenset(string.punctuation)
"""The characters whose character reference is an escape: ASCII punctuation."""
_REFERENCE = re.compile(r"&(?:[A-Za-z]+|#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6});")


@dataclass(frozen=True)
class Reference:
    """A string literal that is one character reference for a markup character."""

    line: int
    text: str
    character: str


def reference_of(line: int, value: str) -> Reference | None:
    """``value`` as a :class:`Reference` when it is exactly one character reference for a
    markup character."""
    if not _REFERENCE.fullmatch(value):
        return None
    character = html.unescape(value)
    if character not in MARKUP_CHARACTERS:
        return None
    return Reference(line, value, character)


def _python_strings(source: str) -> list[tuple[int, str]] | None:
    tree = parse_python(source)
    if tree is None:
        return None
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str | bytes):
            value = node.value
            out.append((node.lineno, value if isinstance(value, str) else value.decode("latin-1")))
    return out


def references(path: str, source: str | None) -> list[Reference] | None:
    """The markup character references ``source`` writes as string literals; None when the
    file is not read here (no tree for its language, or it does not parse)."""
    if source is None:
        return None
    found = (
        _python_strings(source) if path.endswith(PYTHON_EXTENSIONS)
        else string_literals(path, source)
    )  # fmt: skip
    if found is None:
        return None
    return [r for line, value in found if (r := reference_of(line, value)) is not None]


def entity_escaping_factors(
    files: Sequence[FileDiff], base: RepoTree, head: RepoTree
) -> list[RiskFactor]:
    """One red factor when the PR's code files write markup character references a different
    number of times, per character, at the first file where one was added or removed."""
    moved = first_moved(code_sides(files, base, head, references), lambda r: r.character)
    return red_when_moved(
        FACTOR,
        moved,
        lambda moved: f"an HTML character reference for `{moved.item.character}` {moved.verb} "
        f"({moved.where}: `'{moved.item.text}'`; {moved.came} new, {moved.gone} gone in "
        "the PR's files): a literal reference is how code escapes markup by hand, so what "
        "a value can carry into HTML changed (cross-site scripting is fixed, or reopened, "
        "this way)",
    )


ENTITY_EXAMPLES: tuple[tuple[str, str, str, bool], ...] = (
    (  # an escape table gains `=` (a template engine's attribute-injection fix)
        "lib/utils.js",
        "const escape = { '<': '&lt;', '>': '&gt;', '`': '&#x60;' };\n",
        "const escape = { '<': '&lt;', '>': '&gt;', '`': '&#x60;', '=': '&#x3D;' };\n",
        True,
    ),
    (  # an image URL's quotes escaped like its title's (Python)
        "lib/markdown.py",
        (
            "def img(url, alt):\n"
            "    return '<img src=\"%s\" alt=\"%s\">' % (url, alt.replace('\"', '&quot;'))\n"
        ),
        (
            "def img(url, alt):\n"
            "    return '<img src=\"%s\" alt=\"%s\">' % (url.replace('\"', '&quot;'),"
            " alt.replace('\"', '&quot;'))\n"
        ),
        True,
    ),
    (  # a backslash escaped for values that land in inline scripts (nunjucks)
        "nunjucks/src/lib.js",
        "var escapeMap = { '&': '&amp;', '<': '&lt;' };\n",
        "var escapeMap = { '&': '&amp;', '<': '&lt;', '\\\\': '&#92;' };\n",
        True,
    ),
    (  # Go: a replacer stops escaping the apostrophe
        "html/escape.go",
        'package html\nvar r = strings.NewReplacer("<", "&lt;", "\'", "&#39;")\n',
        'package html\nvar r = strings.NewReplacer("<", "&lt;")\n',
        True,
    ),
    # no change: a table reordered, a reference respelt, typography, a comment, a message
    (
        "lib/utils.js",
        "const escape = { '<': '&lt;', '\"': '&quot;' };\n",
        "const escape = {\n  '\"': '&#34;',\n  '<': '&lt;',\n};\n",
        False,
    ),
    (
        "lib/smartypants.py",
        "QUOTES = {'\"': '&#8220;'}\n",
        "QUOTES = {'\"': '&#8220;', \"'\": '&#8216;', '...': '&hellip;', ' ': '&nbsp;'}\n",
        False,
    ),
    (
        "lib/parse.js",
        "var sentinel = 'utf8=%E2%9C%93';\n",
        "var sentinel = 'utf8=%26%2310003%3B'; // encodeURIComponent('&#x27;')\n",
        False,
    ),
    (
        "lib/errors.py",
        "MSG = 'use &lt; for <'\n",
        "MSG = 'write &lt; for <, &gt; for >'\n",
        False,
    ),
)
"""A base and a head source of one file, and whether the change is red."""
