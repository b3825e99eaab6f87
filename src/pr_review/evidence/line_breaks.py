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

Examples (run by the test suite, ``LINE_BREAK_EXAMPLES``): (path, base, head, changed?).
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import dataclass

from pr_review.evidence.backtracking import AppliedRegexes, constant_text
from pr_review.evidence.grammars import refusing_conditions
from pr_review.evidence.lexing import shorten
from pr_review.evidence.limits import python_refusing_ifs, refusing_call
from pr_review.evidence.pyast import parse_python
from pr_review.evidence.regex_trees import names_line_break
from pr_review.evidence.scopes import PYTHON_EXTENSIONS
from pr_review.evidence.sides import code_sides
from pr_review.schema.enums import FactorSeverity
from pr_review.schema.pack import RiskFactor
from pr_review.sources.diff import FileDiff
from pr_review.sources.model import RepoTree

FACTOR = "line-break-check-changed"


@dataclass(frozen=True)
class LineBreakCheck:
    """A refusing ``if`` whose condition looks for CR or LF."""

    line: int
    code: str


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
    return [
        LineBreakCheck(node.lineno, ast.unparse(node.test))
        for node in python_refusing_ifs(tree)
        if _looks_for_line_break(node.test, regexes)
    ]


def checks(path: str, source: str | None) -> list[LineBreakCheck] | None:
    """The refusing line-break checks of ``source``; None when it is not read on a tree."""
    if source is None:
        return None
    if path.endswith(PYTHON_EXTENSIONS):
        return _python_checks(source)
    found = refusing_conditions(path, source, refusing_call)
    if found is None:
        return None
    return [
        LineBreakCheck(c.line, c.code) for c in found if any(map(_has_line_break, c.literals))
    ]


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
        return [
            RiskFactor(
                factor=FACTOR,
                files=(path,),
                severity=FactorSeverity.RED,
                why=f"a check refusing a value that holds a line break {verb} ({where}: `if "
                f"{shorten(first.code, 80)}`; {after - before:+d} in the PR's files): CR/LF checks "
                "keep a header, redirect location or request line from carrying a second line "
                "(header injection, response splitting, request smuggling)",
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
