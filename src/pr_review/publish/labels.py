"""Lane labels: exactly one ``pr-review:<lane>`` label on the PR.

Labels let a team filter PRs by risk and trigger their own automation. The label of the
current lane is created (with its colour and a description) when the repository lacks it,
added when the PR lacks it, and every other lane label of ours is removed, so the PR carries
exactly one. A refused call (a read-only token on a fork PR) is reported, never fatal: labels
are a convenience, the check run is the gate.
"""

from __future__ import annotations

from typing import Protocol

from pr_review.errors import GitHubError
from pr_review.publish.settings import LabelSettings
from pr_review.schema.enums import Lane


class LabelApi(Protocol):
    """The calls labels need (``sources.github.GitHubApi`` has them)."""

    def issue_labels(self, number: int) -> tuple[object, ...]:
        """The labels on the PR (objects with ``name``)."""
        ...

    def label_exists(self, name: str) -> bool:
        """Whether the repository has the label."""
        ...

    def create_label(self, name: str, color: str, description: str) -> None:
        """Create a repository label."""
        ...

    def add_labels(self, number: int, names: list[str]) -> None:
        """Add labels to the PR."""
        ...

    def remove_label(self, number: int, name: str) -> None:
        """Remove a label from the PR."""
        ...


DESCRIPTIONS = {
    Lane.GREEN: "pr-review: no change that can alter behaviour",
    Lane.YELLOW: "pr-review: behaviour changes; ordinary review",
    Lane.RED: "pr-review: risky change; a person must acknowledge it",
}


def label_name(settings: LabelSettings, lane: Lane) -> str:
    """The label of ``lane``."""
    return f"{settings.prefix}{lane.value}"


def apply_lane_label(api: LabelApi, number: int, lane: Lane, settings: LabelSettings) -> str:
    """Make the lane's label the PR's only lane label; a line saying what was done."""
    if not settings.enabled:
        return "lane label: off (labels.enabled: false)"
    wanted = label_name(settings, lane)
    ours = {label_name(settings, other) for other in Lane}
    try:
        present = {str(getattr(label, "name", "")) for label in api.issue_labels(number)}
        done: list[str] = []
        if wanted not in present:
            if not api.label_exists(wanted):
                api.create_label(wanted, getattr(settings, lane.value), DESCRIPTIONS[lane])
                done.append(f"created {wanted}")
            api.add_labels(number, [wanted])
            done.append(f"added {wanted}")
        for stale in sorted((present & ours) - {wanted}):
            api.remove_label(number, stale)
            done.append(f"removed {stale}")
    except GitHubError as exc:
        return f"lane label: not set ({exc}); the check run still carries the lane"
    return f"lane label: {', '.join(done) if done else f'{wanted} already set'}"
