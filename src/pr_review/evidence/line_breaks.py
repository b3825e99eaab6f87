"""Checks that refuse a value holding a line break (CR or LF), added or removed by a PR.

An ``if`` whose condition looks for a carriage return or a line feed in a value (``'\\n' in
value``, ``strings.ContainsAny(v, "\\r\\n")``, ``/[\\r\\n]/.test(v)``; in Python also a regex
naming CR or LF in a class, inline or a module's compiled constant: ``HEADER_VALUE_RE =
re.compile(b"[\\x00-\\x1F\\x7F]")`` applied as ``HEADER_VALUE_RE.search(value)``)
and whose consequence refuses (raise, throw, panic, an error returned or called, a 4xx) is how
a header value, a redirect location or a request line is kept from carrying a second line:
header injection, response splitting and request smuggling are fixed by adding one and
reopened by removing one, in every language. A literal a single character is compared with
(``ch in '\\r\\n'``, ``c === '\\n'``) is a scanner reading a text format one character at a
time, not a value searched for a second line, and does not count. Factor
``line-break-check-changed`` (red): the PR's code files hold more or fewer such checks than
before (a check moved between functions or files of the PR is no change). Python is read
with :mod:`ast`, the other languages on tree-sitter.

A replacement that takes a carriage return out of a value counts with them (``kind``
``strip``): ``value.replace(/[\\r\\n]+/g, '')``, ``value.replace('\\r', '')``,
``re.sub(r'[\\x00-\\x1f]', '', v)``, ``strings.NewReplacer("\\r", "", "\\n", "")``: what
is searched for holds CR among control characters only (no letter, digit or space, no anchor:
:func:`pr_review.evidence.regex_trees.strips_line_breaks`), replaced by nothing or a space, in
every occurrence (JavaScript's ``g`` flag or ``replaceAll``). Line feeds joined alone (a PEM
body, a formula), line endings normalised (``\\r\\n`` -> ``\\n``), a newline trimmed at one
end and whitespace collapsed are text handling, not a defence.

Examples (run by the test suite, ``LINE_BREAK_EXAMPLES``): (path, base, head, changed?).
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import dataclass

from pr_review.evidence.backtracking import AppliedRegexes, constant_text
from pr_review.evidence.grammars import (
    CallArguments,
    call_arguments,
    language_of,
    refusing_conditions,
)
from pr_review.evidence.lexing import shorten
from pr_review.evidence.limits import python_refusing_ifs, refusing_call
from pr_review.evidence.pyast import parse_python
from pr_review.evidence.regex_trees import names_line_break, strips_line_breaks
from pr_review.evidence.replacements import (
    REMOVED_FOR,
    STRIP_CALLEES,
    Replacement,
    python_replacement,
    tree_replacement,
)
from pr_review.evidence.scopes import PYTHON_EXTENSIONS
from pr_review.evidence.sides import code_sides
from pr_review.schema.enums import FactorSeverity
from pr_review.schema.pack import RiskFactor
from pr_review.sources.diff import FileDiff
from pr_review.sources.model import RepoTree

FACTOR = "line-break-check-changed"


@dataclass(frozen=True)
class LineBreakCheck:
    """A refusing ``if`` whose condition looks for CR or LF, or a replacement that takes CR
    out of a value (``kind`` ``strip``)."""

    line: int
    code: str
    kind: str = "check"


def strips_literal(value: str) -> bool:
    """A literal searched for: control characters only, a carriage return among them
    (``"\\r"``, ``"\\r\\n"``); LF alone joins lines (a PEM block, a formula)."""
    return "\r" in value and all(ord(ch) < 0x20 or ch == "\x7f" for ch in value)


def _has_line_break(text: str) -> bool:
    """A literal's source text that spells CR or LF (an escape, or the character itself)."""
    return any(mark in text for mark in ("\\r", "\\n", "\r", "\n", "\\x0d", "\\x0a", "\\u000a"))


