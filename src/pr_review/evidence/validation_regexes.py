"""Regular expressions that decide whether input is refused, added, removed or rewritten by a PR.

An ``if`` whose condition applies a regular expression to a value and whose consequence refuses
(raise, throw, panic, an error returned or called, a 4xx) is input validation in its plainest
form: ``if not DIGITS.fullmatch(s): raise ValueError``, ``if (!TOKEN_RE.test(name)) throw
new TypeError(...)``, ``if !validName.MatchString(v) { return errInvalid }``. The pattern *is*
the rule for what is accepted, so adding such a check, removing one or changing its pattern
changes which requests, headers, names or paths get through: strict Content-Length and chunk
size parsing, control characters in header values, characters allowed in an attribute name,
bracketed hostnames are fixed (and reopened) this way, in every language. Factor
``validation-regex-changed`` (red): in the PR's code files, a pattern is newly applied in such a
check or no longer applied in any, or a function the PR keeps gains or loses such a check
(send's ``..`` check applied on the root path too). A check moved between files or functions
of the PR, a pattern moved into a module constant, a function the PR adds or removes that
applies a pattern kept elsewhere (a new API reusing an existing validation), or a check that
goes with the file the PR deletes (a package removed whole) is no change.

The regex is read where the check applies it: written in the condition (``re.match(r"...",
v)``, ``/^[a-z]+$/.test(v)``, ``new RegExp("...")``, ``regexp.MatchString("...", v)``) or a
name the module binds once to a constant pattern (Python ``NAME_RE = re.compile(...)``,
JavaScript ``const NAME_RE = /.../``, Go ``var nameRE = regexp.MustCompile(...)``). Python is
read with :mod:`ast` (patterns folded by ``backtracking.python_regexes``), JavaScript,
TypeScript and Go on tree-sitter (``grammars.refusing_regexes``).

Examples (run by the test suite, ``VALIDATION_REGEX_EXAMPLES``): (path, base, head, changed?).
"""

from __future__ import annotations

import ast
import posixpath
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pr_review.evidence.backtracking import AppliedRegexes
from pr_review.evidence.grammars import module_regexes, refusing_regexes
from pr_review.evidence.lexing import shorten
from pr_review.evidence.limits import python_refusing_ifs, refusing_call
from pr_review.evidence.pyast import parse_python
from pr_review.evidence.scopes import PYTHON_EXTENSIONS, chains, enclosing, scope_tree
from pr_review.evidence.sides import code_sides
from pr_review.schema.enums import FactorSeverity
from pr_review.schema.pack import RiskFactor
from pr_review.sources.diff import FileDiff, FileStatus
from pr_review.sources.model import RepoTree

FACTOR = "validation-regex-changed"


@dataclass(frozen=True)
class ValidationRegex:
    """A pattern applied in the condition of a refusing ``if``."""

    line: int
    code: str
    pattern: str


def _python_checks(source: str) -> list[ValidationRegex] | None:
    tree = parse_python(source)
    if tree is None:
        return None
    regexes = AppliedRegexes.of(tree)
    out: list[ValidationRegex] = []
    for node in python_refusing_ifs(tree):
        code = ast.unparse(node.test)
        out.extend(
            ValidationRegex(node.lineno, code, pattern)
            for pattern in map(regexes.pattern, ast.walk(node.test))
            if pattern is not None
        )
    return sorted(out, key=lambda c: c.line)


def checks(
    path: str, source: str | None, package: Mapping[str, str] | None = None
) -> list[ValidationRegex] | None:
    """The regexes applied in refusing checks of ``source`` (with ``package``: the regexes the
    other files of a Go package bind); None when it is not read on a tree (no grammar, or it
    does not parse)."""
    if source is None:
        return None
    if path.endswith(PYTHON_EXTENSIONS):
        return _python_checks(source)
    found = refusing_regexes(path, source, refusing_call, package)
    if found is None:
        return None
    return [ValidationRegex(r.line, r.code, r.pattern) for r in found]


