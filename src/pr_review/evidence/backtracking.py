"""Regular expressions that backtrack super-linearly, removed or added by a PR (ReDoS).

A regular expression that can match the same text in more than one way takes quadratic or
exponential time on a failing input (:mod:`pr_review.evidence.regex_trees` finds the two
shapes on the pattern's syntax tree). Such a regex applied to request input is a denial of
service, and the fix rewrites it: bounds a repeat, makes two repeats disjoint, or replaces the
regex with a parser. So a PR after which a shape the base's regexes had is found in none of the
head's is how ReDoS fixes land in every language with a backtracking engine (Python,
JavaScript, TypeScript): factor ``regex-backtracking-removed``, red, naming the pattern, its
line and the shape. A shape that only appears (a new or edited regex that can backtrack) is
``regex-backtracking-added``, yellow: worth a reviewer's look, not a block. Go's ``regexp`` is
RE2 (linear time by construction) and is not read.

Patterns are read where the source writes them as constants: Python's ``re.compile``,
``re.match``/``search``/``sub``/... first argument (a string, an implicit or ``+``
concatenation, ``%`` or f-string formatting of constants, module-level string constants
and a function's own names assigned once to a constant,
``re.escape`` and ``"|".join`` of constants, the standard library's ``string`` constants
(``string.punctuation``, ``string.digits``...: :data:`STDLIB_STRINGS`, the same in every
Python), and conversions to bytes that keep the text:
``.encode()``, ``bytes(...)``, a helper named ``tobytes``/``to_bytes``), JavaScript's
``/.../`` literals and ``RegExp("...")`` of a constant string. A pattern built from run-time
values is not analysed.

Examples (run by the test suite, ``BACKTRACKING_EXAMPLES``): (path, base, head, factor or None).
"""

from __future__ import annotations

import ast
import copy
import re
import string
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from pr_review.evidence.grammars import regex_literals
from pr_review.evidence.lexing import shorten
from pr_review.evidence.pyast import parse_python
from pr_review.evidence.regex_trees import Ambiguity, ambiguities, from_javascript
from pr_review.evidence.scopes import PYTHON_EXTENSIONS
from pr_review.schema.enums import FactorSeverity
from pr_review.schema.pack import RiskFactor
from pr_review.sources.diff import FileDiff, FileStatus
from pr_review.sources.model import RepoTree
from pr_review.sources.paths import PathKind, classify

REMOVED = "regex-backtracking-removed"
ADDED = "regex-backtracking-added"
_RE_FUNCTIONS = frozenset(
    {"compile", "match", "fullmatch", "search", "sub", "subn", "split", "findall", "finditer"}
)
_RE_MODULES = frozenset({"re", "regex"})


@dataclass(frozen=True)
class Shape:
    """A super-linear shape of one regex of a file."""

    ambiguity: Ambiguity
    line: int
    pattern: str
    binding: str | None = None
    """The module-level name a Python module assigns the compiled regex to (``OPTION_RE``)."""


# --- Python: patterns folded from constants ---------------------------------------------------

STDLIB_STRINGS: dict[str, str] = {
    name: getattr(string, name)
    for name in ("ascii_letters", "ascii_lowercase", "ascii_uppercase", "digits", "hexdigits",
                 "octdigits", "punctuation", "printable", "whitespace")
}  # fmt: skip
"""The ``string`` module's constants: documented, fixed text in every Python 3, and how
patterns name character sets (mistune's ``"[" + re.escape(string.punctuation) + "]"``)."""


