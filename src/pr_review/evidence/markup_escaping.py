"""Escaping of values interpolated into HTML markup, counted on both sides of a PR.

Markup built by interpolating values (the watched sink rules of category ``html``: JavaScript
and TypeScript concatenation, Python ``+``/``%``/f-strings/``.format``, Go ``+`` and
``fmt.Sprintf`` with a tag in the format; in all three, a string ending in an attribute's
opening quote, ``' id="' + value``, which renderers append to a tag opened on another line)
is where cross-site scripting is made or fixed, in every language, and the fix is almost
always an escaping call put around a value that went in raw (``'<div class="math">' +
escape_text(text)``, ``html.escape(heading_id)``, ``template.HTMLEscapeString(s)``); the
regression takes one away. What is counted, on the
syntax tree's markup expressions (each source line of an outermost one once): calls whose name
says escaping (``escape``, ``escapeHtml``, ``escape_url``, ``EscapeString``; not ``unescape``),
sanitizing (``sanitize*``) or URL encoding (``quote``, ``encodeURIComponent``...), and the
markup expressions themselves. ``markup-escaping-changed`` (red) when the PR's code files make
a different number of such calls inside markup while building the same number of markup
expressions: an escape put around, or taken from, a value of existing markup. New markup that
comes with its own escaping (a renderer added), markup rewritten with every escape kept (a
``%`` format turned into an f-string) and an escape renamed (``html.escape`` -> ``escape``) are
no change. The callee names are the one lexical part: the lines read are the syntax tree's.

Examples (run by the test suite, ``MARKUP_ESCAPING_EXAMPLES``): (path, base, head, changed?).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pr_review.evidence.lexing import shorten
from pr_review.evidence.sides import CodeSides, code_sides
from pr_review.evidence.sinks import MAX_BYTES, hits_of
from pr_review.rules import SinkCategory, language_of
from pr_review.schema.enums import FactorSeverity
from pr_review.schema.pack import RiskFactor
from pr_review.sources.diff import FileDiff
from pr_review.sources.model import RepoTree

FACTOR = "markup-escaping-changed"
QUOTED_FACTOR = "quoted-escaping-changed"

_CALL = re.compile(r"([A-Za-z_$][\w$]*)\s*\(")
_ENCODERS = frozenset(
    {"quote", "quoteattr", "quote_plus", "encodeuri", "encodeuricomponent", "htmlspecialchars",
     "htmlentities", "safe_url", "safeurl", "urlencode"}
)


def is_escaping(name: str) -> bool:
    """Whether a callee's last name says it escapes, sanitizes or URL-encodes a value."""
    lowered = name.lower()
    if lowered.startswith("unescape"):
        return False
    return "escape" in lowered or lowered.startswith("sanitize") or lowered in _ENCODERS


def escapes_in(code: str) -> int:
    """How many calls in ``code`` escape, sanitize or URL-encode a value (:func:`is_escaping`)."""
    return sum(1 for match in _CALL.finditer(code) if is_escaping(match.group(1)))


@dataclass(frozen=True)
class Escape:
    """An escaping call on a line of markup-building code."""

    line: int
    name: str
    code: str


@dataclass(frozen=True)
class Markup:
    """One side of a file: its outermost markup expressions and the escapes on their lines."""

    expressions: int
    escapes: tuple[Escape, ...]


def read(path: str, source: str | None) -> list[Markup] | None:
    """The markup of ``source`` (a one-element list, for :func:`code_sides`); None when no
    rule reads its language or it is too large."""
    return _read(path, source, SinkCategory.HTML)


def read_quoted(path: str, source: str | None) -> list[Markup] | None:
    """:func:`read` for values written between quotes of built text (category ``quoted``)."""
    return _read(path, source, SinkCategory.QUOTED)


def _read(path: str, source: str | None, category: SinkCategory) -> list[Markup] | None:
    language = language_of(path)
    if source is None or language is None or len(source) > MAX_BYTES:
        return None
    hits = [h for h in hits_of(source, language) if h.category is category]
    spans: list[tuple[int, int]] = []
    for start, end in sorted(((h.line, h.end_line) for h in hits), key=lambda s: (s[0], -s[1])):
        if spans and start >= spans[-1][0] and end <= spans[-1][1]:
            continue  # a sub-expression of the markup expression before it
        spans.append((start, end))
    lines = source.splitlines()
    covered = sorted({n for start, end in spans for n in range(start, end + 1)})
    escapes = tuple(
        Escape(n, match.group(1), lines[n - 1].strip())
        for n in covered
        if n <= len(lines)
        for match in _CALL.finditer(lines[n - 1])
        if is_escaping(match.group(1))
    )
    return [Markup(len(spans), escapes)]


