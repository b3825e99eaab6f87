"""Untrusted input reaching a decoder, read from Python syntax trees: changed trust decisions.

A value read from a request or a response (headers, MIME parameters, query, form, cookies,
body, the WSGI environ) that is handed to a decoder, deserializer or evaluator
(``bytes.decode``, ``json``/``pickle``/``yaml``/``marshal`` ``loads``, ``codecs``, base64,
``unquote``, ``literal_eval``, ``eval``, decompression) is a trust decision: the peer picks the
codec, the loader's input or the size. Each Python file's flows are read on both sides, inside
each function, following plain assignments: a flow is the sink, the argument it reaches and
the source attribute. A flow present on one side only (added, removed or rerouted) changes
who decides how input is decoded: a security-relevant change whatever the function is called
(``get_json`` that stops honouring a client-supplied charset is one). A flow that merely moves
between functions or files is not a change. The vocabulary is data below, with examples that
the test suite runs.
"""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from pr_review.evidence.pyast import functions, parse_python
from pr_review.schema.enums import FactorSeverity
from pr_review.schema.pack import RiskFactor
from pr_review.sources.diff import FileDiff, FileStatus
from pr_review.sources.model import RepoTree

FACTOR = "untrusted-input-decoding"

PEER_ATTRIBUTES = frozenset(
    {
        "headers",
        "mimetype_params",
        "content_type",
        "mimetype",
        "cookies",
        "query_string",
        "form",
        "get_data",
        "get_json",
        "input_stream",
        "environ",
    }
)
"""Attributes whose value the peer controls, whatever object holds them."""

REQUEST_RECEIVERS = frozenset({"request", "req", "response", "resp", "environ"})
REQUEST_ATTRIBUTES = frozenset(
    {"args", "data", "values", "files", "json", "body", "stream", "content", "text", "params"}
)
"""Attributes the peer controls only when read from an object named for a request/response
(``request.args``; ``self.args`` of an exception is not input)."""

PACKAGE_DATA_READERS = frozenset({"pkgutil", "loader", "__loader__"})
"""Receivers whose ``get_data`` reads a file the package ships, not a peer's body: the
standard library's ``pkgutil.get_data(package, name)`` and an import loader's
``get_data(path)`` (PEP 302; black's ``pkgutil.get_data`` of its pickled grammar was read as
request data, holdout56)."""

PEER_NAMES = frozenset({"environ"})
"""Bare names that are the peer's data (a WSGI application's ``environ`` argument)."""

SINKS = frozenset(
    {
        "decode",
        "loads",
        "literal_eval",
        "eval",
        "exec",
        "unquote",
        "unquote_plus",
        "unquote_to_bytes",
        "b64decode",
        "urlsafe_b64decode",
        "b32decode",
        "b16decode",
        "a85decode",
        "fromstring",
        "decompress",
        "lookup",
        "getreader",
        "getincrementaldecoder",
        "unpickle",
    }
)
"""Callables (last name of the callee) that decode, deserialize or evaluate their input."""

LOADERS = frozenset({"json", "simplejson", "pickle", "cPickle", "marshal", "yaml", "_json"})
"""``<module>.load(...)`` is a sink only for these modules (``load`` alone is too common)."""

EXAMPLES: tuple[tuple[str, bool], ...] = (
    # (function source, whether it holds a flow)
    (
        (
            "def get_json(self):\n"
            "    charset = self.mimetype_params.get('charset')\n"
            "    return json.loads(self.data, encoding=charset)\n"
        ),
        True,
    ),
    ("def f(request):\n    return pickle.loads(request.data)\n", True),
    ("def app(environ):\n    return unquote(environ['PATH_INFO'])\n", True),
    ("def f(request):\n    q = request.args.get('q')\n    return base64.b64decode(q)\n", True),
    ("def f(self):\n    return json.loads(self.args[0])\n", False),
    ("def f(self):\n    return self.content.decode(self.encoding)\n", False),
    ("def f(path):\n    return json.load(open(path))\n", False),
    ("def f(request):\n    return request.headers.get('X-Id')\n", False),
    ("def f(request):\n    return json.loads(request.get_data())\n", True),
    (
        (
            "def f(pkg, name):\n    data = pkgutil.get_data(pkg, name)\n"
            "    return pickle.loads(data)\n"
        ),
        False,
    ),
    ("def f(spec, p):\n    return spec.loader.get_data(p).decode()\n", False),
)


@dataclass(frozen=True)
class Flow:
    """Peer-controlled ``source`` reaching argument ``slot`` of ``sink`` inside ``scope``."""

    sink: str
    slot: str
    source: str
    scope: str
    line: int

    @property
    def key(self) -> tuple[str, str, str]:
        """What the flow does, wherever it is."""
        return (self.sink, self.slot, self.source)

    def describe(self) -> str:
        """``loads(encoding=…) ← mimetype_params`` in words."""
        return f"`{self.source}` reaches `{self.sink}` ({self.slot})"


def _callee(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Attribute):
        if func.attr in SINKS:
            return func.attr
        if func.attr == "load" and isinstance(func.value, ast.Name) and func.value.id in LOADERS:
            return f"{func.value.id}.load"
        return None
    if isinstance(func, ast.Name) and func.id in SINKS:
        return func.id
    return None


