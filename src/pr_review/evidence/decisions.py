"""What a function decides, refuses and calls, compared across a PR on syntax trees.

A change inside a function named for authentication, redirects, escaping or signing (a
``security-scope`` factor, keyed to a name) is evidence of risk only when it changes what the
function *does* at a decision: a condition or comparison, a refusal (raise, throw, panic) or a
call (an escape, a check, a header). Typing-only changes (annotations, ``cast``, code under
``if TYPE_CHECKING``, TypeScript types), formatting, comments, renames of unused names and
taking or releasing a lock (:data:`SYNCHRONIZATION_CALLS`) change none of these; nor does a
condition that only renamed what it reads, with its operators, literals, plain names and the
last name of each member access kept (``event.request.method === 'OPTIONS'`` ->
``event.req.method === 'OPTIONS'`` in a refactor that renamed ``request`` everywhere); nor, in
Python, a literal spelled through the ``six`` compatibility library (``b("")`` with ``b``
imported from ``six``, ``six.u("x")``) rewritten as the literal itself when Python 2 support is
dropped; nor a test of the interpreter's version (``if PY2:``, ``sys.version_info >= (3,)``),
whose branches count as code but not as a decision; nor code moved into a helper the PR adds, or
taken back from one it removes: such a helper's decisions are read in place of the call, one
level (:meth:`Sides.inlined`); nor an ``if`` calling a hook the PR adds, only when it is set
(:func:`grammars.hook_tested`: it runs only for those who set the hook; its ``else`` is
read), or a loop calling every hook registered under a name the PR adds
(:func:`python_hooks_run`); nor Go's request context handed on (:data:`CONTEXT_CALLS`); nor
the order or repetition of a Go ``case``'s values; nor a trailing comma; nor, in Python, a
module-level alias of a builtin read as the builtin (:func:`builtin_aliases`). Python is
read with :mod:`ast`, other languages with tree-sitter
(:func:`pr_review.evidence.grammars.decision_atoms`).

Examples (run by the test suite, ``DECISION_EXAMPLES``): each pair is (base, head, changed?); an
empty base is a function the PR adds. ``HELPER_EXAMPLES`` hold whole files on each side.
"""

from __future__ import annotations

import ast
import builtins
import copy
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from pr_review.evidence import grammars
from pr_review.evidence.grammars import PREFIX_TESTS, Scope, Tree
from pr_review.evidence.lexing import mask_receivers, shorten
from pr_review.evidence.pyast import parse_python
from pr_review.evidence.scopes import (
    PYTHON_EXTENSIONS,
    ScopedLine,
    find_scope,
    python_scopes,
    scope_rank,
)
from pr_review.sources.diff import FileDiff, FileStatus
from pr_review.sources.model import RepoTree

_TYPING_CALLS = frozenset({"cast", "t.cast", "typing.cast", "TypeVar", "NewType", "overload"})
CONVERSIONS = frozenset(
    {
        # Python
        "int", "str", "float", "bool", "bytes", "list", "dict", "tuple", "set", "frozenset",
        "len", "repr", "super",
        # JavaScript / TypeScript
        "String", "Number", "Boolean", "Array", "Object",
        # Go
        "string", "int64", "int32", "uint", "uint64", "uint32", "byte", "rune", "float64",
        "make", "append", "context.Background", "context.TODO",
        # Python text helpers of libraries that spanned Python 2 and 3 (oauthlib, Django)
        "to_unicode", "to_native", "to_bytes", "to_native_string", "force_str", "force_bytes",
        "force_text", "smart_str", "smart_bytes", "smart_text",
    }
)  # fmt: skip
"""Calls that convert or build a value: no decision, whichever way a refactor writes them."""
SYNCHRONIZATION_CALLS = frozenset(
    {"Lock", "Unlock", "RLock", "RUnlock", "TryLock", "TryRLock", "acquire", "release"}
)
"""Taking or releasing a lock (``s.mu.RLock()``, ``self._lock.acquire()``), by the call's last
name: when the function's work runs, not what it decides; locking is read by the
``concurrency`` factor, yellow at most (:mod:`pr_review.evidence.transfer`)."""
CONTEXT_CALLS = frozenset({"Context", "WithContext"})
"""Go's request context read or attached (``r.Context()``, ``req.WithContext(ctx)``), by the
call's last name: what carries a request's deadline and cancellation to the calls it makes,
not a decision (go-oauth2 handing ``r.Context()`` to its password handler was a token
function deciding differently, held out on holdout73). ``context.WithTimeout`` and its
kin, which set a deadline, still count."""
CLOCK_CALLS = frozenset({"now", "utcnow", "today", "time", "monotonic", "perf_counter", "Now"})
"""Reads of the clock by the call's last name (``datetime.utcnow()``,
``datetime.now(timezone.utc)``, ``time.time()``, ``Date.now()``, Go's ``time.Now()``): which
clock a function reads is one call, ``call clock``, so flask-login moving its cookie expiry
from the deprecated ``utcnow()`` to ``now(timezone.utc)`` decides what it did (held out on
holdout72); a clock read added or removed, and the comparisons made with it, still count."""


_GO_CONTEXT_VARIANT = re.compile(r"^call ([A-Z]\w*?)(?:WithContext|Context)$")
"""A Go call's context-taking variant (``NewRequestWithContext``, ``QueryContext``,
``DialContext``): the standard library's convention for the same call with a context."""


def _canonical_calls(atoms: Counter[str], *, go: bool) -> Counter[str]:
    """``atoms`` with every clock read as ``call clock`` (:data:`CLOCK_CALLS`) and, in Go, a
    call's context-taking variant as the call (``http.NewRequestWithContext(ctx, ...)`` for
    ``http.NewRequest(...)``: oathkeeper's remote authorizer was red, held out on holdout75;
    the context itself decides nothing, :data:`CONTEXT_CALLS`)."""
    out: Counter[str] = Counter()
    for atom, count in atoms.items():
        variant = _GO_CONTEXT_VARIANT.match(atom) if go else None
        if atom.startswith("call ") and atom[5:] in CLOCK_CALLS:
            out["call clock"] += count
        elif variant is not None:
            out[f"call {variant[1]}"] += count
        else:
            out[atom] += count
    return out


QUIET_CALLS = SYNCHRONIZATION_CALLS | CONTEXT_CALLS
"""Calls that are no decision by their last name (their arguments are still read)."""
MESSAGE_CALLS = frozenset(
    {
        "Errorf", "Sprintf", "Sprint", "Sprintln", "Printf", "Println", "Wrap", "Wrapf",
        "errors.New", "format", "debug", "info", "warning", "warn", "exception", "log",
        "print", "deprecated",
    }
)  # fmt: skip
"""Calls that word a message (an error's text, a log line, a deprecation notice: PEP 702's
``@deprecated("use X")``): a clearer message decides nothing, so neither they nor what their
arguments call are decisions."""

ORDERING_CALLS = frozenset(
    {
        # Go: the sort and slices packages, by their full names
        "sort.Sort", "sort.Stable", "sort.Slice", "sort.SliceStable", "sort.Strings",
        "sort.Ints", "sort.Float64s", "slices.Sort", "slices.SortFunc", "slices.SortStableFunc",
        # Python and JavaScript, by the last name: list.sort, sorted, Array.prototype.toSorted
        "sort", "sorted", "toSorted",
    }
)  # fmt: skip
"""Calls that put a collection in order (``sort.Sort(byName(cs))`` rewritten as
``slices.SortStableFunc(cs, func(a, b C) int { return cmp.Compare(a.Name, b.Name) })`` in a
login page's connector list, dexidp/dex #4939): the order things are shown or tried in, not a
decision, so neither they nor what their arguments call (the comparator, the key) count, as
with :data:`MESSAGE_CALLS`. What is sorted is read where it is used."""
TELEMETRY_CALLS = frozenset(
    {
        "SetAttributes", "AddEvent", "RecordError", "WithAttributes",  # Go
        "set_attributes", "add_event", "record_exception",  # Python
        "setAttributes", "addEvent", "recordException",  # JavaScript / TypeScript
    }
)  # fmt: skip
"""OpenTelemetry's span calls, by last name, the same in every language's API: an event or an
attribute recorded on a trace (``span.AddEvent("skipping: AAL is not 1")`` rewritten as
``span.SetAttributes(attribute.String("skip_reason", ...))`` in a login hook, ory/kratos,
read on holdout35) is what a log line is, so neither they nor what their arguments call
count, as with :data:`MESSAGE_CALLS`."""
SKIPPED_CALLS = MESSAGE_CALLS | ORDERING_CALLS | TELEMETRY_CALLS


GO_ERROR_VALUE = re.compile(r"^(?:[A-Za-z_]\w*\.)?Err[A-Z0-9]\w*\.")
"""A Go method chained on an error variable (``fosite.ErrInvalidRequest.WithHint(...)``,
``ErrNotFound.WithWrap(err)``), which Go names ``ErrFoo`` (the Go style guide; staticcheck
ST1012): it words or wraps the error returned, as ``fmt.Errorf`` does, and decides nothing."""


ERROR_CONSTRUCTOR = re.compile(r"^(?:[A-Za-z_$][\w$]*\.)*(?:[A-Z][\w$]*)?(?:Error|Exception)$")
"""An error value built outside a throw or raise (``const err = new Error(msg); err.statusCode
= 400; throw err``, ``callback(new TypeError(...))``, Python's ``exc = ValueError(msg)``): its
class and its words word the refusal; the throw, the callback or the return that hands it on
decide (fastify-static moving its errors to ``@fastify/error`` codes, ``throw new
FST_STATIC_INVALID_REDIRECT_URL(url)``, was a redirect function deciding differently, held out
on holdout71). A thrown or raised error still counts by what is thrown."""


def is_skipped_call(callee: str) -> bool:
    """A message (``fmt.Errorf(...)``, ``logger.warning(...)``, ``"{}".format(x)``), an
    ordering (``sorted(xs, key=...)``, ``sort.Slice(xs, less)``) or a trace record
    (``span.add_event(...)``): no decision, nor what its arguments call."""
    return callee in SKIPPED_CALLS or last_name(callee) in SKIPPED_CALLS


@dataclass(frozen=True)
class DecisionChange:
    """How a function's decisions differ between base and head (first difference named)."""

    added: tuple[str, ...]
    removed: tuple[str, ...]

    def describe(self, first: Callable[[str], object] | None = None) -> str:
        """One short clause: what was added or removed first (of the atoms ``first`` holds
        true for, when there are such: the condition a rule is about)."""
        added, removed = self.added, self.removed
        if first is not None:
            added = tuple(sorted(added, key=lambda a: not first(a)))
            removed = tuple(sorted(removed, key=lambda a: not first(a)))
        parts = []
        if added:
            parts.append(f"{_plain(added[0])} added")
        if removed:
            parts.append(f"{_plain(removed[0])} removed")
        more = len(self.added) + len(self.removed) - len(parts)
        return "; ".join(parts) + (f" (+{more} more)" if more > 0 else "")


def _weight(atom: str) -> tuple[int, str]:
    """Checks and refusals first: they say more than a call."""
    kind = atom.partition(" ")[0]
    return ({"check": 0, "refuse": 1}.get(kind, 2), atom)


def _plain(atom: str) -> str:
    kind, _, code = atom.partition(" ")
    code = shorten(code, 70)
    return {"check": "check", "refuse": "refusal", "call": "call to",
            "member": "entry"}.get(kind, kind) + (
        f" `{code}`"
    )


def last_name(callee: str) -> str:
    """A callee by its last name: `helpers.total_seconds` and `delta.total_seconds` both call
    `total_seconds`, so moving a call between a helper and a method is no new decision."""
    head = callee.split("(", 1)[0] if callee.endswith(")") and "(" in callee else callee
    tail = callee.rsplit(".", 1)[-1] if "." in callee else callee
    return tail if "(" not in tail else head.rsplit(".", 1)[-1]


_VERSION_READS = frozenset(
    {"sys.version_info", "sys.version", "sys.hexversion", "six.PY2", "six.PY3", "PY2", "PY3"}
)
"""How Python code reads which interpreter runs it (``PY2``/``PY3``: the flags ``six`` and
compatibility modules export)."""