class _Folder:
    """Constant values of Python expressions: strings built from literals and module-level
    string constants (None when anything is not constant)."""

    def __init__(self, tree: ast.Module) -> None:
        self.names: dict[str, str] = {}
        self.sequences: dict[str, list[str]] = {}
        self._string_modules: set[str] = set()
        self._module_level = True  # ``locals()`` is the module's names only while folding them
        for stmt in tree.body:
            self._imports(stmt)
            target, value = _assignment(stmt)
            if target is None or value is None:
                continue
            self.names.pop(target, None)
            self.sequences.pop(target, None)
            self._string_modules.discard(target)
            folded = self.fold(value)
            if folded is not None:
                self.names[target] = folded
            elif (items := self._sequence(value)) is not None:
                self.sequences[target] = items
        self._module_level = False

    def within(self, function: ast.FunctionDef | ast.AsyncFunctionDef) -> _Folder:
        """This folder inside ``function``: a name the function binds exactly once, by a plain
        assignment of a constant (``pattern = r"(\\w+):(\\w+)"`` before
        ``re.finditer(pattern, q)``), is that constant; any other name it binds (a parameter, a
        second assignment, a loop target, ``global``) hides the module's constant of that name."""
        own = list(_own_nodes(function))
        stored: Counter[str] = Counter(
            n.id for n in own if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
        )
        arguments = function.args
        parameters = {
            a.arg for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs,
                            arguments.vararg, arguments.kwarg) if a is not None
        }
        declared = {
            name for n in own if isinstance(n, ast.Global | ast.Nonlocal) for name in n.names
        }
        hidden = set(stored) | parameters | declared
        inner = copy.copy(self)
        inner.names = {k: v for k, v in self.names.items() if k not in hidden}
        inner.sequences = {k: v for k, v in self.sequences.items() if k not in hidden}
        inner._string_modules = self._string_modules - hidden
        assignments = sorted(
            (n for n in own if isinstance(n, ast.Assign | ast.AnnAssign)), key=lambda n: n.lineno
        )
        for stmt in assignments:
            target, value = _assignment(stmt)
            if target is None or value is None or stored[target] != 1:
                continue
            if target in parameters or target in declared:
                continue
            folded = inner.fold(value)
            if folded is not None:
                inner.names[target] = folded
        return inner

    def _imports(self, stmt: ast.stmt) -> None:
        """``import string [as s]`` and ``from string import punctuation [as p]`` at module
        level: the names :data:`STDLIB_STRINGS` are then read under."""
        if isinstance(stmt, ast.Import):
            for alias in stmt.names:
                if alias.name == "string":
                    self._string_modules.add(alias.asname or alias.name)
        elif isinstance(stmt, ast.ImportFrom) and stmt.module == "string" and not stmt.level:
            for alias in stmt.names:
                if alias.name in STDLIB_STRINGS:
                    self.names[alias.asname or alias.name] = STDLIB_STRINGS[alias.name]

    def fold(self, node: ast.expr) -> str | None:
        """The string ``node`` always evaluates to, or None."""
        if isinstance(node, ast.Constant):
            return constant_text(node.value)
        if isinstance(node, ast.Name):
            return self.names.get(node.id)
        if isinstance(node, ast.Attribute):
            return self._stdlib(node)
        if isinstance(node, ast.JoinedStr):
            return self._joined(node)
        if isinstance(node, ast.BinOp):
            return self._binop(node)
        return self._call(node) if isinstance(node, ast.Call) else None

    def _stdlib(self, node: ast.Attribute) -> str | None:
        """``string.punctuation`` and the like, when ``string`` is the imported module."""
        module = node.value
        if isinstance(module, ast.Name) and module.id in self._string_modules:
            return STDLIB_STRINGS.get(node.attr)
        return None

    def _joined(self, node: ast.JoinedStr) -> str | None:
        parts: list[str] = []
        for value in node.values:
            if isinstance(value, ast.FormattedValue):
                if value.format_spec is not None or value.conversion != -1:
                    return None
                folded = self.fold(value.value)
            else:
                folded = self.fold(value)
            if folded is None:
                return None
            parts.append(folded)
        return "".join(parts)

    def _binop(self, node: ast.BinOp) -> str | None:
        left = self.fold(node.left)
        if left is None:
            return None
        if isinstance(node.op, ast.Add):
            right = self.fold(node.right)
            return None if right is None else left + right
        if not isinstance(node.op, ast.Mod):
            return None
        values: dict[str, str] | tuple[str, ...] | None = self._mapping(node.right)
        if values is None:  # "%s%s" % (A, B), "%s" % A
            items = node.right.elts if isinstance(node.right, ast.Tuple) else [node.right]
            folded = [self.fold(item) for item in items]
            values = None if None in folded else tuple(str(v) for v in folded)
        if values is None:
            return None
        try:  # r"\[ (?: %(IPv6address)s | %(IPvFuture)s ) \]" % locals()
            return left % values
        except (KeyError, TypeError, ValueError):
            return None

    def _mapping(self, node: ast.expr) -> dict[str, str] | None:
        """The names a ``%(name)s`` template is filled from: a dict literal of constants, or
        the module's string constants for ``globals()`` (and ``locals()``/``vars()`` at module
        level, where they are the same names)."""
        if isinstance(node, ast.Dict):
            keys = [k.value if isinstance(k, ast.Constant) else None for k in node.keys]
            values = [self.fold(v) for v in node.values]
            if any(not isinstance(k, str) for k in keys) or any(v is None for v in values):
                return None
            return {str(k): str(v) for k, v in zip(keys, values, strict=True)}
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)) or node.args:
            return None
        scoped = {"globals"} | ({"locals", "vars"} if self._module_level else set())
        return self.names if node.func.id in scoped else None

    def _call(self, node: ast.Call) -> str | None:
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "encode":
            return self.fold(func.value)  # "...".encode("latin-1"): the same pattern text
        callee = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if "bytes" in callee.lower() and len(node.args) >= 1:
            return self.fold(node.args[0])  # bytes(p, "ascii"), a helper's tobytes(p)
        if isinstance(func, ast.Attribute) and func.attr == "escape" and len(node.args) == 1:
            value = self.fold(node.args[0])
            return None if value is None else re.escape(value)
        if isinstance(func, ast.Attribute) and func.attr == "join" and len(node.args) == 1:
            separator = self.fold(func.value)
            items = self._sequence(node.args[0])
            if separator is None or items is None:
                return None
            return separator.join(items)
        return None

    def _sequence(self, node: ast.expr) -> list[str] | None:
        """A tuple/list of constants (or a module constant holding one), or
        ``map(re.escape, <that>)``."""
        if isinstance(node, ast.Name):
            return self.sequences.get(node.id)
        if isinstance(node, ast.Tuple | ast.List):
            values = [self.fold(item) for item in node.elts]
            return None if any(v is None for v in values) else [v for v in values if v]
        if (
            isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == "map" and len(node.args) == 2
            and isinstance(node.args[0], ast.Attribute) and node.args[0].attr == "escape"
        ):  # fmt: skip
            inner = self._sequence(node.args[1])
            return None if inner is None else [re.escape(v) for v in inner]
        return None


