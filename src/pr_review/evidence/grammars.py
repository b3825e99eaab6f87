"""Syntax trees for languages other than Python: the one module that imports tree-sitter.

``tree-sitter`` with the grammars of ``tree-sitter-language-pack`` (both pinned). Everything
here degrades to None: a language without a grammar, a grammar that fails to load, a source
too large or one that does not parse cleanly (error nodes) is simply not analysed on a tree;
callers record that and fall back to their lexical analysis. Python is read with the
standard :mod:`ast` elsewhere (:mod:`pr_review.evidence.pyast`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from pr_review.evidence.paths import extension

MAX_SOURCE_BYTES = 1_000_000
LANGUAGES: dict[str, str] = {
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
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


def parse(path: str, source: str | None) -> Tree | None:
    """The tree of ``source`` (a file at ``path``), or None (see the module docstring)."""
    language = language_of(path)
    if language is None or source is None:
        return None
    data = source.encode("utf-8", errors="replace")
    if len(data) > MAX_SOURCE_BYTES:
        return None
    parser = _parser(language)
    if parser is None:
        return None
    try:
        root = parser.parse(data).root_node
    except (ValueError, RuntimeError):
        return None
    if root.has_error:
        return None
    tokens: list[str] = []
    lines: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if "comment" in node.type:
            continue
        if node.child_count == 0 or "string" in node.type:
            text = data[node.start_byte : node.end_byte].decode("utf-8", errors="replace")
            if text.strip():
                tokens.append(text)
                lines.update(range(node.start_point[0] + 1, node.end_point[0] + 2))
            continue
        stack.extend(reversed(node.children))
    return Tree(tuple(tokens), frozenset(lines), _scopes(root, data))


def _name(node: Any, data: bytes) -> str | None:
    for name_field in _NAME_FIELDS:
        child = node.child_by_field_name(name_field)
        while (
            child is not None
            and child.type not in {"identifier", "type_identifier"}
            and (child.child_by_field_name("declarator") is not None)
        ):
            child = child.child_by_field_name("declarator")  # C: pointer/function declarators
        if child is not None:
            text = data[child.start_byte : child.end_byte].decode("utf-8", errors="replace")
            if text.replace("_", "").isalnum():
                return text
            head = child.child_by_field_name("name") or child.child_by_field_name("declarator")
            if head is not None:
                return data[head.start_byte : head.end_byte].decode("utf-8", errors="replace")
    return None


def _scopes(node: Any, data: bytes) -> list[Scope]:
    out: list[Scope] = []
    for child in node.children:
        inner = _scopes(child, data)
        kind = child.type
        name = _name(child, data) if any(w in kind for w in _SCOPE_WORDS) else None
        if name is not None and "call" not in kind and not kind.endswith("declarator"):
            out.append(Scope(name, child.start_point[0] + 1, child.end_point[0] + 1, inner))
        else:
            out.extend(inner)
    return sorted(out, key=lambda s: s.start)
