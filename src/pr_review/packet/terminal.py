"""The packet for a terminal (the CLI): plain text, ANSI colour only when asked."""

from __future__ import annotations

from pr_review.packet.links import span
from pr_review.packet.model import PacketInput
from pr_review.packet.neutralize import terminal
from pr_review.packet.questions import questions
from pr_review.schema.enums import Lane, Severity

_LANE = {Lane.GREEN: "32", Lane.YELLOW: "33", Lane.RED: "31"}
_SEV = {Severity.CRITICAL: "35", Severity.HIGH: "31", Severity.MEDIUM: "33", Severity.LOW: "36"}
STATEMENT = "This is a review aid, not an approval: a person reviews this change and decides."


def _paint(text: str, code: str, color: bool) -> str:
    return f"\x1b[{code}m{text}\x1b[0m" if color else text


def render_terminal(inp: PacketInput, *, color: bool) -> str:
    """The packet as terminal text; ``color`` adds ANSI colours (the CLI passes isatty())."""
    p = inp.pack
    bold = "1"
    out = [
        _paint("PR review packet", bold, color),
        (
            f"Risk lane: {_paint(p.risk.lane.value.upper(), _LANE[p.risk.lane], color)} "
            f"({p.risk.confidence.value} confidence)"
        ),
    ]
    out += [f"  - {terminal(f.factor, 60)} ({f.severity.value})" for f in p.risk.factors]
    out += ["", _paint(f"Findings ({len(inp.surfaced)})", bold, color)]
    if not inp.surfaced:
        out.append("  No findings met the evidence threshold; a human review is still needed.")
    for f in inp.surfaced:
        loc = f"{terminal(f.file, 120)}:{span(f.line_start, f.line_end)}" if f.file else "-"
        sev = _paint(f.severity.value.upper(), _SEV[f.severity], color)
        out.append(f"  {f.rank}. [{sev}] {terminal(f.title, 160)}")
        out.append(f"     {loc} | score {f.rank_score or 0:g} | action {f.action.value}")
        if f.corroborated_by:
            out.append(f"     corroborated by {terminal(', '.join(f.corroborated_by))}")
        if f.contested_by:
            out.append(f"     contested by {terminal(', '.join(f.contested_by))}")
    qs = questions(p, inp.surfaced)
    out += ["", _paint("Questions for the human", bold, color)]
    out += [f"  - {terminal(q)}" for q in qs] or ["  None."]
    out += ["", STATEMENT]
    return "\n".join(out) + "\n"
