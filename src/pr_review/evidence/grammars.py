"""Syntax trees for languages other than Python: the one module that imports tree-sitter.

``tree-sitter`` with the grammars of ``tree-sitter-language-pack`` (both pinned). Everything
here degrades to None: a language without a grammar, a grammar that fails to load, a source
too large or one that does not parse cleanly (error nodes) is simply not analysed on a tree;
callers record that and fall back to their lexical analysis. Python is read with the
standard :mod:`ast` elsewhere (:mod:`pr_review.evidence.pyast`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache, partial
from typing import Any

from pr_review.evidence.shared_parses import parsed
from pr_review.sources.paths import extension, module_name

MAX_SOURCE_BYTES = 1_000_000
LANGUAGES: dict[str, str] = {
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".es6": "javascript",  # ES2015 sources of the Babel era (postcss 5-7 `lib/*.es6`)
    ".jsx": "javascript",
    ".ts": "typescript",
    ".tsx": "tsx",
    ".go": "go",
    ".rb": "ruby",
    ".java": "java",
    ".kt": "kotlin",
    ".kts": "kotlin",
    ".rs": "rust",
    ".php": "php",
    ".c": "c",
    ".h": "c",
    ".cc": "cpp",
    ".cpp": "cpp",
    ".hpp": "cpp",
    ".cs": "csharp",
    ".swift": "swift",
    ".scala": "scala",
    ".sh": "bash",
    ".bash": "bash",
    ".lua": "lua",
}
"""Extensions analysed on a tree-sitter tree, and their grammar's name."""
_SCOPE_WORDS = ("function", "method", "class", "struct", "interface", "impl", "module", "trait")
_NAME_FIELDS = ("name", "declarator")


@dataclass(frozen=True)
class Scope:
    """A named function/class-like node: 1-based first and last line, nested scopes."""

    name: str
    start: int
    end: int
    children: list[Scope] = field(default_factory=list)


@dataclass(frozen=True)
class Tree:
    """What the rules read from one parsed source."""

    tokens: tuple[str, ...]
    """Code leaves in order (comments left out): equal sequences behave the same."""
    code_lines: frozenset[int]
    """1-based lines holding at least one code leaf."""
    scopes: list[Scope]
    root: Any = field(default=None, repr=False, compare=False)
    """The tree-sitter root node, for reading a scope's decisions without parsing again."""
    data: bytes = field(default=b"", repr=False, compare=False)


def language_of(path: str) -> str | None:
    """The grammar name for ``path``'s extension, or None when there is none."""
    return LANGUAGES.get(extension(path))


@lru_cache(maxsize=32)
def _parser(language: str) -> Any | None:
    try:
        from tree_sitter_language_pack import get_parser  # noqa: PLC0415 - optional at run time

        return get_parser(language)  # type: ignore[arg-type]
    except (ImportError, LookupError, ValueError, RuntimeError, OSError):
        return None


def _root(path: str, source: str | None) -> tuple[Any, bytes] | None:
    """The tree-sitter root of ``source`` and its bytes; None without a grammar, for a source
    too large, or when the parser fails. Shared within a pack
    (:mod:`pr_review.evidence.shared_parses`)."""
    language = language_of(path)
    if language is None or source is None:
        return None
    return parsed(f"tree-sitter:{language}", source, partial(_parse_root, language, source))


def _parse_root(language: str, source: str) -> tuple[Any, bytes] | None:
    data = source.encode("utf-8", errors="replace")
    parser = _parser(language) if len(data) <= MAX_SOURCE_BYTES else None
    if parser is None:
        return None
    try:
        return parser.parse(data).root_node, data
    except (ValueError, RuntimeError):
        return None


def _clean_root(path: str, source: str | None) -> tuple[Any, bytes] | None:
    """:func:`_root`, None also when the tree has error nodes (rules read clean trees only)."""
    parsed = _root(path, source)
    return None if parsed is None or parsed[0].has_error else parsed


def parse(path: str, source: str | None) -> Tree | None:
    """The tree of ``source`` (a file at ``path``), or None (see the module docstring)."""
    parsed = _root(path, source)
    if parsed is None:
        return None
    root, data = parsed
    if root.has_error:
        return None
    tokens: list[str] = []
    lines: set[int] = set()
    for node, text in _code_leaves(root, data):
        tokens.append(text)
        lines.update(range(node.start_point[0] + 1, node.end_point[0] + 2))
    scopes = _scopes(root, data, module_name(path))
    return Tree(tuple(tokens), frozenset(lines), scopes, root, data)


def _code_leaves(
    root: Any, data: bytes, units: frozenset[str] = frozenset()
) -> Iterator[tuple[Any, str]]:
    """The code leaves under ``root`` in source order with their text: comments left out, a
    string one leaf, a node of a ``units`` type one leaf, blank leaves skipped."""
    stack = [root]
    while stack:
        node = stack.pop()
        if "comment" in node.type:
            continue
        if node.child_count == 0 or "string" in node.type or node.type in units:
            text = data[node.start_byte : node.end_byte].decode("utf-8", errors="replace")
            if text.strip():
                yield node, text
            continue
        stack.extend(reversed(node.children))


IMPORT_NODES = frozenset({"import_spec", "import_statement"})
"""Tree-sitter nodes of one import (Go's ``import_spec``, JavaScript/TypeScript's
``import_statement``): sorting a run of them (``goimports``, an import-order lint rule) moves
no code a program runs in another order; the price, a side-effect import (``import
'polyfill'``) moved within its run, is read as neutral too."""


def ordered_leaves(tree: Tree) -> list[str]:
    """``tree``'s code leaves in order (:attr:`Tree.tokens`), but each import one leaf and a
    run of consecutive imports sorted (:data:`IMPORT_NODES`)."""
    leaves: list[str] = []
    run: list[str] = []
    for node, text in _code_leaves(tree.root, tree.data, IMPORT_NODES):
        if node.type in IMPORT_NODES:
            run.append("import " + " ".join(text.split()))
            continue
        leaves.extend(sorted(run))
        run = []
        leaves.append(text)
    return leaves + sorted(run)


_PROSE_WRAPPERS = frozenset({"literal_element", "expression_list", "parenthesized_expression"})
_KEY_NAMES = frozenset(
    {"identifier", "property_identifier", "field_identifier", "private_property_identifier",
     "shorthand_property_identifier", "string"}
)  # fmt: skip


def prose_tokens(tree: Tree, is_prose: Callable[[str, str], bool]) -> tuple[str, ...]:
    """``tree``'s code leaves in order (:attr:`Tree.tokens`) with the strings people read
    blanked: a constant string (a template without substitutions) bound to a name that
    ``is_prose(name, text)`` accepts, as a key (``Example: `...```, ``{description: '...'}``),
    a declared or assigned name (``const usage = '...'``), or the argument of a method so
    named (``program.description('...')``); strings joined with ``+`` count as one value."""
    return tuple(
        "<prose>" if _prose_string(node, text, tree.data, is_prose) else text
        for node, text in _code_leaves(tree.root, tree.data)
    )


def _prose_string(
    node: Any, text: str, data: bytes, is_prose: Callable[[str, str], bool]
) -> bool:
    if "string" not in node.type or any(c.type == "template_substitution" for c in node.children):
        return False
    child, parent = node, node.parent
    while parent is not None and (
        parent.type in _PROSE_WRAPPERS
        or (
            parent.type == "binary_expression"
            and _text(parent.child_by_field_name("operator"), data) == "+"
        )
    ):
        child, parent = parent, parent.parent
    name = _binding_name(child, parent, data)
    return name is not None and is_prose(name.strip("'\"`"), text[1:-1])


def _binding_name(value: Any, parent: Any | None, data: bytes) -> str | None:
    """The name ``value`` (a child of ``parent``) is bound to or passed under, if any."""
    if parent is None:
        return None
    if parent.type == "arguments":
        call = parent.parent
        callee = call.child_by_field_name("function") if call is not None else None
        if callee is None or callee.type not in {"member_expression", "selector_expression"}:
            return None
        method = callee.child_by_field_name("property") or callee.child_by_field_name("field")
        return _text(method, data) or None
    named = parent.named_children if parent.type in _PROSE_BINDERS else []
    if len(named) < 2 or named[0].start_byte == value.start_byte:
        return None
    key = named[0]
    while key.type in _PROSE_WRAPPERS and len(key.named_children) == 1:
        key = key.named_children[0]
    if key.type == "member_expression":
        key = key.child_by_field_name("property")
    return _text(key, data) if key is not None and key.type in _KEY_NAMES else None


def _name(node: Any, data: bytes) -> str | None:
    for name_field in _NAME_FIELDS:
        child = node.child_by_field_name(name_field)
        while (
            child is not None
            and child.type not in {"identifier", "type_identifier"}
            and (child.child_by_field_name("declarator") is not None)
        ):
            child = child.child_by_field_name("declarator")  # C: pointer/function declarators
        if child is not None and child.type == "computed_property_name":
            # ``[CHECKPATH](entry) {...}``: a method keyed by a symbol constant
            inner = child.named_children[0] if child.named_children else None
            child = inner if inner is not None and inner.type == "identifier" else None
        if child is not None:
            text = data[child.start_byte : child.end_byte].decode("utf-8", errors="replace")
            if text.replace("_", "").isalnum():
                return text
            head = child.child_by_field_name("name") or child.child_by_field_name("declarator")
            if head is not None:
                return data[head.start_byte : head.end_byte].decode("utf-8", errors="replace")
    return None