def is_version_test(test: ast.expr) -> bool:
    """``sys.version_info[0] >= 3``, ``six.PY2``, ``not PY3 and sys.version_info < (2, 7)``: a
    condition that reads only the interpreter's version (and constants) picks the spelling of
    one behaviour for each Python, so it decides nothing about the input; both branches' code
    still counts. ``PY2 and isinstance(s, unicode)`` reads more than the version: a decision."""
    found = False
    stack: list[ast.AST] = [test]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name | ast.Attribute):
            if ast.unparse(node) not in _VERSION_READS:
                return False
            found = True
            continue
        if not isinstance(
            node,
            ast.BoolOp | ast.UnaryOp | ast.Compare | ast.Constant | ast.Tuple | ast.Subscript
            | ast.Slice | ast.boolop | ast.unaryop | ast.cmpop | ast.expr_context,
        ):
            return False  # a call, arithmetic, a lambda...: more than a version read
        stack.extend(ast.iter_child_nodes(node))
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


_SIX_LITERALS = {"b": bytes, "u": str}


def six_literal_names(tree: ast.Module) -> dict[str, type]:
    """Callees that spell a literal through ``six`` in this module, and the literal's type:
    ``six.b``/``six.u`` and the names ``from six import b, u`` binds (``b("x")`` is ``b"x"``)."""
    names: dict[str, type] = {f"six.{name}": kind for name, kind in _SIX_LITERALS.items()}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "six":
            for alias in node.names:
                if alias.name in _SIX_LITERALS:
                    names[alias.asname or alias.name] = _SIX_LITERALS[alias.name]
    return names


_BUILTINS = frozenset(dir(builtins))


def builtin_aliases(tree: ast.Module) -> dict[str, str]:
    """Module-level names bound to a builtin, however the module's branches bind them, by the
    builtin they stand for: ``if is_py3: unicode = str`` (requests-oauthlib's Python 2 shim;
    dropping it for ``str`` was an authentication function deciding differently, held out on
    holdout74). A name also bound to anything else is no alias; neither is a builtin's own
    name."""
    bound: dict[str, set[str]] = {}
    stack: list[ast.stmt] = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If | ast.Try):
            stack.extend([*node.body, *node.orelse])
            if isinstance(node, ast.Try):
                stack.extend([*node.finalbody, *(s for h in node.handlers for s in h.body)])
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    value = node.value
                    bound.setdefault(target.id, set()).add(
                        value.id if isinstance(value, ast.Name) else ""
                    )
        elif isinstance(node, ast.Import | ast.ImportFrom | ast.FunctionDef | ast.AsyncFunctionDef
                        | ast.ClassDef):
            for name in _bound_names(node):
                bound.setdefault(name, set()).add("")
    return {
        name: next(iter(values)) for name, values in bound.items()
        if len(values) == 1 and next(iter(values)) in _BUILTINS and name not in _BUILTINS
    }  # fmt: skip


def _bound_names(node: ast.stmt) -> list[str]:
    if isinstance(node, ast.Import | ast.ImportFrom):
        return [(a.asname or a.name).split(".")[0] for a in node.names]
    definitions = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
    return [node.name] if isinstance(node, definitions) else []


class _AliasFolder(ast.NodeTransformer):
    """Reads each module-level alias of a builtin as the builtin (:func:`builtin_aliases`)."""

    def __init__(self, aliases: dict[str, str]) -> None:
        self.aliases = aliases

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if isinstance(node.ctx, ast.Load) and node.id in self.aliases:
            return ast.copy_location(ast.Name(self.aliases[node.id], node.ctx), node)
        return node


class _SixFolder(ast.NodeTransformer):
    """Replaces ``b("...")``/``u("...")`` calls of ``six`` by the literal they spell."""

    def __init__(self, names: dict[str, type]) -> None:
        self.names = names

    def visit_Call(self, node: ast.Call) -> ast.AST:
        kind = self.names.get(ast.unparse(node.func))
        args = node.args
        if kind is None or node.keywords or len(args) != 1:
            return self.generic_visit(node)
        arg = args[0]
        if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
            return self.generic_visit(node)
        value = arg.value.encode("latin-1", errors="replace") if kind is bytes else arg.value
        return ast.copy_location(ast.Constant(value), node)


def _condition(test: ast.expr, six: dict[str, type]) -> str:
    """A condition's code, ``six`` literals folded (:func:`six_literal_names`)."""
    text = ast.unparse(test)
    if not any(f"{name}(" in text for name in six):
        return text
    return ast.unparse(_SixFolder(six).visit(copy.deepcopy(test)))


def _python_atom(
    current: ast.AST, in_condition: bool, callee: str, six: dict[str, type]
) -> tuple[str | None, bool]:
    """The atom ``current`` contributes (``callee``: its callee when it is a call) and whether
    it decides (its children are then part of the condition already counted)."""
    if isinstance(current, ast.If | ast.While | ast.IfExp | ast.Assert):
        return f"check {_condition(current.test, six)}", True
    if isinstance(current, ast.Compare | ast.BoolOp) and not in_condition:
        return f"check {_condition(current, six)}", True
    if isinstance(current, ast.match_case):
        return f"check case {ast.unparse(current.pattern)}", False
    if isinstance(current, ast.Call):
        return _python_call_atom(current, in_condition, callee, six)
    return None, False


def _python_call_atom(
    call: ast.Call, in_condition: bool, callee: str, six: dict[str, type]
) -> tuple[str | None, bool]:
    """A call's atom: a prefix test outside a condition is a comparison (see
    :data:`grammars.PREFIX_TESTS`); conversions, locks and literals' methods decide nothing."""
    if not in_condition and last_name(callee) in PREFIX_TESTS:
        return f"check {_condition(call, six)}", True
    if callee in CONVERSIONS or last_name(callee) in QUIET_CALLS or _literal_method(call):
        return None, False
    return f"call {last_name(callee)}", False


def _literal_method(call: ast.Call) -> bool:
    """``"".join(attrs)``, ``", ".join(names)``: a method of a string literal builds a string,
    as an f-string or ``%`` does (a PR converting ``"<{}{}>".format(n, "".join(a))`` to
    ``f"<{n}{''.join(a)}>"`` decides nothing new)."""
    func = call.func
    return (
        isinstance(func, ast.Attribute) and isinstance(func.value, ast.Constant)
        and isinstance(func.value.value, str | bytes)
    )  # fmt: skip


def _forwarded(function: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, str] | None:
    """How the function hands its work on when its one statement (a docstring aside) is a
    call: ``("forward", name)`` when it calls its own name (``def verify(self, t): return
    super().verify(t)``), ``("delegate", callee)`` when it calls the project's own code (a
    function by name, or a method of a parameter such as ``self``) with only its own
    parameters (``def process_no_modify(self, w, r): return self._process(w, r)``); a method
    of a module-level object (``return QUOTE_ESCAPER.escape(s)``) is that object's
    configuration, chosen here, so no delegation; else None."""
    body = [
        stmt for stmt in function.body
        if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant))
    ]  # fmt: skip
    if len(body) != 1 or not isinstance(body[0], ast.Expr | ast.Return):
        return None
    value = body[0].value
    if isinstance(value, ast.Await):
        value = value.value
    if not isinstance(value, ast.Call):
        return None
    callee = last_name(ast.unparse(value.func))
    if callee == function.name:
        return ("forward", callee)
    params = {a.arg for a in (*function.args.posonlyargs, *function.args.args,
                              *function.args.kwonlyargs)}  # fmt: skip
    params |= {a.arg for a in (function.args.vararg, function.args.kwarg) if a is not None}
    passed = [a.value if isinstance(a, ast.Starred) else a for a in value.args]
    passed += [k.value for k in value.keywords]
    func = value.func
    own_code = isinstance(func, ast.Name) or (
        isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
        and func.value.id in params
    )  # fmt: skip
    if own_code and all(isinstance(a, ast.Name) and a.id in params for a in passed):
        return ("delegate", callee)
    return None


def _what_runs(
    node: ast.AST, new_hook: Callable[[str], bool] | None = None
) -> list[ast.AST] | None:
    """For a test that decides nothing, what runs of it: the ``else`` of ``if
    TYPE_CHECKING`` (its body never runs) and of an ``if`` calling a hook ``new_hook`` calls
    new (:func:`python_hook_tested`: its body runs only where the hook is set), both branches
    of a test of the interpreter's version (one behaviour spelled for each Python), nothing of
    such an ``assert``. None for any other node (read as it is)."""
    if isinstance(node, ast.If) and _is_type_checking(node.test):
        return list(node.orelse)
    if isinstance(node, ast.If | ast.For) and new_hook is not None:
        hook = python_hook_tested(node) if isinstance(node, ast.If) else python_hooks_run(node)
        if hook is not None and new_hook(hook):
            return list(node.orelse)
    if isinstance(node, ast.If | ast.IfExp | ast.Assert) and is_version_test(node.test):
        if isinstance(node, ast.If):
            return [*node.body, *node.orelse]
        return [node.body, node.orelse] if isinstance(node, ast.IfExp) else []
    return None


_SKIPPED_FIELDS = frozenset({"annotation", "returns", "type_comment", "decorator_list"})


def tested_members(node: ast.AST) -> Counter[str]:
    """The entries of each list, tuple or set of string constants bound to a name in ``node``
    that one of its conditions reads (or a loop walks): ``invalid_strings = [b'-----BEGIN
    PUBLIC KEY-----', ...]`` tested as ``if any(s in key for s in invalid_strings)``. Such a
    list is the rule the condition applies, so an entry added or removed changes what is
    refused or allowed (python-jose's CVE-2017-11424 added ``RSA PUBLIC KEY``); its order and
    a list no condition reads decide nothing."""
    lists: dict[str, list[str | bytes]] = {}
    read: set[str] = set()
    for child in ast.walk(node):
        if (
            isinstance(child, ast.Assign) and len(child.targets) == 1
            and isinstance(child.targets[0], ast.Name)
            and isinstance(child.value, ast.List | ast.Tuple | ast.Set)
        ):  # fmt: skip
            elements = child.value.elts
            values = [
                e.value for e in elements
                if isinstance(e, ast.Constant) and isinstance(e.value, str | bytes)
            ]  # fmt: skip
            if values and len(values) == len(elements):  # constants only
                lists[child.targets[0].id] = values
        tested = child.test if isinstance(child, ast.If | ast.While | ast.IfExp | ast.Assert) else (
            child.iter if isinstance(child, ast.For) else None
        )
        if tested is not None:
            read.update(n.id for n in ast.walk(tested) if isinstance(n, ast.Name))
    return Counter(
        f"member {value!r}" for name, values in lists.items() if name in read for value in values
    )


def _absent_from(text: str) -> Callable[[str], bool]:
    """A test of whether a name is absent from ``text`` (as a whole word)."""
    words = frozenset(re.findall(r"[A-Za-z_$][\w$]*", text))
    return lambda name: name not in words


def python_hook_tested(node: ast.If) -> str | None:
    """The attribute an ``if`` only tests for being set, when its branch calls it: ``if
    self.on_redirect is not None: self.on_redirect(url)``, ``if callable(opts.verify):``,
    ``if self.hook: self.hook(x)`` (the attribute's name; a local is not an option). The
    Python spelling of :func:`grammars.hook_tested`."""
    test = node.test
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.IsNot):
        right = test.comparators[0]
        test = test.left if isinstance(right, ast.Constant) and right.value is None else test
    elif isinstance(test, ast.Call) and ast.unparse(test.func) == "callable" and test.args:
        test = test.args[0]
    if not isinstance(test, ast.Attribute):
        return None
    wanted = ast.unparse(test)
    for child in node.body:
        for inner in ast.walk(child):
            if isinstance(inner, ast.Call) and ast.unparse(inner.func) == wanted:
                return test.attr
    return None


def python_hooks_run(node: ast.For) -> str | None:
    """The registry a loop calls every entry of, by its key or attribute: ``for hook in
    self.compliance_hook["access_token_request"]: url, headers, body = hook(url, headers,
    body)`` (requests-oauthlib adding two hook points to its token requests, held out on
    holdout74). Hooks registered under a name the PR adds run only for those who register
    them, as with :func:`python_hook_tested`."""
    if not isinstance(node.target, ast.Name):
        return None
    runs = any(
        isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name)
        and inner.func.id == node.target.id
        for child in node.body for inner in ast.walk(child)
    )  # fmt: skip
    registry = node.iter
    if isinstance(registry, ast.Subscript) and isinstance(registry.slice, ast.Constant):
        key = registry.slice.value
        return key if runs and isinstance(key, str) and key.isidentifier() else None
    return registry.attr if runs and isinstance(registry, ast.Attribute) else None


