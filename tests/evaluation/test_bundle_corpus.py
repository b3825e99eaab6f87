"""Bundle-form corpora: validation, one clone per run, and the lane / must-not figures."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from pr_review.errors import UserError
from pr_review.evaluation import materialize as materialize_module
from pr_review.evaluation.api import run_eval
from pr_review.evaluation.corpus import CaseForm, load_corpus
from pr_review.evaluation.metrics import lane_metrics
from pr_review.evaluation.results import CaseMetrics, CaseStatus, ConfusionRow, LaneCheck
from pr_review.evaluation.runner import RunSettings
from pr_review.evaluation.tables import render_metrics_table
from pr_review.schema.enums import Lane
from tests.evaluation.builders import bundle_corpus, fake_review


def _edit(corpus: Path, case_id: str, **changes: object) -> Path:
    path = corpus / "cases" / case_id / "case.json"
    data = json.loads(path.read_text())
    for key, value in changes.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    path.write_text(json.dumps(data))
    return path


def test_both_forms_load_from_one_corpus(tmp_path: Path) -> None:
    corpus = bundle_corpus(tmp_path / "corpus", tmp_path / "work")
    forms = {case.id: case.form for case in load_corpus(corpus)}
    assert forms == {"b-code": CaseForm.BUNDLE, "b-docs": CaseForm.BUNDLE,
                     "b-secret": CaseForm.BUNDLE, "docs": CaseForm.DIFF,
                     "secret": CaseForm.DIFF, "timeout": CaseForm.DIFF}


def test_a_case_with_both_a_diff_and_commits_is_refused(tmp_path: Path) -> None:
    corpus = bundle_corpus(tmp_path / "corpus", tmp_path / "work")
    (corpus / "cases" / "b-docs" / "pr.diff").write_text("diff --git a/x b/x\n")
    with pytest.raises(UserError, match=r"b-docs/case.json: the case has both `base`/`head`"):
        load_corpus(corpus)


def test_a_case_with_neither_a_diff_nor_commits_is_refused(tmp_path: Path) -> None:
    corpus = bundle_corpus(tmp_path / "corpus", tmp_path / "work")
    _edit(corpus, "b-docs", base=None, head=None)
    with pytest.raises(UserError, match=r"b-docs/pr.diff: missing pr.diff.*`base` and `head`"):
        load_corpus(corpus)


def test_base_without_head_is_refused(tmp_path: Path) -> None:
    corpus = bundle_corpus(tmp_path / "corpus", tmp_path / "work")
    _edit(corpus, "b-docs", head=None)
    with pytest.raises(UserError, match=r"`base` and `head` go together"):
        load_corpus(corpus)


def test_a_ref_that_looks_like_an_option_is_refused(tmp_path: Path) -> None:
    corpus = bundle_corpus(tmp_path / "corpus", tmp_path / "work")
    _edit(corpus, "b-docs", head="--output=/tmp/x")
    with pytest.raises(UserError, match=r"`head`: String should match pattern"):
        load_corpus(corpus)


def test_a_missing_bundle_is_named(tmp_path: Path) -> None:
    corpus = bundle_corpus(tmp_path / "corpus", tmp_path / "work")
    (corpus / "repos" / "shop.bundle").unlink()
    with pytest.raises(UserError, match=r"repo 'shop' has no bundle at .*shop.bundle"):
        load_corpus(corpus)


def test_bundle_cases_share_one_clone_and_must_not_flags_count(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus = bundle_corpus(tmp_path / "corpus", tmp_path / "work")
    clones: list[Path] = []
    lock = threading.Lock()
    real_clone = materialize_module.clone_bundle

    def counting_clone(bundle: Path, dest: Path) -> Path:
        with lock:
            clones.append(bundle)
        return real_clone(bundle, dest)

    monkeypatch.setattr(materialize_module, "clone_bundle", counting_clone)
    lines: list[str] = []
    report = run_eval(corpus, config_path=None, settings=RunSettings(
        out_dir=tmp_path / "out", review=fake_review, concurrency=4, progress=lines.append,
    ))
    assert clones == [(corpus / "repos" / "shop.bundle").resolve()]
    by_id = {m.case_id: m for m in report.summary.cases}
    assert all(m.status is CaseStatus.OK for m in by_id.values()), lines
    assert by_id["b-docs"].lane.actual is Lane.GREEN
    assert by_id["b-code"].lane.actual is Lane.YELLOW
    secret = by_id["b-secret"]
    assert secret.lane.actual is Lane.RED
    assert [f.factor for f in secret.factors] == ["secrets"]
    t = report.summary.totals
    # b-secret says "no secrets" and the stand-in review reports one: a false positive.
    assert (t.flags_must_not, t.flag_false_positives) == (1, 1)
    assert t.flag_false_positive_cases == ("b-secret:secrets",)
    lanes = t.lanes
    assert (lanes.security_cases, lanes.security_red, lanes.security_green) == (2, 2, 0)
    assert (lanes.neutral_cases, lanes.neutral_green) == (2, 2)
    assert (lanes.non_red_cases, lanes.false_reds) == (2, 0)
    saved = json.loads((tmp_path / "out" / "metrics.json").read_text())
    assert saved["totals"]["lanes"]["security_red"] == 2
    text = render_metrics_table(report.summary)
    assert "must-not flags   1/1 detected anyway (false positives): b-secret:secrets" in text
    assert "security recall  2/2 (100%) red-only cases got red; 0 got green" in text
    assert "neutral green    2/2 (100%) green-only cases kept green" in text
    assert "stop reporting secrets on b-secret" in " ".join(report.scorecard.recommendations)
    why = report.scorecard.dimensions.correctness.justification
    assert "red-only cases red 2/2 (0 green); false reds 0/2; green-only cases green 2/2" in why


def _m(case_id: str, expected: tuple[Lane, ...] | None, actual: Lane | None) -> CaseMetrics:
    met = None if expected is None else actual in expected
    return CaseMetrics(
        case_id=case_id,
        status=CaseStatus.OK if actual else CaseStatus.ERROR,
        lane=LaneCheck(expected=expected, actual=actual, met=met),
    )


def test_lane_figures_and_confusion_rows_keyed_by_the_accepted_set() -> None:
    g, y, r = Lane.GREEN, Lane.YELLOW, Lane.RED
    metrics = [
        _m("s1", (r,), r), _m("s2", (r,), g), _m("s3", (r,), y), _m("s4", (r,), None),
        _m("n1", (g,), g), _m("n2", (g,), r),
        _m("o1", (y,), y), _m("o2", (y,), r),
        _m("e1", (r, y), r), _m("e2", (y, r), y),
        _m("u1", None, r),
    ]
    lanes = lane_metrics(metrics)
    assert lanes.confusion == (
        ConfusionRow(expected="green", cases=2, green=1, red=1),
        ConfusionRow(expected="yellow", cases=2, yellow=1, red=1),
        ConfusionRow(expected="red", cases=4, green=1, yellow=1, red=1, error=1),
        ConfusionRow(expected="yellow|red", cases=2, yellow=1, red=1),
    )
    assert (lanes.security_cases, lanes.security_red, lanes.security_green) == (4, 1, 1)
    assert (lanes.non_red_cases, lanes.false_reds) == (4, 2)
    assert (lanes.neutral_cases, lanes.neutral_green) == (2, 1)


def test_a_diff_form_case_needs_a_commit(tmp_path: Path) -> None:
    corpus = bundle_corpus(tmp_path / "corpus", tmp_path / "work")
    _edit(corpus, "docs", commits=[])
    with pytest.raises(UserError, match=r"docs/case.json: invalid case: `commits`"):
        load_corpus(corpus)


def test_a_bundle_of_a_bare_head_is_cloned(tmp_path: Path) -> None:
    from pr_review.corpus import clone_bundle
    from tests.gitrepo import GitRepo

    repo = GitRepo.init(tmp_path / "src")
    repo.write("a.txt", "a\n")
    first = repo.commit("one")
    repo.write("a.txt", "b\n")
    second = repo.commit("two")
    repo.run("bundle", "create", "-q", str(tmp_path / "head.bundle"), "HEAD")
    clone = clone_bundle(tmp_path / "head.bundle", tmp_path / "clone")
    log = GitRepo(clone).run("log", "--format=%H", "refs/bundle/HEAD").split()
    assert log == [second, first]
    (tmp_path / "empty.bundle").write_text("not a bundle\n")
    with pytest.raises(UserError, match=r"not a readable git bundle"):
        clone_bundle(tmp_path / "empty.bundle", tmp_path / "clone2")
