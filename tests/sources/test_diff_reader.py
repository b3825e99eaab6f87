"""DiffReader: a diff fed in pieces, as ``git diff`` writes it, parses as the whole text does."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pr_review.sources.diff import DiffReader, parse_diff

# Text before the first file (plain ``diff -u``), a rename with edits, non-UTF-8 bytes, a
# multi-byte character on a split line, a ``diff --git`` that is only a hunk line's text, a
# binary file, a damaged patch, CRLF lines and an empty new file.
PIECES = [
    b"--- old/notes.txt\n+++ new/notes.txt\n@@ -1 +1 @@\n-before\n+after\n",
    (b"diff --git a/app/na\xc3\xafve.py b/app/na\xc3\xafve.py\n"
    b"index 1111111..2222222 100644\n--- a/app/na\xc3\xafve.py\n+++ b/app/na\xc3\xafve.py\n"
    b"@@ -1,3 +1,3 @@\n def f(x):\n-    return 'caf\xe9'\n+    return 'caf\xc3\xa9 \xe2\x82\xac'\n"
    b" # diff --git a/x b/x\n"),
    (b"diff --git a/old.py b/new.py\nsimilarity index 90%\nrename from old.py\n"
    b"rename to new.py\nindex 3333333..4444444 100644\n--- a/old.py\n+++ b/new.py\n"
    b"@@ -1,2 +1,2 @@\n-x = 1\r\n+x = 2\r\n y = 3\r\n"),
    (b"diff --git a/img.png b/img.png\nindex 5555555..6666666 100644\n"
    b"Binary files a/img.png and b/img.png differ\n"),
    (b"diff --git a/cut.py b/cut.py\nindex 7777777..8888888 100644\n--- a/cut.py\n"
    b"+++ b/cut.py\n@@ -1,5 +1,6 @@\n a\n-b\n+c\n"),
    b"diff --git a/empty.txt b/empty.txt\nnew file mode 100644\nindex 0000000..e69de29\n",
    (b"diff --git a/z.py b/z.py\nindex 9999999..aaaaaaa 100644\n--- a/z.py\n+++ b/z.py\n"
    b"@@ -1 +1 @@\n-\xff\xfe old\n+\\ not a marker\n\\ No newline at end of file\n"),
]
WHOLE = b"".join(PIECES)


def _split(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({min(c, len(data)) for c in cuts})
    return [data[a:b] for a, b in zip([0, *points], [*points, len(data)], strict=True)]


@given(st.lists(st.integers(0, len(WHOLE)), max_size=40))
def test_any_split_parses_like_the_whole_text(cuts: list[int]) -> None:
    reader = DiffReader()
    for piece in _split(WHOLE, cuts):
        reader.feed(piece)
    assert reader.finish() == parse_diff(WHOLE)


@given(st.lists(st.integers(0, len(WHOLE)), max_size=12))
def test_a_subset_of_files_split_anywhere_parses_like_its_text(cuts: list[int]) -> None:
    data = PIECES[1] + PIECES[3] + PIECES[0]  # the plain diff last: inside the last chunk
    reader = DiffReader()
    for piece in _split(data, cuts):
        reader.feed(piece)
    assert reader.finish() == parse_diff(data)


def test_the_whole_text_gives_every_file_and_the_raw_text() -> None:
    diff = parse_diff(WHOLE)
    assert [f.path for f in diff.files] == [
        "new/notes.txt",
        "app/naïve.py",
        "new.py",
        "img.png",
        "cut.py",
        "empty.txt",
        "z.py",
    ]
    assert diff.raw == WHOLE.decode("utf-8", errors="replace")
    assert [p.split(":")[0] for p in diff.problems] == ["cut.py"]


def test_nothing_fed_is_an_empty_diff() -> None:
    diff = DiffReader().finish()
    assert (diff.files, diff.raw, diff.problems) == ((), "", ())
