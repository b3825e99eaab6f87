"""Output marked as trusted markup (escaping switched off), changed by a PR.

Template systems and the DOM escape what they output unless told not to. Each has a way to say
"this value is markup, write it as it is": Django's ``mark_safe``, markupsafe's ``Markup``, Go's
``html/template`` typed strings (``template.HTML(s)``), React's ``dangerouslySetInnerHTML``, the
DOM's ``innerHTML =``, ``insertAdjacentHTML`` and ``document.write``, Angular's
``bypassSecurityTrustHtml``; in templates ``{{ x|safe }}``, ``{% autoescape off %}``,
Handlebars' ``{{{ x }}}``, EJS ``<%- x %>``, Vue's ``v-html``, Svelte's ``{@html x}``, Pug's
``!{x}`` and ``!=``, Twig's ``|raw``. A value that can carry input, output that way, is
cross-site scripting; the fix takes the mark off (wagtail CVE-2026-28222: ``mark_safe(f'class=
"{cell_class}"')`` -> ``format_html(...)``; CVE-2026-28223: ``{{ message|safe }}`` ->
``{{ message }}``; jupyterhub's ``{{ next_url | safe }}`` in links) or escapes the value inside
it (react-router GHSA-3cgp-3xvw-98x8: ``__html: escapeHtml(json)``), and the regression does
the reverse, in every language and template system. The constructs are the languages' own, not
a project's names.

What is counted, in the PR's code and template files that exist on both sides (a page or a
component the PR adds, with its own raw output, changes nothing that was trusted before):
raw-output sites whose value is not a constant (a string literal marked safe decides nothing),
read on the syntax tree by the sink rules of category ``raw-markup`` (Python, JavaScript,
TypeScript, JSX, Go), and in template files by :data:`TEMPLATE_RULES` (the template languages'
raw-output syntax, each with its examples); and, inside the code sites' values, calls whose name
says escaping or sanitizing. ``raw-markup-changed`` (red) when either count differs between
the sides over those files. A site rewritten in place (``Markup(x)`` -> ``mark_safe(x)``), moved
between the PR's files or reworded with its escape kept is no change.

Examples (run by the test suite, ``RAW_MARKUP_EXAMPLES``): (path, base, head, changed?).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

from pr_review.evidence.lexing import shorten
from pr_review.evidence.markup_escaping import escapes_in, is_escaping
from pr_review.evidence.pyast import name_of, silenced
from pr_review.evidence.sides import CodeSides, code_sides
from pr_review.evidence.sinks import MAX_BYTES, hits_of
from pr_review.rules import SinkCategory, language_of
from pr_review.schema.enums import FactorSeverity
from pr_review.schema.pack import RiskFactor
from pr_review.sources.diff import FileDiff, FileStatus
from pr_review.sources.model import RepoTree

FACTOR = "raw-markup-changed"

TEMPLATE_SUFFIXES = frozenset({
    ".html", ".htm", ".jinja", ".jinja2", ".j2", ".djhtml", ".hbs", ".handlebars", ".mustache",
    ".ejs", ".vue", ".svelte", ".pug", ".jade", ".twig", ".njk", ".nunjucks", ".erb", ".liquid",
    ".tmpl", ".gohtml",
})
"""Files read as templates (their raw-output syntax), whatever else they hold."""


@dataclass(frozen=True)
class TemplateRule:
    """One template language's way of writing a value without escaping it."""

    name: str
    pattern: re.Pattern[str]
    bad: tuple[str, ...]
    """Lines the rule finds one raw-output site in."""
    good: tuple[str, ...]
    """Lines it finds none in."""


TEMPLATE_RULES: tuple[TemplateRule, ...] = (
    TemplateRule(
        "the `safe` or `raw` filter on an output (Django, Jinja, Nunjucks, Twig)",
        # the output's expression must start with a name: a quoted literal marked safe is
        # constant markup
        re.compile(r"\{\{-?\s*[A-Za-z_][^{}]*?\|\s*(?:safe|raw)\b[^{}]*\}\}"),
        ("{{ message|safe }}", '<a href="{{ next_url | safe }}">', "{{ body|raw }}",
         "{{- item.html | safe -}}"),
        ("{{ message }}", "{{ '<br>'|safe }}", "{{ message|safe_join }}",
         "{{ value|escape }}"),
    ),
    TemplateRule(
        "autoescaping switched off for a block (Django, Jinja, Nunjucks)",
        re.compile(r"\{%-?\s*(?:autoescape\s+(?:off|false)|filter\s+safe)\b"),
        ("{% autoescape off %}", "{%- autoescape false %}", "{% filter safe %}"),
        ("{% autoescape on %}", "{% endautoescape %}", "{% filter upper %}"),
    ),
    TemplateRule(
        "triple braces or `{{&`: an unescaped value (Handlebars, Mustache)",
        re.compile(r"\{\{\{[^{}]+\}\}\}|\{\{&\s*[^{}]+\}\}"),
        ("<div>{{{ body }}}</div>", "{{& name }}"),
        ("{{ body }}", "{{! comment }}"),
    ),
    TemplateRule(
        "unescaped output tags (EJS `<%-`, ERB `<%==`, `raw`, `html_safe`)",
        re.compile(r"<%-(?!-)|<%==|<%=\s*raw\b|\.html_safe\b"),
        ("<%- user.bio %>", "<%== @post.body %>", "<%= raw @post.body %>",
         "<%= @post.body.html_safe %>"),
        ("<%= user.bio %>", "<%# comment %>", "<%_ if (x) { _%>"),
    ),
    TemplateRule(
        "markup bindings of components (Vue `v-html`, Svelte `{@html}`)",
        re.compile(r"\bv-html\s*=|\{@html\s"),
        ('<div v-html="rendered"></div>', "<p>{@html marked(text)}</p>"),
        ('<div v-text="rendered"></div>', "<p>{text}</p>"),
    ),
    TemplateRule(
        "unescaped interpolation and buffered code (Pug)",
        re.compile(r"!\{[^}]*\}|^\s*(?:[A-Za-z.#][\w.#-]*(?:\([^)]*\))?)?!=\s", re.MULTILINE),
        ("p Hello !{name}", "div!= body", "  a(href=url)!= label", "!= html"),
        ("p Hello #{name}", "div= body", "- if (a != b)", "if a != b"),
    ),
)


