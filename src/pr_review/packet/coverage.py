"""The coverage section: what the AI reviewers did not see, and why.

Generated, vendored, lock and excluded files (``diff.not_reviewed``). Empty when the model saw
every changed file that has a patch (the metadata section lists files without a patch).
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
    """A collapsed "Not reviewed" table, or nothing."""
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