def _python_atoms(
    node: ast.AST, six: dict[str, type] | None = None,
    new_hook: Callable[[str], bool] | None = None,
) -> Counter[str]:
    six = six or {}
    atoms: Counter[str] = tested_members(node)
    stack: list[tuple[ast.AST, bool, tuple[str, str] | None]] = [(node, False, None)]
    while stack:
        current, in_condition, own = stack.pop()
        if isinstance(current, ast.FunctionDef | ast.AsyncFunctionDef):
            own = _forwarded(current)
        runs = _what_runs(current, new_hook)
        if runs is not None:
            stack.extend((part, in_condition, own) for part in runs)
            continue
        callee = ast.unparse(current.func) if isinstance(current, ast.Call) else ""
        if callee in _TYPING_CALLS:
            continue  # cast(T, x): a typing statement, no decision
        if callee and (is_skipped_call(callee) or ERROR_CONSTRUCTOR.match(callee)):
            continue  # the wording of an error or a log line, the order of a list
        if callee in six:
            continue  # b("x"): the literal b"x" spelled for Python 2
        if isinstance(current, ast.Raise) and current.exc is not None:
            exc = current.exc.func if isinstance(current.exc, ast.Call) else current.exc
            atoms[f"refuse raise {last_name(ast.unparse(exc))}"] += 1
            continue  # what is raised counts, not the words of its message
        atom, deciding = _python_atom(current, in_condition, callee, six)
        if atom is not None and own is not None and atom == f"call {own[1]}":
            atom = f"{own[0]} {own[1]}"  # a wrapper's one call (see compare)
        if atom is not None:
            atoms[atom] += 1
        for name, value in ast.iter_fields(current):
            if name in _SKIPPED_FIELDS and not (name == "decorator_list" and current is node):
                continue
            children = value if isinstance(value, list) else [value]
            stack.extend(
                (child, in_condition or deciding, own) for child in children
                if isinstance(child, ast.AST)
            )  # fmt: skip
    return atoms


def _python_bound(node: ast.AST, value: re.Pattern[str]) -> frozenset[str]:
    """The names a Python function assigns (the first of a tuple target) from an expression
    ``value`` finds in."""
    out: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Assign):
            targets, assigned = sub.targets, sub.value
        elif isinstance(sub, ast.AnnAssign | ast.NamedExpr) and sub.value is not None:
            targets, assigned = [sub.target], sub.value
        else:
            continue
        if not value.search(ast.unparse(assigned)):
            continue
        for target in targets:
            first = target.elts[0] if isinstance(target, ast.Tuple) and target.elts else target
            if isinstance(first, ast.Name):
                out.add(first.id)
    return frozenset(out)


def _python_prefix_tests(node: ast.AST) -> list[tuple[str, str]]:
    """Each ``x.startswith(root)`` in ``node``, as its code and the string it examines."""
    return [
        (ast.unparse(sub), ast.unparse(sub.func.value)) for sub in ast.walk(node)
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute)
        and sub.func.attr in PREFIX_TESTS
    ]  # fmt: skip


def _python_locals(node: ast.AST) -> tuple[str, ...]:
    """The names the functions in ``node`` (a function or a class) declare for themselves, in
    the order they are first declared: parameters, assigned names, ``except ... as`` names,
    nested functions; not names declared ``global``, nor a class body's own attributes."""
    found: list[tuple[int, int, str]] = []
    global_names: set[str] = set()
    pending: list[tuple[ast.AST, bool]] = [(node, False)]  # a node, and whether in a function
    while pending:  # one walk: a nested function's names are not collected twice
        sub, inside = pending.pop()
        if isinstance(sub, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            a = sub.args
            found.extend(
                (arg.lineno, arg.col_offset, arg.arg)
                for arg in (*a.posonlyargs, *a.args, a.vararg, *a.kwonlyargs, a.kwarg)
                if arg is not None
            )
            if inside and not isinstance(sub, ast.Lambda):
                found.append((sub.lineno, sub.col_offset, sub.name))
            inside = True
        elif inside and isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
            found.append((sub.lineno, sub.col_offset, sub.id))
        elif inside and isinstance(sub, ast.ExceptHandler) and sub.name:
            found.append((sub.lineno, sub.col_offset, sub.name))
        elif inside and isinstance(sub, ast.Global):
            global_names.update(sub.names)
        pending.extend((child, inside) for child in ast.iter_child_nodes(sub))
    scoped = ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef
    own = node.name if isinstance(node, scoped) else ""
    names: dict[str, None] = {}
    for _, _, name in sorted(found):
        if name not in global_names and name != own:
            names.setdefault(name, None)
    return tuple(names)


def _python_aliases(node: ast.AST) -> dict[str, str]:
    """:func:`grammars.read_aliases` for a Python function: its own names (not parameters)
    bound exactly once, by a plain assignment of a plain read (``n = len(parts)``,
    ``limit = self.max_size``), by name -> the value as decision atoms write it."""
    values: dict[str, list[str | None]] = {}
    parameters = {
        arg.arg for sub in ast.walk(node)
        if isinstance(sub, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
        for arg in (*sub.args.posonlyargs, *sub.args.args, sub.args.vararg,
                    *sub.args.kwonlyargs, sub.args.kwarg)
        if arg is not None
    }  # fmt: skip
    plain: dict[int, str] = {}
    for sub in ast.walk(node):
        if (isinstance(sub, ast.Assign) and len(sub.targets) == 1
                and isinstance(sub.targets[0], ast.Name)):
            text = ast.unparse(sub.value)
            if grammars.plain_read(text.replace(" ", "")):
                plain[id(sub.targets[0])] = text
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store | ast.Del):
            values.setdefault(sub.id, []).append(plain.get(id(sub)))
        elif (other := _bound_otherwise(sub)) and sub is not node:
            values.setdefault(other, []).append(None)
    return {
        name: assigned[0] for name, assigned in values.items()
        if len(assigned) == 1 and assigned[0] is not None and name not in parameters
        and not re.search(rf"(?<![\w.]){re.escape(name)}(?!\w)", assigned[0])
    }  # fmt: skip


def _bound_otherwise(node: ast.AST) -> str:
    """The name ``node`` binds other than by assignment (a nested function or class, an
    ``except ... as`` name, an import's name), or ``""``."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return node.name
    if isinstance(node, ast.ExceptHandler):
        return node.name or ""
    if isinstance(node, ast.alias):
        return (node.asname or node.name).partition(".")[0]
    return ""


def _python_function(tree: ast.Module, start: int) -> ast.AST | None:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            if first == start:
                return node
    return None


class SourceDecisions:
    """One side of a file, parsed once: its classes and functions by chain, and what each
    decides (Python on :mod:`ast`, other languages on their tree-sitter tree)."""

    def __init__(self, path: str, source: str | None, known: str | None = None) -> None:
        """``known``: the file's base text when this is its head side (the file existed):
        an ``if`` calling a hook whose name it lacks runs only where the new hook is set
        (:func:`grammars.hook_tested`, :func:`python_hook_tested`)."""
        self._new_hook = None if not known else _absent_from(known)
        self._python: ast.Module | None = None
        self._six: dict[str, type] = {}
        self._tree: Tree | None = None
        self._error_value: re.Pattern[str] | None = None
        self._top: list[Scope] = []
        self._absent: dict[int, tuple[SourceDecisions, list[Counter[str] | None]]] = {}
        """The decisions of this side's scopes another side lacks, by that side (kept, so its
        id is not reused while cached)."""
        self._path = path
        if source is None:
            return
        if path.endswith(PYTHON_EXTENSIONS):
            self._python = parse_python(source)
            if self._python is not None:
                aliases = builtin_aliases(self._python)
                if aliases:  # a copy: the parsed tree is shared (pyast.parse_python)
                    self._python = _AliasFolder(aliases).visit(copy.deepcopy(self._python))
                self._top = python_scopes(self._python)
                self._six = six_literal_names(self._python)
        else:
            self._tree = grammars.parse(path, source)
            self._top = [] if self._tree is None else self._tree.scopes
            self._error_value = GO_ERROR_VALUE if path.endswith(".go") else ERROR_CONSTRUCTOR

    @property
    def top(self) -> list[Scope]:
        """The file's outermost classes and functions."""
        return self._top

    def scope(
        self, chain: tuple[str, ...], line: int | None = None, rank: int = 0
    ) -> Scope | None:
        """The class or function ``chain`` names (module first), or None; of several of one
        name, the one spanning ``line``, else the ``rank``-th (:func:`find_scope`)."""
        return find_scope(self._top, chain, line, rank)

    def rank(self, chain: tuple[str, ...], scope: Scope | None) -> int:
        """Which of the scopes named like ``chain`` ``scope`` is (:func:`scope_rank`)."""
        return scope_rank(self._top, chain, scope)

    def renamed(self, atoms: Counter[str] | None, other: SourceDecisions) -> bool:
        """Whether this side holds a function or class deciding exactly ``atoms`` (something)
        under a name ``other`` (the file's other side) does not have: the scope a new (or
        removed) one of ``other`` was renamed from (or to), in the same file
        (``escapeXML.toString = function`` -> ``function escapeXMLToString``)."""
        if not atoms:
            return False
        key = id(other)
        cached = self._absent.get(key)
        if cached is None or cached[0] is not other:  # once per pair of sides, not per scope
            found: list[Counter[str] | None] = []
            stack: list[tuple[tuple[str, ...], Scope]] = [((s.name,), s) for s in self._top]
            while stack:
                names, scope = stack.pop()
                stack.extend(((*names, c.name), c) for c in scope.children)
                if other.scope(("", *names)) is None:
                    found.append(self.atoms_at(scope))
            cached = self._absent[key] = (other, found)
        return atoms in cached[1]

    def bound_at(self, scope: Scope, value: re.Pattern[str]) -> frozenset[str]:
        """The names ``scope`` assigns from an expression ``value`` finds in (Python on
        :mod:`ast`, others on tree-sitter: :func:`grammars.bound_names`)."""
        if self._python is not None:
            node = _python_function(self._python, scope.start)
            return frozenset() if node is None else _python_bound(node, value)
        if self._tree is not None:
            return grammars.bound_names(self._tree, scope.start, scope.end, value)
        return frozenset()

    def module_imports(self) -> dict[str, str]:
        """The names this side binds to whole imported modules (JavaScript/TypeScript and Go:
        :func:`grammars.module_imports`; Python's are read where used)."""
        return {} if self._tree is None else grammars.module_imports(self._tree)

    def prefix_tests_at(self, scope: Scope) -> list[tuple[str, str]]:
        """Each prefix test (:data:`grammars.PREFIX_TESTS`) ``scope`` calls, as its code (as
        its decision atoms write it) and the string it examines (Python on :mod:`ast`, others
        on tree-sitter: :func:`grammars.prefix_tests`)."""
        if self._python is not None:
            node = _python_function(self._python, scope.start)
            return [] if node is None else _python_prefix_tests(node)
        if self._tree is not None:
            return grammars.prefix_tests(self._tree, scope.start, scope.end)
        return []

    def ui_code(self, scope: Scope) -> bool:
        """Whether ``scope`` builds JSX or, in a Svelte module, declares reactive state
        (:func:`grammars.ui_code`; never in Python)."""
        return self._tree is not None and grammars.ui_code(
            self._tree, scope.start, scope.end, runes=self._path.endswith(grammars.SVELTE_MODULES)
        )

    def local_names_at(self, scope: Scope) -> tuple[str, ...]:
        """The names ``scope`` declares for itself, in declaration order (Python on :mod:`ast`,
        others on tree-sitter: :func:`grammars.local_names`)."""
        if self._python is not None:
            node = _python_function(self._python, scope.start)
            return () if node is None else _python_locals(node)
        if self._tree is not None:
            found = grammars.local_names(self._tree, scope.start, scope.end)
            return tuple(name for name in found if name != scope.name)
        return ()

    def aliases_at(self, scope: Scope) -> dict[str, str]:
        """The locals of ``scope`` holding a plain read, by name -> the value (Python on
        :mod:`ast`, others on tree-sitter: :func:`grammars.read_aliases`)."""
        if self._python is not None:
            node = _python_function(self._python, scope.start)
            return {} if node is None else _python_aliases(node)
        if self._tree is not None:
            return grammars.read_aliases(self._tree, scope.start, scope.end)
        return {}

    def atoms_at(self, scope: Scope) -> Counter[str] | None:
        """The decisions of ``scope``; None without a tree."""
        atoms = None
        if self._python is not None:
            node = _python_function(self._python, scope.start)
            atoms = None if node is None else _python_atoms(node, self._six, self._new_hook)
        elif self._tree is not None:
            atoms = grammars.decision_atoms(
                self._tree, scope.start, scope.end, conversions=CONVERSIONS,
                messages=SKIPPED_CALLS, quiet=QUIET_CALLS,
                error_value=self._error_value, new_hook=self._new_hook,
            )  # fmt: skip
        return None if atoms is None else _canonical_calls(atoms, go=self._path.endswith(".go"))