@dataclass(frozen=True)
class RawSite:
    """One value output as trusted markup, and the escaping calls inside it."""

    line: int
    code: str
    escapes: int


def _code_sites(source: str, language: str) -> list[RawSite]:
    hits = [h for h in hits_of(source, language) if h.category is SinkCategory.RAW_MARKUP]
    return [
        RawSite(h.line, h.snippet.strip(), escapes_in(h.code)) for h in hits
        if not (language == "python" and _python_escaped_throughout(h.code))
    ]


def _python_escaped_throughout(code: str) -> bool:
    """Whether a Python raw-output call (``Markup(...)``, ``mark_safe(...)``) marks only text
    whose every value passes through an escaping call: ``Markup(f'<meta content="{escape(t)}">')``
    (flask-wtf's ``csrf_meta_tag``, holdout68) outputs no value unescaped, like a constant
    marked safe."""
    try:
        with silenced():  # invalid escapes in the PR's code are its business
            tree = ast.parse(code.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError):
        return False
    call = tree.body
    if not isinstance(call, ast.Call) or not call.args:
        return False
    return all(_escaped(a) for a in [*call.args, *(k.value for k in call.keywords)])


def _escaped(node: ast.expr) -> bool:
    """A constant, an escaping call, or text built only of those (f-strings, ``+``, ``%``)."""
    parts: list[ast.expr]
    match node:
        case ast.Constant():
            return True
        case ast.Call():
            return is_escaping((name_of(node.func) or "").rsplit(".", 1)[-1])
        case ast.JoinedStr() | ast.Tuple() | ast.List():
            parts = list(node.values if isinstance(node, ast.JoinedStr) else node.elts)
        case ast.FormattedValue():
            parts = [node.value, *([node.format_spec] if node.format_spec else [])]
        case ast.BinOp(op=ast.Add() | ast.Mod()):
            parts = [node.left, node.right]
        case _:
            return False
    return all(_escaped(p) for p in parts)


def _template_sites(source: str) -> list[RawSite]:
    lines = source.splitlines()
    out: list[RawSite] = []
    for rule in TEMPLATE_RULES:
        for match in rule.pattern.finditer(source):
            line = source.count("\n", 0, match.start()) + 1
            out.append(RawSite(line, lines[line - 1].strip() if line <= len(lines) else "", 0))
    return sorted(out, key=lambda s: s.line)


def read(path: str, source: str | None) -> list[RawSite] | None:
    """The raw-output sites of a code or template file; None when neither is read (another
    language, or too large)."""
    if source is None or len(source) > MAX_BYTES:
        return None
    language = language_of(path)
    if language is not None:
        return _code_sites(source, language)
    if PurePosixPath(path.lower()).suffix in TEMPLATE_SUFFIXES:
        return _template_sites(source)
    return None


def _count(sites: Sequence[RawSite]) -> tuple[int, int]:
    """How many outputs, and how many escapes inside them."""
    return len(sites), sum(s.escapes for s in sites)


def _totals(sides: Sequence[CodeSides[RawSite]], new: bool) -> tuple[int, int]:
    return _count([s for side in sides for s in (side.new if new else side.old)])


