"""Diff scope: changed-line runs, and which findings a PR answers for."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from hypothesis import given
from hypothesis import strategies as st

from pr_review.sources.diff import Diff, FileDiff, FileStatus, Hunk
from pr_review.verifiers.scope import DiffScope, LineRange, line_runs, scope_findings


@dataclass(frozen=True)
class F:
    path: str
    line: int | None
    rule_id: str | None
    message: str = "m"


def file_diff(path: str, added: tuple[int, ...], status: FileStatus = FileStatus.MODIFIED,
              old_path: str | None = None) -> FileDiff:  # fmt: skip
    hunk = Hunk(1, 0, 1, 0, "", tuple((n, f"line {n}") for n in added), ())
    return FileDiff(path=path, status=status, hunks=(hunk,), old_path=old_path)


def test_line_runs_merges_consecutive_numbers() -> None:
    assert line_runs([7, 3, 4, 5, 9, 10, 3]) == (
        LineRange(3, 5), LineRange(7, 7), LineRange(9, 10)
    )  # fmt: skip
    assert line_runs([]) == ()


@given(st.sets(st.integers(min_value=1, max_value=500)))
def test_line_runs_cover_exactly_the_numbers(numbers: set[int]) -> None:
    runs = line_runs(numbers)
    covered = {n for r in runs for n in range(r.start, r.end + 1)}
    assert covered == numbers
    # Runs are maximal: no two touch.
    assert all(a.end + 1 < b.start for a, b in itertools.pairwise(runs))


def test_deleted_files_are_out_of_scope_and_renames_map_to_their_base_path() -> None:
    diff = Diff(
        files=(
            file_diff("gone.py", (), FileStatus.DELETED),
            file_diff("new/name.py", (2,), FileStatus.RENAMED, old_path="old/name.py"),
            file_diff("added.py", (1, 2), FileStatus.ADDED),
        ),
        raw="",
    )
    scope = DiffScope.from_diff(diff)
    assert not scope.touched("gone.py")
    assert scope.base_paths == {"new/name.py": "old/name.py"}
    assert scope.hits("added.py", 2)
    assert not scope.hits("added.py", None)


HEAD = ("import os", "", "x = 1", "y = eval(s)", "    y = eval(s)")
BASE = ("y = eval(s)", "import os", "", "x = 0")


def test_a_finding_on_a_changed_line_is_kept() -> None:
    scope = DiffScope.from_diff(Diff((file_diff("a.py", (3,)),), ""))
    result = scope_findings([F("a.py", 3, "R")], None, scope, {"a.py": HEAD}, {})
    assert result.kept == (F("a.py", 3, "R"),)


def test_an_old_finding_that_moved_is_dropped_but_a_new_copy_is_kept() -> None:
    scope = DiffScope.from_diff(Diff((file_diff("a.py", (3,)),), ""))
    head = [F("a.py", 1, "F401"), F("a.py", 4, "S307"), F("a.py", 5, "S307")]
    base = [F("a.py", 2, "F401"), F("a.py", 1, "S307")]
    result = scope_findings(head, base, scope, {"a.py": HEAD}, {"a.py": BASE})
    # Base had one eval finding on that (stripped) content, head has two: one is new.
    assert result.kept == (F("a.py", 5, "S307"),)
    assert result.dropped == 2


def test_without_a_base_run_untouched_lines_are_dropped() -> None:
    scope = DiffScope.from_diff(Diff((file_diff("a.py", (3,)),), ""))
    result = scope_findings([F("a.py", 1, "X"), F("b.py", 1, "X")], None, scope, {}, {})
    assert (result.kept, result.dropped) == ((), 2)


def test_a_same_rule_on_different_content_is_new() -> None:
    scope = DiffScope.from_diff(Diff((file_diff("a.py", (3,)),), ""))
    result = scope_findings(
        [F("a.py", 4, "S307")], [F("a.py", 4, "S307")], scope, {"a.py": HEAD},
        {"a.py": (*BASE, "w = eval(t)")},
    )  # fmt: skip
    assert result.kept == (F("a.py", 4, "S307"),)


def test_a_lineless_finding_compares_by_message() -> None:
    scope = DiffScope.from_diff(Diff((file_diff("a.py", (3,)),), ""))
    old = F("a.py", None, "X", "file too long")
    new = F("a.py", None, "X", "something else")
    result = scope_findings([old, new], [old], scope, {"a.py": HEAD}, {"a.py": BASE})
    assert result.kept == (new,)


def test_base_runs_only_for_files_with_head_findings_off_the_added_lines() -> None:
    from pr_review.schema.enums import VerifierSeverity
    from pr_review.verifiers.builtin import base_files_needed
    from pr_review.verifiers.model import RawFinding

    scope = DiffScope.from_diff(
        Diff(
            files=(
                file_diff("a.py", (3,)),
                file_diff("b.py", (5,)),
                file_diff("new.py", (1, 2), FileStatus.ADDED),
                file_diff("lib/c.py", (9,), FileStatus.RENAMED, old_path="src/c.py"),
            ),
            raw="",
        )
    )

    def raw(path: str, line: int | None) -> RawFinding:
        return RawFinding(path, line, None, "F841", "m", VerifierSeverity.ERROR)

    head = [raw("a.py", 3), raw("b.py", 1), raw("new.py", 7), raw("lib/c.py", None)]
    # a.py: only on an added line; new.py: no base; b.py and the renamed c.py need base.
    assert base_files_needed(scope, head) == {"b.py", "src/c.py"}
    assert base_files_needed(scope, []) == frozenset()


def _rewrite(path: str, hunks: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]) -> DiffScope:
    """A modified file whose hunks each remove base lines and add head lines."""
    made = tuple(
        Hunk(1, 0, 1, 0, "", tuple((n, f"new {n}") for n in added),
             tuple((n, f"old {n}") for n in removed))
        for removed, added in hunks
    )  # fmt: skip
    changed = FileDiff(path=path, status=FileStatus.MODIFIED, hunks=made)
    return DiffScope.from_diff(Diff((changed,), ""))


def test_a_finding_on_a_rewritten_line_is_the_old_one_when_its_hunk_removed_it() -> None:
    # tornado's pyupgrade PR: `ax_attrs: List[str] = [...]` -> `list[str]`, B006 on both sides
    scope = _rewrite("auth.py", (((514,), (514,)),))
    result = scope_findings([F("auth.py", 514, "B006")], [F("auth.py", 514, "B006")], scope,
                            {}, {})  # fmt: skip
    assert result.kept == ()
    assert result.dropped == 1


def test_a_rewritten_hunk_answers_for_a_second_finding_and_for_another_rule() -> None:
    scope = _rewrite("auth.py", (((10, 11), (10, 11, 12)),))
    head = [F("auth.py", 10, "B006"), F("auth.py", 12, "B006"), F("auth.py", 11, "F821")]
    result = scope_findings(head, [F("auth.py", 11, "B006")], scope, {}, {})
    assert result.kept == (F("auth.py", 12, "B006"), F("auth.py", 11, "F821"))


def test_a_finding_removed_in_one_hunk_does_not_excuse_one_added_in_another() -> None:
    scope = _rewrite("auth.py", (((5,), (5,)), ((40,), (41,))))
    result = scope_findings([F("auth.py", 41, "B006")], [F("auth.py", 5, "B006")], scope, {}, {})
    assert result.kept == (F("auth.py", 41, "B006"),)


def test_without_a_base_run_a_rewritten_line_is_kept() -> None:
    scope = _rewrite("auth.py", (((514,), (514,)),))
    result = scope_findings([F("auth.py", 514, "B006")], None, scope, {}, {})
    assert result.kept == (F("auth.py", 514, "B006"),)


def test_base_runs_for_a_finding_on_a_rewritten_line() -> None:
    from pr_review.schema.enums import VerifierSeverity
    from pr_review.verifiers.builtin import base_files_needed
    from pr_review.verifiers.model import RawFinding

    scope = _rewrite("auth.py", (((5,), (5,)), ((), (30,))))
    def at(line: int) -> RawFinding:
        return RawFinding("auth.py", line, None, "B006", "m", VerifierSeverity.WARNING)

    assert base_files_needed(scope, [at(5)]) == {"auth.py"}
    assert base_files_needed(scope, [at(30)]) == frozenset()  # a hunk that only added
