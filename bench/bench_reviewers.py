"""Reviewer-stage concurrency: wall time versus the slowest chain of model calls.

A fake model answers every call after a fixed delay. Two runs, each with fresh-eyes, the
challenger and three policy verifier files (one batch per file):

* lane trigger: the challenger starts with fresh-eyes, so the slowest chain is one call;
* late trigger: the challenger starts after fresh-eyes (an uncertain high finding), so the
  slowest chain is two calls.

Target: wall time at most 1.3x the slowest chain.
Run: ``.venv/bin/python bench/bench_reviewers.py``.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.reviewers.builders import finding, make_pack, source_diff

from pr_review.reviewers.interface import ModelRequest, ModelResult
from pr_review.reviewers.run import run_reviewers
from pr_review.reviewers.settings import ReviewerSettings
from pr_review.schema.enums import Lane
from pr_review.schema.run import ModelCall

T = TypeVar("T", bound=BaseModel)
DELAY_S = 0.4
REPEATS = 5
POLICY = {
    "instruction": "Add tests with behaviour changes",
    "relevant_when": "The PR changes code",
    "context": "Every behaviour change ships with a test.",
    "checklist": [{"name": "tests-touched", "rule": "tests/ changes", "relevant_when": "always"}],
}


class DelayedModel:
    """Answers each call after ``DELAY_S`` seconds, like a model with a fixed latency."""

    def __init__(self, review_finding: dict[str, Any]) -> None:
        self._finding = review_finding

    def complete(self, request: ModelRequest, output: type[T]) -> ModelResult[T]:
        """Sleep, then answer according to the forced tool."""
        time.sleep(DELAY_S)
        if request.tool_name == "submit_review":
            data: dict[str, Any] = {"findings": [self._finding]}
        elif request.tool_name == "submit_challenge":
            data = {"findings": [{**finding(), "classification": "confirms"}]}
        else:
            names = [n for n in ("a.json", "b.json", "c.json") if f'"{n}"' in request.prompt]
            data = {"instructions": [{"file": n, "relevant": False, "checks": []} for n in names]}
        call = ModelCall(
            reviewer=request.purpose, model=request.model, duration_ms=int(DELAY_S * 1000)
        )
        return ModelResult(output.model_validate(data), (call,))


def measure(lane: Lane, review_finding: dict[str, Any]) -> float:
    """Median wall time of ``REPEATS`` runs."""
    diff = source_diff()
    pack = make_pack(diff, lane=lane)
    settings = ReviewerSettings(policy_batch_size=1, max_concurrency=5)
    policies = {n: json.dumps(POLICY) for n in ("a.json", "b.json", "c.json")}
    times = []
    for _ in range(REPEATS):
        started = time.perf_counter()
        outcome = run_reviewers(
            pack, diff, settings, model=DelayedModel(review_finding), policy_files=policies
        )
        times.append(time.perf_counter() - started)
        ran = sorted(r.name for r in outcome.runs if r.status.value == "ran")
        assert ran == ["challenger", "fresh_eyes", *(f"policy_verifiers[{i}/3]" for i in (1, 2, 3))]
    return statistics.median(times)


def main() -> None:
    """Print the figures and check the 1.3x target."""
    cases = [
        ("lane trigger (challenger concurrent)", Lane.YELLOW, finding(), 1),
        (
            "late trigger (challenger after fresh-eyes)",
            Lane.GREEN,
            finding(confidence="medium", severity="high"),
            2,
        ),
    ]
    print(f"fake model delay {DELAY_S:.2f}s per call; 5 calls per run; median of {REPEATS} runs")
    worst = 0.0
    for label, lane, review_finding, chain in cases:
        wall = measure(lane, review_finding)
        slowest_chain = chain * DELAY_S
        ratio = wall / slowest_chain
        worst = max(worst, ratio)
        print(
            f"{label:45s} wall {wall:.3f}s  slowest chain {slowest_chain:.2f}s  ratio {ratio:.2f}x"
        )
    print(f"worst ratio {worst:.2f}x (target <= 1.30x): {'OK' if worst <= 1.3 else 'MISSED'}")


if __name__ == "__main__":
    main()
