"""The reviewer packet as one GitHub comment (pure function of :class:`PacketInput`).

Size: GitHub refuses comments over 65,536 characters (262,144 UTF-8 bytes). The packet aims
at :data:`BUDGET` (60,000): it renders everything; if that is too long, findings after the
first :data:`OPEN_FINDINGS` become one-line entries; if still too long, the lowest-ranked
findings are cut (binary search for the most that fit) and the packet says how many; as a
last resort the body is cut at a line boundary. The state block is budgeted separately.
"""

from __future__ import annotations

from collections.abc import Sequence

from pr_review.packet import sections
from pr_review.packet.coverage import coverage
from pr_review.packet.metadata import metadata
from pr_review.packet.model import PacketInput
from pr_review.packet.state import render_state
from pr_review.schema.finding import SynthesizedFinding
from pr_review.synthesis.memory import build_memory

BUDGET = 60_000
BYTE_LIMIT = 262_144
OPEN_FINDINGS = 10


def render_packet(inp: PacketInput) -> str:
    """The packet Markdown; first line is the packet marker, last the state block."""
    state = render_state(inp.state or build_memory(inp.sha, inp.config_hash, inp.surfaced))
    room = BUDGET - len(state) - 1
    parts = _Parts(inp)
    body = parts.body(compact=False, cut=0)
    if not _fits(body, room):
        body = parts.body(compact=True, cut=0)
    if not _fits(body, room):
        body = _largest_cut(parts, room)
    if not _fits(body, room):
        body = _hard_cut(body, room)
    return f"{body}\n{state}\n"


def _fits(body: str, room: int) -> bool:
    return (
        len(body) <= room
        and len(body.encode("utf-8")) <= room * 4
        and len(body.encode("utf-8")) <= BYTE_LIMIT - 20_000
    )


def _largest_cut(parts: _Parts, room: int) -> str:
    total = len(parts.surfaced)
    low, high = 0, total  # low: findings kept; find the most that fit
    while low < high:
        mid = (low + high + 1) // 2
        if _fits(parts.body(compact=True, cut=total - mid), room):
            low = mid
        else:
            high = mid - 1
    return parts.body(compact=True, cut=total - low)


class _Parts:
    """Each section, and each finding in each form, rendered once: fitting the packet tries
    many cuts, and only the findings part differs between them."""

    def __init__(self, inp: PacketInput) -> None:
        self.inp = inp
        self.surfaced: Sequence[SynthesizedFinding] = inp.surfaced
        self.before = [
            [sections.MARKER, "## PR review packet"],
            sections.summary(inp),
            sections.not_run(inp),
            sections.lane(inp),
            sections.verification(inp),
        ]
        self.after = [
            sections.other_checks(inp),
            sections.minor_notes(inp),
            sections.memory(inp),
            sections.human_questions(inp),
            sections.focus(inp),
            coverage(inp),
            metadata(inp),
            [sections.STATEMENT],
        ]
        self._full: dict[int, list[str]] = {}
        self._compact: dict[int, str] = {}

    def full(self, i: int) -> list[str]:
        """Finding ``i`` in full."""
        if i not in self._full:
            self._full[i] = sections.finding_full(self.surfaced[i], self.inp)
        return self._full[i]

    def compact(self, i: int) -> str:
        """Finding ``i`` on one line."""
        if i not in self._compact:
            self._compact[i] = sections.finding_compact(self.surfaced[i], self.inp)
        return self._compact[i]

    def body(self, *, compact: bool, cut: int) -> str:
        """The packet without its state block, the last ``cut`` findings left out."""
        parts = [*self.before, self.findings(compact=compact, cut=cut), *self.after]
        return "\n\n".join("\n".join(p).strip("\n") for p in parts if p)

    def findings(self, *, compact: bool, cut: int) -> list[str]:
        """The findings section."""
        total = len(self.surfaced)
        kept = total - cut
        lines = [f"### Findings ({total})", ""]
        if not total:
            return [*lines, sections.CLEAN, "", sections.checked(self.inp)]
        for i in range(min(kept, OPEN_FINDINGS)):
            lines += [*self.full(i), ""]
        rest = range(OPEN_FINDINGS, kept)
        if rest:
            lines += [
                (
                    f"<details><summary>{len(rest)} more finding(s), ranks "
                    f"{OPEN_FINDINGS + 1}–{kept}</summary>"
                ),
                "",
            ]
            for i in rest:
                if compact:
                    lines.append(self.compact(i))
                else:
                    lines += [*self.full(i), ""]
            lines += ["", "</details>"]
        if cut:
            lines += [
                "",
                (
                    f"_{cut} lowest-ranked finding(s) were cut to fit GitHub's comment size "
                    "limit; every finding is in the run's findings.json._"
                ),
            ]
        return lines


def _hard_cut(body: str, room: int) -> str:
    note = "\n\n_The packet was cut here to fit GitHub's comment limit; see the run's JSON files._"
    head = body[: max(room - len(note) - 40, 0)]
    head = head[: head.rfind("\n")] if "\n" in head else head
    if head.count("<details") > head.count("</details>"):
        head += "\n\n</details>"
    return head + note


