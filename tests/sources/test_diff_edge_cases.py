"""parse_diff on real git output, one edge case per test, checked against git's own counts."""

from __future__ import annotations

import pytest

from pr_review.sources.diff import Diff, FileDiff, FileStatus, parse_diff
from tests.gitrepo import GitRepo
from tests.sources.agreement import assert_agrees_with_git, assert_lines_match_trees

PY = "".join(f"def f{i}(x):\n    return x + {i}\n\n" for i in range(30))


def start(repo: GitRepo, files: dict[str, str | bytes]) -> None:
    """Base commit on main with ``files``, then switch to branch ``pr``."""
    for path, content in files.items():
        repo.write(path, content)
    repo.commit("base")
    repo.branch("pr")


def finish(repo: GitRepo, *extra: str, patch_only: tuple[str, ...] = ()) -> Diff:
    """Commit the PR, parse ``main...pr`` and check it against git's numstat and name-status.

    ``extra`` goes to every git diff; ``patch_only`` only to the one that makes the patch.
    """
    repo.commit("pr")
    diff = parse_diff(repo.diff("main", "pr", *extra, *patch_only))
    assert_agrees_with_git(diff, repo, "main", "pr", *extra)
    assert_lines_match_trees(diff, repo, "main", "pr")
    return diff


def only(diff: Diff) -> FileDiff:
    assert len(diff.files) == 1
    return diff.files[0]


def test_rename_without_content_change(git_repo: GitRepo) -> None:
    start(git_repo, {"src/old.py": PY})
    git_repo.mv("src/old.py", "lib/new.py")
    fd = only(finish(git_repo))
    assert (fd.status, fd.path, fd.old_path, fd.similarity) == (
        FileStatus.RENAMED,
        "lib/new.py",
        "src/old.py",
        100,
    )
    assert fd.hunks == ()


def test_rename_with_content_change(git_repo: GitRepo) -> None:
    start(git_repo, {"src/old.py": PY})
    git_repo.mv("src/old.py", "src/new.py")
    git_repo.write("src/new.py", PY.replace("return x + 3\n", "return x - 3\n"))
    fd = only(finish(git_repo))
    assert (fd.status, fd.old_path) == (FileStatus.RENAMED, "src/old.py")
    assert fd.similarity is not None
    assert 50 <= fd.similarity < 100
    assert (fd.insertions, fd.deletions) == (1, 1)


@pytest.mark.parametrize("edit", [False, True])
def test_copy_with_and_without_change(git_repo: GitRepo, *, edit: bool) -> None:
    start(git_repo, {"a.py": PY})
    git_repo.write("b.py", PY + ("def extra():\n    pass\n" if edit else ""))
    diff = finish(git_repo, "-C", "--find-copies-harder")
    fd = only(diff)
    assert (fd.status, fd.path, fd.old_path) == (FileStatus.COPIED, "b.py", "a.py")
    assert fd.change_type.value == "added"
    assert (fd.insertions, fd.deletions) == ((2, 0) if edit else (0, 0))
    assert (fd.similarity == 100) is not edit


def test_deletion(git_repo: GitRepo) -> None:
    start(git_repo, {"gone.py": PY, "kept.py": "x = 1\n"})
    git_repo.rm("gone.py")
    fd = only(finish(git_repo))
    assert (fd.status, fd.path, fd.deletions, fd.insertions) == (
        FileStatus.DELETED,
        "gone.py",
        PY.count("\n"),
        0,
    )
    assert fd.removed_line_numbers == tuple(range(1, PY.count("\n") + 1))


def test_new_empty_file(git_repo: GitRepo) -> None:
    start(git_repo, {"keep.txt": "k\n"})
    git_repo.write("pkg/__init__.py", "")
    fd = only(finish(git_repo))
    assert (fd.path, fd.status, fd.hunks, fd.new_mode) == (
        "pkg/__init__.py",
        FileStatus.ADDED,
        (),
        "100644",
    )


def test_deleted_empty_file(git_repo: GitRepo) -> None:
    start(git_repo, {"old_empty": "", "keep.txt": "k\n"})
    git_repo.rm("old_empty")
    fd = only(finish(git_repo))
    assert (fd.path, fd.status, fd.hunks, fd.old_mode) == (
        "old_empty",
        FileStatus.DELETED,
        (),
        "100644",
    )


@pytest.mark.parametrize("extra", [(), ("--binary",)], ids=["differ", "git-binary-patch"])
def test_binary_files(git_repo: GitRepo, extra: tuple[str, ...]) -> None:
    start(git_repo, {"img.png": b"\x89PNG\x00\x01\x02", "data.bin": b"\x00" * 64})
    git_repo.write("img.png", b"\x89PNG\x00\x09\x09\x09")
    git_repo.write("new.bin", bytes(range(256)))
    git_repo.rm("data.bin")
    diff = finish(git_repo, patch_only=extra)
    assert {f.path: (f.binary, f.status) for f in diff.files} == {
        "img.png": (True, FileStatus.MODIFIED),
        "new.bin": (True, FileStatus.ADDED),
        "data.bin": (True, FileStatus.DELETED),
    }
    assert all(f.hunks == () for f in diff.files)


def test_mode_only_change(git_repo: GitRepo) -> None:
    start(git_repo, {"run.sh": "echo hi\n"})
    git_repo.chmod("run.sh")
    fd = only(finish(git_repo))
    assert (fd.old_mode, fd.new_mode, fd.mode_changed) == ("100644", "100755", True)
    assert (fd.status, fd.hunks, fd.insertions, fd.deletions) == (FileStatus.MODIFIED, (), 0, 0)


