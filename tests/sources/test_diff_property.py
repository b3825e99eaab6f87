"""Property: for any change, parse_diff counts what ``git diff --numstat`` counts, file for file.

Hypothesis generates a base tree and an edit of it (modified lines, insertions, deletions,
whole-file deletions, renames with and without edits, new files), with CRLF and LF lines,
missing final newlines, non-UTF-8 bytes and the odd binary file. Each example is committed to
a real repository and compared with git's own numstat, name-status and file contents.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pr_review.sources.diff import parse_diff
from tests.gitrepo import GitRepo
from tests.sources.agreement import assert_agrees_with_git, assert_lines_match_trees

Tree = dict[str, bytes]

WORDS = [
    b"import os",
    b"def f(x):",
    b"    return x",
    b"",
    b"    pass",
    b"caf\xe9 latin-1",
    b"\xff\xfe not utf-8",
    "naïve ünïcode".encode(),
    b"# comment",
    b"x = 1",
    b"trailing space ",
    b"\ttabbed",
    b"--- looks like a header",
    b"+++ also",
    b"@@ -1 +1 @@ fake hunk",
    b"diff --git a/x b/x",
    b"\\ No newline at end of file",
]
NAMES = [f"{d}{n}" for d in ("", "pkg/", "a b/", "ü/") for n in ("m.py", "n.txt", "o p.md", "q")]

lines_st = st.lists(st.sampled_from(WORDS), max_size=25)


@st.composite
def file_bytes(draw: st.DrawFn, lines: list[bytes] | None = None) -> bytes:
    """File content from ``lines`` (or drawn ones) with drawn line endings and final newline."""
    body = draw(lines_st) if lines is None else lines
    crlf = draw(st.sampled_from(["lf", "crlf", "mixed"]))
    ends = [
        b"\r\n" if crlf == "crlf" or (crlf == "mixed" and draw(st.booleans())) else b"\n"
        for _ in body
    ]
    data = b"".join(line + end for line, end in zip(body, ends, strict=True))
    if body and draw(st.booleans()):  # no newline at end of file
        data = data[: -len(ends[-1])]
    if draw(st.integers(0, 11)) == 0:  # now and then a binary file (git: NUL byte)
        data += b"\x00binary"
    return data


@st.composite
def edited(draw: st.DrawFn, data: bytes) -> bytes:
    """``data`` with some lines replaced, inserted or deleted."""
    lines = data.replace(b"\r\n", b"\n").split(b"\n")
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["replace", "insert", "delete"]))
        at = draw(st.integers(0, len(lines)))
        word = draw(st.sampled_from(WORDS))
        if op == "insert":
            lines.insert(at, word)
        elif lines and at < len(lines):
            if op == "replace":
                lines[at] = word
            else:
                del lines[at]
    return draw(file_bytes(lines))


@st.composite
def changes(draw: st.DrawFn) -> tuple[Tree, Tree]:
    """A base tree and the head tree an edit of it gives."""
    names = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=5, unique=True))
    base = {name: draw(file_bytes()) for name in names}
    head: Tree = {}
    free = [n for n in NAMES if n not in base]
    for name, data in base.items():
        action = draw(st.sampled_from(["keep", "edit", "delete", "rename", "rename+edit"]))
        target = name
        if action.startswith("rename") and free:
            target = free.pop(draw(st.integers(0, len(free) - 1)))
        if action == "delete":
            continue
        head[target] = draw(edited(data)) if action.endswith("edit") else data
    for name in draw(st.lists(st.sampled_from(free), max_size=2, unique=True)):
        head.setdefault(name, draw(file_bytes()))
    return base, head


def commit_tree(repo: GitRepo, tree: Tree, message: str) -> str:
    for path in repo.run("ls-files", "-z").split("\0"):
        if path:
            (repo.path / path).unlink()
    for path, data in tree.items():
        repo.write(path, data)
    return repo.commit(message)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(changes())
def test_counts_equal_git_numstat(change: tuple[Tree, Tree]) -> None:
    base, head = change
    with tempfile.TemporaryDirectory() as tmp:
        repo = GitRepo.init(Path(tmp) / "repo")
        commit_tree(repo, base, "base")
        repo.branch("pr")
        commit_tree(repo, head, "head")
        diff = parse_diff(repo.diff("main", "pr"))
        assert_agrees_with_git(diff, repo, "main", "pr")
        assert_lines_match_trees(diff, repo, "main", "pr")
