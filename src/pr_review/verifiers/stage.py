"""Writing the PR's files into the workspace, once per review, before any tool runs."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from pathlib import Path

from pr_review.sources.diff import FileDiff, FileStatus
from pr_review.sources.model import PullRequest, RepoTree
from pr_review.verifiers.scope import base_path
from pr_review.verifiers.workspace import (
    TOOL_CONFIG_FILES,
    Workspace,
    materialize,
    package_markers,
    write_file,
)


@dataclass(frozen=True)
class Materialized:
    """What was written, and the text of each touched file for scoping."""

    head_files: tuple[str, ...]
    base_files: tuple[str, ...]
    head_lines: Mapping[str, tuple[str, ...]]
    """Head path -> lines of its head version."""
    base_lines: Mapping[str, tuple[str, ...]]
    """Base path -> lines of its base version."""
    checkout_ready: bool


NOTHING = Materialized((), (), {}, {}, checkout_ready=False)
"""What is staged when no selected verifier reads the workspace."""

MAX_SUPPORT_BYTES = 64_000_000
"""Source staged besides the touched files so a type checker resolves the project's imports
(see :func:`stage_support`): enough for any ordinary project's packages (Django's Python
source is ~30 MB), bounded so a monorepo cannot fill the disk or the time budget."""

SUPPORT_BATCH = 256
"""Files read from the revision per batch (one ``git cat-file`` each)."""


def _read_batch(tree: RepoTree, paths: list[str]) -> dict[str, str | None]:
    """The texts of ``paths``, in one read when the tree offers ``read_many`` (git)."""
    read_many = getattr(tree, "read_many", None)
    if callable(read_many):
        texts: dict[str, str | None] = read_many(paths)
        return texts
    return {p: tree.read(p) for p in paths}


def stage_support(
    root: Path,
    tree: RepoTree,
    paths: Sequence[str],
    *,
    skip: AbstractSet[str] = frozenset(),
    budget_bytes: int = MAX_SUPPORT_BYTES,
) -> tuple[tuple[str, ...], int]:
    """Write ``paths`` from ``tree`` under ``root`` (those in ``skip`` are there already),
    in order, until ``budget_bytes`` of text is written.

    Returns the paths written and how many were left out for the budget. Files are written
    as the workspace writes every file (refused paths skipped, never a symlink).
    """
    todo = [p for p in paths if p not in skip]
    written: list[str] = []
    spent = 0
    for start in range(0, len(todo), SUPPORT_BATCH):
        batch = todo[start : start + SUPPORT_BATCH]
        for offset, (path, text) in enumerate(_read_batch(tree, batch).items()):
            if text is None:
                continue
            spent += len(text)
            if spent > budget_bytes:
                return tuple(written), len(todo) - start - offset
            if write_file(root, path, text):
                written.append(path)
    return tuple(written), 0


def has_text(f: FileDiff) -> bool:
    """A file with a text head version tools can read."""
    return f.status is not FileStatus.DELETED and not f.binary and not f.submodule


def _write_side(
    root: Path, tree: RepoTree, paths: list[str]
) -> tuple[tuple[str, ...], dict[str, tuple[str, ...]]]:
    """Write ``paths`` from ``tree`` (plus their packages' ``__init__.py``); keep their lines."""
    written: list[str] = []
    lines: dict[str, tuple[str, ...]] = {}
    for path in paths:
        text = tree.read(path)
        if text is None:
            continue
        lines[path] = tuple(text.splitlines())
        if write_file(root, path, text):
            written.append(path)
    materialize(root, tree, package_markers(tree, written))
    return tuple(written), lines


def materialize_pr(
    pr: PullRequest,
    workspace: Workspace,
    config_tree: RepoTree,
    *,
    full_checkout: bool,
    only: Callable[[str], bool] | None = None,
) -> Materialized:
    """Write head and base versions of the touched files, the tool configs, and a checkout.

    Tool configuration files come from ``config_tree`` on both sides, after the touched
    files, so both sides are checked under the same rules. ``only`` (a head path predicate)
    limits the touched files written to those some selected tool reads.
    """
    workspace.prepare()
    touched = [f for f in pr.diff.files if has_text(f) and (only is None or only(f.path))]
    head_files, head_lines = _write_side(workspace.head, pr.head_tree, [f.path for f in touched])
    base_paths = [b for f in touched if (b := base_path(f)) is not None]
    base_files, base_lines = _write_side(workspace.base, pr.base_tree, base_paths)
    for root in (workspace.head, workspace.base):
        materialize(root, config_tree, TOOL_CONFIG_FILES)
    checkout_ready = False
    if full_checkout:
        workspace.checkout.mkdir(parents=True, exist_ok=True)
        materialize(workspace.checkout, pr.head_tree, sorted(pr.head_tree.paths()))
        checkout_ready = True
    return Materialized(head_files, base_files, head_lines, base_lines, checkout_ready)