def _tested_characters(test: ast.expr) -> set[int]:
    """Ids of the literals a comparison tests one character against: either side of ``==``/
    ``!=`` and the right side of ``in``/``not in`` (``ch in '\\r\\n'``, ``self.peek() not in
    '\\0 \\r\\n'``). A scanner reading a text format one character at a time writes those;
    a value searched for a line break puts the literal on the left (``'\\n' in value``)."""
    out: set[int] = set()
    for node in ast.walk(test):
        if not isinstance(node, ast.Compare):
            continue
        operands = [node.left, *node.comparators]
        for index, op in enumerate(node.ops):
            left, right = operands[index], operands[index + 1]
            if isinstance(op, (ast.Eq, ast.NotEq)):
                out.update((id(left), id(right)))
            elif isinstance(op, (ast.In, ast.NotIn)):
                out.add(id(right))
    return out


def _looks_for_line_break(test: ast.expr, regexes: AppliedRegexes) -> bool:
    """The condition holds a literal with CR or LF, or applies a regex that looks for one:
    inline (``re.search(r"[\\x00-\\x1f]", v)``) or a module's compiled constant
    (``HEADER_VALUE_RE.search(value)``)."""
    tested = _tested_characters(test)
    for node in ast.walk(test):
        text = constant_text(node.value) if isinstance(node, ast.Constant) else None
        if text is not None and id(node) not in tested and ("\r" in text or "\n" in text):
            return True
        pattern = regexes.pattern(node)
        if pattern is not None and names_line_break(pattern):
            return True
    return False


def _python_checks(source: str) -> list[LineBreakCheck] | None:
    tree = parse_python(source)
    if tree is None:
        return None
    regexes = AppliedRegexes.of(tree)
    found = [
        LineBreakCheck(node.lineno, ast.unparse(node.test))
        for node in python_refusing_ifs(tree)
        if _looks_for_line_break(node.test, regexes)
    ]
    found.extend(
        LineBreakCheck(node.lineno, ast.unparse(node), "strip")
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and _python_strips(node, regexes)
    )
    return sorted(found, key=lambda c: c.line)


def _python_strips(call: ast.Call, regexes: AppliedRegexes) -> bool:
    """``value.replace("\\r", "")`` or ``re.sub(r"[\\r\\n]", "", value)`` (a compiled module
    constant's ``sub`` too): a carriage return taken out of a value."""
    found = python_replacement(call, regexes)
    return found is not None and found.strips and _takes_line_breaks(found)


def _strips(found: CallArguments, go: bool) -> bool:
    """A JavaScript/TypeScript or Go call that takes a carriage return out of a value, in
    every occurrence (JavaScript's ``g`` flag or ``replaceAll``)."""
    args, name = found.arguments, found.callee.rsplit(".", 1)[-1]
    if go and name == "NewReplacer":
        return any(
            old.kind == "string" and strips_literal(old.value)
            and new.kind == "string" and new.value in REMOVED_FOR
            for old, new in zip(args[::2], args[1::2], strict=False)
        )  # fmt: skip
    replaced = tree_replacement(found, go)
    return (
        replaced is not None and replaced.strips and replaced.every
        and _takes_line_breaks(replaced)
    )  # fmt: skip


def _takes_line_breaks(found: Replacement) -> bool:
    if found.literal is not None:
        return strips_literal(found.literal)
    return found.pattern is not None and bool(strips_line_breaks(found.pattern))


def checks(path: str, source: str | None) -> list[LineBreakCheck] | None:
    """The refusing line-break checks of ``source``; None when it is not read on a tree."""
    if source is None:
        return None
    if path.endswith(PYTHON_EXTENSIONS):
        return _python_checks(source)
    found = refusing_conditions(path, source, refusing_call)
    if found is None:
        return None
    out = [
        LineBreakCheck(c.line, c.code) for c in found if any(map(_has_line_break, c.literals))
    ]
    go = language_of(path) == "go"
    calls = call_arguments(path, source, STRIP_CALLEES) or []
    out.extend(LineBreakCheck(c.line, c.code, "strip") for c in calls if _strips(c, go))
    return sorted(out, key=lambda c: c.line)