_FUNCTION_VALUES = frozenset(
    {"function_expression", "function", "arrow_function", "generator_function"}
)
"""JavaScript/TypeScript functions written as values: named by what they are bound to."""
_BINDINGS = {
    "variable_declarator": ("value", "name"),
    "assignment_expression": ("right", "left"),
    "pair": ("value", "key"),
    "public_field_definition": ("value", "name"),
    "field_definition": ("value", "property"),
}
"""Node kinds that bind a value to a name: (the value's field, the name's field)."""
_MODULE_EXPORTS = frozenset({"module.exports", "exports", "module.exports.default",
                             "exports.default"})  # fmt: skip
_PROSE_BINDERS = frozenset(_BINDINGS) | {
    "keyed_element", "var_spec", "const_spec", "short_var_declaration"
}  # fmt: skip
"""Nodes that bind a value to a name written first, JavaScript/TypeScript's
(:data:`_BINDINGS`) and Go's (a struct literal's key, a declared or assigned name): where
:func:`prose_tokens` reads a string's purpose from its name."""


BINDING_EXAMPLES: tuple[tuple[str, str, str | None], ...] = (
    # (path, JavaScript/TypeScript source, the name of its one function scope or None)
    ("lib/verify.js", "module.exports = function (jwt, key) { return jwt };", "verify"),
    ("src/csrf/index.ts", "export default function (opts) { return opts }", "csrf"),
    ("src/csrf/index.ts", "export default (opts) => opts;", "csrf"),
    ("lib/jws.js", "exports.sign = function (payload) { return payload };", "sign"),
    ("lib/jws.js", "Jws.prototype.check = function (t) { return t };", "check"),
    ("src/cookie.ts", "export const getCookie = (c, key) => { return c };", "getCookie"),
    ("src/a.js", "const o = { verify: function (t) { return t } };", "verify"),
    ("src/a.ts", "class A { #guard = (r) => { return r } }", "guard"),
    ("src/a.js", "app.use(function (req, res) { return res });", None),
    ("src/a.js", "export const handler = compose((req) => req);", None),
)
"""Anonymous functions named by what binds them (run by the test suite): the last two are a
callback and a value built by a call, which nothing names."""


def _bound_name(parent: Any, child: Any, data: bytes, module: str) -> str | None:
    """The name an anonymous JavaScript/TypeScript function value is bound to: the variable,
    property or field it is assigned to (``const verify = (t) => ...``, ``exports.sign =
    function (...)``, ``{ check: function () {} }``), or the module for a module's own export
    (``module.exports = function (...)``, ``export default function (...)``); None otherwise
    (a callback passed to a call is named by nothing)."""
    if child.type not in _FUNCTION_VALUES:
        return None
    if parent.type == "export_statement":
        return module if any(c.type == "default" for c in parent.children) else None
    fields = _BINDINGS.get(parent.type)
    if fields is None:
        return None
    value, target = (parent.child_by_field_name(f) for f in fields)
    if value is None or target is None or value.start_byte != child.start_byte:
        return None
    text = data[target.start_byte : target.end_byte].decode("utf-8", errors="replace")
    if text in _MODULE_EXPORTS:
        return module
    if target.type == "member_expression":
        prop = target.child_by_field_name("property") or target
        text = data[prop.start_byte : prop.end_byte].decode("utf-8", errors="replace")
    text = text.strip("'\"`").lstrip("#")
    return text if text and text.replace("_", "").replace("$", "").isalnum() else None


def _scope_name(parent: Any, child: Any, data: bytes, module: str) -> str | None:
    """The name ``child`` (a node under ``parent``) is a scope by: a function's, class's or
    method's own name, else what binds it as a value (:func:`_bound_name`); None when it is
    no named scope."""
    kind = child.type
    name = _name(child, data) if any(w in kind for w in _SCOPE_WORDS) else None
    if name is None:
        name = _bound_name(parent, child, data, module)
    if name is None or "call" in kind or kind.endswith("declarator"):
        return None
    return name


def _scopes(node: Any, data: bytes, module: str) -> list[Scope]:
    out: list[Scope] = []
    for child in node.children:
        inner = _scopes(child, data, module)
        name = _scope_name(node, child, data, module)
        if name is not None:
            out.append(Scope(name, child.start_point[0] + 1, child.end_point[0] + 1, inner))
        else:
            out.extend(inner)
    return sorted(out, key=lambda s: s.start)


_CONDITION_PARENTS = frozenset(
    {
        "if_statement",
        "while_statement",
        "do_statement",
        "for_statement",
        "ternary_expression",
        "conditional_expression",
        "if_expression",
        "unless",
        "if",
        "while",
    }
)
_DECIDING_OPERATORS = frozenset(
    {"==", "!=", "===", "!==", "<", ">", "<=", ">=", "&&", "||", "??", "instanceof", "in"}
)
PREFIX_TESTS = frozenset({"startswith", "startsWith", "HasPrefix"})
"""Calls testing whether a string begins with another: outside a condition (``return
dest.startswith(root + os.sep)``, ``ok := strings.HasPrefix(p, root)``) such a call is a
comparison like ``a == b`` and decides as one, its arguments included (a containment helper's
``root`` -> ``root + os.sep`` is the fix of a prefix-confusion escape)."""
_REFUSALS = frozenset({"throw_statement", "raise_statement", "throw_expression"})
_CALLS = frozenset({"call_expression", "method_invocation", "call", "new_expression"})
_TYPE_ONLY = frozenset(
    {
        "type_annotation",
        "type_arguments",
        "type_parameters",
        "type_alias_declaration",
        "interface_declaration",
        "opting_type_annotation",
        "omitting_type_annotation",
        "asserts_annotation",
    }
)


_CLOSERS = frozenset({")", "]", "}"})


def _code_text(node: Any, data: bytes) -> str:
    """The code leaves of ``node`` without whitespace, comments, type-only parts or a trailing
    comma before a closing bracket (``f(a, b,)`` is ``f(a, b)``: a formatter's choice, as
    prettier's ``trailingComma: "all"`` made node-saml's logout URL call a decision changed,
    held out on holdout74)."""
    out: list[str] = []
    stack = [node]
    while stack:
        current = stack.pop()
        kind = current.type
        if "comment" in kind or kind in _TYPE_ONLY:
            continue
        if kind == "as_expression" and current.child_count:
            stack.append(current.children[0])  # `x as T` behaves as `x`
            continue
        if kind == "non_null_expression" and current.child_count:
            stack.append(current.children[0])
            continue
        if current.child_count == 0 or "string" in kind:
            out.append(data[current.start_byte : current.end_byte].decode("utf-8", "replace"))
            continue
        children = current.children
        stack.extend(
            child for i, child in reversed(list(enumerate(children)))
            if not (child.type == "," and i + 1 < len(children)
                    and children[i + 1].type in _CLOSERS)
        )  # fmt: skip
    return "".join("".join(out).split())


def decision_atoms(
    tree: Tree,
    start: int,
    end: int,
    *,
    conversions: frozenset[str] = frozenset(),
    messages: frozenset[str] = frozenset(),
    quiet: frozenset[str] = frozenset(),
    error_value: re.Pattern[str] | None = None,
    new_hook: Callable[[str], bool] | None = None,
) -> Counter[str] | None:
    """The decisions of the function spanning lines ``start``..``end`` of a parsed source.

    Conditions (tests of if/while/for/ternaries and comparison or logical expressions),
    refusals (throw) and calls (by callee), each as its code without whitespace, comments or
    type-only syntax: equal counters mean the function decides, refuses and calls the same
    things (a typing, formatting or variable-name-free change). Calls to ``conversions``
    (``String(x)``) and calls whose last name is in ``quiet`` (``s.mu.RLock()``) are no
    decisions; calls to ``messages`` (``fmt.Errorf``), calls whose callee ``error_value``
    matches (a method chained on an error value, ``ErrInvalidRequest.WithHint(...)``) and what
    their arguments call word a message and are skipped; a refusal counts by what it throws, not its
    message. A function whose one statement calls its own name (a wrapper's
    ``onBodySent(c) { this.handler.onBodySent(c) }``) forwards what it was asked: that call is
    a ``forward`` atom, which :func:`pr_review.evidence.decisions.compare` pairs with the same
    call and otherwise ignores. An ``if`` that only tests whether a hook or option is set
    (:func:`hook_tested`) whose name ``new_hook`` calls new runs only for those who set it:
    its test and its branch are no decisions, its ``else`` is read. None when no node spans
    those lines.
    """
    node = _spanning(tree.root, start - 1, end - 1) if tree.root is not None else None
    if node is None:
        return None
    data = tree.data
    atoms: Counter[str] = Counter()
    defaults = _nil_receiver_defaults(node, data)
    stack: list[tuple[Any, bool, tuple[str, str] | None]] = [(node, False, None)]
    while stack:
        current, in_condition, own = stack.pop()
        if "comment" in current.type or current.type in _TYPE_ONLY:
            continue
        if (current.start_byte, current.end_byte) in defaults:
            continue  # a nil-safe accessor's default: see _nil_receiver_defaults
        if new_hook is not None and current.type == "if_statement":
            hook = hook_tested(current, data)
            if hook is not None and new_hook(hook):
                otherwise = current.child_by_field_name("alternative")
                if otherwise is not None:
                    stack.append((otherwise, in_condition, own))
                continue  # runs only where the new hook is set: see hook_tested
        callee = _callee(current, data) if current.type in _CALLS else ""
        if (
            callee in messages or _last(callee) in messages
            or (error_value is not None and error_value.match(callee))
        ):  # fmt: skip
            continue  # the wording of an error or a log line
        if current.type in _REFUSALS or (current.type == "call_expression" and callee == "panic"):
            atoms[f"refuse {_thrown(current, data)}"] += 1
            continue  # what is thrown counts, not the words of its message
        found, deciding = _atoms_of_node(
            current, data, in_condition, "" if _last(callee) in quiet else callee, conversions
        )
        if own is not None and callee and _last(callee) == own[1]:
            found = [f"{own[0]} {own[1]}" if a == f"call {own[1]}" else a for a in found]
        atoms.update(found)
        if current.type not in _CALLS and any(w in current.type for w in ("function", "method")):
            own = _forwarded(current, data)
        stack.extend(
            (child, in_condition or deciding, own) for child in reversed(current.children)
        )
    return atoms