def test_mode_and_content_change(git_repo: GitRepo) -> None:
    start(git_repo, {"run.sh": "echo hi\n"})
    git_repo.write("run.sh", "echo hello\n")
    git_repo.chmod("run.sh")
    fd = only(finish(git_repo))
    assert fd.mode_changed
    assert fd.hunks[0].added == ((1, "echo hello"),)


@pytest.mark.parametrize(
    ("before", "after"),
    [("a\nb", "a\nb\n"), ("a\nb\n", "a\nb"), ("a\nb", "a\nc"), ("", "x"), ("x", "")],
)
def test_no_newline_at_end_of_file(git_repo: GitRepo, before: str, after: str) -> None:
    start(git_repo, {"f.txt": before})
    git_repo.write("f.txt", after)
    fd = only(finish(git_repo))
    texts = [t for h in fd.hunks for _, t in h.added + h.removed]
    assert not any("No newline" in t for t in texts)


def test_crlf_lines(git_repo: GitRepo) -> None:
    start(git_repo, {"win.txt": b"one\r\ntwo\r\nthree\r\n", "mixed.txt": b"a\nb\r\nc"})
    git_repo.write("win.txt", b"one\r\nTWO\r\nthree\r\nfour\r\n")
    git_repo.write("mixed.txt", b"a\r\nb\nc\r\nd\r")
    diff = finish(git_repo)
    win = diff.file("win.txt")
    assert win is not None
    assert [t for h in win.hunks for _, t in h.added] == ["TWO", "four"]
    assert all("\r" not in t for f in diff.files for h in f.hunks for _, t in h.added)


def test_non_utf8_bytes_never_crash(git_repo: GitRepo) -> None:
    start(git_repo, {"latin.txt": "caf\xe9\n".encode("latin-1"), "ok.txt": "x\n"})
    git_repo.write("latin.txt", b"caf\xe9 cr\xe8me\n\xff\xfe broken\n")
    fd = only(finish(git_repo))
    assert fd.hunks[0].added[0][1] == "caf\ufffd cr\ufffdme"
    assert (fd.insertions, fd.deletions) == (2, 1)


def test_submodule_pointer_changes(git_repo: GitRepo) -> None:
    start(git_repo, {"README": "r\n"})
    git_repo.set_gitlink("vendor/lib", "1" * 40)
    git_repo.set_gitlink("vendor/other", "3" * 40)
    git_repo.commit("add submodules", add_all=False)
    git_repo.branch("pr2")
    git_repo.set_gitlink("vendor/lib", "2" * 40)
    git_repo.run("rm", "-q", "--cached", "vendor/other")
    git_repo.set_gitlink("vendor/new", "4" * 40)
    git_repo.commit("bump", add_all=False)
    diff = parse_diff(git_repo.diff("pr", "pr2"))
    assert_agrees_with_git(diff, git_repo, "pr", "pr2")
    assert all(f.submodule for f in diff.files)
    lib = diff.file("vendor/lib")
    assert lib is not None
    assert lib.hunks[0].added == ((1, "Subproject commit " + "2" * 40),)


@pytest.mark.parametrize(
    "name",
    [
        "with space.py",
        "dir with space/x y.py",
        "naïve/ünïcødé.py",
        'quo"te.py',
        "tab\there.py",
        "back\\slash.py",
        " lead.py",
        "x b/y.py",
        "a b/c d.py",
    ],
)
def test_unusual_paths(git_repo: GitRepo, name: str) -> None:
    start(git_repo, {name: PY, "z.txt": "z\n"})
    git_repo.write(name, PY + "x = 1\n")
    git_repo.mv("z.txt", name + ".moved")
    git_repo.write("new " + name.replace("/", "_"), "")
    diff = finish(git_repo)
    assert name in {f.path for f in diff.files}
    moved = diff.file(name + ".moved")
    assert moved is not None
    assert moved.old_path == "z.txt"


def test_empty_diff(git_repo: GitRepo) -> None:
    start(git_repo, {"a": "a\n"})
    assert finish(git_repo).files == ()
    for empty in ("", b"", "\n"):
        diff = parse_diff(empty)
        assert (diff.files, diff.insertions, diff.deletions, diff.problems) == ((), 0, 0, ())


def test_hunk_line_numbers_on_both_sides(git_repo: GitRepo) -> None:
    start(git_repo, {"m.py": PY})
    git_repo.write("m.py", "# head\n" + PY.replace("return x + 20\n", "return 0\n") + "# tail\n")
    fd = only(finish(git_repo))
    assert fd.added_line_numbers[0] == 1
    assert fd.removed_line_numbers == (PY.split("\n").index("    return x + 20") + 1,)
    for hunk in fd.hunks:
        assert all(n in hunk.new_range for n, _ in hunk.added)
        assert all(n in hunk.old_range for n, _ in hunk.removed)


def test_type_change_file_to_symlink_is_one_modified_file(git_repo: GitRepo) -> None:
    start(git_repo, {"link": "plain file\nsecond\n", "other": "o\n"})
    (git_repo.path / "link").unlink()
    (git_repo.path / "link").symlink_to("other")
    fd = only(finish(git_repo))
    assert (fd.path, fd.status, fd.old_mode, fd.new_mode) == (
        "link",
        FileStatus.MODIFIED,
        "100644",
        "120000",
    )
    assert fd.removed_line_numbers == (1, 2)
    assert fd.hunks[-1].added == ((1, "other"),)