def _own_nodes(function: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[ast.AST]:
    """The nodes of ``function``'s body outside the functions, lambdas and classes it nests
    (they have scopes of their own)."""
    pending: list[ast.AST] = list(function.body)
    while pending:
        node = pending.pop()
        yield node
        pending.extend(
            child for child in ast.iter_child_nodes(node)
            if not isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
                              | ast.ClassDef)
        )


def constant_text(value: object) -> str | None:
    if isinstance(value, str):
        return value
    return value.decode("latin-1") if isinstance(value, bytes) else None


def _assignment(stmt: ast.stmt) -> tuple[str | None, ast.expr | None]:
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        target = stmt.targets[0]
        return (target.id if isinstance(target, ast.Name) else None), stmt.value
    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
        return stmt.target.id, stmt.value
    return None, None


def _verbose(call: ast.Call) -> bool:
    flags = [*call.args[1:], *(k.value for k in call.keywords if k.arg == "flags")]
    return any(
        isinstance(n, ast.Attribute | ast.Name)
        and (getattr(n, "attr", None) or getattr(n, "id", None)) in {"VERBOSE", "X"}
        for flag in flags for n in ast.walk(flag)
    )  # fmt: skip


def _read_names(tree: ast.Module | None) -> frozenset[str]:
    """The names a Python module reads (empty without a tree)."""
    if tree is None:
        return frozenset()
    return frozenset(
        n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
    )


def _stopped_using(
    new: list[Shape], old_tree: ast.Module | None, new_tree: ast.Module | None
) -> list[Shape]:
    """``new`` without the regexes bound to a module-level name that the module read before
    the PR and reads no more: a regex left defined after the code stopped using it
    (python-multipart's ReDoS fix moved parsing to :mod:`email` and left ``OPTION_RE``
    behind) runs on nothing. A name read in neither version (a constant other modules import)
    is kept."""
    if not any(s.binding for s in new):
        return new
    before, after = _read_names(old_tree), _read_names(new_tree)
    return [s for s in new if not (s.binding in before and s.binding not in after)]


@dataclass(frozen=True)
class PythonRegex:
    """A call of the ``re`` (or ``regex``) module whose pattern is a constant."""

    call: ast.Call
    function: str
    """The ``re`` function called (``compile``, ``search``, ``match``...)."""
    pattern: str
    binding: str | None
    """The module-level name the call's result is assigned to (``HEADER_RE = re.compile(...)``)."""
    method: str | None = None
    """The pattern method the name is bound to instead (``is_js = re.compile(...).search``)."""