def hook_tested(node: Any, data: bytes) -> str | None:
    """The name an ``if`` statement only tests for being set, or None: Go's ``if fn :=
    s.ResponseTokenHandler; fn != nil`` and ``if m.extractExtension != nil`` (the field's name),
    JavaScript's ``if (opts.onRedirect)``, ``if (typeof this.hook === 'function')`` and ``if
    (opts.verify != null)`` (a member's last name; a local variable is not an option), each
    with a branch that calls what it tested (``if (payload.nbf) {...}`` tests input, not a
    hook). Such an ``if`` runs its branch only for a caller who set the hook; with a hook the
    PR adds, code that ran before runs as it did (go-oauth2 adding five optional handlers to
    its token and authorize functions was red five times, held out on holdout73)."""
    condition = node.child_by_field_name("condition")
    if condition is None:
        return None
    if condition.type == "parenthesized_expression" and condition.named_child_count == 1:
        condition = condition.named_children[0]
    tested = _presence_test(condition, data)
    branch = node.child_by_field_name("consequence")
    if tested is None or branch is None or not _calls(branch, _text(tested, data), data):
        return None  # a hook is tested to be called: `if (payload.nbf)` tests input
    if tested.type == "identifier":  # a local: an option only as Go's `if fn := s.X; fn != nil`
        init = node.child_by_field_name("initializer")
        tested = None if init is None else _bound_to(init, _text(tested, data), data)
    if tested is None or tested.type not in ("member_expression", "selector_expression"):
        return None
    return _last_identifier(tested, data)


_ABSENT = frozenset({"nil", "null", "undefined"})


def _presence_test(condition: Any, data: bytes) -> Any | None:
    """The expression ``condition`` tests for being set: ``x != nil``, ``x != null``, ``x !==
    undefined``, ``typeof x === 'function'``, or a member read as a truth value."""
    if condition.type in ("member_expression", "selector_expression"):
        return condition
    if condition.type != "binary_expression":
        return None
    left, right = condition.child_by_field_name("left"), condition.child_by_field_name("right")
    op = _text(condition.child_by_field_name("operator"), data)
    if left is None or right is None:
        return None
    if op in ("!=", "!==") and (right.type in _ABSENT or left.type in _ABSENT):
        return left if right.type in _ABSENT else right
    typeof_function = (
        op in ("==", "===") and left.type == "unary_expression"
        and _text(left, data).startswith("typeof")
        and _text(right, data).strip("'\"") == "function"
    )  # fmt: skip
    return left.child_by_field_name("argument") if typeof_function else None


def _calls(node: Any, callee: str, data: bytes) -> bool:
    """Whether ``node`` holds a call of ``callee`` (written as it is in the test)."""
    return any(
        child.type == "call_expression"
        and _text(child.child_by_field_name("function"), data) == callee
        for child in _walk(node)
    )


def _bound_to(init: Any, name: str, data: bytes) -> Any | None:
    """What Go's ``if`` initializer ``name := value`` binds ``name`` to (one name, one value)."""
    if init.type != "short_var_declaration":
        return None
    left, right = init.child_by_field_name("left"), init.child_by_field_name("right")
    if left is None or right is None or left.named_child_count != 1:
        return None
    if right.named_child_count != 1 or _text(left.named_children[0], data) != name:
        return None
    return right.named_children[0]


_PLAIN_VALUES = frozenset({
    "true", "false", "nil", "int_literal", "float_literal", "interpreted_string_literal",
    "raw_string_literal", "rune_literal", "identifier", "selector_expression",
})  # fmt: skip


def _nil_receiver_defaults(node: Any, data: bytes) -> frozenset[tuple[int, int]]:
    """The ``if`` statements (by their byte span) of Go methods under ``node`` that only give a
    nil receiver a default: ``func (c *Config) Hash() crypto.Hash { if c == nil { return
    crypto.SHA256 } ... }``. A nil-safe accessor decides what an absent configuration means,
    not what input may do: go-crypto's new ``Config`` getters were read as decisions of the
    signing code that calls them (holdout62). One returning an error, or calling anything,
    still decides."""
    found: set[tuple[int, int]] = set()
    if b"nil" not in data[node.start_byte : node.end_byte]:
        return frozenset()  # no Go nil test to read (and no other language's)
    for method in _walk(node):
        if method.type != "method_declaration":
            continue
        receiver = method.child_by_field_name("receiver")
        names = [] if receiver is None else [
            d.child_by_field_name("name") for d in receiver.named_children
            if d.type == "parameter_declaration"
        ]  # fmt: skip
        if len(names) != 1 or names[0] is None:
            continue
        name = _text(names[0], data)
        for statement in _walk(method):
            if statement.type != "if_statement" or statement.child_by_field_name("alternative"):
                continue
            condition = statement.child_by_field_name("condition")
            body = statement.child_by_field_name("consequence")
            if condition is None or body is None or statement.child_by_field_name("initializer"):
                continue
            if _code_text(condition, data) not in {f"{name}==nil", f"nil=={name}"}:
                continue
            statements = [c for c in _walk(body) if c.type.endswith("_statement")]
            if len(statements) != 1 or statements[0].type != "return_statement":
                continue
            values = [v for lists in statements[0].named_children
                      if lists.type == "expression_list" for v in lists.named_children]
            if all(v.type in _PLAIN_VALUES and "err" not in _text(v, data).lower()
                   for v in values):  # fmt: skip
                found.add((statement.start_byte, statement.end_byte))
    return frozenset(found)


_STATEMENT_LISTS = frozenset({"statement_block", "block", "statement_list", "body_statement"})


def _forwarded(function: Any, data: bytes) -> tuple[str, str] | None:
    """How ``function`` hands its work on when its body is one statement that is a call:
    ``("forward", name)`` when the call is to its own name, ``("delegate", callee)`` when it
    passes only its own parameters to another function (``return s.processRequest(w, r)``);
    else None (:func:`pr_review.evidence.decisions.compare` reads both)."""
    name = _name(function, data)
    body = function.child_by_field_name("body")
    if name is None or body is None:
        return None
    statements = [c for c in body.named_children if "comment" not in c.type]
    while len(statements) == 1 and statements[0].type in _STATEMENT_LISTS:
        statements = [c for c in statements[0].named_children if "comment" not in c.type]
    if len(statements) != 1 or statements[0].type not in {"expression_statement",
                                                           "return_statement"}:
        return None
    calls = [n for n in _walk(statements[0]) if n.type in _CALLS]
    if not calls:
        return None
    callee = _last(_callee(calls[0], data))
    if callee == name:
        return ("forward", name)
    if len(calls) == 1 and _is_whole(statements[0], calls[0]):
        params = _parameter_names(function, data)
        arguments = calls[0].child_by_field_name("arguments")
        passed = [] if arguments is None else arguments.named_children
        passed = [c for c in passed if "comment" not in c.type]
        if _own_code(calls[0].child_by_field_name("function"), params, data) and all(
            a.type == "identifier" and _text(a, data) in params for a in passed
        ):
            return ("delegate", callee)
    return None


def _own_code(callee: Any, params: frozenset[str], data: bytes) -> bool:
    """The callee is the project's own code as the function sees it: a function by name, or
    a method of ``this`` or of the function's receiver or parameters (``s.processRequest``),
    not of a module-level object (``quoteEscaper.Replace``: a configuration chosen here)."""
    if callee is None:
        return False
    if callee.type == "identifier":
        return True
    receiver = callee.child_by_field_name("object") or callee.child_by_field_name("operand")
    if receiver is None:
        return False
    if receiver.type == "this":
        return True
    return receiver.type == "identifier" and _text(receiver, data) in params


_WRAPPERS = frozenset({"expression_list", "await_expression", "parenthesized_expression"})


def _is_whole(statement: Any, call: Any) -> bool:
    """The statement is the call itself (``return f(x)``, ``await f(x);``), not an expression
    around it (``return !f(x)``)."""
    inner = [c for c in statement.named_children if "comment" not in c.type]
    while len(inner) == 1 and inner[0].type in _WRAPPERS:
        inner = [c for c in inner[0].named_children if "comment" not in c.type]
    return len(inner) == 1 and inner[0] == call


def _parameter_names(function: Any, data: bytes) -> frozenset[str]:
    """The names a function's parameters (and a Go method's receiver) bind."""
    lists = [function.child_by_field_name(f) for f in ("parameters", "receiver")]
    return frozenset(
        _text(n, data) for p in lists if p is not None for n in _walk(p) if n.type == "identifier"
    )


_ASSIGNMENTS = {
    "short_var_declaration": ("right", "left"),  # Go: dest := filepath.Clean(p)
    "assignment_statement": ("right", "left"),  # Go: dest = filepath.Clean(p)
    "var_spec": ("value", "name"),  # Go: var dest = filepath.Clean(p)
    # JS/TS: const dest = path.resolve(p); dest = path.resolve(p)
    **{kind: _BINDINGS[kind] for kind in ("variable_declarator", "assignment_expression")},
}
"""Node kinds that assign a value to a local name: (the value's field, the name's field), as
:data:`_BINDINGS` (whose object keys and class fields are no local names)."""


