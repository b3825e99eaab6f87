"""The coverage section: how the model saw the PR, and what it did not see, and why.

Review units of a large PR, files left out for the token budget or a cost cap, and generated,
vendored, lock and excluded files (``diff.not_reviewed``). Empty when the model saw the whole
PR at once (the metadata section lists files without a patch).
"""

from __future__ import annotations

from pr_review.packet.model import PacketInput
from pr_review.packet.neutralize import cell, code
from pr_review.schema.enums import NotReviewedReason

_SHOWN = 50
_REASONS: dict[NotReviewedReason, str] = {
    NotReviewedReason.CONFIG: "excluded by configuration",
    NotReviewedReason.GENERATED: "generated",
    NotReviewedReason.VENDORED: "vendored",
    NotReviewedReason.NO_DIFF: "marked -diff",
    NotReviewedReason.LOCK_FILE: "lock file",
    NotReviewedReason.MINIFIED: "minified",
}


def coverage(inp: PacketInput) -> list[str]:
    """What the model saw: review units, files left out for budget, generated files."""
    out = _rereview(inp) + _units(inp) + _left_out(inp)
    generated = _generated(inp)
    if out and generated:
        out.append("")
    return out + generated


def _rereview(inp: PacketInput) -> list[str]:
    note = inp.meta.rereview
    return [f"**Re-review:** {cell(note, 300)}."] if note else []


def _units(inp: PacketInput) -> list[str]:
    units = inp.meta.review_units
    if not units:
        return []
    shown = ", ".join(code(u, 60) for u in units[:_SHOWN])
    more = f" and {len(units) - _SHOWN} more" if len(units) > _SHOWN else ""
    return [
        f"**Reviewed in {len(units)} unit(s)** of related files (riskiest first): {shown}{more}."
    ]


def _left_out(inp: PacketInput) -> list[str]:
    left = inp.meta.left_out
    if not left:
        return []
    lines = [
        f"**Not reviewed by a model ({len(left)} file(s)):** split the PR or raise the cap.",
        "",
        "| File | Why |",
        "|---|---|",
    ]
    lines += [f"| {code(x.path, 100)} | {cell(x.why, 200)} |" for x in left[:_SHOWN]]
    if len(left) > _SHOWN:
        lines.append(f"| … and {len(left) - _SHOWN} more | |")
    return lines


def _generated(inp: PacketInput) -> list[str]:
    skipped = inp.pack.diff.not_reviewed
    if not skipped:
        return []
    summary = (
        f"<details><summary>Not reviewed by a model: {len(skipped)} generated, vendored, "
        "lock or excluded file(s)</summary>"
    )
    note = (
        "Not sent to a model and not counted toward size or lane (a lock-file change still "
        "counts as a dependency change); verifiers still scanned them."
    )
    lines = [summary, "", note, "", "| File | Why | Rule |", "|---|---|---|"]
    lines += [
        f"| {code(item.path, 100)} | {_REASONS[item.reason]} | {cell(item.detail, 120)} |"
        for item in skipped[:_SHOWN]
    ]
    if len(skipped) > _SHOWN:
        lines.append(f"| … and {len(skipped) - _SHOWN} more | | |")
    lines += ["", "</details>"]
    return lines
