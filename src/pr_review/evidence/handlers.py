"""`error-handling-removed` confirmed on syntax trees for Python files.

The line scan sees an ``except``/``raise``/``finally`` line disappear; on Python files (both
sides parsable) that is kept only when a function (or the module) that still exists on the
head side has lost an error path of that kind, and no file of the PR gained one of that kind
(code moved elsewhere, or a handler rewritten in place, is not a removal). Hits are then put
on the lost paths' base lines, so the factor names the handler that was lost.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping, Sequence

from pr_review.evidence.content import FileScan
from pr_review.evidence.pyast import error_paths, lost_error_paths
from pr_review.evidence.scan import Hit
from pr_review.sources.diff import FileDiff, FileStatus
from pr_review.sources.model import RepoTree

CATEGORY = "error-handling"
_PY = (".py", ".pyi")


def _kinds(source: str | None) -> Counter[str]:
    paths = error_paths(source) if source is not None else None
    return Counter(kind for entries in (paths or {}).values() for kind, _ in entries)


def confirm(
    files: Sequence[FileDiff],
    scans: Mapping[str, FileScan],
    base: RepoTree,
    head: RepoTree,
) -> dict[str, FileScan]:
    """``scans`` with unconfirmed removed error-handling hits dropped from Python files."""
    candidates = [
        f
        for f in files
        if f.path.endswith(_PY)
        and f.status is FileStatus.MODIFIED
        and scans.get(f.path) is not None
        and scans[f.path].removed.get(CATEGORY)
    ]
    if not candidates:
        return dict(scans)
    gained: Counter[str] = Counter()
    for f in files:
        if not f.path.endswith(_PY):
            continue
        old = None if f.status is FileStatus.ADDED else base.read(f.old_path or f.path)
        new = None if f.status is FileStatus.DELETED else head.read(f.path)
        gained.update(_kinds(new) - _kinds(old))
    out = dict(scans)
    for f in candidates:
        old, new = base.read(f.path), head.read(f.path)
        lost = lost_error_paths(old, new) if old is not None and new is not None else None
        if lost is None:
            continue  # not parsable: the line scan stands
        confirmed = [(scope, kind, line) for scope, kind, line in lost if not gained[kind]]
        scan = scans[f.path]
        removed = dict(scan.removed)
        if confirmed:
            rule = removed[CATEGORY][0].rule
            removed[CATEGORY] = [Hit(rule, line) for _, _, line in confirmed]
        else:
            del removed[CATEGORY]
        out[f.path] = dataclasses.replace(scan, removed=removed)
    return out