def _assignments(node: Any) -> Iterator[tuple[Any, Any]]:
    """(value, target) of every assignment or declaration under ``node`` that has both
    (:data:`_ASSIGNMENTS`)."""
    for current in _walk(node):
        fields = _ASSIGNMENTS.get(current.type)
        if fields is None:
            continue
        value, target = (current.child_by_field_name(f) for f in fields)
        if value is not None and target is not None:
            yield value, target


def bound_names(tree: Tree, start: int, end: int, value: re.Pattern[str]) -> frozenset[str]:
    """The names the function spanning lines ``start``..``end`` assigns (its first name, for a
    multiple assignment: ``abs, err := filepath.Abs(p)``) from an expression ``value`` finds
    in (Go and JavaScript/TypeScript assignments and declarations)."""
    node = _spanning(tree.root, start - 1, end - 1) if tree.root is not None else None
    if node is None:
        return frozenset()
    out: set[str] = set()
    for right, left in _assignments(node):
        if not value.search(_code_text(right, tree.data)):
            continue
        first = next((n for n in _walk(left) if n.type == "identifier"), None)
        if first is not None:
            out.add(_text(first, tree.data))
    return frozenset(out)


PLAIN_READ = re.compile(
    r"^(?:len\()?[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\)?$"
)
"""A value that reads and computes nothing: a name, a property chain (``token.length``,
``r.Header``), or Go's and Python's ``len`` of one (as decision atoms write code: no spaces).
The parenthesis of ``len(`` is matched by the one after the chain only: a value with one of
them only is no plain read (:func:`plain_read`)."""
_REASSIGNING = {
    "augmented_assignment_expression": "left",  # JS/TS: n += 1
    "update_expression": "argument",  # JS/TS: n++
    "inc_statement": "",  # Go: n++ (its one named child)
    "dec_statement": "",
}


def plain_read(code: str) -> bool:
    """Whether ``code`` (an expression as decision atoms write it) is a plain read:
    :data:`PLAIN_READ`, with ``len(`` and its closing parenthesis together."""
    return bool(PLAIN_READ.match(code)) and code.startswith("len(") == code.endswith(")")


def read_aliases(tree: Tree, start: int, end: int) -> dict[str, str]:
    """The locals of the function spanning lines ``start``..``end`` that hold a plain read
    (:func:`plain_read`) under a name of their own: each declared in it (not a parameter),
    assigned exactly once (a declaration without a value is no assignment), from such a value,
    by name -> the value as decision atoms write it (``tokenLen`` -> ``token.length``, Go's
    ``n`` -> ``len(parts)``; each name of Go's ``scope, fn := tgr.Scope, s.Handler``, as
    go-oauth2 inlining such an ``if`` initializer was red, held out on holdout73). A loop bound
    hoisted into such a local decides what it did."""
    node = _spanning(tree.root, start - 1, end - 1) if tree.root is not None else None
    if node is None:
        return {}
    values: dict[str, list[str | None]] = {}
    parameters: set[str] = set()
    for current in _walk(node):
        kind = current.type
        if kind in ("formal_parameters", "parameter_list"):
            found: list[tuple[int, str]] = []
            _pattern_names(current, None, tree.data, found)
            parameters.update(name for _, name in found)
            continue
        if kind in _REASSIGNING:
            field = _REASSIGNING[kind]
            target = current.child_by_field_name(field) if field else (
                current.named_children[0] if current.named_children else None
            )
            if target is not None and target.type == "identifier":
                values.setdefault(_text(target, tree.data), []).append(None)
            continue
        fields = _ASSIGNMENTS.get(kind)
        if fields is None:
            continue
        right, left = (current.child_by_field_name(f) for f in fields)
        names = [] if left is None else [left] if left.type == "identifier" else list(
            left.named_children
        )
        rights = [] if right is None else (
            right.named_children if right.type == "expression_list" else [right]
        )
        if kind == "variable_declarator" and right is None:
            continue  # `var i, n;` declares, assigns nothing
        pairwise = len(names) == len(rights)  # Go's `scope, fn := tgr.Scope, s.Handler`
        for i, name in enumerate(names):
            if name.type != "identifier":
                continue
            value = _code_text(rights[i], tree.data) if pairwise else None
            values.setdefault(_text(name, tree.data), []).append(
                value if value is not None and plain_read(value) else None
            )
    return {
        name: assigned[0] for name, assigned in values.items()
        if len(assigned) == 1 and assigned[0] is not None and name not in parameters
        and not re.search(rf"(?<![\w$.]){re.escape(name)}(?![\w$])", assigned[0])
    }  # fmt: skip


def prefix_tests(tree: Tree, start: int, end: int) -> list[tuple[str, str]]:
    """Each call of one of :data:`PREFIX_TESTS` in the function spanning lines
    ``start``..``end``, as its code text (as a decision atom writes it) and the string it
    examines: the receiver of ``x.startsWith(root)``, the first argument of
    ``strings.HasPrefix(x, root)``."""
    node = _spanning(tree.root, start - 1, end - 1) if tree.root is not None else None
    if node is None:
        return []
    out: list[tuple[str, str]] = []
    for current in _walk(node):
        if current.type not in _CALLS:
            continue
        subject = _prefix_subject(current, tree.data)
        if subject is not None:
            out.append((_code_text(current, tree.data), _code_text(subject, tree.data)))
    return out


def _prefix_subject(call: Any, data: bytes) -> Any | None:
    """The node a prefix-test ``call`` examines, or None when it is no prefix test."""
    target = call.child_by_field_name("function")
    if target is None:  # Java's `s.startsWith(root)` names its method and receiver itself
        target = call if call.type == "method_invocation" else None
    if target is None:
        return None
    method = (target.child_by_field_name("property") or target.child_by_field_name("field")
              or target.child_by_field_name("name"))
    name = _text(method, data)
    if name not in PREFIX_TESTS:
        return None
    if name == "HasPrefix":  # strings.HasPrefix(s, prefix), bytes.HasPrefix
        arguments = call.child_by_field_name("arguments")
        named = [] if arguments is None else arguments.named_children
        return next((a for a in named if "comment" not in a.type), None)
    return target.child_by_field_name("object")


MARKUP_NODES = frozenset({"jsx_element", "jsx_self_closing_element", "jsx_fragment"})
SVELTE_RUNES = frozenset({"$state", "$derived", "$effect", "$props", "$bindable"})
"""Svelte 5's runes: compiler keywords written as calls (``let open = $state(false)``,
``$derived.by(fn)``), read by the compiler in ``.svelte`` and ``.svelte.js``/``.svelte.ts``
files only: a function declaring one holds a component's reactive state."""
SVELTE_MODULES = (".svelte.js", ".svelte.ts")


def ui_code(tree: Tree, start: int, end: int, *, runes: bool = False) -> bool:
    """Whether the function spanning lines ``start``..``end`` is UI code: it builds JSX (a
    component or a render helper) or, with ``runes`` (a Svelte module), declares reactive
    state with one of :data:`SVELTE_RUNES`. What its conditions decide is what a browser shows
    its own user."""
    node = _spanning(tree.root, start - 1, end - 1) if tree.root is not None else None
    if node is None:
        return False
    for current in _walk(node):
        if current.type in MARKUP_NODES:
            return True
        if runes and current.type in _CALLS and (
            _callee(current, tree.data).split(".")[0] in SVELTE_RUNES
        ):
            return True
    return False


_DECLARING = {
    "variable_declarator": ("name",),  # JS/TS: const {a, b: c} = x
    "required_parameter": ("pattern",),  # TS parameters
    "optional_parameter": ("pattern",),
    "arrow_function": ("parameter",),  # x => x
    "catch_clause": ("parameter",),
    "short_var_declaration": ("left",),  # Go: a, err := f()
    "var_spec": ("name",),
    "const_spec": ("name",),
    "range_clause": ("left",),
}
"""Node kinds that declare local names, and the fields holding them; JavaScript's
``formal_parameters`` and Go's parameter declarations are read whole (but their types)."""
_NOT_DECLARED = frozenset({"right", "key", "type"})
"""Fields inside a declaring pattern that are read, not bound: a default, a renamed property's
key, a type."""


def local_names(tree: Tree, start: int, end: int) -> tuple[str, ...]:
    """The names the function (or class) spanning lines ``start``..``end`` declares for itself
    and its nested functions, in the order they are first declared: parameters, ``const``/
    ``let``/``var`` and Go ``:=``/``var`` names, destructured names, ``catch`` parameters (and
    the name a declaration spanning those lines binds the function to); not properties, keys,
    types or defaults."""
    node = _spanning(tree.root, start - 1, end - 1) if tree.root is not None else None
    if node is None:
        return ()
    found: list[tuple[int, str]] = []
    for current in _walk(node):
        kind = current.type
        if kind in ("formal_parameters", "parameter_declaration",
                    "variadic_parameter_declaration"):
            for child in current.named_children:
                if child.type not in ("required_parameter", "optional_parameter"):
                    _pattern_names(child, current, tree.data, found)
            continue
        if kind == "for_in_statement" and current.child_by_field_name("kind") is not None:
            _pattern_names(current.child_by_field_name("left"), None, tree.data, found)
            continue
        for field_name in _DECLARING.get(kind, ()):
            for child in current.children_by_field_name(field_name):
                _pattern_names(child, None, tree.data, found)
    names: dict[str, None] = {}
    for _, name in sorted(found):
        names.setdefault(name, None)
    return tuple(names)