def line_break_factors(
    files: Sequence[FileDiff], base: RepoTree, head: RepoTree
) -> list[RiskFactor]:
    """One red factor when the PR's code files hold a different number of refusing
    line-break checks after the PR than before, at the first file whose count moved."""
    per_file = [(s.path, s.old, s.new) for s in code_sides(files, base, head, checks)]
    before = sum(len(old) for _, old, _ in per_file)
    after = sum(len(new) for _, _, new in per_file)
    if before == after:
        return []
    for path, old, new in per_file:
        if len(old) == len(new):
            continue
        added = len(new) > len(old)
        first = (new if added else old)[0]
        where = f"line {first.line}" if added else f"line {first.line} of the base file"
        verb = "added" if added else "removed"
        if first.kind == "strip":
            what = "a replacement taking line breaks out of a value"
            code = shorten(first.code, 80)
        else:
            what = "a check refusing a value that holds a line break"
            code = f"if {shorten(first.code, 80)}"
        return [
            RiskFactor(
                factor=FACTOR,
                files=(path,),
                severity=FactorSeverity.RED,
                why=f"{what} {verb} ({where}: `{code}`; {after - before:+d} in the PR's files): "
                "CR/LF checks and stripping keep a header, an address, a redirect location or "
                "a request line from carrying a second line (header injection, response "
                "splitting, request smuggling, SMTP command injection)",
            )
        ]
    return []


LINE_BREAK_EXAMPLES: tuple[tuple[str, str, str, bool], ...] = (
    (
        "response.py",
        "def set_header(self, value):\n    self.headers.append(value)\n",
        (
            "def set_header(self, value):\n    if '\\n' in value or '\\r' in value:\n"
            "        raise ValueError('control characters')\n    self.headers.append(value)\n"
        ),
        True,
    ),
    (
        "header.go",
        (
            "package p\nfunc check(v string) error {\n\tif strings.ContainsAny(v, \"\\r\\n\") {\n"
            "\t\treturn ErrInvalidHeader\n\t}\n\treturn nil\n}\n"
        ),
        "package p\nfunc check(v string) error {\n\treturn nil\n}\n",
        True,
    ),
    (
        "headers.js",
        "function set(v) { this.v = v }\n",
        (
            "function set(v) {\n  if (/[\\r\\n]/.test(v)) throw new TypeError('bad header')\n"
            "  this.v = v\n}\n"
        ),
        True,
    ),
    (  # the regex a module compiled once, applied in the check
        "httptools_impl.py",
        (
            "import re\nHEADER_VALUE_RE = re.compile(b'[\\x00-\\x1F\\x7F]')\n"
            "def send(headers):\n    for name, value in headers:\n        write(name, value)\n"
        ),
        (
            "import re\nHEADER_VALUE_RE = re.compile(b'[\\x00-\\x1F\\x7F]')\n"
            "def send(headers):\n    for name, value in headers:\n"
            "        if HEADER_VALUE_RE.search(value):\n"
            "            raise RuntimeError('Invalid HTTP header value.')\n"
            "        write(name, value)\n"
        ),
        True,
    ),
    (  # a compiled regex that refuses other characters (no line break named)
        "names.py",
        "import re\nBAD = re.compile(r'[^a-z]')\ndef check(v):\n    return v\n",
        (
            "import re\nBAD = re.compile(r'[^a-z]')\ndef check(v):\n"
            "    if BAD.search(v):\n        raise ValueError(v)\n    return v\n"
        ),
        False,
    ),
    # a scanner testing one character against a set or a line break: parsing, not a value
    # searched for a second line (pyyaml's plain-scalar ':' refusal removed)
    (
        "scanner.py",
        (
            "def scan_plain(self):\n    ch = self.peek()\n"
            "    if ch == ':' and self.peek(1) not in '\\0 \\t\\r\\n,[]{}':\n"
            "        raise ScannerError('found unexpected :')\n"
        ),
        "def scan_plain(self):\n    ch = self.peek()\n",
        False,
    ),
    (
        "lexer.js",
        "function next(c) {\n  return c\n}\n",
        "function next(c) {\n  if (c === '\\n') throw new SyntaxError('newline')\n  return c\n}\n",
        False,
    ),
    # a line-splitting parser that does not refuse; a refusing check only moved or reworded
    (
        "parser.py",
        "def feed(self, line):\n    self.lines.append(line)\n",
        (
            "def feed(self, line):\n    if line.endswith('\\r\\n'):\n        line = line[:-2]\n"
            "    self.lines.append(line)\n"
        ),
        False,
    ),
    (
        "headers.py",
        (
            "def a(v):\n    if '\\n' in v:\n        raise ValueError(v)\n"
            "def b(v):\n    return v\n"
        ),
        (
            "def a(v):\n    return v\n"
            "def b(v):\n    if '\\r' in v or '\\n' in v:\n        raise HeaderError(v)\n"
            "    return v\n"
        ),
        False,
    ),
)
"""A base and a head source of one file, and whether the change is red."""

