"""The metadata section: reviewers run and skipped, models, tokens, cost, time, isolation."""

from __future__ import annotations

from pr_review.packet.model import PacketInput
from pr_review.packet.neutralize import cell, code
from pr_review.schema.run import ReviewMeta


def _seconds(ms: int) -> str:
    return f"{ms / 1000:.1f} s"


def _estimate(tokens: int, cost: float | None) -> list[str]:
    """The pre-call estimate of the reviewer calls, when there were any."""
    if not tokens:
        return []
    usd = "unknown (no known price)" if cost is None else f"${cost:.4f}"
    return [f"- Estimated before calling: {tokens} input tokens, {usd}."]


UNITS_SHOWN = 10


def _unit_estimates(m: ReviewMeta) -> list[str]:
    """Each unit's own estimate (the riskiest first, as reviewed), the rest summed."""
    if not m.unit_estimates:
        return []

    def usd(cost: float | None) -> str:
        return "unknown" if cost is None else f"${cost:.4f}"

    shown = m.unit_estimates[:UNITS_SHOWN]
    parts = [
        f"{cell(u.unit, 60)} ({u.files} file(s), {u.calls} call(s)): "
        f"{u.estimated_input_tokens} tokens, {usd(u.estimated_cost_usd)}"
        for u in shown
    ]
    rest = m.unit_estimates[UNITS_SHOWN:]
    if rest:
        costs = [u.estimated_cost_usd for u in rest]
        total = None if any(c is None for c in costs) else sum(c or 0.0 for c in costs)
        parts.append(
            f"{len(rest)} more unit(s): {sum(u.estimated_input_tokens for u in rest)} tokens, "
            f"{usd(total)}"
        )
    return ["- Estimated per review unit: " + "; ".join(parts) + "."]


def metadata(inp: PacketInput) -> list[str]:
    """A collapsed section with the run's provenance."""
    m = inp.meta
    lines = [
        "<details><summary>Review metadata</summary>",
        "",
        "| Reviewer | Status | Model | Tokens in/out | Cost | Time | Note |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in m.reviewers[:30]:
        tin = sum(
            c.input_tokens + c.cache_creation_input_tokens + c.cache_read_input_tokens
            for c in r.calls
        )
        tout = sum(c.output_tokens for c in r.calls)
        costs = [c.cost_usd for c in r.calls]
        cost = (
            "–"
            if not costs
            else (
                "unknown" if any(c is None for c in costs) else f"${sum(c or 0 for c in costs):.4f}"
            )
        )
        lines.append(
            f"| {cell(r.name, 40)} | {r.status.value} | {cell(r.model or '–', 40)} | "
            f"{tin}/{tout} | {cost} | {_seconds(r.duration_ms)} | {cell(r.reason or '', 120)} |"
        )
    if not m.reviewers:
        lines.append("| (none) | | | | | | |")
    tin, tout = m.total_tokens
    total = m.total_cost_usd
    cost = "unknown (a model had no known price)" if total is None else f"${total:.4f}"
    lines += [
        "",
        f"- Tokens: {tin} in, {tout} out. Cost: {cost}. Wall time: {_seconds(m.wall_clock_ms)}.",
        *_estimate(m.estimated_input_tokens, m.estimated_cost_usd),
        *_unit_estimates(m),
        f"- Isolation: {cell(m.context_isolation, 300)}",
        f"- Trust mode: {cell(m.trust_mode, 40)}.",
    ]
    if m.files_not_reviewed:
        shown = ", ".join(code(f, 100) for f in m.files_not_reviewed[:50])
        more = (
            f" and {len(m.files_not_reviewed) - 50} more" if len(m.files_not_reviewed) > 50 else ""
        )
        lines.append(f"- Files no AI reviewer saw: {shown}{more}.")
    lines += ["", "</details>"]
    return lines