def python_regexes(tree: ast.Module) -> list[PythonRegex]:
    """Every ``re.compile``/``re.search``/... call of ``tree`` whose pattern folds to a constant
    (:class:`_Folder`; inside a function, with that function's own constants:
    :meth:`_Folder.within`), with the module-level name it is bound to."""
    bound: dict[int, tuple[str, str | None]] = {}
    for target, value in map(_assignment, tree.body):
        if target and isinstance(value, ast.Attribute) and isinstance(value.value, ast.Call):
            bound[id(value.value)] = (target, value.attr)  # re.compile(...).search
        elif target and value is not None:
            bound[id(value)] = (target, None)
    out: list[PythonRegex] = []
    pending: list[tuple[ast.AST, _Folder]] = [(tree, _Folder(tree))]
    while pending:
        node, folder = pending.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                pending.append((child, folder.within(child)))
                continue
            pending.append((child, folder))
            if not (
                isinstance(child, ast.Call) and isinstance(child.func, ast.Attribute)
                and child.func.attr in _RE_FUNCTIONS and isinstance(child.func.value, ast.Name)
                and child.func.value.id in _RE_MODULES
            ):  # fmt: skip
                continue
            argument = child.args[0] if child.args else next(
                (k.value for k in child.keywords if k.arg == "pattern"), None
            )
            pattern = None if argument is None else folder.fold(argument)
            if pattern is not None:
                binding, method = bound.get(id(child), (None, None))
                out.append(PythonRegex(child, child.func.attr, pattern, binding, method))
    out.sort(key=lambda r: (r.call.lineno, r.call.col_offset))
    return out


@dataclass(frozen=True)
class AppliedRegexes:
    """Where a module applies its constant regexes: by call node and by compiled name."""

    calls: dict[int, str]
    """``id`` of an inline ``re.search(r"...", v)`` call -> its pattern."""
    bindings: dict[str, str]
    """A module-level name bound to ``re.compile(...)`` -> its pattern."""
    methods: dict[str, str]
    """A module-level name bound to a compiled pattern's method (``is_js =
    re.compile(...).search``) -> its pattern."""

    @classmethod
    def of(cls, tree: ast.Module) -> AppliedRegexes:
        regexes = python_regexes(tree)
        return cls(
            {id(r.call): r.pattern for r in regexes},
            {r.binding: r.pattern for r in regexes if r.binding and r.method is None},
            {r.binding: r.pattern for r in regexes if r.binding and r.method is not None},
        )

    def pattern(self, node: ast.AST) -> str | None:
        """The pattern ``node`` applies: an inline call, the method of a compiled module
        constant (``HEADER_VALUE_RE.search``) or a name bound to one (``is_js``); else None."""
        found = self.calls.get(id(node))
        if found is None and isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            found = self.bindings.get(node.value.id)
        if found is None and isinstance(node, ast.Name):
            found = self.methods.get(node.id)
        return found


_ANCHORED = frozenset({"match", "fullmatch"})
"""The ``re`` functions and pattern methods that try a pattern at one start position only."""