class GoPackages:
    """The regexes each Go package (a folder) of one side binds at its top level, read once per
    folder: a check in one file reads a pattern another file of its package compiled (helm's
    chart alias check in ``metadata.go`` applies ``aliasNameFormat`` of ``chart.go``:
    GHSA-9vp5-m38w-j776). Other languages' modules import what they read: nothing is shared."""

    def __init__(self, tree: RepoTree) -> None:
        self._tree = tree
        self._folders: dict[str, list[str]] | None = None
        self._bound: dict[str, dict[str, str]] = {}

    def regexes(self, path: str) -> dict[str, str]:
        """The patterns the non-test Go files of ``path``'s folder bind (``path``'s own
        bindings hide these where it reads them)."""
        if not path.endswith(".go"):
            return {}
        folder = posixpath.dirname(path)
        if folder not in self._bound:
            if self._folders is None:
                self._folders = {}
                for other in sorted(self._tree.paths()):
                    if other.endswith(".go") and not other.endswith("_test.go"):
                        self._folders.setdefault(posixpath.dirname(other), []).append(other)
            bound: dict[str, str] = {}
            for other in self._folders.get(folder, []):
                source = self._tree.read(other)
                if source is not None and "regexp." in source:
                    bound.update(module_regexes(other, source) or {})
            self._bound[folder] = bound
        return self._bound[folder]


@dataclass(frozen=True)
class _Side:
    """The refusing regex checks of one side of the PR's code files, by enclosing function."""

    checks: Counter[tuple[str, str]]
    """(innermost enclosing function or class, or "" at module level; pattern) -> count."""
    first: dict[tuple[str, str], tuple[str, ValidationRegex]]
    """Where each (scope, pattern) is first seen: file and check."""
    scopes: set[str]
    """Every function and class the side's files define."""

    @property
    def patterns(self) -> set[str]:
        return {pattern for _, pattern in self.checks}


def _side(readings: Sequence[tuple[str, str | None, list[ValidationRegex]]]) -> _Side:
    side = _Side(Counter(), {}, set())
    for path, source, found in readings:
        top = scope_tree(path, source) or []
        for check in found:
            chain = enclosing(top, check.line)
            key = (chain[-1] if chain else "", check.pattern)
            side.checks[key] += 1
            side.first.setdefault(key, (path, check))
        side.scopes.update(chain[-1] for chain in chains(top))
    return side


def _changed(this: _Side, other: _Side) -> list[tuple[str, ValidationRegex]]:
    """Checks ``this`` side holds more of than ``other``, where that is a change of rule: a
    pattern ``other`` applies nowhere, or one more check inside a function ``other`` also
    defines (a function only the PR adds or removes that applies a pattern kept elsewhere,
    a new API reusing an existing validation, is no change)."""
    extra = this.checks - other.checks
    return [
        this.first[key]
        for key in sorted(extra)
        if key[1] not in other.patterns or (key[0] and key[0] in other.scopes)
    ]


def validation_regex_factors(
    files: Sequence[FileDiff], base: RepoTree, head: RepoTree
) -> list[RiskFactor]:
    """One red factor when a refusing regex check's pattern is newly applied or no longer
    applied in the PR's code files, or a check is added to or removed from a function that
    stays (:func:`_changed`)."""
    old_packages, new_packages = GoPackages(base), GoPackages(head)
    read = [
        s for s in code_sides(
            files, base, head,
            lambda path, source: checks(path, source, old_packages.regexes(path)),
            lambda path, source: checks(path, source, new_packages.regexes(path)),
        )
        if s.old or s.new
    ]
    if not read:
        return []
    old_side = _side([(s.old_path, s.old_source, s.old) for s in read])
    new_side = _side([(s.path, s.new_source, s.new) for s in read])
    gained, lost = _changed(new_side, old_side), _changed(old_side, new_side)
    deleted = {f.old_path or f.path for f in files if f.status is FileStatus.DELETED}
    lost = [(path, check) for path, check in lost if path not in deleted]
    if not gained and not lost:
        return []
    path = (gained or lost)[0][0]
    return [
        RiskFactor(
            factor=FACTOR,
            files=(path,),
            severity=FactorSeverity.RED,
            why=f"{_what([c for _, c in gained], [c for _, c in lost])}: the pattern of a check "
            "that refuses input is the rule for what gets through (strict number and size "
            "parsing, control characters in headers, allowed name characters, host forms)",
        )
    ]