def _totals(sides: Sequence[CodeSides[Markup]], new: bool) -> tuple[int, int]:
    marks = [m for s in sides for m in (s.new if new else s.old)]
    return sum(m.expressions for m in marks), sum(len(m.escapes) for m in marks)


def markup_escaping_factors(
    files: Sequence[FileDiff], base: RepoTree, head: RepoTree
) -> list[RiskFactor]:
    """One red factor when escapes inside markup were added or removed while the markup
    expressions stayed as many, at the first file whose escapes changed."""
    return _escaping_factors(files, base, head, read, factor=FACTOR, where_to="HTML markup",
                             kind="markup", flaw="cross-site scripting")  # fmt: skip


def quoted_escaping_factors(
    files: Sequence[FileDiff], base: RepoTree, head: RepoTree
) -> list[RiskFactor]:
    """``quoted-escaping-changed``: as :func:`markup_escaping_factors`, for values written
    between the quotes of text the code builds outside markup (generated code given to ``new
    Function``, a quoted command-line argument, an SQL literal: the sink rules of category
    ``quoted``). node-postgres's CVE-2017-16082 escaped column names written into its generated
    row parser, ``"this['" + escape(fieldName) + "'] = ..."``, in eleven release lines."""
    return _escaping_factors(
        files, base, head, read_quoted, factor=QUOTED_FACTOR,
        where_to="quotes of text the code builds", kind="quoted",
        flaw="code, query or command injection",
    )  # fmt: skip


def _escaping_factors(
    files: Sequence[FileDiff], base: RepoTree, head: RepoTree,
    reader: Callable[[str, str | None], list[Markup] | None],
    *, factor: str, where_to: str, kind: str, flaw: str,
) -> list[RiskFactor]:
    sides = code_sides(files, base, head, reader)
    (markup_before, escapes_before), (markup_after, escapes_after) = (
        _totals(sides, new=False), _totals(sides, new=True)
    )
    if escapes_before == escapes_after or markup_before != markup_after:
        return []
    for side in sides:
        old = [e for m in side.old for e in m.escapes]
        new = [e for m in side.new for e in m.escapes]
        if len(old) == len(new):
            continue
        added = len(new) > len(old)
        names = [e.name for e in (old if added else new)]
        first = next((e for e in (new if added else old) if e.name not in names),
                     (new if added else old)[0])
        where = f"line {first.line}" + ("" if added else " of the base file")
        verb = "put around a value" if added else "taken from a value"
        return [
            RiskFactor(
                factor=factor,
                files=(side.path,),
                severity=FactorSeverity.RED,
                why=f"an escaping call {verb} interpolated into {where_to} ({where}: "
                f"`{shorten(first.code, 80)}`; {escapes_before} escaping call(s) in "
                f"{markup_before} {kind} expression(s) before, {escapes_after} after): this is "
                f"how {flaw} is fixed, or reopened",
            )
        ]
    return []