def _methods(tree: ast.Module) -> dict[str, set[str]]:
    """Name -> the attributes the module reads on it (``OPTION_RE.search(...)``,
    ``split = TOKEN.split``)."""
    out: dict[str, set[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            out.setdefault(node.value.id, set()).add(node.attr)
    return out


def _searched(regex: PythonRegex, methods: dict[str, set[str]]) -> bool:
    """Whether the regex is applied as a search (tried at every start position): a search-like
    ``re`` function, or a compiled pattern that is not only ever ``match``ed in its module."""
    if regex.function != "compile":
        return regex.function not in _ANCHORED
    if regex.method is not None:
        return regex.method not in _ANCHORED
    used = methods.get(regex.binding or "", set())
    return not used or not used <= _ANCHORED


def _python_shapes(tree: ast.Module) -> list[Shape]:
    out: list[Shape] = []
    methods = _methods(tree)
    for regex in python_regexes(tree):
        searched = _searched(regex, methods)
        found = ambiguities(regex.pattern, _verbose(regex.call), searched) or ()
        out.extend(Shape(a, regex.call.lineno, regex.pattern, regex.binding) for a in found)
    return out


def _javascript_shapes(path: str, source: str) -> list[Shape] | None:
    literals = regex_literals(path, source)
    if literals is None:
        return None
    out: list[Shape] = []
    for literal in literals:
        sticky = "y" in literal.flags  # tried at lastIndex only
        found = ambiguities(from_javascript(literal.pattern), searched=not sticky)
        out.extend(Shape(a, literal.line, literal.pattern) for a in found or ())
    return out


def shapes(path: str, source: str | None) -> list[Shape] | None:
    """The super-linear shapes of the regexes ``source`` writes as constants; None when the
    file's language is not read here or it does not parse."""
    if source is None:
        return None
    if path.endswith(PYTHON_EXTENSIONS):
        tree = parse_python(source)
        return None if tree is None else _python_shapes(tree)
    return _javascript_shapes(path, source)


def _side(path: str, source: str | None) -> tuple[list[Shape], ast.Module | None]:
    """One side of a file: its shapes, and its Python tree (parsed once) when it has one."""
    if source is not None and path.endswith(PYTHON_EXTENSIONS):
        tree = parse_python(source)
        return ([] if tree is None else _python_shapes(tree)), tree
    return shapes(path, source) or [], None


# --- the factors ------------------------------------------------------------------------------


def _code(f: FileDiff) -> bool:
    return not f.binary and classify(f.path) is PathKind.CODE


def backtracking_factors(
    files: Sequence[FileDiff], base: RepoTree, head: RepoTree
) -> list[RiskFactor]:
    """Red for a file whose base regexes had a shape no head regex of the PR has (rewritten
    or replaced, the file kept); yellow for a shape no base regex of the PR had."""
    sides: dict[str, tuple[list[Shape], list[Shape], bool]] = {}
    for f in files:
        if not _code(f):
            continue
        old_path = f.old_path or f.path
        old_source = None if f.status is FileStatus.ADDED else base.read(old_path)
        new_source = None if f.status is FileStatus.DELETED else head.read(f.path)
        old, old_tree = _side(old_path, old_source)
        new, new_tree = _side(f.path, new_source)
        new = _stopped_using(new, old_tree, new_tree)
        if old or new:
            sides[f.path] = (old, new, f.status is not FileStatus.DELETED)
    before = {s.ambiguity.identity for old, _, _ in sides.values() for s in old}
    after = {s.ambiguity.identity for _, new, _ in sides.values() for s in new}
    out: list[RiskFactor] = []
    for path, (old, new, kept) in sides.items():
        gone = [s for s in old if s.ambiguity.identity not in after]
        came = [s for s in new if s.ambiguity.identity not in before]
        if gone:
            first = gone[0]
            out.append(
                RiskFactor(
                    factor=REMOVED,
                    files=(path,),
                    severity=FactorSeverity.RED if kept else FactorSeverity.MODERATE,
                    why=f"a regex that backtracks super-linearly was "
                    f"{'rewritten' if kept else 'deleted with its file'}: `{_short(first)}` "
                    f"(line {first.line} of the base file): {first.ambiguity.describe()}; no "
                    "regex of the PR's head has that shape. ReDoS fixes land this way",
                )
            )
        if came:
            first = came[0]
            out.append(
                RiskFactor(
                    factor=ADDED,
                    files=(path,),
                    severity=FactorSeverity.MODERATE,
                    why=f"a regex that can backtrack super-linearly: `{_short(first)}` (line "
                    f"{first.line}): {first.ambiguity.describe()}; slow on long input that "
                    "fails to match (ReDoS) if it reads request data",
                )
            )
    return out


def _short(shape: Shape) -> str:
    return shorten(shape.pattern.replace("\n", "\\n"), 80)


BACKTRACKING_EXAMPLES: tuple[tuple[str, str, str, str | None], ...] = (
    (  # a function's own constant pattern, searched: `\\w+` before `:` tries every start
        "search.py",
        (
            "import re\ndef parse(q):\n    pattern = r'(\\w+):(\\w+)'\n"
            "    return list(re.finditer(pattern, q))\n"
        ),
        (
            "import re\nPATTERN = re.compile(r'\\b(\\w+):(\\w+)')\ndef parse(q):\n"
            "    return list(PATTERN.finditer(q))\n"
        ),
        REMOVED,
    ),
    (  # a name the function binds twice is not a constant: nothing known to lose
        "search.py",
        (
            "import re\ndef parse(q, strict):\n    pattern = r'(\\w+):(\\w+)'\n"
            "    if strict:\n        pattern = r'^(\\w+):(\\w+)$'\n"
            "    return list(re.finditer(pattern, q))\n"
        ),
        "import re\ndef parse(q, strict):\n    return q.split(':')\n",
        None,
    ),
    (  # a parameter hides the module's constant of its name
        "search.py",
        (
            "import re\npattern = r'(\\w+):(\\w+)'\ndef parse(q, pattern):\n"
            "    return list(re.finditer(pattern, q))\n"
        ),
        "import re\npattern = r'(\\w+):(\\w+)'\ndef parse(q, pattern):\n    return q.split(':')\n",
        None,
    ),
    (  # ws CVE-2021-32640: a split searches ` *` from every position of a run of spaces
        "websocket-server.js",
        "function protocols(v) {\n  return v.trim().split(/ *, */)\n}\n",
        "function protocols(v) {\n  return v.split(',').map((p) => p.trim())\n}\n",
        REMOVED,
    ),
    (  # postcss CVE-2021-23382 (its 7.x backport in `.es6`): `.*` takes the prefix, `*/`
        # is nowhere in `/*# sourceMappingURL=` repeated
        "lib/previous-map.es6",
        (
            "class PreviousMap {\n  getAnnotationURL(s) {\n"
            "    return s.match(/\\/\\*\\s*# sourceMappingURL=(.*)\\*\\//)[1].trim()\n  }\n}\n"
        ),
        (
            "class PreviousMap {\n  getAnnotationURL(s) {\n    return s.match("
            "/\\/\\*\\s*# sourceMappingURL=((?:(?!sourceMappingURL=).)*)\\*\\//)[1].trim()\n"
            "  }\n}\n"
        ),
        REMOVED,
    ),
    (  # moment CVE-2022-31129: `\\(` then `[^)]*`, which takes `(` too: `((((` is quadratic
        "from-string.js",
        "function pre(s) {\n  return s.replace(/\\([^)]*\\)|[\\n\\t]/g, ' ')\n}\n",
        "function pre(s) {\n  return s.replace(/\\([^()]*\\)|[\\n\\t]/g, ' ')\n}\n",
        REMOVED,
    ),
    (  # the same prefixed repeat, only its flags changed: the shape stays
        "strip.js",
        "const strip = (s) => s.replace(/<[^>]*>/g, '')\n",
        "const strip = (s) => s.replace(/<[^>]*>/gi, '')\n",
        None,
    ),
    (  # the same leading repeat kept in another regex of the PR: no shape left the code
        "headers.js",
        "const a = (v) => v.split(/ *, */)\nconst b = (v) => v.split(/ *; */)\n",
        "const a = (v) => v.split(/ *, */)\nconst b = (v) => v.split(';')\n",
        None,
    ),
    (  # a match anchored at the start tries one position: no leading shape to lose
        "a.py",
        "import re\nNUM = re.compile(r'\\d+\\.')\ndef f(v):\n    return NUM.match(v)\n",
        "import re\ndef f(v):\n    return v[:-1] if v.endswith('.') else None\n",
        None,
    ),
    (
        "a.py",
        "import re\nOPTION = re.compile(r';\\s*([^;=]+)\\s*=?\\s*(.*)\\s*;')\nUSE = OPTION.match\n",
        "import re\nOPTION = re.compile(r';([^;=\\s]+)=([^;]*);')\nUSE = OPTION.match\n",
        REMOVED,
    ),
    (
        "a.py",
        (
            "import re\nLEAD = ('(', '<')\n_P = re.compile(\n"
            "    '^(?P<lead>(?:%s)*)(?P<middle>.*?)$' % '|'.join(map(re.escape, LEAD)))\n"
            "def urlize(t):\n    return _P.match(t)\n"
        ),
        "import re\n_P = None\ndef urlize(t):\n    return t\n",
        REMOVED,
    ),
    (
        "a.js",
        "function trim(s) { return s.replace(/^\\s+|\\s+\\s*$/g, '') }\n",
        "function trim(s) { return s.trim() }\n",
        REMOVED,
    ),
    (
        "a.ts",
        "const inline = { text: /^(\\w+\\s?)*x/ }\n",
        "const inline = { text: /^(?:\\w+\\s)*x/ }\n",
        REMOVED,
    ),
    (
        "a.py",
        (
            "import re\nOPTION_RE = re.compile(r';\\s*([^;=]+)\\s*=?\\s*x')\n"
            "def parse(v):\n    return OPTION_RE.findall(v)\n"
        ),
        (
            "import re\nOPTION_RE = re.compile(r';\\s*([^;=]+)\\s*=?\\s*x')\n"
            "def parse(v):\n    return email_params(v)\n"
        ),
        REMOVED,
    ),
    (
        "a.py",
        "import re\nHEADER = re.compile(tobytes('^' + '([a-z]([ a-z]+[a-z])?)*' + ';'))\n",
        "import re\nHEADER = re.compile(tobytes('^' + '[a-z]+(?:[ ]+[a-z]+)*' + ';'))\n",
        REMOVED,
    ),
    (  # oauthlib's CVE-2022-36087: a grammar built by `% locals()`, applied in VERBOSE mode
        "uri_validate.py",
        (
            "import re\nIPv6address = r'([A-Fa-f0-9:]+:+)+[A-Fa-f0-9]+'\n"
            "IP_literal = r'\\[ (?: %(IPv6address)s | v[0-9]+ ) \\]' % locals()\n"
            "def is_host(h):\n    return re.match('^' + IP_literal + '$', h, re.VERBOSE)\n"
        ),
        (
            "import re\nIPv6address = r'([A-Fa-f0-9:]+[:$])[A-Fa-f0-9]{1,4}'\n"
            "IP_literal = r'\\[ (?: %(IPv6address)s | v[0-9]+ ) \\]' % locals()\n"
            "def is_host(h):\n    return re.match('^' + IP_literal + '$', h, re.VERBOSE)\n"
        ),
        REMOVED,
    ),
    (
        "a.js",
        "const re = /^\\d+$/\n",
        "const re = new RegExp('^\\\\s*,?\\\\s*x')\n",
        ADDED,
    ),
    (  # a quoted title whose escape alternative overlaps the plain-character class (mistune)
        "helpers.py",
        (
            "import re\nimport string\nPUNCT = '[' + re.escape(string.punctuation) + ']'\n"
            "TITLE_RE = re.compile(r'\"(?:\\\\' + PUNCT + r'|[^\"\\x00])*\"')\n"
            "def title(s, p):\n    return TITLE_RE.match(s, p)\n"
        ),
        (
            "import re\nimport string\nPUNCT = '[' + re.escape(string.punctuation) + ']'\n"
            "TITLE_RE = re.compile(r'\"(?:\\\\' + PUNCT + r'|[^\"\\\\\\x00])*\"')\n"
            "def title(s, p):\n    return TITLE_RE.match(s, p)\n"
        ),
        REMOVED,
    ),
    # no change of shape: the same ambiguity moved, renamed or kept; safe regexes edited
    (  # `from string import digits as D`: folded, and the edited pattern is as linear as before
        "a.py",
        "import re\nfrom string import digits as D\nNUM = re.compile('[' + D + ']+x')\n",
        "import re\nfrom string import digits as D\nNUM = re.compile('[' + D + ']+y')\n",
        None,
    ),
    (  # a local `string` is not the module: nothing folded, nothing claimed
        "a.py",
        (
            "import re\nimport string\nstring = load()\n"
            "A = re.compile('(?:' + string.whitespace + '|\\\\s)*y')\n"
        ),
        "import re\nA = None\n",
        None,
    ),
    (
        "a.py",
        "import re\nA = re.compile(r'\\s*,\\s*x')\nf = A.split\n",
        "import re\nSPLIT = re.compile(r'\\s*,\\s*x', re.I)\nf = SPLIT.split\n",
        None,
    ),
    (
        "a.js",
        "const a = /^[a-z]+\\d+$/\n",
        "const a = /^[a-z]+\\d*$/\n",
        None,
    ),
    (
        "a.go",
        "package p\nvar r = regexp.MustCompile(`(a+)+x`)\n",
        "package p\nvar r = regexp.MustCompile(`a+x`)\n",
        None,
    ),
    (  # a repeat made lazy: the same splits tried in another order (pug's lexer), no shape
        # gone and none new
        "lib/lexer.js",
        "const EACH = /^(?:each|for) (.*) of *([^\\n]+)/\n",
        "const EACH = /^(?:each|for) (.*?) of *([^\\n]+)/\n",
        None,
    ),
)
"""A base and a head source, and the factor the change gives (None: neither)."""
