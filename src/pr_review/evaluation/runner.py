"""Run one configuration over a corpus: materialize, review, measure and grade every case.

Cases run concurrently within ``concurrency`` (a diff-form case in its own temp git repository,
bundle-form cases in the one clone of their bundle made for the run); progress
lines go to ``progress``; a case whose review raises is recorded as an error and the others
go on. Outputs: ``<out>/cases/<id>/`` (the review's files, ``metrics.json``,
``grading.json``) and ``<out>/metrics.json`` (:class:`EvalSummary`).
"""

from __future__ import annotations

import json
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from pr_review.config import Config
from pr_review.errors import ReviewError
from pr_review.evaluation.corpus import Case, CaseForm, load_corpus
from pr_review.evaluation.grader import DEFAULT_JUDGE_MODEL, grade_case, grading_totals
from pr_review.evaluation.materialize import (
    BundleClones,
    MaterializedCase,
    Materializer,
    materialize,
)
from pr_review.evaluation.metrics import case_metrics, failed_case_metrics, totals
from pr_review.evaluation.replay import ReplayModel
from pr_review.evaluation.results import CaseMetrics, EvalSummary, ReviewOutput
from pr_review.evaluation.review import ReviewFn, ReviewJob, pipeline_review
from pr_review.reviewers.interface import StructuredModel
from pr_review.schema.enums import TrustMode
from pr_review.schema.eval import Grading

Progress = Callable[[str], None]
Clock = Callable[[], datetime]


def _quiet(_: str) -> None:
    """Progress sink that drops messages."""


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class RunSettings:
    """How to run a corpus (everything except the configuration under test)."""

    out_dir: Path
    model: StructuredModel | None = None
    model_skip_reason: str | None = "no ANTHROPIC_API_KEY: AI reviewers did not run"
    replay: bool = False
    concurrency: int = 2
    grade: bool = True
    judge_model: str = DEFAULT_JUDGE_MODEL
    trust_mode: TrustMode = TrustMode.UNTRUSTED
    progress: Progress = _quiet
    review: ReviewFn = pipeline_review
    materializer: Materializer = materialize
    clock: Clock = _now


@dataclass(frozen=True)
class CorpusRun:
    """One configuration's run: the summary written, and every review output in memory."""

    summary: EvalSummary
    outputs: Mapping[str, ReviewOutput] = field(default_factory=dict)
    cases: tuple[Case, ...] = ()


def run_corpus(
    corpus_dir: Path, config: Config | None, config_name: str, settings: RunSettings
) -> CorpusRun:
    """Review every case of the corpus under ``config`` and write the results."""
    cases = load_corpus(corpus_dir)
    settings.out_dir.mkdir(parents=True, exist_ok=True)
    counter = _Counter(len(cases), settings.progress)
    with (
        tempfile.TemporaryDirectory(prefix="pr-review-eval-clones-") as clones_dir,
        ThreadPoolExecutor(max_workers=max(1, settings.concurrency)) as pool,
    ):
        clones = BundleClones(Path(clones_dir))
        done = list(pool.map(lambda c: _run_case(c, config, settings, counter, clones), cases))
    metrics = tuple(d[0] for d in done)
    gradings = tuple(d[1] for d in done if d[1] is not None)
    summary = EvalSummary(
        config=config_name,
        generated_at=settings.clock().isoformat(timespec="seconds"),
        corpus=str(corpus_dir),
        replay=settings.replay,
        cases=metrics,
        totals=totals(metrics),
        grading=gradings,
        grading_totals=grading_totals(gradings),
    )
    _write_json(settings.out_dir / "metrics.json", summary.model_dump(mode="json"))
    outputs = {case.id: d[2] for case, d in zip(cases, done, strict=True) if d[2] is not None}
    return CorpusRun(summary=summary, outputs=outputs, cases=cases)


