"""The blind comparator (seed 004): which of two configurations reviewed each case better.

The two outputs are shown as A and B in an order drawn from a RNG seeded with ``seed`` and the
case id (so it is reproducible and independent of scheduling), and the order is recorded. The
model never sees configuration names. Rubric scores are its; the derived scores (means and
their sum) are computed here. An optional analysis explains a win (seed's analysis schema).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

from pydantic import Field

from pr_review.errors import ReviewerError
from pr_review.evaluation.analysis import analyze_win
from pr_review.evaluation.comparison_prompt import COMPARATOR_SYSTEM, comparison_prompt
from pr_review.evaluation.corpus import Case
from pr_review.evaluation.criteria import grade_deterministic, split_criteria
from pr_review.evaluation.replay import ReplayModel
from pr_review.evaluation.results import ReviewOutput
from pr_review.evaluation.runner import CorpusRun, RunSettings
from pr_review.reviewers.interface import ModelRequest, StructuredModel
from pr_review.schema.base import Frozen
from pr_review.schema.eval import (
    Analysis,
    Comparison,
    ExpectationResult,
    OutputQuality,
    RubricScores,
    Scorecard,
    Side,
    Winner,
)

COMPARATOR_PURPOSE = "comparator"
Score = Annotated[int, Field(ge=1, le=5)]


class SideRubric(Frozen):
    """The model's 1-5 scores for one output."""

    content: dict[str, Score]
    structure: dict[str, Score]


class ComparatorAnswer(Frozen):
    """What the comparator model submits."""

    winner: Winner
    reasoning: str
    rubric: dict[Side, SideRubric]
    output_quality: dict[Side, OutputQuality]
    criteria_met: dict[Side, tuple[str, ...]] = Field(
        default_factory=dict, description="Names of the listed assertions each output meets."
    )


class CaseSkip(Frozen):
    """A case that could not be compared, and why."""

    case_id: str
    reason: str


class ComparisonSummaryFile(Frozen):
    """``comparison/summary.json``: who won how many cases, and why."""

    configs: dict[Side, str]
    config_paths: dict[Side, str]
    seed: int
    wins: dict[str, int]
    ties: int
    skipped: tuple[CaseSkip, ...] = ()
    reasons: dict[str, tuple[str, ...]] = Field(
        default_factory=dict, description="Winning configuration -> the judge's reasoning."
    )
    composites: dict[str, float] = Field(
        default_factory=dict, description="Configuration -> scorecard composite."
    )


@dataclass(frozen=True)
class ComparisonReport:
    """Everything the comparison produced."""

    summary: ComparisonSummaryFile
    comparisons: tuple[Comparison, ...]
    analyses: tuple[Analysis, ...]
    scorecards: tuple[Scorecard, Scorecard]
    summary_path: Path


def compare_runs(
    run_a: CorpusRun,
    run_b: CorpusRun,
    *,
    config_paths: tuple[Path, Path],
    settings: RunSettings,
    seed: int,
    analyze: bool,
    scorecards: tuple[Scorecard, Scorecard],
) -> ComparisonReport:
    """Compare every case both runs completed; write comparison.json (and analysis.json)."""
    names = (run_a.summary.config, run_b.summary.config)
    out = settings.out_dir / "comparison"
    comparisons, analyses, skipped = [], [], []
    for case in run_a.cases:
        first, second = run_a.outputs.get(case.id), run_b.outputs.get(case.id)
        model = _model(case, settings)
        if first is None or second is None or model is None:
            reason = "a review did not complete" if model else "no model to judge with"
            skipped.append(CaseSkip(case_id=case.id, reason=reason))
            continue
        settings.progress(f"comparing {case.id}")
        try:
            comparison = compare_case(
                case, {names[0]: first, names[1]: second}, model=model, seed=seed,
                model_name=settings.judge_model,
            )
        except ReviewerError as exc:
            skipped.append(CaseSkip(case_id=case.id, reason=f"comparator failed: {exc}"))
            continue
        comparisons.append(comparison)
        _write(out / case.id / "comparison.json", comparison)
        if analyze and comparison.winner_config is not None:
            analysis = analyze_win(
                comparison, dict(zip(names, config_paths, strict=True)), model=model,
                model_name=settings.judge_model,
            )
            if analysis is not None:
                analyses.append(analysis)
                _write(out / case.id / "analysis.json", analysis)
    summary = _summarize(
        names,
        paths=config_paths,
        seed=seed,
        comparisons=comparisons,
        skipped=skipped,
        scorecards=scorecards,
    )
    _write(out / "summary.json", summary)
    return ComparisonReport(
        summary=summary,
        comparisons=tuple(comparisons),
        analyses=tuple(analyses),
        scorecards=scorecards,
        summary_path=out / "summary.json",
    )