MARKUP_ESCAPING_EXAMPLES: tuple[tuple[str, str, str, bool], ...] = (
    (  # a value of existing markup escaped (a math plugin's XSS fix, Python)
        "plugins/math.py",
        "def render(text):\n    return '<div class=\"math\">$$\\n' + text + '\\n$$</div>\\n'\n",
        (
            "def render(text):\n    return '<div class=\"math\">$$\\n' + escape(text) + "
            "'\\n$$</div>\\n'\n"
        ),
        True,
    ),
    (  # an f-string heading whose id gains html.escape
        "renderers/html.py",
        "def heading(text, level, hid):\n    return f'<h{level} id=\"{hid}\">{text}</h{level}>'\n",
        (
            "def heading(text, level, hid):\n"
            "    return f'<h{level} id=\"{html.escape(hid)}\">{text}</h{level}>'\n"
        ),
        True,
    ),
    (  # JavaScript: an escape taken away from a redirect body
        "lib/response.js",
        "function body(u) {\n  return '<p>Redirecting to ' + escapeHtml(u) + '</p>'\n}\n",
        "function body(u) {\n  return '<p>Redirecting to ' + u + '</p>'\n}\n",
        True,
    ),
    (  # Go: an alt text escaped in a Sprintf
        "html/renderer.go",
        (
            "package html\nfunc img(src, alt string) string {\n"
            "\treturn fmt.Sprintf(\"<img src=\\\"%s\\\" alt=\\\"%s\\\">\", src, alt)\n}\n"
        ),
        (
            "package html\nfunc img(src, alt string) string {\n"
            "\treturn fmt.Sprintf(\"<img src=\\\"%s\\\" alt=\\\"%s\\\">\", src, "
            "html.EscapeString(alt))\n}\n"
        ),
        True,
    ),
    (  # an attribute appended to a tag built on an earlier line: the id value escaped
        "renderers/html.py",
        (
            "def heading(text, level, hid):\n    html = '<h' + str(level)\n"
            "    if hid:\n        html += ' id=\"' + hid + '\"'\n    return html + '>' + text\n"
        ),
        (
            "def heading(text, level, hid):\n    html = '<h' + str(level)\n"
            "    if hid:\n        html += ' id=\"' + escape_text(hid) + '\"'\n"
            "    return html + '>' + text\n"
        ),
        True,
    ),
    # no change: a format turned into an f-string with its escape kept, an escape renamed, a
    # new renderer that brings its own escaping, a regex's named group, an unescape, a quoted
    # command-line option (not an attribute)
    (
        "cli.py",
        "def arg(name):\n    return ' --name=\"' + name + '\"'\n",
        "def arg(name):\n    return ' --name=\"' + shlex_escape(name) + '\"'\n",
        False,
    ),
    (
        "sanitizer.py",
        "def end(token):\n    return '</%s>' % escape(token['name'])\n",
        "def end(token):\n    return f\"</{escape(token['name'])}>\"\n",
        False,
    ),
    (
        "utils.py",
        "def link(location):\n    return f'<a href=\"{html.escape(location)}\">here</a>'\n",
        "def link(location):\n    return f'<a href=\"{escape(location)}\">here</a>'\n",
        False,
    ),
    (
        "renderers/html.py",
        "def strong(text):\n    return '<strong>' + text + '</strong>'\n",
        (
            "def strong(text):\n    return '<strong>' + text + '</strong>'\n\n\n"
            "def abbr(text, title):\n    return '<abbr title=\"' + escape(title) + '\">' + text + "
            "'</abbr>'\n"
        ),
        False,
    ),
    (
        "block.py",
        "LEAD = r'^(?P<lead> {0,3})'\nLINE = escape(x)\n",
        "LEAD = r'^(?P<lead> {0,4})'\nLINE = escape(x)\n",
        False,
    ),
    (
        "lib/decode.js",
        "function text(s) {\n  return '<p>' + s + '</p>'\n}\n",
        "function text(s) {\n  return '<p>' + unescapeAll(s) + '</p>'\n}\n",
        False,
    ),
)
"""A base and a head source of one file, and whether the change is red."""

QUOTED_ESCAPING_EXAMPLES: tuple[tuple[str, str, str, bool], ...] = (
    (  # node-postgres CVE-2017-16082: a column name escaped in the generated row parser
        "lib/result.js",
        (
            "var inlineParser = function (fieldName, i) {\n  return \"\\nthis['\" +\n"
            "    fieldName.replace(/'/g, \"\\\\'\") +\n    \"'] = \" + 'rowData[' + i + '];'\n}\n"
        ),
        (
            "var inlineParser = function (fieldName, i) {\n  return \"\\nthis['\" +\n"
            "    escape(fieldName) +\n    \"'] = \" + 'rowData[' + i + '];'\n}\n"
        ),
        True,
    ),
    (  # a quoted command-line option's value escaped (Python)
        "cli.py",
        "def arg(name):\n    return ' --name=\"' + name + '\"'\n",
        "def arg(name):\n    return ' --name=\"' + shlex_escape(name) + '\"'\n",
        True,
    ),
    (  # an escape taken from an SQL literal in an f-string
        "db.py",
        "def where(name):\n    return f\"WHERE name = '{escape_string(name)}'\"\n",
        "def where(name):\n    return f\"WHERE name = '{name}'\"\n",
        True,
    ),
    # no change: a message reworded without escapes, an escape renamed, a new quoted builder
    # with its own escape, the quotes moved into a serializer (the quoted expression is gone)
    (
        "errors.js",
        "function bad(name) {\n  return 'Unknown option \\'' + name + '\\''\n}\n",
        "function bad(name) {\n  return 'Unknown option \"' + name + '\"'\n}\n",
        False,
    ),
    (
        "db.py",
        "def where(name):\n    return \"name = '\" + escape_string(name) + \"'\"\n",
        "def where(name):\n    return \"name = '\" + escape_literal(name) + \"'\"\n",
        False,
    ),
    (
        "db.py",
        "def a(x):\n    return \"'\" + x + \"'\"\n",
        (
            "def a(x):\n    return \"'\" + x + \"'\"\n\n\n"
            "def b(y):\n    return \"'\" + escape(y) + \"'\"\n"
        ),
        False,
    ),
    (
        "index.js",
        "function url(u) {\n  return \"new URL(\\\"\" + u.toString() + \"\\\")\"\n}\n",
        "function url(u) {\n  return \"new URL(\" + serialize(u.toString()) + \")\"\n}\n",
        False,
    ),
)  # fmt: skip
"""Each: a file on the base and head sides, and whether ``quoted-escaping-changed`` is red."""