INLINE_DEPTH = 3
"""How many levels of helpers :meth:`Sides.inlined` reads through (a helper calling itself
stops there too)."""


class Sides:
    """The PR's files on each side, each parsed once when first asked: the file a security
    function is in, and where a function that left it (or came into it) may have gone (or
    come from)."""

    def __init__(self, files: Sequence[FileDiff], base: RepoTree, head: RepoTree) -> None:
        self._paths = {
            "base": [f.old_path or f.path for f in files if f.status is not FileStatus.ADDED],
            "head": [f.path for f in files if f.status is not FileStatus.DELETED],
        }
        self._trees = {"base": base, "head": head}
        self._base_of = {
            f.path: f.old_path or f.path for f in files
            if f.status not in (FileStatus.ADDED, FileStatus.DELETED)
        }  # fmt: skip
        """A changed file's base path by its head path: what its head side's new hooks are
        new against."""
        self._parsed: dict[tuple[str, str], SourceDecisions] = {}
        self._defined: dict[str, dict[str, list[tuple[str, Scope]]]] = {}

    def source(self, side: str, path: str) -> str | None:
        """The text of ``path`` on ``side`` (``base`` or ``head``)."""
        return self._trees[side].read(path)

    def parsed(self, side: str, path: str) -> SourceDecisions:
        """The file at ``path`` on ``side`` (``base`` or ``head``), read and parsed once."""
        key = (side, path)
        if key not in self._parsed:
            known = None
            if side == "head" and path in self._base_of:
                known = self.source("base", self._base_of[path])
            self._parsed[key] = SourceDecisions(path, self.source(side, path), known)
        return self._parsed[key]

    def moved(
        self, side: str, chain: tuple[str, ...], atoms: Counter[str] | None, here: str
    ) -> bool:
        """Whether a scope named ``chain`` (any module) with the same decisions is in another
        file of the PR on ``side``: a function or class moved between files, unchanged."""
        if atoms is None:
            return False
        for path in self._paths[side]:
            if path == here:
                continue
            other = self.parsed(side, path)
            found = other.scope(("", *chain[1:]))
            if found is not None and other.atoms_at(found) == atoms:
                return True
        return False


    def functions(self, side: str) -> dict[str, list[tuple[str, Scope]]]:
        """Every function and class of the PR's files on ``side`` by its name, with its file."""
        if side not in self._defined:
            found: dict[str, list[tuple[str, Scope]]] = {}
            for path in self._paths[side]:
                stack = list(self.parsed(side, path).top)
                while stack:
                    scope = stack.pop()
                    found.setdefault(scope.name.rsplit(".", 1)[-1], []).append((path, scope))
                    stack.extend(scope.children)
            self._defined[side] = found
        return self._defined[side]

    def inlined(self, side: str, atoms: Counter[str] | None, here: str, scope: Scope | None,
                depth: int = 0) -> Counter[str] | None:
        """``atoms`` (of ``scope`` in ``here``) with each call of a helper the PR adds or
        removes replaced by the helper's own decisions, and theirs in turn up to
        :data:`INLINE_DEPTH` levels (``absURL`` calling ``absPath``, both renamed, dexidp/dex
        #4929): extracting code into a new function (``write_to_stdout(data)`` for the
        branches it holds) or inlining a removed one decides nothing new, while a helper that
        checks or calls more than the code it replaced still shows. A helper is a function or
        method of one of the PR's files on ``side``, named once there (or once in the caller's
        own folder: a Go package's ``absPath`` beside other packages' own) and nowhere on the
        other side; one defined inside ``scope`` is already counted in it."""
        if atoms is None:
            return None
        mine = self.functions(side)
        theirs = self.functions("head" if side == "base" else "base")
        out: Counter[str] = Counter()
        for atom, count in atoms.items():
            kind, _, name = atom.partition(" ")
            found = _nearest(mine.get(name, []) if kind in ("call", "delegate") else [], here)
            if len(found) == 1 and name not in theirs:
                path, helper = found[0]
                inside = scope is not None and path == here and (
                    scope.start <= helper.start and helper.end <= scope.end
                )
                body = None if inside else self.parsed(side, path).atoms_at(helper)
                if body is not None and depth + 1 < INLINE_DEPTH:
                    body = self.inlined(side, body, path, helper, depth + 1)
                if body is not None:
                    for inner, times in body.items():
                        out[inner] += times * count
                    continue
            out[atom] += count
        return out


def _nearest(found: list[tuple[str, Scope]], here: str) -> list[tuple[str, Scope]]:
    """``found`` (helpers of one name), narrowed to the one in ``here``'s folder when there are
    several and exactly one is there."""
    if len(found) < 2:
        return found
    folder = here.rpartition("/")[0]
    near = [entry for entry in found if entry[0].rpartition("/")[0] == folder]
    return near if len(near) == 1 else found


@dataclass(frozen=True)
class FunctionChange:
    """A function or class of a PR's file whose decisions the PR changes."""

    line: ScopedLine
    """The first changed line in it (its chain names the scope)."""
    after: Scope | None
    """The scope in the head, None when the PR removed it."""
    before: Scope | None
    """The scope in the base, None when the PR added it."""
    old: Counter[str] | None
    new: Counter[str] | None
    change: DecisionChange

    @property
    def where(self) -> str:
        return f"line {self.after.start}" if self.after is not None else "the base file"


def changed_functions(
    f: FileDiff, lines: Iterable[ScopedLine], sides: Sides,
    removed: Iterable[ScopedLine] = (),
) -> Iterator[FunctionChange]:
    """Each function or class holding one of ``lines`` (lines ``f`` adds, numbered in the
    head file) or ``removed`` (lines it removes, numbered in the base file) whose decisions
    differ between the sides, once per scope, in that order. A line's own side names its
    function; of several functions of one name (overloads, a getter and its setter), the other
    side's of the same rank is compared with it. Module-level lines decide nothing; a scope
    that came from (or went to) another file of the PR deciding the same, or was renamed in
    its file deciding the same, is no change; so is every function of a file the PR deletes
    whole (they go with it: what used them changes in lines of its own, read there)."""
    if f.status is FileStatus.DELETED:
        return
    old_path = f.old_path or f.path
    none = SourceDecisions(f.path, None)
    old_side = none if f.status is FileStatus.ADDED else sides.parsed("base", old_path)
    new_side = sides.parsed("head", f.path)
    seen: set[tuple[tuple[str, ...], int | None, int | None]] = set()
    tagged = [(line, True) for line in lines] + [(line, False) for line in removed]
    for line, in_head in tagged:
        chain = line.chain
        if len(chain) < 2 or not line.parsed:
            continue
        if in_head:
            after = new_side.scope(chain, line.line)
            before = old_side.scope(chain, rank=new_side.rank(chain, after))
        else:
            before = old_side.scope(chain, line.line)
            after = new_side.scope(chain, rank=old_side.rank(chain, before))
        key = (chain, None if before is None else before.start,
               None if after is None else after.start)
        if key in seen:
            continue
        seen.add(key)
        old = None if before is None else old_side.atoms_at(before)
        new = None if after is None else new_side.atoms_at(after)
        if before is None and (
            sides.moved("base", chain, new, old_path) or old_side.renamed(new, new_side)
        ):
            continue
        if after is None and (
            sides.moved("head", chain, old, f.path) or new_side.renamed(old, old_side)
        ):
            continue
        change = compare(old, new)
        if change is not None and before is not None and after is not None and compare(
            alpha_renamed(old, old_side.local_names_at(before)),
            alpha_renamed(new, new_side.local_names_at(after)),
        ) is None:
            change = None  # its own names renamed, one for one: it decides the same
        if change is not None and before is not None and after is not None and compare(
            dealiased(old, old_side.aliases_at(before)),
            dealiased(new, new_side.aliases_at(after)),
        ) is None:
            change = None  # a plain read hoisted into a local of its own (or back)
        if change is not None:
            change = compare(
                sides.inlined("base", old, old_path, before),
                sides.inlined("head", new, f.path, after),
            )
        if change is not None:
            yield FunctionChange(line, after, before, old, new, change)


def alpha_renamed(atoms: Counter[str] | None, names: Sequence[str]) -> Counter[str] | None:
    """``atoms`` with each of a function's own ``names`` (parameters and locals, in the order it
    declares them) written as its position (``$0``, ``$1``...): two functions whose decisions
    differ only in what they call their own names, one for one, decide the same (a linter's
    renaming, ``precedesDoubleQuote`` -> ``isPrecedesDoubleQuote``). A name the function does
    not declare (a module's, a property) is kept: a check that reads another module name decides
    something else."""
    return _substituted(atoms, {name: f"${i}" for i, name in enumerate(names)})


def _substituted(atoms: Counter[str] | None, names: Mapping[str, str]) -> Counter[str] | None:
    """``atoms`` with each of ``names`` (a name standing alone, not a property) replaced."""
    if atoms is None or not names:
        return atoms
    alternatives = "|".join(map(re.escape, sorted(names, key=len, reverse=True)))
    own = re.compile(rf"(?<![\w$.])({alternatives})(?![\w$])")
    out: Counter[str] = Counter()
    for atom, count in atoms.items():
        verb, _, rest = atom.partition(" ")
        out[f"{verb} {own.sub(lambda m: names[m.group(1)], rest)}"] += count
    return out


def dealiased(atoms: Counter[str] | None, aliases: Mapping[str, str]) -> Counter[str] | None:
    """``atoms`` with each local holding a plain read written as what it reads (``i<tokenLen``
    -> ``i<token.length`` once ``tokenLen = token.length``): a loop bound or a length hoisted
    into a local, the commonest micro-optimisation (moment's "optimize for loops"), decides
    what it did. The substitution assumes what the local read is not changed between the
    assignment and the check (a length cached before a loop that shortens the array reads
    otherwise): a refactor's risk, not a check's, and a hoisted read beside a new condition
    still differs."""
    return _substituted(atoms, aliases)


def atoms_of(
    path: str, source: str | None, scope: Scope, known: str | None = None
) -> Counter[str] | None:
    """The decisions of ``scope`` (a function or class of ``source``; ``known``: the file's
    base text when ``source`` is its head); None without a tree."""
    return SourceDecisions(path, source, known).atoms_at(scope)


def compare(old: Counter[str] | None, new: Counter[str] | None) -> DecisionChange | None:
    """The difference of two functions' decisions, None when they decide the same (or when
    neither side could be read)."""
    if old is None and new is None:
        return None
    if (old is None and _only_delegation(new)) or (new is None and _only_delegation(old)):
        return None  # a function added or removed that only hands its arguments on
    before, after = _as_calls(old or Counter()), _as_calls(new or Counter())
    if before == after:
        return None
    came, gone = _without_swapped_refusals(*_without_forwards(after - before, before - after))
    renamed = Counter(map(_shape, _checks(came))) & Counter(map(_shape, _checks(gone)))
    added = tuple(sorted(_unpaired(came, renamed), key=_weight))
    removed = tuple(sorted(_unpaired(gone, renamed), key=_weight))
    if not added and not removed:
        return None
    return DecisionChange(added=added, removed=removed)


def _only_delegation(atoms: Counter[str] | None) -> bool:
    """The function's one statement hands its own parameters to another function: the callee
    decides (and is compared where the PR changes it), so adding or removing such a function
    decides nothing; switching an existing function to another callee is a change."""
    found = list((atoms or Counter()).elements())
    return len(found) == 1 and found[0].startswith("delegate ")


