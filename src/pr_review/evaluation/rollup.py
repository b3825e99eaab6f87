"""Roll many ``verdicts.json`` files into ``verdicts-aggregate.json`` (seed 000 aggregate).

Pass rate of a check = passed / applicable (checks that did not apply are not counted);
a tile's ``overall_pass_rate`` pools every applicable check of the tile. Cost is estimated
per file from its ``_meta.model`` and tokens with the reviewer price table.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path

from pydantic import ValidationError

from pr_review.errors import UserError
from pr_review.reviewers.settings import DEFAULT_PRICES, call_cost, price_for
from pr_review.schema.enums import Confidence
from pr_review.schema.verdicts import (
    CheckAggregate,
    CheckVerdict,
    ConfidenceBreakdown,
    CostAggregate,
    InstructionAggregate,
    TileAggregate,
    VerdictAggregate,
    VerdictFile,
    VerdictMeta,
)

VERDICT_NAMES = ("verdicts.json",)
VERDICT_SUFFIX = ".verdict.json"
CostFn = Callable[[VerdictMeta], float | None]


def default_cost(meta: VerdictMeta) -> float | None:
    """Estimated USD of one verdict file's judge calls (None: unknown model or tokens)."""
    if meta.input_tokens is None or meta.output_tokens is None:
        return None
    return call_cost(
        price_for(meta.model, dict(DEFAULT_PRICES)),
        input_tokens=meta.input_tokens,
        output_tokens=meta.output_tokens,
        cache_creation_input_tokens=0,
        cache_read_input_tokens=0,
    )


def find_verdict_files(dirs: Iterable[Path]) -> list[Path]:
    """``verdicts.json`` and ``*.verdict.json`` under each directory (or the files given)."""
    found: set[Path] = set()
    for root in dirs:
        if root.is_file():
            found.add(root)
            continue
        for path in root.rglob("*.json"):
            if path.name in VERDICT_NAMES or path.name.endswith(VERDICT_SUFFIX):
                found.add(path)
    return sorted(found)


def load_verdicts(paths: Sequence[Path]) -> list[VerdictFile]:
    """Parse every file; a ``null`` file (no policy verifiers ran) is skipped.

    Raises UserError naming every unreadable or invalid file.
    """
    files: list[VerdictFile] = []
    problems: list[str] = []
    for path in paths:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data is not None:
                files.append(VerdictFile.model_validate(data))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, ValidationError) as exc:
            problems.append(f"{path}: {str(exc).splitlines()[0]}")
    if problems:
        raise UserError(
            "cannot roll up verdicts: " + "; ".join(problems)
            + ". Remove or fix these files (seed 000 verdict format)."
        )
    return files


def aggregate_verdicts(
    paths: Sequence[Path],
    *,
    cost: CostFn = default_cost,
    now: Callable[[], datetime] = lambda: datetime.now(UTC),
) -> VerdictAggregate:
    """The seed 000 aggregate of the verdict files at ``paths``."""
    return aggregate(load_verdicts(paths), cost=cost, timestamp=now())


def aggregate(
    files: Sequence[VerdictFile], *, cost: CostFn = default_cost, timestamp: datetime
) -> VerdictAggregate:
    """Pure roll-up of parsed verdict files."""
    checks: dict[str, dict[str, dict[str, list[CheckVerdict]]]] = {}
    texts: dict[tuple[str, str], str] = {}
    for verdict in files:
        for inst in verdict.instructions:
            texts.setdefault((inst.tile, inst.file), inst.instruction)
            per_file = checks.setdefault(inst.tile, {}).setdefault(inst.file, {})
            for check in inst.checks:
                per_file.setdefault(check.name, []).append(check)
    tiles = {tile: _tile(tile, by_file, texts) for tile, by_file in sorted(checks.items())}
    costs = [cost(v.meta) for v in files]
    return VerdictAggregate(
        timestamp=timestamp.isoformat(timespec="seconds").replace("+00:00", "Z"),
        sessions_count=len(files),
        tiles=tiles,
        cost=CostAggregate(
            total_input_tokens=sum(v.meta.input_tokens or 0 for v in files),
            total_output_tokens=sum(v.meta.output_tokens or 0 for v in files),
            estimated_cost_usd=round(sum(c for c in costs if c is not None), 6),
        ),
    )


def _tile(
    tile: str,
    by_file: dict[str, dict[str, list[CheckVerdict]]],
    texts: dict[tuple[str, str], str],
) -> TileAggregate:
    instructions = {
        file: InstructionAggregate(
            instruction=texts[(tile, file)],
            checks={name: _check(verdicts) for name, verdicts in sorted(by_check.items())},
        )
        for file, by_check in sorted(by_file.items())
    }
    applicable = sum(c.applicable_count for i in instructions.values() for c in i.checks.values())
    passed = sum(c.passed_count for i in instructions.values() for c in i.checks.values())
    return TileAggregate(
        instructions=instructions,
        overall_pass_rate=round(passed / applicable, 4) if applicable else 0.0,
    )


def _check(verdicts: Sequence[CheckVerdict]) -> CheckAggregate:
    applicable = [v for v in verdicts if v.applicable]
    passed = sum(1 for v in applicable if v.passed)
    counts = {level: sum(1 for v in applicable if v.confidence is level) for level in Confidence}
    return CheckAggregate(
        applicable_count=len(applicable),
        passed_count=passed,
        pass_rate=round(passed / len(applicable), 4) if applicable else 0.0,
        confidence_breakdown=ConfidenceBreakdown(
            high=counts[Confidence.HIGH],
            medium=counts[Confidence.MEDIUM],
            low=counts[Confidence.LOW],
        ),
    )