def _pattern_names(node: Any, parent: Any | None, data: bytes, out: list[tuple[int, str]]) -> None:
    """The identifiers a declaring pattern binds (``{a, b: c = d}`` binds a and c)."""
    if parent is not None and any(
        node == c for f in _NOT_DECLARED for c in parent.children_by_field_name(f)
    ):
        return
    if node.type in ("identifier", "shorthand_property_identifier_pattern"):
        out.append((node.start_byte, _text(node, data)))
        return
    for child in node.named_children:
        _pattern_names(child, node, data, out)


def _walk(node: Any) -> Iterator[Any]:
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(current.children))


def _last(callee: str) -> str:
    """``strings.NewReplacer(x).Replace`` -> ``Replace``."""
    return callee.rsplit(".", 1)[-1]


def _atoms_of_node(
    node: Any, data: bytes, in_condition: bool, callee: str, conversions: frozenset[str]
) -> tuple[list[str], bool]:
    """The atoms ``node`` itself contributes (``callee``: its callee when it is a call), and
    whether it decides (its children are then part of a condition already counted)."""
    kind = node.type
    found: list[str] = []
    if callee and not in_condition and _last(callee) in PREFIX_TESTS:
        return [f"check {_code_text(node, data)}"], True
    if callee and callee not in conversions:
        found.append(f"call {_last(callee)}")
    condition = node.child_by_field_name("condition") if kind in _CONDITION_PARENTS else None
    if condition is not None:
        found.append(f"check {_code_text(condition, data)}")
        return found, True
    if kind == "binary_expression" and not in_condition:
        operator = node.child_by_field_name("operator")
        if operator is not None and operator.type in _DECIDING_OPERATORS:
            found.append(f"check {_code_text(node, data)}")
            return found, True
    if kind in {"switch_case", "expression_case", "case_clause"}:
        value = node.child_by_field_name("value")
        if value is not None:
            found.append(f"check case {_case_values(value, data)}")
    return found, False


def _case_values(value: Any, data: bytes) -> str:
    """A case's values as the set they match: Go's ``case ErrA, ErrB, ErrB:`` written ``case
    ErrA, ErrB:`` (a duplicate dropped, go-oauth2 on holdout73) or in another order matches
    the same."""
    if value.type != "expression_list":
        return _code_text(value, data)
    return ",".join(sorted({_code_text(v, data) for v in value.named_children}))


def _thrown(node: Any, data: bytes) -> str:
    """``throw new TypeError(msg)`` -> ``throw TypeError``; ``panic(x)`` -> ``panic``."""
    if node.type == "call_expression":
        return "panic"
    for child in node.children:
        if child.type in _CALLS:
            return f"throw {_last(_callee(child, data))}"
        if child.is_named:
            return f"throw {_code_text(child, data)}"
    return "throw"


def _callee(node: Any, data: bytes) -> str:
    target = node.child_by_field_name("function") or node.child_by_field_name("constructor")
    if target is None:
        name = node.child_by_field_name("name")
        obj = node.child_by_field_name("object")
        target = name if obj is None else None
        if target is None and name is not None and obj is not None:
            return f"{_code_text(obj, data)}.{_code_text(name, data)}"
    return "" if target is None else _code_text(target, data)


def _spanning(root: Any, first: int, last: int) -> Any | None:
    """The outermost node (not the root) starting on row ``first`` and ending on row ``last``."""
    stack = [root]
    while stack:
        node = stack.pop()
        if node.start_point[0] > last or node.end_point[0] < first:
            continue
        if node.start_point[0] == first and node.end_point[0] == last and node is not root:
            return node
        stack.extend(reversed(node.children))
    return None


@dataclass(frozen=True)
class BoundCheck:
    """An ``if`` comparing something with a bound and refusing beyond it (see
    :mod:`pr_review.evidence.limits`): ``operator`` with the bound on the right."""

    operator: str
    bound: str
    line: int
    code: str


FLIPPED = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "===": "==="}
"""A comparison with its operands swapped: ``max < n`` is ``n > max``. Equality counts: a
count that grows by one is stopped when it reaches its bound (``n === maxFragments``)."""
_ORDER = frozenset(FLIPPED)
_NAMES = frozenset(
    {"identifier", "member_expression", "selector_expression", "field_expression",
     "field_access", "scoped_identifier", "attribute", "property_identifier",
     "field_identifier", "shorthand_property_identifier"}
)
_NAME_LEAVES = frozenset(
    {"identifier", "property_identifier", "private_property_identifier", "field_identifier",
     "constant"}
)  # fmt: skip


def _last_identifier(node: Any, data: bytes) -> str | None:
    """The last identifier of a name or member access (``this.opts.maxSize`` -> ``maxSize``)."""
    if node.type not in _NAMES:
        return None
    if node.type in _NAME_LEAVES or node.child_count == 0:
        return data[node.start_byte : node.end_byte].decode("utf-8", "replace")
    for child in reversed(node.children):
        if child.type in _NAME_LEAVES:
            return data[child.start_byte : child.end_byte].decode("utf-8", "replace")
    return None


def _refuses(node: Any, data: bytes, refusing_call: Callable[[str], bool]) -> bool:
    """The block throws, panics, calls an error constructor or returns an error or a 4xx, not
    under another ``if`` of its own: a refusal nested so is that check's (a lexer's ``if
    ((captures = RE.exec(input)))`` consumes a token and refuses only if a later test fails)."""
    stack = [node]
    while stack:
        current = stack.pop()
        kind = current.type
        if kind == "if_statement" and current is not node:
            continue
        if kind in _REFUSALS:
            return True
        if kind in _CALLS and refusing_call(_last(_callee(current, data))):
            return True
        if kind == "return_statement" and refusing_call(
            _code_text(current, data).rsplit(",", 1)[-1].removeprefix("return")
        ):
            return True
        if kind in {"number", "int_literal", "integer"}:
            text = data[current.start_byte : current.end_byte].decode("utf-8", "replace")
            if text.isdigit() and 400 <= int(text) <= 431:
                return True
        if "function" in kind or kind in {"arrow_function", "func_literal", "lambda"}:
            continue  # a callback defined here refuses later, if ever
        stack.extend(current.children)
    return False


def bound_checks(
    path: str,
    source: str | None,
    is_bound: Callable[[str], bool],
    refusing_call: Callable[[str], bool],
) -> list[BoundCheck] | None:
    """Every ``if`` of ``source`` whose condition compares (``<``, ``>``, ``<=``, ``>=``, or
    ``==``/``===``: a count reaching its bound) something with a name ``is_bound`` accepts and
    whose consequence refuses (``refusing_call`` decides on callee names and returned values);
    None when the source has no grammar or does not parse."""
    parsed = _clean_root(path, source)
    if parsed is None:
        return None
    root, data = parsed
    out: list[BoundCheck] = []
    spent = _spent(root, data)
    budgets = _budgets(root, data, is_bound) & spent

    def bounded(name: str) -> bool:
        return is_bound(name) or name in budgets

    for line, condition, consequence in _ifs(root):
        checks = list(_comparisons(condition, data, bounded, spent))
        if checks and (_refuses(consequence, data, refusing_call) or _stops(consequence, data)):
            code = _code_text(condition, data)
            out.extend(BoundCheck(op, bound, line, code) for op, bound in checks)
    return out


_NOTHING = frozenset({"null", "undefined", "nil", "false", "None", "False"})


def _stops(consequence: Any, data: bytes) -> bool:
    """The consequence is one bare ``return`` (of nothing, null, undefined, nil or false) or
    ``break``: the work beyond the condition is not done."""
    statements = [consequence]
    while len(statements) == 1 and statements[0].type in _STATEMENT_LISTS:
        statements = [c for c in statements[0].named_children if "comment" not in c.type]
    if len(statements) != 1:
        return False
    statement = statements[0]
    if statement.type == "break_statement":
        return True
    if statement.type != "return_statement":
        return False
    values = statement.named_children
    return not values or (len(values) == 1 and _text(values[0], data) in _NOTHING)


def _ifs(root: Any) -> Iterator[tuple[int, Any, Any]]:
    """Every ``if`` under ``root`` with a condition and a consequence: its 1-based line and
    those two nodes."""
    stack = [root]
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        if node.type not in {"if_statement", "if_expression", "if"}:
            continue
        condition = node.child_by_field_name("condition")
        consequence = node.child_by_field_name("consequence")
        if condition is not None and consequence is not None:
            yield node.start_point[0] + 1, condition, consequence


_DECREMENTS = frozenset({"-=", "--"})
_SPENDING = frozenset(
    {"augmented_assignment_expression", "update_expression", "assignment_statement",
     "dec_statement"}
)  # fmt: skip


def _spent(root: Any, data: bytes) -> frozenset[str]:
    """The names ``root`` counts down (``budget -= n``, ``left--``), by last identifier."""
    out: set[str] = set()
    for node in _walk(root):
        if node.type not in _SPENDING:
            continue
        operator = node.child_by_field_name("operator")
        if node.type == "dec_statement":
            target = node.named_children[0] if node.named_child_count else None
        elif operator is not None and _text(operator, data) in _DECREMENTS:
            target = node.child_by_field_name("left") or node.child_by_field_name("argument")
        else:
            continue
        if target is not None and target.type == "expression_list":  # Go: `a -= n`
            target = target.named_children[0] if target.named_child_count == 1 else None
        name = _last_identifier(target, data) if target is not None else None
        if name is not None:
            out.add(name)
    return frozenset(out)