GO_ITERATOR_FORMS = {
    "SplitSeq": "Split", "SplitAfterSeq": "SplitAfter", "FieldsSeq": "Fields",
    "FieldsFuncSeq": "FieldsFunc",
}  # fmt: skip
"""Go 1.24's iterator forms of ``strings``/``bytes`` functions, by last name, as the slice forms
they replace in a ``range`` (``for p := range strings.SplitSeq(v, ",")``, what Go's
``modernize`` writes): the same parts in the same order, so no decision changes (minio's
``..`` filter check rewritten so, held out on holdout41)."""


def _as_calls(atoms: Counter[str]) -> Counter[str]:
    """Delegations as the calls they are, and Go's iterator forms as the calls they replace
    (:data:`GO_ITERATOR_FORMS`), for comparing two versions of a function."""
    if not any(
        a.startswith("delegate ") or GO_ITERATOR_FORMS.get(a.removeprefix("call ")) for a in atoms
    ):
        return atoms
    out: Counter[str] = Counter()
    for atom, count in atoms.items():
        call = "call " + atom.removeprefix("delegate ") if atom.startswith("delegate ") else atom
        name = call.removeprefix("call ")
        out["call " + GO_ITERATOR_FORMS[name] if name in GO_ITERATOR_FORMS else call] += count
    return out


def _without_forwards(came: Counter[str], gone: Counter[str]) -> tuple[Counter[str], Counter[str]]:
    """``came`` and ``gone`` without forwards: a wrapper whose one statement calls its own name
    (``onBodySent(c) { this.handler.onBodySent(c) }``, ``return super().verify(t)``) hands the
    decision to the callee, so adding or removing it is no change; and a forward that became an
    ordinary call of that name (``return key.sign(m)`` -> ``s = key.sign(m); return s``) pairs
    with it. A wrapper that does more than forward (sets a flag, checks first) keeps its call:
    removing it is a change."""
    came, gone = Counter(came), Counter(gone)
    for mine, theirs in ((came, gone), (gone, came)):
        for atom in [a for a in mine if a.startswith("forward ")]:
            call = "call " + atom.removeprefix("forward ")
            paired = min(mine[atom], theirs[call])
            theirs[call] -= paired
            del mine[atom]
    return +came, +gone


_REFUSAL_VERBS = ("refuse raise ", "refuse throw ")


def _without_swapped_refusals(
    came: Counter[str], gone: Counter[str]
) -> tuple[Counter[str], Counter[str]]:
    """``came`` and ``gone`` without refusals that only changed what they throw: ``throw new
    Error(m)`` -> ``throw new ProxyError(m)``, ``raise ValueError`` -> ``raise ConfigError``
    refuse where they did (the conditions around them are compared on their own), so each
    refusal of one side pairs off with one of the other side, by verb (raise, throw)."""
    came, gone = Counter(came), Counter(gone)
    for verb in _REFUSAL_VERBS:
        mine = sorted(a for a in came.elements() if a.startswith(verb))
        theirs = sorted(a for a in gone.elements() if a.startswith(verb))
        for atom_came, atom_gone in zip(mine, theirs, strict=False):
            came[atom_came] -= 1
            gone[atom_gone] -= 1
    return +came, +gone


def _shape(atom: str) -> str:
    """A check with the receivers of its member accesses masked (:func:`mask_receivers`):
    ``event.req.headers.get("cookie")`` and ``event.request.headers.get("cookie")`` have one
    shape; ``isinstance(issuer, str)`` and ``isinstance(issuer, Sequence)`` do not, nor do
    ``iss not in issuer`` and ``issuer != iss``."""
    return mask_receivers(atom.removeprefix("check "))


def _checks(atoms: Counter[str]) -> list[str]:
    return [a for a in atoms.elements() if a.startswith("check ")]


def _unpaired(atoms: Counter[str], renamed: Counter[str]) -> list[str]:
    """``atoms`` without the checks that only renamed what they read (``renamed``: shapes
    found on both sides, each pairing off once)."""
    left = Counter(renamed)
    out: list[str] = []
    for atom in atoms.elements():
        shape = _shape(atom) if atom.startswith("check ") else None
        if shape is not None and left[shape] > 0:
            left[shape] -= 1
            continue
        out.append(atom)
    return out


