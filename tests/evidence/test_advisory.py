"""Security-advisory markers: the PR's own text calling it a security fix raises it to red."""

from __future__ import annotations

import pytest

from pr_review.config import Config
from pr_review.evidence.advisory import (
    CODE_MARKER_EXAMPLES,
    PrText,
    advisory_factor,
    code_markers,
    markers,
)
from pr_review.evidence.build import build_pack
from pr_review.schema.enums import Lane
from pr_review.sources.diff import FileStatus
from pr_review.sources.model import Commit
from pr_review.sources.paths import classify
from tests.evidence.helpers import file_diff, lane_and_factors, pull_request

MARKED = [
    PrText("Merge pull request from GHSA-j8r2-6x86-q33q", ""),
    PrText("Fix header parsing", "Fixes CVE-2024-35195."),
    PrText("Merge commit from fork", ""),
    PrText("Tighten redirect handling", "", ("Merge commit from fork\n\nDetails",)),
    PrText("Harden cookie parsing", "", ("Fix\n\nSee GHSA-9wx4-h78v-vm56 for details",)),
    PrText("Security: reject absolute paths in safe_join", ""),
    PrText("Fix a vulnerability in host matching", ""),
]
UNMARKED = [
    PrText("Update actions/checkout to v4", "Bumps the version."),
    # words that merely contain the marker, or ids that are not advisory ids
    PrText("Fix insecurity of the README example", "See issue #1234 and PR GH-12."),
    PrText("Merge pull request #12 from someone/fork", ""),
    PrText("Refactor CVE-like parsing", "Handles strings such as CVE-XXXX."),
    PrText("Merge commit from fork of the project into staging branch", ""),
    # the word as part of a file name is about a document, not a fix
    PrText("chore(docs): remove SECURITY.md", ""),
]


@pytest.mark.parametrize("text", MARKED)
def test_advisory_markers_are_found(text: PrText) -> None:
    assert markers(text)
    factor = advisory_factor(text, ["src/app.py"])
    assert factor is not None
    assert factor.severity.value == "red"


@pytest.mark.parametrize("text", UNMARKED)
def test_ordinary_text_has_no_marker(text: PrText) -> None:
    assert markers(text) == []
    assert advisory_factor(text, ["src/app.py"]) is None


def test_marker_without_behaviour_change_is_not_a_factor() -> None:
    assert advisory_factor(PrText("Security policy", ""), []) is None


def test_advisory_in_a_commit_message_makes_the_pack_red() -> None:
    commit = Commit(
        sha="a" * 40, author_name="A", author_email="a@x", message="Fix\n\nCVE-2023-32681"
    )
    pr = pull_request(
        [file_diff("src/app.py", ["    return x + 2"], ["    return x + 1"], start=2)],
        base={"src/app.py": "def f(x):\n    return x + 1\n"},
        head={"src/app.py": "def f(x):\n    return x + 2\n"},
        commits=(commit,),
    )
    pack = build_pack(pr, Config())
    assert pack.risk.lane is Lane.RED
    factor = next(f for f in pack.risk.factors if f.factor == "security-advisory")
    assert factor.files == ("src/app.py",)
    assert "CVE-2023-32681" in factor.why


def test_advisory_on_a_docs_only_pr_stays_green() -> None:
    commit = Commit(
        sha="b" * 40, author_name="A", author_email="a@x", message="GHSA-j8r2-6x86-q33q"
    )
    pr = pull_request(
        [file_diff("docs/security.md", ["New text."], ["Old text."])], commits=(commit,)
    )
    assert build_pack(pr, Config()).risk.lane is Lane.GREEN


def test_a_dependency_bump_for_a_dependencys_advisory_is_yellow() -> None:
    text = PrText("fix(deps): bump golang.org/x/net", "Patches CVE-2025-22870 in x/net.")
    factor = advisory_factor(text, ["go.mod", "go.sum"], manifests=["go.mod", "go.sum"])
    assert factor is not None
    assert factor.severity.value == "moderate"
    assert "dependency's advisory" in factor.why
    # the same text on a PR that also changes code is the project's own fix: red
    mixed = advisory_factor(text, ["go.mod", "client.go"], manifests=["go.mod"])
    assert mixed is not None
    assert mixed.severity.value == "red"


def test_the_projects_own_advisory_merge_stays_red_when_it_only_bumps_a_dependency() -> None:
    text = PrText("Merge pull request from GHSA-93gm-qmq6-w238", "")
    factor = advisory_factor(text, ["pyproject.toml"], manifests=["pyproject.toml"])
    assert factor is not None
    assert factor.severity.value == "red"



@pytest.mark.parametrize(
    ("path", "status", "added", "removed", "found"), CODE_MARKER_EXAMPLES,
    ids=range(len(CODE_MARKER_EXAMPLES)),
)
def test_code_marker_examples(
    path: str, status: FileStatus, added: tuple[str, ...], removed: tuple[str, ...], found: bool
) -> None:
    diff = file_diff(path, list(added), list(removed), status=status)
    assert bool(code_markers([diff], {path: classify(path)})) is found


def test_an_advisory_named_by_a_regression_test_makes_a_neutral_titled_fix_red() -> None:
    base = "def parse(v):\n    return v\n"
    head = "def parse(v):\n    return v.strip()\n"
    test = (
        "def test_ghsa():\n    # GHSA-qccp-gfcp-xxvc: trailing spaces\n"
        "    assert parse(' a') == 'a'\n"
    )
    lane, factors = lane_and_factors(
        files=[
            file_diff("src/parse.py", ["    return v.strip()"], ["    return v"], start=2),
            file_diff("tests/test_parse.py", test.splitlines(), [], status=FileStatus.ADDED),
        ],
        base={"src/parse.py": base},
        head={"src/parse.py": head, "tests/test_parse.py": test},
    )
    assert lane is Lane.RED
    why = factors["security-advisory:red"].why
    assert why == (
        "the PR says it fixes a security issue: advisory id GHSA-QCCP-GFCP-XXVC in "
        "`tests/test_parse.py` (line 2)"
    )


def test_an_advisory_named_only_in_tests_of_an_unchanged_behaviour_is_not_red() -> None:
    test = "def test_ghsa():\n    # GHSA-qccp-gfcp-xxvc\n    assert parse(' a') == 'a'\n"
    _lane, factors = lane_and_factors(
        files=[file_diff("tests/test_parse.py", test.splitlines(), [], status=FileStatus.ADDED)],
        head={"tests/test_parse.py": test},
    )
    assert "security-advisory:red" not in factors