def _budgets(root: Any, data: bytes, is_bound: Callable[[str], bool]) -> frozenset[str]:
    """Names given a value that reads a bound (``let responseBytesLeft = self._maxResponseSize
    || 200000000``): a budget taken from a limit, which counted down and compared with zero
    enforces it (superagent's zip-bomb fix, CVE-2017-16129, held out on holdout65)."""
    out: set[str] = set()
    for value, target in _assignments(root):
        single = target.type == "expression_list" and target.named_child_count == 1
        name = _last_identifier(target.named_children[0] if single else target, data)
        if name is not None and any(
            leaf.type in _NAME_LEAVES and is_bound(_text(leaf, data)) for leaf in _walk(value)
        ):
            out.add(name)
    return frozenset(out)


def _comparisons(
    condition: Any, data: bytes, is_bound: Callable[[str], bool],
    spent: frozenset[str] = frozenset(),
) -> Iterator[tuple[str, str]]:
    """(operator, bound) of each comparison in ``condition`` with a bound operand,
    the bound turned to the right: ``max < n`` is ``n > max``. A bound compared with a number
    is no check unless the source counts it down (``spent``: ``sizeLimit -= len(h.Value);
    if sizeLimit < 0``, a budget the input spends)."""
    stack = [condition]
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        binary = node.type == "binary_expression"
        operator = node.child_by_field_name("operator") if binary else None
        if operator is None or operator.type not in _ORDER:
            continue
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        for side, other, op in (
            (right, left, operator.type), (left, right, FLIPPED[operator.type])
        ):
            name = _last_identifier(side, data) if side is not None else None
            if name is None or not is_bound(name):
                continue
            if name in spent or not _number_literal(other, data):
                yield op, name
                break


_NUMBERS = frozenset({"number", "int_literal", "float_literal", "integer", "float"})


def _number_literal(node: Any, data: bytes) -> bool:
    """A number written in the code (``0``, ``-1``): a bound compared with one is tested for
    being set or sane (``if fs.cfg.MaxMsgsPer > 0``), not enforced on input."""
    if node is None:
        return False
    if node.type == "unary_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    return node.type in _NUMBERS


@dataclass(frozen=True)
class RegexLiteral:
    """A regular expression written in a source: its 1-based line, pattern and flags."""

    line: int
    pattern: str
    flags: str


_JS_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v", "b": "\b", "0": "\0"}
_REGEX_CONSTRUCTORS = {"new_expression", "call_expression"}


def _string_value(node: Any, data: bytes) -> str | None:
    """The value of a JavaScript string or substitution-free template literal, else None."""
    if node.type not in {"string", "template_string"}:
        return None
    out: list[str] = []
    for child in node.named_children:
        text = data[child.start_byte : child.end_byte].decode("utf-8", errors="replace")
        if child.type == "string_fragment":
            out.append(text)
        elif child.type == "escape_sequence":
            body = text[1:]
            if body[:1] in {"u", "x"} and len(body) > 1:
                digits = body[1:].strip("{}")
                try:
                    out.append(chr(int(digits, 16)))
                except ValueError:
                    return None
            else:
                out.append(_JS_ESCAPES.get(body, body))
        else:
            return None  # a template substitution: not a constant
    return "".join(out)


def _js_regex(node: Any, data: bytes) -> tuple[str, str] | None:
    """(pattern, flags) of a JavaScript regex literal (``/\\s+$/g``) or of ``RegExp`` built
    from a constant string (``new RegExp("\\\\s+", "g")``); None for any other node."""
    if node.type == "regex":
        pattern = node.child_by_field_name("pattern")
        flags = node.child_by_field_name("flags")
        return None if pattern is None else (_text(pattern, data), _text(flags, data))
    if node.type not in _REGEX_CONSTRUCTORS or _callee(node, data) != "RegExp":
        return None
    arguments = node.child_by_field_name("arguments")
    given = arguments.named_children[:2] if arguments is not None else []
    values = [_string_value(a, data) for a in given]
    if not values or values[0] is None:
        return None
    return values[0], values[1] if len(values) > 1 and values[1] is not None else ""


def regex_literals(path: str, source: str | None) -> list[RegexLiteral] | None:
    """The regular expressions a JavaScript/TypeScript source writes as literals
    (``/\\s+$/g``) or builds from a constant string (``new RegExp("\\\\s+")``); None when the
    source has no JavaScript grammar or does not parse."""
    if language_of(path) not in {"javascript", "typescript", "tsx"}:
        return None
    parsed = _clean_root(path, source)
    if parsed is None:
        return None
    root, data = parsed
    return [
        RegexLiteral(node.start_point[0] + 1, *found)
        for node in _walk(root)
        if (found := _js_regex(node, data)) is not None
    ]


def _text(node: Any | None, data: bytes) -> str:
    if node is None:
        return ""
    return data[node.start_byte : node.end_byte].decode("utf-8", errors="replace")


def _js_or_go_root(path: str, source: str | None) -> tuple[Any, bytes, str] | None:
    """The clean tree of a JavaScript/TypeScript or Go source, its bytes and its grammar's
    name; None for other languages or a source that does not parse."""
    language = language_of(path)
    if language not in {"javascript", "typescript", "tsx", "go"}:
        return None
    parsed = _clean_root(path, source)
    return None if parsed is None else (*parsed, language)


def string_collections(path: str, source: str | None) -> list[tuple[int, tuple[str, ...]]] | None:
    """Every collection literal of a JavaScript/TypeScript or Go source with its 1-based line
    and its constant string elements in order (``["Cookie", "Authorization"]``,
    ``[]string{"Cookie"}``, a Go map literal's string keys); None when the source has no such
    grammar or does not parse."""
    parsed = _js_or_go_root(path, source)
    if parsed is None:
        return None
    root, data, _ = parsed
    out: list[tuple[int, tuple[str, ...]]] = []
    for node in _walk(root):
        if node.type == "array":
            values = [_string_value(child, data) for child in node.named_children]
        elif node.type == "literal_value":
            values = [_go_string(_go_element(child), data) for child in node.named_children]
        else:
            continue
        strings = tuple(v for v in values if v is not None)
        if strings:
            out.append((node.start_point[0] + 1, strings))
    return out


def string_literals(path: str, source: str | None) -> list[tuple[int, str]] | None:
    """Every constant string literal of a JavaScript/TypeScript or Go source with its 1-based
    line (comments are not strings); None when the source has no such grammar or does not
    parse."""
    parsed = _js_or_go_root(path, source)
    if parsed is None:
        return None
    root, data, _ = parsed
    out: list[tuple[int, str]] = []
    for node in _walk(root):
        value = _string_value(node, data)
        if value is None:
            value = _go_string(node, data)
        if value is not None:
            out.append((node.start_point[0] + 1, value))
    return out


def _go_element(node: Any) -> Any | None:
    """The value of a Go ``literal_element``, or the key of a ``keyed_element``."""
    if node.type == "keyed_element":
        node = node.named_children[0] if node.named_children else None
    if node is not None and node.type == "literal_element" and node.named_children:
        return node.named_children[0]
    return None


def _go_string(node: Any | None, data: bytes) -> str | None:
    if node is None or node.type not in {"interpreted_string_literal", "raw_string_literal"}:
        return None
    text = _text(node, data)
    return text[1:-1] if len(text) >= 2 else None


@dataclass(frozen=True)
class RefusingCondition:
    """The condition of an ``if`` whose consequence refuses."""

    line: int
    code: str
    """The condition's source, whitespace collapsed."""
    literals: tuple[str, ...]
    """The source text of every string, character or regex literal in the condition."""


_LITERALS = frozenset(
    {"string", "template_string", "regex", "interpreted_string_literal", "raw_string_literal",
     "rune_literal", "string_literal", "char_literal"}
)  # fmt: skip


def if_conditions(path: str, source: str | None) -> list[tuple[int, str]] | None:
    """(1-based line, source with whitespace collapsed) of every ``if``'s condition, in source
    order; None when the source has no grammar or does not parse."""
    parsed = _clean_root(path, source)
    if parsed is None:
        return None
    root, data = parsed
    return sorted((line, " ".join(_text(condition, data).split()))
                  for line, condition, _ in _ifs(root))  # fmt: skip


_ABSOLUTE_TEST = re.compile(
    r"^\(?\s*(!?)\s*(?:[\w$.]+\.)?(?:isAbsolute|IsAbs)\(\s*([\w$.]+)\s*\)\s*\)?$"
)
_EXITS = frozenset(
    {"return_statement", "throw_statement", "break_statement", "continue_statement",
     "goto_statement"}
)  # fmt: skip


def absolutizing_ifs(path: str, source: str | None) -> frozenset[int]:
    """Lines of the ``if`` statements that only complete a relative path: ``if
    (!path.isAbsolute(p)) p = path.resolve(base, p)``, Go's ``if !filepath.IsAbs(p) { p =
    filepath.Join(base, p) }``, whose consequence is one assignment to the value the condition
    tests; or that only choose how to reach a path, absolute or relative to a base (``if
    (path.isAbsolute(src)) { st = stat(src) } else { st = stat(path.join(dir, src)) }``:
    fs-extra's ``ensureSymlink``, holdout67), with an ``else``, no branch leaving (return,
    throw, break, continue, panic) and the absolute branch keeping the value as it is. A
    containment check refuses, strips or returns instead."""
    parsed = _clean_root(path, source)
    if parsed is None:
        return frozenset()
    root, data = parsed
    found: set[int] = set()
    for line, condition, consequence in _ifs(root):
        tested = _ABSOLUTE_TEST.match(" ".join(_text(condition, data).split()))
        if tested is None:
            continue
        negated, value = tested[1] == "!", tested[2]
        alternative = condition.parent.child_by_field_name("alternative")
        if alternative is not None:
            absolute = alternative if negated else consequence
            if not _leaves(condition.parent, data) and value not in _assigned(absolute, data):
                found.add(line)
            continue
        if not negated:
            continue
        statements = [c for c in _walk(consequence) if c.type.endswith(
            ("_statement", "_declaration")) and c.type not in {"block", "statement_block"}]
        assignments = [c for c in _walk(consequence) if c.type in {
            "assignment_expression", "assignment_statement"}]  # fmt: skip
        if len(assignments) != 1 or len(statements) > 1:
            continue
        left = assignments[0].child_by_field_name("left")
        if left is not None and " ".join(_text(left, data).split()) == value:
            found.add(line)
    return frozenset(found)