def _what(gained: list[ValidationRegex], lost: list[ValidationRegex]) -> str:
    """``a regex check refusing input rewritten (line 12: `if ...`: `old` -> `new`)``."""
    if gained and lost:
        new, old = gained[0], lost[0]
        return (
            f"a regex check refusing input rewritten (line {new.line}: `if {_short(new.code)}`: "
            f"`{_short(old.pattern)}` -> `{_short(new.pattern)}`)"
        )
    if gained:
        new = gained[0]
        return (
            f"a regex check refusing input added (line {new.line}: `if {_short(new.code)}`, "
            f"pattern `{_short(new.pattern)}`)"
        )
    old = lost[0]
    return (
        f"a regex check refusing input removed (line {old.line} of the base file: "
        f"`if {_short(old.code)}`, pattern `{_short(old.pattern)}`)"
    )


def _short(text: str) -> str:
    return shorten(" ".join(text.split()), 70)


VALIDATION_REGEX_EXAMPLES: tuple[tuple[str, str, str, bool], ...] = (
    (  # strict integer parsing added behind a module constant (tornado's Content-Length fix)
        "http1connection.py",
        "def parse_int(s):\n    return int(s)\n",
        (
            "import re\nDIGITS = re.compile(r'[0-9]+')\n"
            "def parse_int(s):\n    if DIGITS.fullmatch(s) is None:\n"
            "        raise ValueError('not an integer: %r' % s)\n    return int(s)\n"
        ),
        True,
    ),
    (  # the characters refused in a header value widened (gunicorn's RFC 9110 5.5 fix)
        "message.py",
        (
            "import re\nINVALID = re.compile(r'[\\0\\r\\n]')\n"
            "def check(value):\n    if INVALID.search(value):\n        raise InvalidHeader(value)\n"
        ),
        (
            "import re\nINVALID = re.compile(r'[\\x00-\\x08\\x0a-\\x1f\\x7f]')\n"
            "def check(value):\n    if INVALID.search(value):\n        raise InvalidHeader(value)\n"
        ),
        True,
    ),
    (  # a JavaScript check removed
        "lib/index.js",
        (
            "function setName(name) {\n  if (!/^[\\w-]+$/.test(name)) {\n"
            "    throw new TypeError('invalid name')\n  }\n  this.name = name\n}\n"
        ),
        "function setName(name) {\n  this.name = name\n}\n",
        True,
    ),
    (  # a JavaScript module constant's flags changed: a different rule
        "lib/host.ts",
        (
            "const HOST = /^[a-z0-9.-]+$/\nexport function check(h: string) {\n"
            "  if (!HOST.test(h)) throw new Error('bad host')\n}\n"
        ),
        (
            "const HOST = /^[a-z0-9.-]+$/i\nexport function check(h: string) {\n"
            "  if (!HOST.test(h)) throw new Error('bad host')\n}\n"
        ),
        True,
    ),
    (  # Go: a package-level regexp applied in a check that returns an error, added
        "cookie.go",
        "package p\nfunc valid(v string) error {\n\treturn nil\n}\n",
        (
            "package p\nvar tokenRE = regexp.MustCompile(`^[!#-+.-9A-Z^-z|~]+$`)\n"
            "func valid(v string) error {\n\tif !tokenRE.MatchString(v) {\n"
            "\t\treturn errInvalidToken\n\t}\n\treturn nil\n}\n"
        ),
        True,
    ),
    (  # an existing check applied on one more path of a function (send's root-path `..` fix)
        "index.js",
        (
            "var UP = /(?:^|[\\/])\\.\\.(?:[\\/]|$)/\nfunction pipe(path, root) {\n"
            "  if (root) {\n    path = join(root, path)\n  } else if (UP.test(path)) {\n"
            "    return this.error(403)\n  }\n}\n"
        ),
        (
            "var UP = /(?:^|[\\/])\\.\\.(?:[\\/]|$)/\nfunction pipe(path, root) {\n"
            "  if (root) {\n    if (UP.test(path)) {\n      return this.error(403)\n    }\n"
            "    path = join(root, path)\n  } else if (UP.test(path)) {\n"
            "    return this.error(403)\n  }\n}\n"
        ),
        True,
    ),
    (  # a new function reusing an existing validation: a new API, the rule unchanged
        "src/index.ts",
        (
            "const NAME = /^[!#-+.-9A-Z^-z|~]+$/\nexport function serialize(name: string) {\n"
            "  if (!NAME.test(name)) throw new TypeError('bad name')\n  return name\n}\n"
        ),
        (
            "const NAME = /^[!#-+.-9A-Z^-z|~]+$/\nexport function serialize(name: string) {\n"
            "  if (!NAME.test(name)) throw new TypeError('bad name')\n  return name\n}\n"
            "export function stringify(names: string[]) {\n  for (const name of names) {\n"
            "    if (!NAME.test(name)) throw new TypeError('bad name')\n  }\n"
            "  return names.join('; ')\n}\n"
        ),
        False,
    ),
    (  # the same check moved into a constant: the rule is unchanged
        "validate.py",
        (
            "import re\ndef check(v):\n    if not re.fullmatch(r'[a-z]+', v):\n"
            "        raise ValueError(v)\n"
        ),
        (
            "import re\nNAME = re.compile(r'[a-z]+')\ndef check(v):\n"
            "    if not NAME.fullmatch(v):\n        raise ValueError(v)\n"
        ),
        False,
    ),
    (  # a regex that only selects what to do, refusing nothing
        "lib/format.js",
        "function f(s) {\n  if (/^\\s/.test(s)) { return s.trim() }\n  return s\n}\n",
        "function f(s) {\n  if (/^\\s+/.test(s)) { return s.trim() }\n  return s\n}\n",
        False,
    ),
    (  # the refusing check's message reworded, the pattern kept
        "router.go",
        (
            "package p\nvar nameRE = regexp.MustCompile(`^[a-z]+$`)\nfunc f(v string) error {\n"
            "\tif !nameRE.MatchString(v) {\n\t\treturn fmt.Errorf(\"bad name %q\", v)\n\t}\n"
            "\treturn nil\n}\n"
        ),
        (
            "package p\nvar nameRE = regexp.MustCompile(`^[a-z]+$`)\nfunc f(v string) error {\n"
            "\tif !nameRE.MatchString(v) {\n\t\treturn fmt.Errorf(\"invalid name: %q\", v)\n"
            "\t}\n\treturn nil\n}\n"
        ),
        False,
    ),
    (  # a lexer's token regex made lazy: its match consumes a token; the refusal below it
        # belongs to another check (pug's `each ... of` lexer)
        "lib/lexer.js",
        (
            "function eachOf(input) {\n  let m\n  if ((m = /^each (.*) of (.+)/.exec(input))) {\n"
            "    consume(m[0])\n    if (!/^[a-z]+$/.test(m[1])) { error('MALFORMED') }\n"
            "    return true\n  }\n}\n"
        ),
        (
            "function eachOf(input) {\n  let m\n  if ((m = /^each (.*?) of (.+)/.exec(input))) {\n"
            "    consume(m[0])\n    if (!/^[a-z]+$/.test(m[1])) { error('MALFORMED') }\n"
            "    return true\n  }\n}\n"
        ),
        False,
    ),
    (  # the same in Python: a match that consumes, a nested check that refuses
        "lexer.py",
        (
            "def each_of(s):\n    if m := EACH.match(s):\n        consume(m)\n"
            "        if not m.group(1).isidentifier():\n            raise SyntaxError(s)\n"
            "        return True\n"
        ),
        (
            "def each_of(s):\n    if m := re.match(r'each (.*?) of (.+)', s):\n        consume(m)\n"
            "        if not m.group(1).isidentifier():\n            raise SyntaxError(s)\n"
            "        return True\n"
        ),
        False,
    ),
)
"""(path, base source, head source, is a validation regex changed?)."""
