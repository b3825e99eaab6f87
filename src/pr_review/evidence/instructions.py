"""Repository instructions for reviewers, read from the base tree, concatenated and capped."""

from __future__ import annotations

from pr_review.sources.model import RepoTree

CANDIDATES = (
    "CONTRIBUTING.md",
    ".github/CONTRIBUTING.md",
    "docs/CONTRIBUTING.md",
    ".github/pull_request_template.md",
    ".github/PULL_REQUEST_TEMPLATE.md",
    "pull_request_template.md",
    "docs/pull_request_template.md",
    "AGENTS.md",
    "CLAUDE.md",
    ".github/copilot-instructions.md",
    ".pr-review/config.yml",
)
TRUNCATED = "\n[... truncated: repository instructions exceed {cap} characters]\n"


def repo_instructions(tree: RepoTree, *, max_chars: int) -> str | None:
    """Every instruction file found, each under a ``## <path>`` header; None when none exist."""
    paths = tree.paths()
    lower = {p.lower(): p for p in paths}
    extra = sorted(p for p in paths if p.startswith(".pr-review/") and p.endswith((".md", ".txt")))
    parts: list[str] = []
    for candidate in (*CANDIDATES, *extra):
        path = candidate if candidate in paths else lower.get(candidate.lower())
        if path is None or any(part.startswith(f"## {path}\n") for part in parts):
            continue
        text = tree.read(path)
        if text is not None and text.strip():
            parts.append(f"## {path}\n\n{text.strip()}\n")
    if not parts:
        return None
    joined = "\n".join(parts)
    if len(joined) <= max_chars:
        return joined
    return joined[:max_chars] + TRUNCATED.format(cap=max_chars)