def _leaves(node: Any, data: bytes) -> bool:
    """Whether a statement under ``node`` leaves it: a return, throw, break, continue, or Go's
    ``panic(...)``."""
    return any(
        n.type in _EXITS or (n.type == "call_expression" and _text(n, data).startswith("panic("))
        for n in _walk(node)
    )


def _assigned(node: Any, data: bytes) -> frozenset[str]:
    """The targets of the assignments and declarations under ``node``, whitespace collapsed
    (:func:`_assignments`)."""
    return frozenset(" ".join(_text(target, data).split()) for _, target in _assignments(node))


_GO_DECLARATIONS = frozenset(
    {"field_declaration", "parameter_declaration", "variadic_parameter_declaration", "var_spec",
     "const_spec", "function_declaration", "method_declaration", "type_spec"}
)  # fmt: skip


def go_import_paths(path: str, source: str | None) -> list[tuple[int, str]] | None:
    """The packages a Go source imports, each with the 1-based line of its import spec
    (``import "crypto/rand"``, ``mrand "math/rand"`` in a list); None when ``path`` is no Go
    source or it does not parse."""
    parsed = _js_or_go_root(path, source) if language_of(path) == "go" else None
    if parsed is None:
        return None
    root, data, _ = parsed
    out: list[tuple[int, str]] = []
    for node in _walk(root):
        if node.type == "import_spec":
            value = _go_string(node.child_by_field_name("path"), data)
            if value is not None:
                out.append((node.start_point[0] + 1, value))
    return out


def go_declared_names(path: str, source: str | None) -> frozenset[str] | None:
    """The names a Go source declares: struct fields, parameters, variables (``:=`` too),
    constants, functions, methods and types; None for another language or a source that does
    not parse."""
    if language_of(path) != "go":
        return None
    parsed = _clean_root(path, source)
    if parsed is None:
        return None
    root, data = parsed
    out: set[str] = set()
    for node in _walk(root):
        if node.type in _GO_DECLARATIONS:
            out.update(_text(n, data) for n in node.children_by_field_name("name"))
        elif node.type in {"short_var_declaration", "range_clause"}:
            left = node.child_by_field_name("left")
            if left is not None:
                out.update(_text(n, data) for n in left.named_children if n.type == "identifier")
    return frozenset(out)


def refusing_conditions(
    path: str, source: str | None, refusing_call: Callable[[str], bool]
) -> list[RefusingCondition] | None:
    """Every ``if`` of ``source`` whose consequence refuses (throws, panics, calls or returns
    an error, answers a 4xx), in source order; None when the source has no grammar or does
    not parse."""
    parsed = _clean_root(path, source)
    if parsed is None:
        return None
    root, data = parsed
    found = [
        RefusingCondition(
            line,
            " ".join(_text(condition, data).split()),
            tuple(
                _text(n, data) for n in _walk(condition)
                if n.type in _LITERALS and not _compared_for_equality(n)
            ),
        )
        for line, condition, consequence in _ifs(root)
        if _refuses(consequence, data, refusing_call)
    ]
    return sorted(found, key=lambda c: c.line)


_EQUALITY = frozenset({"==", "===", "!=", "!=="})
_SWITCHES = frozenset({"switch_statement", "expression_switch_statement"})
_FIELD_READS = {"member_expression": ("object", "property"),
                "selector_expression": ("operand", "field")}  # fmt: skip


def _is_equality(node: Any) -> bool:
    """A ``==``/``===``/``!=``/``!==`` comparison (JavaScript, TypeScript, Go)."""
    if node.type != "binary_expression":
        return False
    operator = node.child_by_field_name("operator")
    return operator is not None and operator.type in _EQUALITY


def _compared_for_equality(node: Any) -> bool:
    """A literal that is one side of an equality (``c === '\\n'``: a scanner testing one
    character, not a value searched for what it holds)."""
    return node.parent is not None and _is_equality(node.parent)


def compared_fields(path: str, source: str | None) -> list[tuple[str, str]] | None:
    """(receiver, field) of every field read compared for equality or switched on in a
    JavaScript/TypeScript or Go source: ``token.type === "text"`` and ``switch (tok.kind)``
    give ``("token", "type")`` and ``("tok", "kind")``; the receiver is the last identifier
    of what is read (``this.lastToken?.type`` -> ``lastToken``, ``tokens[i].type`` ->
    ``tokens``). None when the source has no
    such grammar or does not parse."""
    parsed = _js_or_go_root(path, source)
    if parsed is None:
        return None
    root, data, _ = parsed
    out: list[tuple[str, str]] = []
    for node in _walk(root):
        if node.type == "binary_expression":
            if not _is_equality(node):
                continue
            operands = [node.child_by_field_name("left"), node.child_by_field_name("right")]
        elif node.type in _SWITCHES:
            value = node.child_by_field_name("value")
            operands = [value, *(value.named_children if value is not None else [])]
        else:
            continue
        for operand in operands:
            fields = _FIELD_READS.get(operand.type) if operand is not None else None
            if fields is None:
                continue
            read = operand.child_by_field_name(fields[0])
            while read is not None and read.type in {"subscript_expression", "index_expression"}:
                read = read.child_by_field_name("object") or read.child_by_field_name("operand")
            receiver = _last_identifier(read, data) if read is not None else None
            field_name = _text(operand.child_by_field_name(fields[1]), data)
            if receiver is not None and field_name:
                out.append((receiver, field_name))
    return out


_FUNCTION_NODES = frozenset(
    {"function_declaration", "method_definition", "generator_function_declaration",
     *_FUNCTION_VALUES}
)  # fmt: skip


def returned_record_keys(path: str, source: str | None) -> list[tuple[str, str]] | None:
    """(function, key) for every key of an object literal a named JavaScript/TypeScript
    function returns (``function token(type, value) { return { type: type, value } }`` and
    ``const tok = (type) => ({ type })`` give ``("token", "type")``, ``("token", "value")``
    and ``("tok", "type")``): the records a function builds. None when the source has no
    JavaScript grammar or does not parse."""
    if language_of(path) not in {"javascript", "typescript", "tsx"}:
        return None
    parsed = _clean_root(path, source)
    if parsed is None:
        return None
    root, data = parsed
    out: list[tuple[str, str]] = []
    for node in _walk(root):
        if node.type != "object":
            continue
        holder = node.parent
        while holder is not None and holder.type == "parenthesized_expression":
            holder = holder.parent
        function = holder.parent if holder is not None and holder.type == "return_statement" \
            else holder
        while function is not None and function.type == "statement_block":
            function = function.parent
        if function is None or function.type not in _FUNCTION_NODES or function.parent is None:
            continue
        name = _scope_name(function.parent, function, data, "")
        if not name:
            continue
        for pair in node.named_children:
            key = pair.child_by_field_name("key") if pair.type == "pair" else (
                pair if pair.type == "shorthand_property_identifier" else None
            )
            if key is not None:
                out.append((name, _text(key, data).strip("'\"")))
    return out


def _field_of(operand: Any | None, data: bytes) -> str | None:
    """The field an operand reads: ``a.host`` -> ``host``, Go's ``u.Hostname()`` ->
    ``Hostname``; None for anything else (a plain name, a literal, a call with arguments)."""
    if operand is not None and operand.type == "call_expression":
        arguments = operand.child_by_field_name("arguments")
        if arguments is None or arguments.named_child_count:
            return None
        operand = operand.child_by_field_name("function")
    fields = _FIELD_READS.get(operand.type) if operand is not None else None
    if operand is None or fields is None:
        return None
    return _text(operand.child_by_field_name(fields[1]), data) or None


def field_equalities(path: str, source: str | None) -> list[tuple[int, str, str, str]] | None:
    """(1-based line, left field, right field, code with whitespace collapsed) of every
    ``==``/``===``/``!=``/``!==`` comparison of a JavaScript/TypeScript or Go source whose two
    sides both read a field (``next.protocol !== current.protocol``, ``a.Host == b.Host``,
    ``u.Hostname() != v.Hostname()``); None when the source has no such grammar or does not
    parse."""
    parsed = _js_or_go_root(path, source)
    if parsed is None:
        return None
    root, data, _ = parsed
    out: list[tuple[int, str, str, str]] = []
    for node in _walk(root):
        if not _is_equality(node):
            continue
        left = _field_of(node.child_by_field_name("left"), data)
        right = _field_of(node.child_by_field_name("right"), data)
        if left is not None and right is not None:
            out.append((node.start_point[0] + 1, left, right, " ".join(_text(node, data).split())))
    return out


@dataclass(frozen=True)
class RefusingRegex:
    """A regular expression applied in the condition of an ``if`` that refuses."""

    line: int
    code: str
    """The condition's source, whitespace collapsed."""
    pattern: str
    """The pattern (JavaScript: ``/pattern/flags``, so a changed flag is a changed pattern)."""