DECISION_EXAMPLES: tuple[tuple[str, str, str, bool], ...] = (
    (  # Go's context-taking variant of the same call (oathkeeper, holdout75)
        "remote.go",
        (
            "package authz\n\nfunc (a *Remote) Authorize(r *http.Request) error {\n"
            "\treq, err := http.NewRequest(\"POST\", a.url, r.Body)\n"
            "\tif err != nil {\n\t\treturn err\n\t}\n\treturn a.do(req)\n}\n"
        ),
        (
            "package authz\n\nfunc (a *Remote) Authorize(r *http.Request) error {\n"
            "\treq, err := http.NewRequestWithContext(r.Context(), \"POST\", a.url, r.Body)\n"
            "\tif err != nil {\n\t\treturn err\n\t}\n\treturn a.do(req)\n}\n"
        ),
        False,
    ),
    (  # ... another call is not
        "remote.go",
        (
            "package authz\n\nfunc (a *Remote) Authorize(r *http.Request) error {\n"
            "\treq, err := http.NewRequest(\"POST\", a.url, r.Body)\n"
            "\tif err != nil {\n\t\treturn err\n\t}\n\treturn a.do(req)\n}\n"
        ),
        (
            "package authz\n\nfunc (a *Remote) Authorize(r *http.Request) error {\n"
            "\treq, err := a.signedRequest(r.Context(), \"POST\", a.url, r.Body)\n"
            "\tif err != nil {\n\t\treturn err\n\t}\n\treturn a.do(req)\n}\n"
        ),
        True,
    ),
    (  # another read of the same clock (flask-login, holdout72)
        "login_manager.py",
        (
            "def _set_cookie(self, response):\n"
            "    expires = datetime.utcnow() + self.duration\n"
            "    response.set_cookie(self.name, expires=expires)\n"
        ),
        (
            "def _set_cookie(self, response):\n"
            "    expires = datetime.now(timezone.utc) + self.duration\n"
            "    response.set_cookie(self.name, expires=expires)\n"
        ),
        False,
    ),
    (  # ... an expiry compared with the clock is a decision
        "login_manager.py",
        "def _load_user(self, cookie):\n    return self.store.get(cookie.id)\n",
        (
            "def _load_user(self, cookie):\n    if cookie.expires < datetime.now(timezone.utc):\n"
            "        return None\n    return self.store.get(cookie.id)\n"
        ),
        True,
    ),
    (  # a Python 2 shim dropped: `unicode` was `str` (requests-oauthlib, holdout74)
        "oauth1_auth.py",
        (
            "from compat import is_py3\nif is_py3:\n    unicode = str\n\n"
            "def sign(r):\n    if not isinstance(r.ctype, unicode):\n"
            "        r.ctype = unicode(r.ctype)\n    return r\n"
        ),
        (
            "def sign(r):\n    if not isinstance(r.ctype, str):\n"
            "        r.ctype = str(r.ctype)\n    return r\n"
        ),
        False,
    ),
    (  # ... a name bound to something else too is no alias
        "oauth1_auth.py",
        (
            "try:\n    text = unicode\nexcept NameError:\n    text = make_text\n\n"
            "def sign(r):\n    if not isinstance(r.ctype, text):\n        raise TypeError()\n"
            "    return r\n"
        ),
        (
            "def sign(r):\n    if not isinstance(r.ctype, str):\n        raise TypeError()\n"
            "    return r\n"
        ),
        True,
    ),
    (  # hooks registered under a name the PR adds (requests-oauthlib, holdout74)
        "oauth2_session.py",
        "def fetch_token(self, url, headers):\n    return self.request(url, headers=headers)\n",
        (
            "def fetch_token(self, url, headers):\n"
            "    for hook in self.compliance_hook['access_token_request']:\n"
            "        url, headers = hook(url, headers)\n"
            "    return self.request(url, headers=headers)\n"
        ),
        False,
    ),
    (  # a trailing comma is a formatter's (node-saml, holdout74)
        "saml.ts",
        (
            "function getLogoutUrl (req, cb) {\n"
            "  return callbackify(() => this.getLogoutUrlAsync(req, true))(cb)\n}\n"
        ),
        (
            "function getLogoutUrl (req, cb) {\n"
            "  return callbackify(() => this.getLogoutUrlAsync(req, true,),)(cb)\n}\n"
        ),
        False,
    ),
    (  # the request's context handed on (go-oauth2, holdout73)
        "server.go",
        (
            "package server\n\nfunc (s *Server) ValidationTokenRequest(r *http.Request) error {\n"
            "\tuserID, err := s.PasswordAuthorizationHandler(r.FormValue(\"username\"))\n"
            "\treturn err\n}\n"
        ),
        (
            "package server\n\nfunc (s *Server) ValidationTokenRequest(r *http.Request) error {\n"
            "\tuserID, err := s.PasswordAuthorizationHandler(\n"
            "\t\tr.Context(), r.FormValue(\"username\"))\n"
            "\treturn err\n}\n"
        ),
        False,
    ),
    (  # ... a deadline set is a decision
        "server.go",
        (
            "package server\n\nfunc (s *Server) ValidationTokenRequest(r *http.Request) error {\n"
            "\treturn s.check(r.Context())\n}\n"
        ),
        (
            "package server\n\nfunc (s *Server) ValidationTokenRequest(r *http.Request) error {\n"
            "\tctx, cancel := context.WithTimeout(r.Context(), time.Second)\n\tdefer cancel()\n"
            "\treturn s.check(ctx)\n}\n"
        ),
        True,
    ),
    (  # a case's values are a set: a duplicate dropped matches the same (go-oauth2, holdout73)
        "server.go",
        (
            "package server\n\nfunc (s *Server) GetAccessToken(err error) error {\n"
            "\tswitch err {\n\tcase ErrInvalidCode, ErrMissingChallenge,\n"
            "\t\tErrMissingChallenge:\n\t\treturn ErrInvalidGrant\n\t}\n\treturn err\n}\n"
        ),
        (
            "package server\n\nfunc (s *Server) GetAccessToken(err error) error {\n"
            "\tswitch err {\n\tcase ErrMissingChallenge, ErrInvalidCode:\n"
            "\t\treturn ErrInvalidGrant\n\t}\n\treturn err\n}\n"
        ),
        False,
    ),
    (  # ... a value added is not
        "server.go",
        (
            "package server\n\nfunc (s *Server) GetAccessToken(err error) error {\n"
            "\tswitch err {\n\tcase ErrInvalidCode:\n"
            "\t\treturn ErrInvalidGrant\n\t}\n\treturn err\n}\n"
        ),
        (
            "package server\n\nfunc (s *Server) GetAccessToken(err error) error {\n"
            "\tswitch err {\n\tcase ErrInvalidCode, ErrMissingChallenge:\n"
            "\t\treturn ErrInvalidGrant\n\t}\n\treturn err\n}\n"
        ),
        True,
    ),
    (  # an optional handler the PR adds, called only when set (go-oauth2, holdout73)
        "server.go",
        (
            "package server\n\nfunc (s *Server) token(w http.ResponseWriter, d Data) error {\n"
            "\tw.Header().Set(\"Cache-Control\", \"no-store\")\n\treturn write(w, d)\n}\n"
        ),
        (
            "package server\n\nfunc (s *Server) token(w http.ResponseWriter, d Data) error {\n"
            "\tif fn := s.ResponseTokenHandler; fn != nil {\n\t\treturn fn(w, d)\n\t}\n"
            "\tw.Header().Set(\"Cache-Control\", \"no-store\")\n\treturn write(w, d)\n}\n"
        ),
        False,
    ),
    (  # ... but one the base file already had is a hook users set: calling it decides
        "server.go",
        (
            "package server\n\nfunc (s *Server) token(w http.ResponseWriter, d Data) error {\n"
            "\tif fn := s.ResponseTokenHandler; fn != nil {\n\t\treturn fn(w, d)\n\t}\n"
            "\treturn write(w, d)\n}\n"
        ),
        (
            "package server\n\nfunc (s *Server) token(w http.ResponseWriter, d Data) error {\n"
            "\treturn write(w, d)\n}\n"
        ),
        True,
    ),
    (  # a new member tested as input, not called, still decides (a token's `nbf` claim)
        "verify.js",
        "function verify (payload, now) {\n  return payload\n}\n",
        (
            "function verify (payload, now) {\n  if (payload.nbf) {\n"
            "    if (payload.nbf > now) throw new NotBeforeError('jwt not active')\n  }\n"
            "  return payload\n}\n"
        ),
        True,
    ),
    (  # a new callback option, in JavaScript and Python
        "redirect.js",
        "function follow (opts, url) {\n  return fetch(url)\n}\n",
        (
            "function follow (opts, url) {\n"
            "  if (typeof opts.beforeRedirect === 'function') opts.beforeRedirect(url)\n"
            "  return fetch(url)\n}\n"
        ),
        False,
    ),
    (
        "auth.py",
        "def authenticate(self, token):\n    return self.store.load(token)\n",
        (
            "def authenticate(self, token):\n    if self.on_token is not None:\n"
            "        self.on_token(token)\n    return self.store.load(token)\n"
        ),
        False,
    ),
    (  # ... whose `else` is the code everyone else now runs: read
        "auth.py",
        "def authenticate(self, token):\n    return self.store.load(token)\n",
        (
            "def authenticate(self, token):\n    if self.verifier is not None:\n"
            "        return self.verifier(token)\n    else:\n"
            "        if not token:\n            raise Unauthorized()\n"
            "    return self.store.load(token)\n"
        ),
        True,
    ),
    (  # an error value built, then thrown, reworded as an error code (fastify-static, holdout71)
        "redirect.js",
        (
            "function getRedirectUrl (url) {\n  try { return parse(url) } catch {\n"
            "    const err = new Error(`Invalid redirect URL: ${url}`)\n"
            "    err.statusCode = 400\n    throw err\n  }\n}\n"
        ),
        (
            "function getRedirectUrl (url) {\n  try { return parse(url) } catch {\n"
            "    throw new FST_STATIC_INVALID_REDIRECT_URL(url)\n  }\n}\n"
        ),
        False,
    ),
    (  # ... and handed to a callback in other words
        "auth.js",
        (
            "function verify (t, cb) {\n  if (!t) return cb(new TypeError('no token'))\n"
            "  cb(null)\n}\n"
        ),
        (
            "function verify (t, cb) {\n  if (!t) return cb(new AuthError(errors.NO_TOKEN))\n"
            "  cb(null)\n}\n"
        ),
        False,
    ),
    (  # ... but a refusal added where none was is a decision
        "auth.js",
        "function verify (t, cb) {\n  cb(null)\n}\n",
        (
            "function verify (t, cb) {\n  if (!t) return cb(new TypeError('no token'))\n"
            "  cb(null)\n}\n"
        ),
        True,
    ),
    (  # Python: an exception built to raise later words the refusal
        "auth.py",
        (
            "def verify_token(t):\n    if not t:\n        exc = ValueError('no token')\n"
            "        raise exc\n"
        ),
        (
            "def verify_token(t):\n    if not t:\n        exc = TokenError(Messages.NO_TOKEN)\n"
            "        raise exc\n"
        ),
        False,
    ),
    (  # a nil-safe accessor's default decides nothing (go-crypto's Config getters, holdout62)
        "config.go",
        "func (c *Config) Hash() crypto.Hash {\n\treturn c.DefaultHash\n}\n",
        (
            "func (c *Config) Hash() crypto.Hash {\n\tif c == nil {\n\t\treturn crypto.SHA256\n"
            "\t}\n\treturn c.DefaultHash\n}\n"
        ),
        False,
    ),
    (  # ... but a nil receiver refused with an error does
        "config.go",
        "func (c *Config) Check() error {\n\treturn c.validate()\n}\n",
        (
            "func (c *Config) Check() error {\n\tif c == nil {\n\t\treturn ErrNoConfig\n"
            "\t}\n\treturn c.validate()\n}\n"
        ),
        True,
    ),
    (  # ... and so does a nil test of anything but the receiver (a field: a nil dereference)
        "sig.go",
        "func (s *Sig) Issuer() uint64 {\n\treturn *s.IssuerKeyId\n}\n",
        (
            "func (s *Sig) Issuer() uint64 {\n\tif s.IssuerKeyId == nil {\n\t\treturn 0\n"
            "\t}\n\treturn *s.IssuerKeyId\n}\n"
        ),
        True,
    ),
    (  # a returned prefix test is a comparison: its operands decide (pip's CVE-2026-8643 helper)
        "wheel.py",
        "def within(name, root):\n    return name.startswith(root)\n",
        "def within(name, root):\n    return name.startswith(root + os.sep)\n",
        True,
    ),
    (  # ... as in JavaScript and Go, where it was a call by its last name before
        "root.js",
        "function within(p, root) {\n  return p.startsWith(root)\n}\n",
        "function within(p, root) {\n  return p.startsWith(root + path.sep)\n}\n",
        True,
    ),
    (  # ... and the same test bound to a name before it is returned decides the same
        "root.go",
        "package fs\nfunc within(p, root string) bool {\n\treturn strings.HasPrefix(p, root)\n}\n",
        (
            "package fs\nfunc within(p, root string) bool {\n"
            "\tok := strings.HasPrefix(p, root)\n\treturn ok\n}\n"
        ),
        False,
    ),
    (  # Go 1.24's iterator form of a split, as `modernize` writes it (minio's filter rule check)
        "config.go",
        (
            "package event\nfunc Validate(v string) error {\n"
            "\tfor _, s := range strings.Split(v, \"/\") {\n"
            "\t\tif s == \"..\" {\n\t\t\treturn ErrInvalid\n\t\t}\n\t}\n\treturn nil\n}\n"
        ),
        (
            "package event\nfunc Validate(v string) error {\n"
            "\tfor s := range strings.SplitSeq(v, \"/\") {\n"
            "\t\tif s == \"..\" {\n\t\t\treturn ErrInvalid\n\t\t}\n\t}\n\treturn nil\n}\n"
        ),
        False,
    ),
    (  # ... but splitting on another separator is a change
        "config.go",
        (
            "package event\nfunc Validate(v string) error {\n"
            "\tfor _, s := range strings.Split(v, \"/\") {\n"
            "\t\tif s == \"..\" {\n\t\t\treturn ErrInvalid\n\t\t}\n\t}\n\treturn nil\n}\n"
        ),
        (
            "package event\nfunc Validate(v string) error {\n"
            "\tfor s := range strings.FieldsSeq(v) {\n"
            "\t\tif s == \"..\" {\n\t\t\treturn ErrInvalid\n\t\t}\n\t}\n\treturn nil\n}\n"
        ),
        True,
    ),
    (  # a list put in order another way: the order a login page shows connectors in
        # (dexidp/dex #4939)
        "templates.go",
        (
            "package t\nfunc (t *T) Login(w W, cs []C) error {\n\tsort.Sort(byName(cs))\n"
            "\treturn t.render(w, cs)\n}\n"
        ),
        (
            "package t\nfunc (t *T) Login(w W, cs []C) error {\n"
            "\tslices.SortStableFunc(cs, func(a, b C) int {\n"
            "\t\treturn cmp.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name))\n\t})\n"
            "\treturn t.render(w, cs)\n}\n"
        ),
        False,
    ),
    (  # ... the same in Python and JavaScript
        "auth.py",
        "def login_choices(providers):\n    return sorted(providers, key=lambda p: p.name)\n",
        (
            "def login_choices(providers):\n"
            "    return sorted(providers, key=lambda p: p.name.casefold())\n"
        ),
        False,
    ),
    (
        "auth.js",
        "function choices(ps) {\n  return ps.slice().sort((a, b) => a.name < b.name ? -1 : 1)\n}\n",
        "function choices(ps) {\n  return ps.toSorted((a, b) => a.name.localeCompare(b.name))\n}\n",
        False,
    ),
    (  # ... but a filter on what is shown is a decision
        "templates.go",
        (
            "package t\nfunc (t *T) Login(w W, cs []C) error {\n\tsort.Sort(byName(cs))\n"
            "\treturn t.render(w, cs)\n}\n"
        ),
        (
            "package t\nfunc (t *T) Login(w W, cs []C) error {\n\tsort.Sort(byName(cs))\n"
            "\tcs = slices.DeleteFunc(cs, func(c C) bool { return c.Hidden })\n"
            "\treturn t.render(w, cs)\n}\n"
        ),
        True,
    ),
    (  # a trace event rewritten as a span attribute (ory/kratos, holdout35)
        "verification.go",
        (
            "package h\nfunc (e *V) ExecuteLoginPostHook(r *R, f *F) error {\n"
            "\tif f.AAL != AAL1 {\n\t\tspan.AddEvent(\"skipping: AAL is not 1\")\n"
            "\t\treturn nil\n\t}\n\treturn e.do(r)\n}\n"
        ),
        (
            "package h\nfunc (e *V) ExecuteLoginPostHook(r *R, f *F) error {\n"
            "\tif f.AAL != AAL1 {\n"
            "\t\tspan.SetAttributes(attribute.String(\"skip_reason\", \"AAL is not 1\"))\n"
            "\t\treturn nil\n\t}\n\treturn e.do(r)\n}\n"
        ),
        False,
    ),
    (  # ... the same in Python
        "login.py",
        "def login(user):\n    span.add_event('login')\n    return check(user)\n",
        (
            "def login(user):\n    span.set_attributes({'user.id': str(user.id)})\n"
            "    return check(user)\n"
        ),
        False,
    ),
    (  # ... but a check beside it is a decision
        "login.py",
        "def login(user):\n    span.add_event('login')\n    return check(user)\n",
        (
            "def login(user):\n    span.add_event('login')\n    if user.locked:\n"
            "        return False\n    return check(user)\n"
        ),
        True,
    ),
    (  # a lock taken around what the function did before: when it runs, not what it
        # decides (ory/fosite #856, a memory store's token lifespans)
        "memory.go",
        "package s\nfunc (s *S) SetTokenLifespans(c string, l int) {\n\ts.lifespans[c] = l\n}\n",
        (
            "package s\nfunc (s *S) SetTokenLifespans(c string, l int) {\n\ts.mu.Lock()\n"
            "\tdefer s.mu.Unlock()\n\ts.lifespans[c] = l\n}\n"
        ),
        False,
    ),
    (  # ... the same in Python
        "tokens.py",
        "def revoke_token(self, t):\n    self.revoked.add(t)\n",
        (
            "def revoke_token(self, t):\n    self._lock.acquire()\n    self.revoked.add(t)\n"
            "    self._lock.release()\n"
        ),
        False,
    ),
    (  # the error a refusal returns wraps its cause: the wording of the error, as
        # fmt.Errorf's is (ory/fosite #837)
        "flow_refresh.go",
        (
            "package o\nfunc (c *H) handleRefreshTokenStorageError(e error) error {\n"
            "\tif errors.Is(e, ErrNotFound) {\n"
            "\t\treturn errorsx.WithStack(fosite.ErrInvalidRequest.WithDebugf(e.Error()).\n"
            "\t\t\tWithHint(\"refresh failed\"))\n\t}\n\treturn e\n}\n"
        ),
        (
            "package o\nfunc (c *H) handleRefreshTokenStorageError(e error) error {\n"
            "\tif errors.Is(e, ErrNotFound) {\n"
            "\t\treturn errorsx.WithStack(fosite.ErrInvalidRequest.WithDebugf(e.Error()).\n"
            "\t\t\tWithWrap(e).WithHint(\"refresh failed\"))\n\t}\n\treturn e\n}\n"
        ),
        False,
    ),
    (  # ... but returning another error is a change
        "flow_refresh.go",
        (
            "package o\nfunc (c *H) handleRefreshTokenStorageError(e error) error {\n"
            "\tif errors.Is(e, ErrNotFound) {\n"
            "\t\treturn fosite.ErrInvalidRequest.WithHint(\"refresh failed\")\n\t}\n"
            "\treturn e\n}\n"
        ),
        (
            "package o\nfunc (c *H) handleRefreshTokenStorageError(e error) error {\n"
            "\tif errors.Is(e, ErrNotFound) {\n"
            "\t\treturn fosite.ErrInvalidRequest.WithHint(\"refresh failed\")\n\t}\n"
            "\treturn c.revoke(e)\n}\n"
        ),
        True,
    ),
    (  # a deprecation notice (PEP 702) on a method: a message, not a decision (pyopenssl
        # #1510, X509's mutable methods deprecated)
        "crypto.py",
        "class X509:\n    def sign(self, pkey, digest):\n        _sign(self, pkey, digest)\n",
        (
            "class X509:\n    @deprecated('X509.sign is deprecated')\n"
            "    def sign(self, pkey, digest):\n        _sign(self, pkey, digest)\n"
        ),
        False,
    ),
    (  # ... but a check added beside the lock is a decision
        "memory.go",
        "package s\nfunc (s *S) SetTokenLifespans(c string, l int) {\n\ts.lifespans[c] = l\n}\n",
        (
            "package s\nfunc (s *S) SetTokenLifespans(c string, l int) {\n\ts.mu.Lock()\n"
            "\tdefer s.mu.Unlock()\n\tif l > 0 {\n\t\ts.lifespans[c] = l\n\t}\n}\n"
        ),
        True,
    ),
    (  # a new method ("" base: the PR adds it) that only hands its parameters to an
        # existing one (unrolled/secure #47)
        "secure.go",
        "",
        (
            "package secure\nfunc (s *Secure) ProcessNoModifyRequest(w W, r *R) (H, error) {\n"
            "\treturn s.processRequest(w, r)\n}\n"
        ),
        False,
    ),
    (  # ... the same in Python, a keyword argument passed on
        "session.py",
        "",
        "def verify_token(self, t, *, now):\n    return self._verify(t, now=now)\n",
        False,
    ),
    (  # ... but a new method that passes a value of its own decides (what it passes)
        "secure.go",
        "",
        (
            "package secure\nfunc (s *Secure) ProcessInsecure(w W, r *R) error {\n"
            "\treturn s.process(w, r, true)\n}\n"
        ),
        True,
    ),
    (  # ... nor one that hands them to a module-level object: its configuration is chosen here
        # (gin's CVE-2023-29401 fix: escapeQuotes through a strings.Replacer)
        "context.go",
        "",
        "package gin\nfunc escapeQuotes(s string) string {\n\treturn quoteEscaper.Replace(s)\n}\n",
        True,
    ),
    (  # ... in Python too
        "context.py",
        "",
        "def escape_quotes(s):\n    return QUOTE_ESCAPER.escape(s)\n",
        True,
    ),
    (  # ... nor is a negated call a delegation
        "lib.js",
        "",
        "function denied (user) {\n  return !allowed(user)\n}\n",
        True,
    ),
    (  # ... and an existing function switched to another callee is a change
        "verify.py",
        "def verify_sig(sig, key):\n    return strict_check(sig, key)\n",
        "def verify_sig(sig, key):\n    return loose_check(sig, key)\n",
        True,
    ),
    (  # Python 2 support dropped: six's b("") is the literal b"" (python-ecdsa's #329)
        "keys.py",
        (
            "from six import PY2, b\ndef from_der(s):\n    if s != b(''):\n"
            "        raise UnexpectedDER('trailing junk')\n    return b('\\x00') + s\n"
        ),
        (
            "from six import PY2\ndef from_der(s):\n    if s != b'':\n"
            "        raise UnexpectedDER('trailing junk')\n    return b'\\x00' + s\n"
        ),
        False,
    ),
    (  # Python 2 branches spelled another way: a version test decides nothing, its branches
        # still count (python-rsa's PY2 constant)
        "cli.py",
        (
            "def write_signature(data):\n    if sys.version_info[0] >= 3:\n"
            "        sys.stdout.buffer.write(data)\n    else:\n        sys.stdout.write(data)\n"
        ),
        (
            "def write_signature(data):\n    if PY2:\n        sys.stdout.write(data)\n"
            "    else:\n        sys.stdout.buffer.write(data)\n"
        ),
        False,
    ),
    (  # ... but a condition that reads more than the version decides
        "cli.py",
        "def sign_text(s):\n    return s\n",
        (
            "def sign_text(s):\n    if PY2 and isinstance(s, unicode):\n        s = s.encode()\n"
            "    return s\n"
        ),
        True,
    ),
    (  # ... and a branch that stops writing is a change of what runs
        "cli.py",
        (
            "def write_signature(data):\n    if sys.version_info[0] >= 3:\n"
            "        sys.stdout.buffer.write(data)\n    else:\n        sys.stdout.write(data)\n"
        ),
        "def write_signature(data):\n    if sys.version_info[0] >= 3:\n        pass\n",
        True,
    ),
    (  # an entry added to a list of strings a refusing condition tests (python-jose's
        # CVE-2017-11424: PKCS#1 public keys refused as HMAC secrets)
        "jwk.py",
        (
            "def prepare_key(self, key):\n"
            "    invalid = [b'-----BEGIN PUBLIC KEY-----', b'ssh-rsa']\n"
            "    if any(s in key for s in invalid):\n        raise JWKError('not a secret')\n"
        ),
        (
            "def prepare_key(self, key):\n    invalid = [b'-----BEGIN PUBLIC KEY-----',\n"
            "               b'-----BEGIN RSA PUBLIC KEY-----', b'ssh-rsa']\n"
            "    if any(s in key for s in invalid):\n        raise JWKError('not a secret')\n"
        ),
        True,
    ),
    (  # ... but the same entries in another order, or a list no condition reads, decide nothing
        "jwk.py",
        (
            "def prepare_key(self, key):\n"
            "    invalid = [b'ssh-rsa', b'-----BEGIN PUBLIC KEY-----']\n"
            "    fields = ['kty', 'k']\n    if any(s in key for s in invalid):\n"
            "        raise JWKError(', '.join(fields))\n"
        ),
        (
            "def prepare_key(self, key):\n"
            "    invalid = [b'-----BEGIN PUBLIC KEY-----', b'ssh-rsa']\n"
            "    fields = ['kty', 'k', 'alg']\n    if any(s in key for s in invalid):\n"
            "        raise JWKError(', '.join(fields))\n"
        ),
        False,
    ),
    (  # string formatting respelled as an f-string (bleach's f-string conversion): the
        # literal's join builds a string, no decision
        "sanitizer.py",
        (
            "def disallowed_token(self, token):\n"
            "    token['data'] = '<{}{}>'.format(token['name'], ''.join(attrs))\n"
        ),
        (
            "def disallowed_token(self, token):\n"
            "    token['data'] = f\"<{token['name']}{''.join(attrs)}>\"\n"
        ),
        False,
    ),
    (  # ... but an escape added inside an f-string is a new call
        "sanitizer.py",
        "def render_token(self, v):\n    return f'<a href=\"{v}\">'\n",
        "def render_token(self, v):\n    return f'<a href=\"{escape(v)}\">'\n",
        True,
    ),
    (  # ... but a different literal is a different check
        "keys.py",
        "import six\ndef from_der(s):\n    if s != six.b(''):\n        raise UnexpectedDER()\n",
        "def from_der(s):\n    if s != b'\\x00':\n        raise UnexpectedDER()\n",
        True,
    ),
    (  # ... and a b() that is not six's is a call like any other
        "keys.py",
        "from .util import b\ndef from_der(s):\n    if s != b(''):\n        raise Bad()\n",
        "def from_der(s):\n    if s != b'':\n        raise Bad()\n",
        True,
    ),
    (
        "a.js",
        "class RedirectHandler {\n  onBodySent (chunk) {}\n}\n",
        (
            "class RedirectHandler {\n  onBodySent (chunk) {\n"
            "    this.handler.onBodySent?.(chunk)\n  }\n}\n"
        ),
        False,
    ),
    (
        "a.js",
        "class RedirectHandler {\n  onBodySent (chunk) {}\n}\n",
        (
            "class RedirectHandler {\n  onBodySent (chunk) {\n"
            "    if (this.sent > max) throw new Err()\n"
            "    this.handler.onBodySent?.(chunk)\n  }\n}\n"
        ),
        True,
    ),
    (
        "a.py",
        "class Verifier:\n    def verify(self, t):\n        pass\n",
        "class Verifier:\n    def verify(self, t):\n        return super().verify(t)\n",
        False,
    ),
    (
        "a.go",
        "package p\nfunc (h *Signed) Verify(t T) error {\n\treturn nil\n}\n",
        "package p\nfunc (h *Signed) Verify(t T) error {\n\treturn h.inner.Verify(t)\n}\n",
        False,
    ),
    (
        "a.py",
        "def sign(self, msg, key):\n    return key.sign(msg, self.pad())\n",
        (
            "def sign(self, msg, key):\n    signature: bytes = key.sign(msg, self.pad())\n"
            "    return signature\n"
        ),
        False,
    ),
    (
        "a.py",
        "def sign(self, msg, key):\n    return key.sign(msg, self.pad())\n",
        (
            "def sign(self, msg, key):\n    if not key.can_sign:\n        raise InvalidKey()\n"
            "    return key.sign(msg, self.pad())\n"
        ),
        True,
    ),
    (
        "a.py",
        (
            "class CookieSession(Base):\n    def get(self, k):\n        self.accessed = True\n"
            "        return super().get(k)\n"
        ),
        "class CookieSession(Base):\n    pass\n",
        True,
    ),
    (
        "a.go",
        "package p\nfunc (h *Signed) Verify(t T) error {\n\treturn nil\n}\n",
        "package p\nfunc (h *Signed) Verify(t T) error {\n\treturn h.inner.Check(t)\n}\n",
        True,
    ),
    (
        "a.py",
        "def check(k):\n    if k in ALLOWED:\n        return k\n",
        "def check(k):\n    if k == ALLOWED[0]:\n        return k\n",
        True,
    ),
    (
        "a.py",
        "def prepare_key(key):\n    return force_bytes(key)\n",
        (
            "def prepare_key(key):\n    if is_pem(key):\n        raise InvalidKeyError('pem')\n"
            "    return force_bytes(key)\n"
        ),
        True,
    ),
    (
        "a.py",
        "def safe_write(s):\n    return w(s)\n",
        "def safe_write(s: str) -> int:\n    x: int = w(cast(str, s))\n    return x\n",
        False,
    ),
    (
        "a.js",
        "function redirect(u) {\n  body = '<a href=\"' + u + '\">'\n}\n",
        "function redirect(u) {\n  body = '<a href=\"' + escapeHtml(u) + '\">'\n}\n",
        True,
    ),
    (
        "a.ts",
        "function setAuthorization(v: string): void {\n  this.set('Authorization', v)\n}\n",
        (
            "function setAuthorization(v: AxiosHeaderValue): void {\n"
            "  this.set('Authorization', v as string)\n}\n"
        ),
        False,
    ),
    (
        "a.go",
        "package p\nfunc escapeQuotes(s string) string {\n\treturn quoteEscaper.Replace(s)\n}\n",
        (
            "package p\nfunc escapeQuotes(s string) string {\n\treturn strings.NewReplacer(`\\\\`, "
            "`\\\\\\\\`, `\"`, `\\\\\"`).Replace(s)\n}\n"
        ),
        True,
    ),
    (
        "a.go",
        "package p\nfunc verifyExp(v *V) error {\n\treturn errorIfFalse(ok, ErrTokenExpired)\n}\n",
        (
            "package p\nfunc verifyExp(v *V) error {\n\treturn errorIfFalse(ok, "
            "fmt.Errorf(\"%w by %s\", ErrTokenExpired, d.Truncate(time.Second)))\n}\n"
        ),
        False,
    ),
    (
        "a.ts",
        "function isPreflight(event) {\n  return event.request.method === 'OPTIONS' && !!o\n}\n",
        "function isPreflight(event) {\n  return event.req.method === 'OPTIONS' && !!o\n}\n",
        False,
    ),
    (
        "a.ts",
        "function isPreflight(event) {\n  return event.request.method === 'OPTIONS' && !!o\n}\n",
        "function isPreflight(event) {\n  return event.req.method !== 'OPTIONS' && !!o\n}\n",
        True,
    ),
    (
        "a.py",
        "def verify(t):\n    if not t:\n        raise InvalidToken('bad')\n",
        "def verify(t):\n    if not t:\n        raise InvalidToken(f'bad token {t!r}')\n",
        False,
    ),
    (  # a refusal that only throws another class refuses where it did (http-proxy-middleware's
        # verifyConfig throwing its own error class)
        "configuration.ts",
        "function verifyConfig(o) {\n  if (!o.target) {\n    throw new Error(ERR)\n  }\n}\n",
        (
            "function verifyConfig(o) {\n  if (!o.target) {\n"
            "    throw new HttpProxyMiddlewareError(ERR)\n  }\n}\n"
        ),
        False,
    ),
    (
        "a.py",
        "def verify(t):\n    if not t:\n        raise ValueError('bad')\n",
        "def verify(t):\n    if not t:\n        raise InvalidToken('bad')\n",
        False,
    ),
    (  # ... but a refusal added or removed is a change, whatever it throws
        "configuration.ts",
        "function verifyConfig(o) {\n  if (!o.target) {\n    throw new Error(ERR)\n  }\n}\n",
        (
            "function verifyConfig(o) {\n  if (!o.target) {\n    throw new Error(ERR)\n  }\n"
            "  if (!o.router) {\n    throw new HttpProxyMiddlewareError(ERR)\n  }\n}\n"
        ),
        True,
    ),
    (  # ... and so is a refusal that became a return
        "a.py",
        "def verify(t):\n    if not t:\n        raise InvalidToken('bad')\n    return t\n",
        "def verify(t):\n    if not t:\n        return None\n    return t\n",
        True,
    ),
)