def blind_order(case_id: str, names: Sequence[str], seed: int) -> dict[Side, str]:
    """Which configuration is shown as A and which as B, drawn from (seed, case id)."""
    rng = random.Random(f"{seed}:{case_id}")  # noqa: S311 (an unbiased order, not a secret)
    first, second = names
    return {"A": first, "B": second} if rng.random() < 0.5 else {"A": second, "B": first}


def compare_case(
    case: Case,
    outputs: Mapping[str, ReviewOutput],
    *,
    model: StructuredModel,
    seed: int,
    model_name: str,
) -> Comparison:
    """One blind comparison of the two outputs (keys: configuration names)."""
    order = blind_order(case.id, list(outputs), seed)
    shown = {side: outputs[name] for side, name in order.items()}
    request = ModelRequest(
        purpose=COMPARATOR_PURPOSE,
        model=model_name,
        system=COMPARATOR_SYSTEM,
        prompt=comparison_prompt(case, shown["A"], shown["B"]),
        tool_name="submit_comparison",
    )
    answer = model.complete(request, ComparatorAnswer).value
    return Comparison(
        winner=answer.winner,
        reasoning=answer.reasoning,
        rubric={side: _rubric(answer.rubric[side]) for side in ("A", "B")},
        output_quality=answer.output_quality,
        expectation_results=_expectations(case, shown, answer),
        case_id=case.id,
        order=order,
        seed=seed,
        winner_config=None if answer.winner == "TIE" else order[answer.winner],
    )


def _rubric(scores: SideRubric) -> RubricScores:
    content = round(sum(scores.content.values()) / max(1, len(scores.content)), 1)
    structure = round(sum(scores.structure.values()) / max(1, len(scores.structure)), 1)
    return RubricScores(
        content=scores.content,
        structure=scores.structure,
        content_score=content,
        structure_score=structure,
        overall_score=round(content + structure, 1),
    )


def _expectations(
    case: Case, shown: Mapping[Side, ReviewOutput], answer: ComparatorAnswer
) -> dict[Side, ExpectationResult] | None:
    """Lane/flag criteria decided here; the model's ``criteria_met`` for the rest."""
    if not case.spec.criteria:
        return None
    deterministic, for_model = split_criteria(case.spec.criteria)
    model_names = {c.name.lower() for c in for_model}
    results: dict[Side, ExpectationResult] = {}
    for side in ("A", "B"):
        det = sum(1 for c, kind in deterministic
                  if grade_deterministic(c, kind, case, shown[side]).passed)
        met = {n.lower() for n in answer.criteria_met.get(side, ())} & model_names
        total = len(case.spec.criteria)
        results[side] = ExpectationResult(
            passed=det + len(met), total=total, pass_rate=round((det + len(met)) / total, 4)
        )
    return results


def _summarize(
    names: tuple[str, str],
    *,
    paths: tuple[Path, Path],
    seed: int,
    comparisons: Sequence[Comparison],
    skipped: Sequence[CaseSkip],
    scorecards: tuple[Scorecard, Scorecard],
) -> ComparisonSummaryFile:
    wins = dict.fromkeys(names, 0)
    reasons: dict[str, list[str]] = {name: [] for name in names}
    for c in comparisons:
        if c.winner_config is not None:
            wins[c.winner_config] += 1
            reasons[c.winner_config].append(f"{c.case_id}: {c.reasoning}")
    return ComparisonSummaryFile(
        configs={"A": names[0], "B": names[1]},
        config_paths={"A": str(paths[0]), "B": str(paths[1])},
        seed=seed,
        wins=wins,
        ties=sum(1 for c in comparisons if c.winner_config is None),
        skipped=tuple(skipped),
        reasons={k: tuple(v) for k, v in reasons.items()},
        composites={card.skill: card.composite for card in scorecards},
    )


def _model(case: Case, settings: RunSettings) -> StructuredModel | None:
    if settings.replay:
        replay = ReplayModel.from_dir(case.recorded_dir)
        return replay if COMPARATOR_PURPOSE in replay.purposes else None
    return settings.model


def _write(path: Path, value: Frozen) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        json.dumps(value.model_dump(mode="json", by_alias=True), indent=2) + "\n",
        encoding="utf-8",
    )


def render_comparison(report: ComparisonReport) -> str:
    """Who won how many cases, and why (one line of reasoning per win)."""
    s = report.summary
    lines = [f"blind comparison: {s.configs['A']} vs {s.configs['B']} (seed {s.seed})"]
    for name, count in s.wins.items():
        composite = s.composites.get(name)
        score = f", scorecard {composite:.2f}" if composite is not None else ""
        lines.append(f"  {name}: {count} case(s) won{score}")
    lines.append(f"  ties: {s.ties}; not compared: {len(s.skipped)}")
    for name, why in s.reasons.items():
        lines.extend(f"  {name} won {reason}" for reason in why)
    lines.extend(f"  skipped {skip.case_id}: {skip.reason}" for skip in s.skipped)
    return "\n".join(lines) + "\n"