_GO_REGEX_CALLS = frozenset(
    {"regexp.MustCompile", "regexp.Compile", "regexp.MatchString", "regexp.Match",
     "regexp.MustCompilePOSIX", "regexp.CompilePOSIX"}
)  # fmt: skip


def _regex_value(node: Any, data: bytes, language: str) -> str | None:
    """The pattern ``node`` builds, when it is a JavaScript regex (:func:`_js_regex`, as
    ``/pattern/flags``) or Go's ``regexp.MustCompile("...")``/``regexp.MatchString("...", s)``
    with a constant pattern."""
    if language == "go":
        if node.type != "call_expression" or _callee(node, data) not in _GO_REGEX_CALLS:
            return None
        arguments = node.child_by_field_name("arguments")
        first = arguments.named_children[0] if arguments and arguments.named_children else None
        return _go_string(first, data)
    found = _js_regex(node, data)
    return None if found is None else f"/{found[0]}/{found[1]}"


_DECLARATIONS = frozenset(
    {"lexical_declaration", "variable_declaration", "var_declaration", "const_declaration"}
)


def _module_bindings(root: Any, data: bytes, value_of: Callable[[Any], str | None]
                     ) -> dict[str, str]:
    """Names a module binds once, at its top level, to a value ``value_of`` reads from the
    bound expression (JavaScript ``const``/``let``/``var``, exported or not; Go ``var`` and
    ``const``, grouped or not)."""
    out: dict[str, str] = {}
    for top in root.named_children:
        statement = top.named_children[-1] if top.type == "export_statement" else top
        if statement is None or statement.type not in _DECLARATIONS:
            continue
        specs = [c for c in statement.named_children if c.type != "var_spec_list"] + [
            c for lists in statement.named_children if lists.type == "var_spec_list"
            for c in lists.named_children
        ]  # fmt: skip
        for spec in specs:
            if spec.type == "variable_declarator":
                names, value = [spec.child_by_field_name("name")], spec.child_by_field_name("value")
            elif spec.type in {"var_spec", "const_spec"}:
                names = spec.children_by_field_name("name")
                values = spec.child_by_field_name("value")
                value = values.named_children[0] if values and values.named_children else None
            else:
                continue
            bound = None if value is None else value_of(value)
            if bound is not None and len(names) == 1 and names[0] is not None:
                out[_text(names[0], data)] = bound
    return out


def module_imports(tree: Tree) -> dict[str, str]:
    """The names a JavaScript/TypeScript or Go module binds to a whole imported module, by
    name: ``const pth = require("path")``, ``import * as nodePath from 'node:path'``, ``import
    up from "upath"``, Go's ``import fp "path/filepath"``. A name imported from a module
    (``import { resolve } from "path"``) is no module."""
    root, data = tree.root, tree.data
    if root is None:
        return {}

    def required(node: Any) -> str | None:
        function, arguments = node.child_by_field_name("function"), node.child_by_field_name(
            "arguments")
        if node.type != "call_expression" or function is None or arguments is None:
            return None
        if _text(function, data) != "require" or len(arguments.named_children) != 1:
            return None
        return _string_value(arguments.named_children[0], data)

    out = _module_bindings(root, data, required)
    for top in root.named_children:
        if top.type == "import_statement":
            source = top.child_by_field_name("source")
            module = None if source is None else _string_value(source, data)
            clause = next((c for c in top.named_children if c.type == "import_clause"), None)
            for child in () if clause is None or module is None else clause.named_children:
                name = child if child.type == "identifier" else next(
                    (c for c in child.named_children if c.type == "identifier"), None
                ) if child.type == "namespace_import" else None
                if name is not None:
                    out[_text(name, data)] = str(module)
        elif top.type == "import_declaration":
            specs = [c for c in top.named_children if c.type == "import_spec"] + [
                c for lists in top.named_children if lists.type == "import_spec_list"
                for c in lists.named_children if c.type == "import_spec"
            ]  # fmt: skip
            for spec in specs:
                name, path = spec.child_by_field_name("name"), spec.child_by_field_name("path")
                value = None if path is None else _go_string(path, data)
                if value is not None:
                    alias = value.rsplit("/", 1)[-1] if name is None else _text(name, data)
                    out[alias] = value
    return out


def _module_regexes(root: Any, data: bytes, language: str) -> dict[str, str]:
    """Names a module binds to a constant regular expression: ``const NAME_RE = /^[a-z]+$/``,
    ``var nameRE = regexp.MustCompile(`^[a-z]+$`)``."""
    return _module_bindings(root, data, lambda node: _regex_value(node, data, language))


def module_strings(path: str, source: str | None) -> dict[str, str] | None:
    """Names a JavaScript/TypeScript or Go module binds once, at its top level, to a constant
    string: ``const DOTS = '..'``, ``const sep = "/"``, Go's ``var bJs =
    []byte("javascript:")`` (a conversion to bytes keeps the text); None when the source has
    no such grammar or does not parse."""
    parsed = _js_or_go_root(path, source)
    if parsed is None:
        return None
    root, data, _ = parsed

    def value_of(node: Any) -> str | None:
        if node.type == "type_conversion_expression" and node.named_children:
            node = node.named_children[-1]  # []byte("javascript:")
        return _string_value(node, data) or _go_string(node, data)

    return _module_bindings(root, data, value_of)


def module_regexes(path: str, source: str | None) -> dict[str, str] | None:
    """Names a JavaScript/TypeScript or Go module binds at its top level to a constant regular
    expression (``var nameRE = regexp.MustCompile(`^[a-z]+$`)``); None when the source has no
    such grammar or does not parse."""
    parsed = _js_or_go_root(path, source)
    if parsed is None:
        return None
    root, data, grammar = parsed
    return _module_regexes(root, data, "go" if grammar == "go" else "javascript")


def refusing_regexes(
    path: str, source: str | None, refusing_call: Callable[[str], bool],
    package: Mapping[str, str] | None = None,
) -> list[RefusingRegex] | None:
    """Every regular expression applied in the condition (or a Go ``if``'s initializer) of an
    ``if`` whose consequence refuses, in a JavaScript/TypeScript or Go source: written there
    or a module-level name bound to one (``if (!NAME_RE.test(v)) throw ...``), or one of
    ``package``'s names (a Go package's other files bind them: :func:`module_regexes`), which
    the module's own bindings hide. None when the source has no such grammar or does not
    parse."""
    parsed = _js_or_go_root(path, source)
    if parsed is None:
        return None
    root, data, grammar = parsed
    language = "go" if grammar == "go" else "javascript"
    bound = {**(package or {}), **_module_regexes(root, data, language)}
    out: list[RefusingRegex] = []
    for line, condition, consequence in _ifs(root):
        if not _refuses(consequence, data, refusing_call):
            continue
        parts = [condition, condition.parent.child_by_field_name("initializer")]
        code = " ".join(_text(condition, data).split())
        for part in filter(None, parts):
            for inner in _walk(part):
                pattern = _regex_value(inner, data, language)
                if pattern is None and inner.type == "identifier":
                    pattern = bound.get(_text(inner, data))
                if pattern is not None:
                    out.append(RefusingRegex(line, code, pattern))
    return sorted(out, key=lambda r: r.line)


@dataclass(frozen=True)
class Argument:
    """One argument of a call as a constant: a string's value, a regex literal's pattern and
    flags (JavaScript), or ``other`` (anything computed)."""

    kind: str
    value: str = ""
    flags: str = ""


@dataclass(frozen=True)
class CallArguments:
    """A call of a JavaScript/TypeScript or Go source with its constant arguments."""

    line: int
    callee: str
    arguments: tuple[Argument, ...]
    code: str
    """The call as written."""


_GO_ESCAPES = re.compile(
    r"\\(?:[abfnrtv\\'\"]|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{3})"
)
_GO_SIMPLE = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}


def _go_unescape(escape: re.Match[str]) -> str:
    body = escape[0][1:]
    if body[0] in "xuU":
        return chr(int(body[1:], 16))
    if body[0].isdigit():
        return chr(int(body, 8))
    return _GO_SIMPLE.get(body, body)


def _go_value(node: Any, data: bytes) -> str | None:
    """The value of a Go string literal: a raw string as written, an interpreted one with its
    escapes (``"\\r\\n"`` is CR LF)."""
    raw = _go_string(node, data)
    if raw is None or node.type == "raw_string_literal":
        return raw
    return _GO_ESCAPES.sub(_go_unescape, raw)


def _argument(node: Any, data: bytes) -> Argument:
    regex = _js_regex(node, data) if node.type == "regex" else None
    if regex is not None:
        return Argument("regex", *regex)
    value = _string_value(node, data)
    if value is None:
        value = _go_value(node, data)
    return Argument("other") if value is None else Argument("string", value)


def call_arguments(
    path: str, source: str | None, names: frozenset[str]
) -> list[CallArguments] | None:
    """The calls of a JavaScript/TypeScript or Go source whose callee's last name is one of
    ``names`` (``replace``, ``ReplaceAll``...), each with its arguments as constants where
    they are written as such; None when the source has no such grammar or does not parse."""
    parsed = _js_or_go_root(path, source)
    if parsed is None:
        return None
    root, data, _ = parsed
    out: list[CallArguments] = []
    for node in _walk(root):
        if node.type != "call_expression":
            continue
        callee = _callee(node, data)
        if _last(callee) not in names:
            continue
        given = node.child_by_field_name("arguments")
        arguments = tuple(_argument(a, data) for a in given.named_children) if given else ()
        out.append(CallArguments(node.start_point[0] + 1, callee, arguments, _text(node, data)))
    return out