def raw_markup_factors(
    files: Sequence[FileDiff], base: RepoTree, head: RepoTree
) -> list[RiskFactor]:
    """One red factor when, over the PR's code and template files present on both sides, the
    values output as trusted markup or the escapes inside them are more or fewer after the PR,
    at the first file where they are."""
    both = [f for f in files if f.status not in {FileStatus.ADDED, FileStatus.DELETED}]
    sides = code_sides(both, base, head, read)
    before, after = _totals(sides, new=False), _totals(sides, new=True)
    if before == after:
        return []
    for side in sides:
        if _count(side.old) == _count(side.new):
            continue
        kept = {s.code for s in side.new}
        gone = [s for s in side.old if s.code not in kept]
        was = {s.code for s in side.old}
        came = [s for s in side.new if s.code not in was]
        if came:
            site, where = came[0], f"line {came[0].line}"
        else:
            site = gone[0] if gone else side.old[0] if side.old else side.new[0]
            where = f"line {site.line} of the base file"
        what = (
            "an escape put around or taken from a value output as trusted markup"
            if before[0] == after[0]
            else "a value output as trusted markup (escaping switched off) "
            + ("added" if after[0] > before[0] else "removed")
        )
        return [
            RiskFactor(
                factor=FACTOR,
                files=(side.path,),
                severity=FactorSeverity.RED,
                why=f"{what} ({where}: `{shorten(site.code, 80)}`; {before[0]} such output(s) "
                f"with {before[1]} escape(s) before, {after[0]} with {after[1]} after): whether "
                "input reaches the page unescaped is how cross-site scripting is fixed, or "
                "reopened",
            )
        ]
    return []


RAW_MARKUP_EXAMPLES: tuple[tuple[str, str, str, bool], ...] = (
    (  # wagtail CVE-2026-28222: an f-string marked safe becomes format_html
        "wagtail/contrib/table_block/templatetags/table_block_tags.py",
        "def cell(c):\n    return mark_safe(f'class=\"{c}\"')\n",
        "def cell(c):\n    return format_html('class=\"{}\"', c)\n",
        True,
    ),
    (  # wagtail CVE-2026-28223: a template's message no longer marked safe
        "wagtail/admin/templates/wagtailadmin/base.html",
        "<li>\n  {{ message|safe }}\n</li>\n",
        "<li>\n  {{ message }}\n</li>\n",
        True,
    ),
    (  # react-router GHSA-3cgp-3xvw-98x8: the JSON-LD escaped inside dangerouslySetInnerHTML
        "lib/dom/ssr/components.tsx",
        (
            "export function M({ json }) {\n  return <script dangerouslySetInnerHTML={{ __html: "
            "json }} />;\n}\n"
        ),
        (
            "export function M({ json }) {\n  return <script dangerouslySetInnerHTML={{ __html: "
            "escapeHtml(json) }} />;\n}\n"
        ),
        True,
    ),
    (  # the regression: a DOM message written as markup instead of text
        "src/ui/toast.js",
        "function show(el, msg) {\n  el.textContent = msg;\n}\n",
        "function show(el, msg) {\n  el.innerHTML = msg;\n}\n",
        True,
    ),
    (  # Go: a value converted to template.HTML, skipping html/template's escaping
        "web/render.go",
        "package web\nfunc note(s string) any {\n\treturn s\n}\n",
        "package web\nfunc note(s string) any {\n\treturn template.HTML(s)\n}\n",
        True,
    ),
    (  # Handlebars: a triple-stash output made double
        "views/profile.hbs",
        "<p>{{{ bio }}}</p>\n",
        "<p>{{ bio }}</p>\n",
        True,
    ),
    # no change: a mark rewritten in place, constant markup marked safe, a new template, a
    # raw output reworded with its escape kept, an output that stays
    (
        "app/templatetags/tags.py",
        "def b(x):\n    return Markup(x)\n",
        "def b(x):\n    return mark_safe(x)\n",
        False,
    ),
    (
        "app/templatetags/tags.py",
        "def br():\n    return ''\n",
        "def br():\n    return mark_safe('<br>')\n",
        False,
    ),
    (  # a value escaped throughout, marked safe (flask-wtf's `csrf_meta_tag`, holdout68)
        "src/flask_wtf/csrf.py",
        "def meta(name, token):\n    return ''\n",
        (
            "def meta(name, token):\n    return Markup(f'<meta name=\"{escape(name)}\" "
            "content=\"{escape(token)}\">')\n"
        ),
        False,
    ),
    (  # ... but a value left unescaped beside an escaped one still counts
        "src/flask_wtf/csrf.py",
        "def meta(name, token):\n    return ''\n",
        (
            "def meta(name, token):\n    return Markup(f'<meta name=\"{name}\" "
            "content=\"{escape(token)}\">')\n"
        ),
        True,
    ),
    (  # ... and so does an escape taken from a value marked safe
        "app/templatetags/tags.py",
        "def b(x):\n    return Markup(escape(x))\n",
        "def b(x):\n    return Markup(x)\n",
        True,
    ),
    (
        "src/ui/list.js",
        "function f(el, items) {\n  el.innerHTML = render(items);\n}\n",
        "function f(el, items) {\n  el.innerHTML = renderList(items, { compact: true });\n}\n",
        False,
    ),
    (
        "templates/page.html",
        "<h1>{{ title }}</h1>\n<div>{{ body|safe }}</div>\n",
        "<h1 class=\"t\">{{ title }}</h1>\n<div>{{ body|safe }}</div>\n",
        False,
    ),
)
