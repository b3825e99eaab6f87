"""parse_diff on diff text git would not write: damaged patches, plain ``diff -u``, quoting."""

from __future__ import annotations

import pytest

from pr_review.sources.diff import FileStatus, parse_diff
from pr_review.sources.diff_header import unquote_path

TRUNCATED = """diff --git a/ok.py b/ok.py
index 1111111..2222222 100644
--- a/ok.py
+++ b/ok.py
@@ -1,2 +1,2 @@
 keep
-old
+new
diff --git a/cut.py b/cut.py
index 3333333..4444444 100644
--- a/cut.py
+++ b/cut.py
@@ -1,5 +1,6 @@
 a
-b
+c
+d
"""


def test_a_damaged_patch_keeps_the_file_without_hunks() -> None:
    diff = parse_diff(TRUNCATED)
    ok, cut = diff.files
    assert (ok.path, ok.patch_available, ok.insertions, ok.deletions) == ("ok.py", True, 1, 1)
    assert (cut.path, cut.patch_available, cut.hunks) == ("cut.py", False, ())
    assert (cut.insertions, cut.deletions) == (2, 1)  # counted leniently from +/- lines
    assert len(diff.problems) == 1
    assert diff.problems[0].startswith("cut.py: unparsable patch")


@pytest.mark.parametrize(
    "garbage",
    [
        "@@ -1 +1 @@\n-a\n+b\n",
        "+++ b/only-target\n",
        "diff --git \n",
        "diff --git a/x b/x\n@@ broken @@\n",
        "\x00\x01\x02",
        "diff --git a/x b/x\nrename from \nrename to \n",
    ],
)
def test_garbage_never_raises(garbage: str) -> None:
    diff = parse_diff(garbage)
    assert diff.raw == garbage
    assert all(f.path is not None for f in diff.files)


def test_plain_unified_diff_without_git_headers() -> None:
    text = (
        "--- a/x.py\t2024-01-01 00:00:00\n+++ b/x.py\t2024-01-02 00:00:00\n"
        "@@ -1 +1,2 @@\n-a\n+b\n+c\n"
        "--- /dev/null\n+++ b/new.py\n@@ -0,0 +1 @@\n+n\n"
    )
    diff = parse_diff(text)
    assert [(f.path, f.status, f.insertions, f.deletions) for f in diff.files] == [
        ("x.py", FileStatus.MODIFIED, 2, 1),
        ("new.py", FileStatus.ADDED, 1, 0),
    ]


def test_quoted_paths_are_unquoted() -> None:
    text = (
        'diff --git "a/t\\303\\251st\\tx.py" "b/t\\303\\251st\\tx.py"\n'
        "new file mode 100644\nindex 0000000..1111111\n"
        '--- /dev/null\n+++ "b/t\\303\\251st\\tx.py"\n@@ -0,0 +1 @@\n+x\n'
        'diff --git "a/q\\"uote" "b/q\\"uote"\nold mode 100644\nnew mode 100755\n'
    )
    first, second = parse_diff(text).files
    assert (first.path, first.insertions) == ("tést\tx.py", 1)
    assert (second.path, second.mode_changed) == ('q"uote', True)


@pytest.mark.parametrize(
    ("quoted", "plain"),
    [
        ('"a\\\\b"', "a\\b"),
        ('"\\a\\b\\f\\n\\r\\t\\v"', "\a\b\f\n\r\t\v"),
        ('"\\377x"', "\ufffdx"),
        ("plain name", "plain name"),
        ('"unknown \\q escape"', "unknown \\q escape"),
    ],
)
def test_unquote_path(quoted: str, plain: str) -> None:
    assert unquote_path(quoted) == plain


def test_bytes_and_text_give_the_same_diff() -> None:
    raw = "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-caf\xe9\n+cafe\n"
    from_bytes = parse_diff(raw.encode("latin-1"))
    assert from_bytes.files[0].hunks[0].removed == ((1, "caf\ufffd"),)
    assert from_bytes.files[0].hunks[0].added == ((1, "cafe"),)