STRIP_EXAMPLES: tuple[tuple[str, str, str, bool], ...] = (
    # a replacement taking CR out of a value: nodemailer GHSA-vvjj-xcjg-gr5g (SMTP command
    # injection through the client name), webob's header values, Go's strings.NewReplacer
    (
        "smtp-connection.js",
        "this.name = this.options.name || this._getHostname();\n",
        (
            "this.name = (this.options.name || this._getHostname()).toString()"
            ".replace(/[\\r\\n]+/g, '');\n"
        ),
        True,
    ),
    (
        "response.py",
        "def header(value):\n    return value\n",
        "def header(value):\n    return value.replace('\\r', '').replace('\\n', '')\n",
        True,
    ),
    (
        "clean.py",
        "import re\ndef clean(v):\n    return v\n",
        "import re\ndef clean(v):\n    return re.sub(r'[\\x00-\\x1f]', '', v)\n",
        True,
    ),
    (
        "compiled.py",
        "import re\nCTL = re.compile(r'[\\r\\n]')\ndef clean(v):\n    return v\n",
        "import re\nCTL = re.compile(r'[\\r\\n]')\ndef clean(v):\n    return CTL.sub(' ', v)\n",
        True,
    ),
    (
        "header.go",
        "package p\nfunc clean(v string) string {\n\treturn v\n}\n",
        (
            "package p\nvar r = strings.NewReplacer(\"\\r\", \"\", \"\\n\", \"\")\n"
            "func clean(v string) string {\n\treturn r.Replace(v)\n}\n"
        ),
        True,
    ),
    (
        "addr.go",
        "package p\nfunc clean(v string) string {\n\treturn v\n}\n",
        (
            "package p\nfunc clean(v string) string {\n"
            "\treturn strings.ReplaceAll(v, \"\\r\\n\", \"\")\n}\n"
        ),
        True,
    ),
    # line feeds alone joined (python-markdown2's LaTeX block, PEM bodies), line endings
    # normalised, a template's newline trimmed at one end, whitespace collapsed, one CR only
    (
        "markdown2.py",
        "def f(m):\n    return convert(m.group(1).replace(r'\\n', ''))\n",
        "def f(m):\n    return convert(m.group(1).replace('\\n', ''))\n",
        False,
    ),
    ("text.js", "function f(s) { return s }\n",
     "function f(s) { return s.replace(/\\r\\n/g, '\\n') }\n", False),
    ("lexer.js", "function f(s) { return s }\n",
     "function f(s) { return s.replace(/^\\r?\\n/, '') }\n", False),
    ("space.js", "function f(s) { return s }\n",
     "function f(s) { return s.replace(/\\s+/g, ' ') }\n", False),
    ("once.js", "function f(s) { return s }\n",
     "function f(s) { return s.replace(/\\r/, '') }\n", False),
    # a name kept to printable ASCII: every letter outside ASCII goes too (adm-zip, holdout62)
    ("names.js", "function f(s) { return s }\n",
     "function f(s) { return s.normalize('NFD').replace(/[^\\x20-\\x7E]/g, '') }\n", False),
    ("br.js", "function f(s) { return s }\n",
     "function f(s) { return s.replace(/\\r?\\n/g, '<br>') }\n", False),
)  # fmt: skip
"""Replacements taking line breaks out of a value (red when added or removed) and text
handling that is not one: a base and a head source of one file, and whether the change is red."""