_HANDLERS = (
    "package server\n\ntype Server struct {{\n\tCheck CheckHandler\n{field}}}\n\n"
    "func (s *Server) token(w http.ResponseWriter, d Data) error {{\n{body}"
    "\tw.Header().Set(\"Cache-Control\", \"no-store\")\n\treturn write(w, d)\n}}\n"
)
_HOOKED = "\tif fn := s.ResponseTokenHandler; fn != nil {\n\t\treturn fn(w, d)\n\t}\n"

HELPER_EXAMPLES: tuple[tuple[dict[str, str], dict[str, str], bool], ...] = (
    (  # a handler field and its call added in one file: the PR's new hook (go-oauth2, holdout73)
        {"server/server.go": _HANDLERS.format(field="", body="")},
        {"server/server.go": _HANDLERS.format(
            field="\tResponseTokenHandler ResponseTokenHandler\n", body=_HOOKED)},
        False,
    ),
    (  # ... a field the base file had is a hook users set: newly calling it decides
        {"server/server.go": _HANDLERS.format(
            field="\tResponseTokenHandler ResponseTokenHandler\n", body="")},
        {"server/server.go": _HANDLERS.format(
            field="\tResponseTokenHandler ResponseTokenHandler\n", body=_HOOKED)},
        True,
    ),
    (  # code moved into a helper the PR adds in another module (python-rsa's
        # write_to_stdout): the security-named function decides what it did
        {
            "rsa/cli.py": (
                "def write_signature(data):\n    if sys.version_info[0] >= 3:\n"
                "        sys.stdout.buffer.write(data)\n    else:\n"
                "        sys.stdout.write(data)\n"
            ),
            "rsa/compat.py": "MAX = 1\n",
        },
        {
            "rsa/cli.py": "def write_signature(data):\n    compat.write_to_stdout(data)\n",
            "rsa/compat.py": (
                "MAX = 1\n\n\ndef write_to_stdout(data):\n    if PY2:\n"
                "        sys.stdout.write(data)\n    else:\n        sys.stdout.buffer.write(data)\n"
            ),
        },
        False,
    ),
    (  # ... but a new helper that checks more than the code it replaced is a change
        {"lib.js": "function verifyToken (t) {\n  return decode(t)\n}\n"},
        {
            "lib.js": (
                "function verifyToken (t) {\n  ensurePresent(t)\n  return decode(t)\n}\n"
                "function ensurePresent (t) {\n  if (!t.sig) throw new Error('unsigned')\n}\n"
            )
        },
        True,
    ),
    (  # ... a check extracted into a helper in the same file, one level
        {
            "lib.js": (
                "function verifyToken (t) {\n  if (!t.sig) throw new Error('unsigned')\n"
                "  return decode(t)\n}\n"
            )
        },
        {
            "lib.js": (
                "function verifyToken (t) {\n  ensurePresent(t)\n  return decode(t)\n}\n"
                "function ensurePresent (t) {\n  if (!t.sig) throw new Error('unsigned')\n}\n"
            )
        },
        False,
    ),
    (  # ... and inlined from a helper the PR removes
        {
            "lib.js": (
                "function verifyToken (t) {\n  ensurePresent(t)\n  return decode(t)\n}\n"
                "function ensurePresent (t) {\n  if (!t.sig) throw new Error('unsigned')\n}\n"
            )
        },
        {
            "lib.js": (
                "function verifyToken (t) {\n  if (!t.sig) throw new Error('unsigned')\n"
                "  return decode(t)\n}\n"
            )
        },
        False,
    ),
    (  # ... but a helper on both sides is not read through: calling it is a new decision
        {
            "lib.js": (
                "function verifyToken (t) {\n  return decode(t)\n}\n"
                "function ensurePresent (t) {\n  if (!t.sig) throw new Error('unsigned')\n}\n"
            )
        },
        {
            "lib.js": (
                "function verifyToken (t) {\n  ensurePresent(t)\n  return decode(t)\n}\n"
                "function ensurePresent (t) {\n  if (!t.sig) throw new Error('unsigned')\n}\n"
            )
        },
        True,
    ),
)
"""Each: the PR's files on the base and head sides, and whether the function named
``verifyToken``/``write_signature`` (named for a security concern) changes what it decides when
helpers the PR adds or removes are read through (:meth:`Sides.inlined`). A helper added to a
module named for a security concern (``auth.js``) is named for it too, so its own checks are
new there: only the caller is read through."""

