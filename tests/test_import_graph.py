"""No import cycles among ``pr_review`` modules, function-level imports included.

A cycle hides a layering mistake even when lazy imports keep it from failing at import time,
so the graph is read from the source with :mod:`ast`, not from what happens to load. Imports
under ``if TYPE_CHECKING:`` are left out: they never run, they only name types.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pr_review

SRC = Path(pr_review.__file__).resolve().parent


def _module_name(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    base = base[: len(base) - node.level + (1 if is_package else 0)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _runtime_imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement, at any depth, except those under ``if TYPE_CHECKING:``."""
    found: list[ast.Import | ast.ImportFrom] = []
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        elif isinstance(node, ast.If) and _is_type_checking(node):
            todo.extend(node.orelse)
            continue
        todo.extend(ast.iter_child_nodes(node))
    return found


def import_graph() -> dict[str, set[str]]:
    """Module -> the ``pr_review`` modules it imports anywhere in its body."""
    paths = sorted(SRC.rglob("*.py"))
    modules = {_module_name(p): p for p in paths}
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        for node in _runtime_imports(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(name, is_package, node)
                # ``from pkg import mod`` imports the submodule when there is one.
                targets = [
                    f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                    for alias in node.names
                ]
            for imported in targets:
                target = imported
                while target and target not in modules:  # ``a.b.func`` -> ``a.b``
                    target = target.rpartition(".")[0]
                if target.startswith("pr_review") and target != name:
                    graph[name].add(target)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle as ``[a, b, ..., a]``, or None."""
    state: dict[str, int] = {}  # 1 on the stack, 2 done
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt):], nxt]
            if nxt not in state and (found := visit(nxt)) is not None:
                return found
        stack.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (found := visit(start)) is not None:
            return found
    return None


def test_no_import_cycle_among_pr_review_modules() -> None:
    graph = import_graph()
    assert len(graph) > 50  # the walk found the package
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or ())


def test_the_cycle_finder_finds_a_cycle_and_the_graph_has_lazy_imports() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
    graph = import_graph()
    # cli imports commands inside build_parser: a function-level import is an edge.
    assert "pr_review.commands" in graph["pr_review.cli"]
    # synthesis.report names SynthesisResult only for typing: not an edge.
    assert "pr_review.synthesis.core" not in graph["pr_review.synthesis.report"]


def package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """The module graph folded to ``pr_review``'s packages and top-level modules: each stage
    package (``pr_review.evidence``, ``pr_review.verifiers`` ...) is one node."""

    def node(module: str) -> str:
        return ".".join(module.split(".")[:2])

    folded: dict[str, set[str]] = {}
    for module, imported in graph.items():
        edges = folded.setdefault(node(module), set())
        edges.update(node(target) for target in imported if node(target) != node(module))
    return folded


def test_no_import_cycle_among_stage_packages() -> None:
    """One package per stage, layered: sources, then verifiers, evidence, reviewers,
    synthesis, packet and publish, with the configuration (which composes every stage's
    section) above them. A stage reading ``Config`` or a verifier calling into the evidence
    stage would make two packages depend on each other."""
    packages = package_graph(import_graph())
    assert {"pr_review.sources", "pr_review.evidence", "pr_review.config"} <= set(packages)
    cycle = find_cycle(packages)
    assert cycle is None, "import cycle between packages: " + " -> ".join(cycle or ())
    assert "pr_review.evidence" in packages["pr_review.config"]
    assert "pr_review.verifiers" in packages["pr_review.evidence"]


def test_the_package_fold_keeps_edges_between_packages_only() -> None:
    graph = {
        "pr_review.a.x": {"pr_review.a.y", "pr_review.b.z"},
        "pr_review.a.y": set(),
        "pr_review.b.z": {"pr_review.c"},
        "pr_review.c": set(),
    }
    assert package_graph(graph) == {
        "pr_review.a": {"pr_review.b"},
        "pr_review.b": {"pr_review.c"},
        "pr_review.c": set(),
    }