def _run_case(
    case: Case,
    config: Config | None,
    settings: RunSettings,
    counter: _Counter,
    clones: BundleClones,
) -> tuple[CaseMetrics, Grading | None, ReviewOutput | None]:
    case_out = settings.out_dir / "cases" / case.id
    model, skip = _model_for(case, settings)
    started = time.monotonic()
    counter.started(case.id)
    try:
        with tempfile.TemporaryDirectory(prefix="pr-review-eval-") as tmp:
            repo = _materialized(case, Path(tmp), settings, clones)
            job = ReviewJob(
                case_id=case.id,
                repo=repo,
                title=case.spec.title,
                body=case.spec.body,
                config=config,
                trust_mode=settings.trust_mode,
                model=model,
                model_skip_reason=skip,
            )
            output = settings.review(job, case_out / "review")
    except Exception as exc:  # one broken case is recorded; the corpus goes on
        reason = str(exc) if isinstance(exc, ReviewError) else f"{type(exc).__name__}: {exc}"
        metrics = failed_case_metrics(case, reason, wall_ms=_ms(started))
        _write_json(case_out / "metrics.json", metrics.model_dump(mode="json"))
        counter.finished(case.id, f"error: {reason}")
        return metrics, None, None
    metrics = case_metrics(case, output, wall_ms=_ms(started))
    grading = None
    if settings.grade and case.spec.criteria:
        grading, _calls = grade_case(
            case,
            output,
            model=model,
            model_name=settings.judge_model,
            model_skip_reason=skip or "no model",
        )
        _write_json(case_out / "grading.json", grading.model_dump(mode="json", by_alias=True))
    _write_json(case_out / "metrics.json", metrics.model_dump(mode="json"))
    counter.finished(case.id, _line(metrics, grading))
    return metrics, grading, output


def _materialized(
    case: Case, tmp: Path, settings: RunSettings, clones: BundleClones
) -> MaterializedCase:
    if case.form is CaseForm.BUNDLE:
        return clones.materialize(case)
    return settings.materializer(case, tmp / case.id)


def _model_for(case: Case, settings: RunSettings) -> tuple[StructuredModel | None, str | None]:
    if settings.replay:
        replay = ReplayModel.from_dir(case.recorded_dir)
        if replay.purposes:
            return replay, None
        return None, f"replay: no recorded outputs in {case.recorded_dir}"
    if settings.model is None:
        return None, settings.model_skip_reason
    return settings.model, None


def _line(metrics: CaseMetrics, grading: Grading | None) -> str:
    lane = metrics.lane.actual.value if metrics.lane.actual else "-"
    verdict = {True: "ok", False: "MISS", None: "n/a"}[metrics.lane.met]
    graded = ""
    if grading is not None and grading.weighted and grading.weighted.possible:
        graded = f", graded {grading.weighted.earned}/{grading.weighted.possible}"
    return f"lane {lane} ({verdict}), {metrics.surfaced_findings} findings{graded}"


class _Counter:
    """Thread-safe progress lines: ``[3/16] case-id: ...``."""

    def __init__(self, total: int, progress: Progress) -> None:
        self._total = total
        self._done = 0
        self._progress = progress
        self._lock = threading.Lock()

    def started(self, case_id: str) -> None:
        with self._lock:
            self._progress(f"[{self._done}/{self._total}] {case_id}: reviewing")

    def finished(self, case_id: str, text: str) -> None:
        with self._lock:
            self._done += 1
            self._progress(f"[{self._done}/{self._total}] {case_id}: {text}")


def _ms(started: float) -> int:
    return int((time.monotonic() - started) * 1000)


def _write_json(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def config_label(config_path: Path | None, taken: Sequence[str] = ()) -> str:
    """A file-name-safe name for a configuration: its stem, or ``default``; unique in ``taken``."""
    base = config_path.stem if config_path is not None else "default"
    safe = "".join(ch if ch.isalnum() or ch in "-_." else "-" for ch in base) or "config"
    name, n = safe, 2
    while name in taken:
        name, n = f"{safe}-{n}", n + 1
    return name
