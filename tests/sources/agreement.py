"""Checks that a parsed :class:`Diff` says what git itself says about the same change."""

from __future__ import annotations

from pr_review.sources.diff import Diff, FileDiff, FileStatus
from tests.gitrepo import GitRepo

LETTER = {
    "A": FileStatus.ADDED,
    "M": FileStatus.MODIFIED,
    "T": FileStatus.MODIFIED,
    "D": FileStatus.DELETED,
    "R": FileStatus.RENAMED,
    "C": FileStatus.COPIED,
}


def assert_agrees_with_git(
    diff: Diff, repo: GitRepo, base: str, head: str = "HEAD", *extra: str
) -> None:
    """Paths, counts and change types equal ``git diff --numstat`` / ``--name-status``."""
    numstat = repo.numstat(base, head, *extra)
    status = repo.name_status(base, head, *extra)
    ours = {f.path: f for f in diff.files}
    assert len(ours) == len(diff.files), "a path appears twice"
    assert set(ours) == set(numstat) == set(status)
    for path, fd in ours.items():
        ins, dels = numstat[path]
        if ins is None:
            # An unchanged rename/copy has no content in the patch to show it is binary.
            unchanged_move = fd.similarity == 100 and fd.old_path is not None and not fd.hunks
            assert fd.binary or unchanged_move, path
            assert (fd.insertions, fd.deletions) == (0, 0), path
        else:
            assert not fd.binary, path
            assert (fd.insertions, fd.deletions) == (ins, dels), path
        assert fd.status is LETTER[status[path]], path
    assert diff.problems == ()


def assert_lines_match_trees(diff: Diff, repo: GitRepo, base: str, head: str = "HEAD") -> None:
    """Every added line is that line of the head file, every removed one that of the base file."""
    merge_base = repo.run("merge-base", base, head).strip()
    for fd in diff.files:
        if fd.binary or fd.submodule:
            continue
        if any(h.added for h in fd.hunks):
            _check_side(fd, repo, head, fd.path, added=True)
        if any(h.removed for h in fd.hunks):
            _check_side(fd, repo, merge_base, fd.old_path or fd.path, added=False)


def _check_side(fd: FileDiff, repo: GitRepo, rev: str, path: str, *, added: bool) -> None:
    blob = repo.run_bytes("show", f"{rev}:{path}").stdout
    lines = [line.removesuffix("\r") for line in blob.decode("utf-8", errors="replace").split("\n")]
    for hunk in fd.hunks:
        for number, text in hunk.added if added else hunk.removed:
            assert lines[number - 1] == text, (path, number)