RENAME_EXAMPLES: tuple[tuple[dict[str, str], dict[str, str], bool], ...] = (
    (  # a linter's renaming of a local (execa's `escapeArgument`, holdout50): the same decisions
        {"lib/command.js": (
            "const escapeArgument = (raw, doubleEscape) => {\n"
            "  const precedesQuote = raw.endsWith('\\\\')\n"
            "  return precedesQuote && doubleEscape ? raw + '\"' : raw\n}\n"
        )},
        {"lib/command.js": (
            "const escapeArgument = (raw, isDoubleEscape) => {\n"
            "  const isPrecedesQuote = raw.endsWith('\\\\')\n"
            "  return isPrecedesQuote && isDoubleEscape ? raw + '\"' : raw\n}\n"
        )},
        False,
    ),
    (  # Python: a parameter renamed everywhere it is read
        {"auth.py": "def verify_token(tok, key):\n    if not tok:\n        raise Invalid()\n"
                    "    return check(tok, key)\n"},
        {"auth.py": "def verify_token(token, key):\n    if not token:\n        raise Invalid()\n"
                    "    return check(token, key)\n"},
        False,
    ),
    (  # Go: a short variable declaration renamed
        {"auth.go": "package auth\nfunc verifySig(s string) error {\n\tok := valid(s)\n"
                    "\tif !ok {\n\t\treturn ErrSig\n\t}\n\treturn nil\n}\n"},
        {"auth.go": "package auth\nfunc verifySig(s string) error {\n\tisValid := valid(s)\n"
                    "\tif !isValid {\n\t\treturn ErrSig\n\t}\n\treturn nil\n}\n"},
        False,
    ),
    (  # ... but a check that now reads a module's name instead of its own decides otherwise
        {"lib/auth.js": (
            "const STRICT = true\nfunction verifyToken (t) {\n  const strict = t.strict\n"
            "  if (strict) throw new Error('x')\n}\n"
        )},
        {"lib/auth.js": (
            "const STRICT = true\nfunction verifyToken (t) {\n  const strict = t.strict\n"
            "  if (STRICT) throw new Error('x')\n}\n"
        )},
        True,
    ),
    (  # ... and a renamed parameter beside a new check is a change
        {"auth.py": "def verify_token(tok):\n    return check(tok)\n"},
        {"auth.py": "def verify_token(token):\n    if not token:\n        raise Invalid()\n"
                    "    return check(token)\n"},
        True,
    ),
)
"""Each: a file on the base and head sides, and whether its function named for a security
concern changes what it decides once its own names (parameters and locals) are compared by the
order it declares them (:func:`alpha_renamed`)."""

HOIST_EXAMPLES: tuple[tuple[dict[str, str], dict[str, str], bool], ...] = (
    (  # go-oauth2 (holdout73): a pair of reads in an `if` initializer, one inlined
        {"server.go": "package server\nfunc (s *Server) GetAccessToken(tgr *Req) error {\n"
                      "\tif scope, fn := tgr.Scope, s.ScopeHandler; scope != \"\" && fn != nil {\n"
                      "\t\treturn fn(tgr)\n\t}\n\treturn nil\n}\n"},
        {"server.go": "package server\nfunc (s *Server) GetAccessToken(tgr *Req) error {\n"
                      "\tif fn := s.ScopeHandler; tgr.Scope != \"\" && fn != nil {\n"
                      "\t\treturn fn(tgr)\n\t}\n\treturn nil\n}\n"},
        False,
    ),
    (  # ... a different read is a change
        {"server.go": "package server\nfunc (s *Server) GetAccessToken(tgr *Req) error {\n"
                      "\tif scope, fn := tgr.Scope, s.ScopeHandler; scope != \"\" && fn != nil {\n"
                      "\t\treturn fn(tgr)\n\t}\n\treturn nil\n}\n"},
        {"server.go": "package server\nfunc (s *Server) GetAccessToken(tgr *Req) error {\n"
                      "\tif fn := s.ScopeHandler; tgr.Refresh != \"\" && fn != nil {\n"
                      "\t\treturn fn(tgr)\n\t}\n\treturn nil\n}\n"},
        True,
    ),
    (  # moment's "optimize for loops" (holdout55): a length hoisted out of a loop bound
        {"src/lib/parse/token.js": (
            "export function addParseToken(token, callback) {\n  var i, func = callback;\n"
            "  if (typeof token === 'string') { token = [token]; }\n"
            "  for (i = 0; i < token.length; i++) { tokens[token[i]] = func; }\n}\n"
        )},
        {"src/lib/parse/token.js": (
            "export function addParseToken(token, callback) {\n"
            "  var i, func = callback, tokenLen;\n"
            "  if (typeof token === 'string') { token = [token]; }\n"
            "  tokenLen = token.length;\n"
            "  for (i = 0; i < tokenLen; i++) { tokens[token[i]] = func; }\n}\n"
        )},
        False,
    ),
    (  # Go: `n := len(parts)` before the loop
        {"auth.go": "package auth\nfunc verifyToken(parts []string) error {\n"
                    "\tfor i := 0; i < len(parts); i++ {\n"
                    "\t\tuse(parts[i])\n\t}\n\treturn nil\n}\n"},
        {"auth.go": "package auth\nfunc verifyToken(parts []string) error {\n"
                    "\tn := len(parts)\n"
                    "\tfor i := 0; i < n; i++ {\n\t\tuse(parts[i])\n\t}\n\treturn nil\n}\n"},
        False,
    ),
    (  # Python: a property read into a local
        {"auth.py": "def verify_token(self, data):\n    if len(data) > self.max_size:\n"
                    "        raise TooLarge()\n    return check(data)\n"},
        {"auth.py": "def verify_token(self, data):\n    limit = self.max_size\n"
                    "    if len(data) > limit:\n        raise TooLarge()\n"
                    "    return check(data)\n"},
        False,
    ),
    (  # ... but a hoisted bound beside a changed comparison is a change
        {"auth.go": "package auth\nfunc verifyToken(parts []string) error {\n"
                    "\tfor i := 0; i < len(parts); i++ {\n"
                    "\t\tuse(parts[i])\n\t}\n\treturn nil\n}\n"},
        {"auth.go": "package auth\nfunc verifyToken(parts []string) error {\n"
                    "\tn := len(parts)\n"
                    "\tfor i := 0; i <= n; i++ {\n\t\tuse(parts[i])\n\t}\n\treturn nil\n}\n"},
        True,
    ),
    (  # ... and so is a local assigned twice (it no longer holds one read)
        {"auth.py": "def verify_token(self, data):\n    if len(data) > self.max_size:\n"
                    "        raise TooLarge()\n    return check(data)\n"},
        {"auth.py": "def verify_token(self, data):\n    limit = self.max_size\n"
                    "    if self.strict:\n        limit = 0\n"
                    "    if len(data) > limit:\n        raise TooLarge()\n"
                    "    return check(data)\n"},
        True,
    ),
    (  # ... and a local holding a call's result (it computes, it does not read)
        {"lib/auth.js": "function verifyToken (t) {\n"
                        "  if (t.length > MAX) throw new Error('x')\n}\n"},
        {"lib/auth.js": "function verifyToken (t) {\n  const n = measure(t)\n"
                        "  if (n > MAX) throw new Error('x')\n}\n"},
        True,
    ),
)  # fmt: skip
"""Each: a file on the base and head sides, and whether its function named for a security
concern changes what it decides once its locals holding a plain read are written as what they
read (:func:`dealiased`)."""