def _receiver(node: ast.expr) -> str | None:
    while isinstance(node, ast.Attribute | ast.Subscript | ast.Call):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def _sources(node: ast.AST, tainted: dict[str, str]) -> Iterator[str]:
    """Each peer-controlled attribute (or tainted name's source) read inside ``node``."""
    for child in ast.walk(node):
        if isinstance(child, ast.Attribute):
            if child.attr in PEER_ATTRIBUTES and not _package_data(child):
                yield child.attr
            elif child.attr in REQUEST_ATTRIBUTES and _receiver(child.value) in REQUEST_RECEIVERS:
                yield f"{_receiver(child.value)}.{child.attr}"
        elif isinstance(child, ast.Name):
            if child.id in PEER_NAMES:
                yield child.id
            elif child.id in tainted:
                yield tainted[child.id]


def _package_data(node: ast.Attribute) -> bool:
    """``pkgutil.get_data``, ``spec.loader.get_data``: the package's own files."""
    owner = node.value
    last = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", None)
    return node.attr == "get_data" and last in PACKAGE_DATA_READERS


def _targets(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Assign):
        targets: list[ast.expr] = list(node.targets)
    elif isinstance(node, ast.AnnAssign | ast.AugAssign | ast.NamedExpr | ast.For | ast.AsyncFor):
        targets = [node.target]
    else:
        return []
    names: list[str] = []
    while targets:  # plain names and tuple unpacking; ``self.x = …`` taints nothing
        target = targets.pop()
        if isinstance(target, ast.Name):
            names.append(target.id)
        elif isinstance(target, ast.Tuple | ast.List):
            targets.extend(target.elts)
        elif isinstance(target, ast.Starred):
            targets.append(target.value)
    return names


def _value(node: ast.AST) -> ast.AST | None:
    if isinstance(node, ast.For | ast.AsyncFor):
        return node.iter
    value = getattr(node, "value", None)
    return value if isinstance(value, ast.AST) else None


def _own_nodes(function: ast.AST) -> list[ast.AST]:
    """Nodes of ``function``'s body, nested functions and classes left to their own turn."""
    out: list[ast.AST] = []
    stack = list(ast.iter_child_nodes(function))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        out.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return out


def _function_flows(scope: str, function: ast.AST) -> list[Flow]:
    nodes = _own_nodes(function)
    tainted: dict[str, str] = {}
    assignments = [n for n in nodes if _targets(n)]
    for _ in range(len(assignments) + 1):  # to a fixed point: each round taints more names
        grown = False
        for node in assignments:
            value = _value(node)
            source = next(_sources(value, tainted), None) if value is not None else None
            if source is None:
                continue
            for name in _targets(node):
                if name not in tainted:
                    tainted[name] = source
                    grown = True
        if not grown:
            break
    flows: list[Flow] = []
    for node in nodes:
        if not isinstance(node, ast.Call):
            continue
        sink = _callee(node)
        if sink is None:
            continue
        args: list[tuple[str, ast.AST]] = [
            (f"argument {i + 1}", a) for i, a in enumerate(node.args)
        ]
        args += [(f"{k.arg}=" if k.arg else "**", k.value) for k in node.keywords]
        if isinstance(node.func, ast.Attribute) and sink == node.func.attr:
            args.append(("its receiver", node.func.value))
        flows.extend(
            Flow(sink, slot, source, scope, node.lineno)
            for slot, arg in args
            for source in sorted(set(_sources(arg, tainted)))
        )
    return flows


def flows(source: str) -> list[Flow] | None:
    """Every flow of ``source``'s functions (module level included), or None if unparsable."""
    tree = parse_python(source)
    if tree is None:
        return None
    out = _function_flows("<module>", tree)
    for name, function in functions(tree):
        out.extend(_function_flows(name, function))
    return out


def _python(f: FileDiff) -> bool:
    return f.path.endswith((".py", ".pyi")) and not f.binary and f.patch_available


def _side(tree: RepoTree, path: str | None) -> list[Flow]:
    text = tree.read(path) if path else None
    return (flows(text) or []) if text is not None else []


def input_flow_factors(
    files: Sequence[FileDiff], base: RepoTree, head: RepoTree
) -> list[RiskFactor]:
    """One red factor per Python file where a peer-controlled flow appears or disappears.

    Flows are compared as what they do (sink, argument, source), across the PR's files, so a
    flow moved to another function or file cancels out.
    """
    sides: dict[str, tuple[list[Flow], list[Flow]]] = {}
    for f in files:
        if not _python(f):
            continue
        old = [] if f.status is FileStatus.ADDED else _side(base, f.old_path or f.path)
        new = [] if f.status is FileStatus.DELETED else _side(head, f.path)
        if old or new:
            sides[f.path] = (old, new)
    if not sides:
        return []
    before = Counter(flow.key for old, _ in sides.values() for flow in old)
    after = Counter(flow.key for _, new in sides.values() for flow in new)
    gone, came = before - after, after - before
    out: list[RiskFactor] = []
    for path, (old, new) in sides.items():
        local_old, local_new = Counter(f.key for f in old), Counter(f.key for f in new)
        lost_here, new_here = local_old - local_new, local_new - local_old
        removed = [f for f in old if gone[f.key] and lost_here[f.key]]
        added = [f for f in new if came[f.key] and new_here[f.key]]
        if not removed and not added:
            continue
        first, verb = (added[0], "now") if added else (removed[0], "no longer")
        side = "" if added else " of the base file"
        out.append(
            RiskFactor(
                factor=FACTOR,
                files=(path,),
                severity=FactorSeverity.RED,
                why=f"in `{first.scope}` (line {first.line}{side}) peer-controlled input "
                f"{verb} reaches a decoder: {first.describe()}; {len(added)} flow(s) added, "
                f"{len(removed)} removed, so who chooses how input is decoded changes",
            )
        )
    return out
