"""The packet's sections, each a pure function returning Markdown lines."""

from __future__ import annotations

from collections import Counter

from pr_review.packet.links import where
from pr_review.packet.model import PacketInput
from pr_review.packet.neutralize import cell, code, inline
from pr_review.packet.questions import questions
from pr_review.schema.enums import FindingSource, Lane, VerifierStatus
from pr_review.schema.finding import SynthesizedFinding
from pr_review.schema.run import ReviewerStatus
from pr_review.sources.paths import classify

MARKER = "<!-- pr-review-guardrails:packet -->"
STATEMENT = (
    "_This packet is a review aid assembled by automated reviewers and tools. It is not an "
    "approval and it does not decide anything: the findings and questions above are input "
    "for the person who reviews this pull request and decides whether it merges._"
)
CLEAN = (
    "No findings met the evidence threshold. That is not a verdict on the change: "
    "a human still needs to review it, starting with the places listed below."
)
_LANE_ICON = {Lane.GREEN: "🟢", Lane.YELLOW: "🟡", Lane.RED: "🔴"}
_STATUS = {
    VerifierStatus.PASS: "PASS",
    VerifierStatus.FAIL: "**FAIL**",
    VerifierStatus.WARN: "WARN",
    VerifierStatus.SKIPPED: "SKIP",
    VerifierStatus.TIMEOUT: "**TIMEOUT**",
}
LIST_CAP = 15


def _more(lines: list[str], total: int, cap: int, what: str) -> list[str]:
    if total > cap:
        lines.append(f"- … and {total - cap} more {what} (see the JSON files of this run).")
    return lines


def summary(inp: PacketInput) -> list[str]:
    """One or two sentences: what changed, the lane, the top concern."""
    p = inp.pack
    s = p.diff.stats
    subsystems = f" across {len(p.diff.subsystems)} subsystem(s)" if p.diff.subsystems else ""
    first = (
        f"This PR changes {s.files_changed} file(s) (+{s.insertions}/−{s.deletions}){subsystems}; "
        f"risk lane **{p.risk.lane.value.upper()}** ({p.risk.confidence.value} confidence)."
    )
    top = inp.surfaced[0] if inp.surfaced else None
    if top is None:
        return [f"**Summary.** {first} {CLEAN}"]
    count = len(inp.surfaced)
    second = (
        f"{count} finding(s) met the evidence threshold; the top concern is "
        f"“{inline(top.title, 140)}” ({where(top.file, top.line_start, top.line_end, None, '')})."
    )
    return [f"**Summary.** {first} {second}"]


def not_run(inp: PacketInput) -> list[str]:
    """A plain note when a reviewer was skipped or failed."""
    off = [r for r in inp.meta.reviewers if r.status is not ReviewerStatus.RAN]
    if not off:
        return []
    lines = ["> [!NOTE]"]
    lines += [
        f"> Reviewer **{inline(r.name, 40)}** {r.status.value}: "
        f"{inline(r.reason or 'no reason given', 200)}"
        for r in off[:LIST_CAP]
    ]
    return lines


def lane(inp: PacketInput) -> list[str]:
    """The lane, its factors and AI-assisted status."""
    r = inp.pack.risk
    lines = [
        (
            f"### Risk lane: {_LANE_ICON[r.lane]} {r.lane.value.upper()} "
            f"({r.confidence.value} confidence)"
        ),
        "",
    ]
    if not r.factors:
        lines.append("- No risk factors matched.")
    if r.lane is Lane.GREEN:
        lines.append(why_green(inp))
    red = r.why_red()
    if red:
        lines.append(f"- **Why red:** {inline(red, 300)}")
    for f in r.factors[:LIST_CAP]:
        files = ", ".join(code(x, 80) for x in f.files[:5])
        extra = f" (+{len(f.files) - 5} more)" if len(f.files) > 5 else ""
        why = f" — {inline(f.why, 200)}" if f.why else ""
        lines.append(f"- **{inline(f.factor, 60)}** ({f.severity.value}): {files}{extra}{why}")
    _more(lines, len(r.factors), LIST_CAP, "factors")
    if r.escalated_for_low_confidence:
        lines.append("- Lane raised one step because the classification confidence was low.")
    if r.override_applied:
        lines.append(f"- Override applied: {inline(r.override_source or 'repository rule', 120)}.")
    a = inp.pack.authorship
    if a.ai_assisted:
        tools = inline(", ".join(a.ai_tools), 120) or "unnamed tools"
        ai = f"yes ({tools}; {a.ai_commit_ratio:.0%} of {a.total_commits} commits)"
    else:
        ai = "no signal in the commits"
    lines += ["", f"AI-assisted: {ai}."]
    return lines


def why_green(inp: PacketInput) -> str:
    """Why the lane is green, from what the pack saw: the files by kind, renames, factors."""
    files = inp.pack.diff.touched_files
    kinds = Counter(classify(t.path).value for t in files)
    parts = ", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items()))
    what = f"the {len(files)} changed file(s) ({parts})" if files else "this change"
    renames = sum(1 for t in files if t.old_path)
    moved = f"; {renames} of them renamed" if renames else ""
    if inp.pack.risk.factors:
        rule = "the factors above are moderate and below the yellow bar"
    else:
        rule = "no risk rule matched"
    return f"- **Why green:** {rule} in {what}{moved}."


def checked(inp: PacketInput) -> str:
    """What ran, for a packet with nothing in its ranked list."""
    runs = inp.pack.verification.verifiers
    tools = ", ".join(
        f"{inline(v.name, 40)} ({_STATUS[v.status].strip('*').lower()})" for v in runs[:12]
    )
    ran = [r.name for r in inp.meta.reviewers if r.status is ReviewerStatus.RAN]
    reviewers = ", ".join(inline(n, 40) for n in ran) or "none ran"
    listed = len(inp.minor)
    extra = f"; {listed} lower-priority item(s) are listed below" if listed else ""
    return (
        f"**What was checked:** verifiers: {tools or 'none ran'}; AI reviewers: {reviewers}; "
        f"{len(inp.pack.hotspots)} hotspot(s) mapped{extra}."
    )


def verification(inp: PacketInput) -> list[str]:
    """The verifier table, or a plain statement that none ran."""
    runs = inp.pack.verification.verifiers
    lines = ["### Verification", ""]
    if not runs:
        return [*lines, "No verifiers ran."]
    lines += ["| Verifier | Status | Notable findings |", "|---|---|---|"]
    for v in runs[:40]:
        note = ""
        if v.findings:
            first = v.findings[0]
            note = cell(f"{first.file}:{first.line or ''} {first.message}", 80)
            if len(v.findings) > 1:
                note += f" (+{len(v.findings) - 1} more)"
        elif v.reason:
            note = cell(v.reason, 80)
        lines.append(f"| {cell(v.name, 40)} | {_STATUS[v.status]} | {note} |")
    if len(runs) > 40:
        lines.append(f"| … | | {len(runs) - 40} more verifiers |")
    return lines


def finding_full(f: SynthesizedFinding, inp: PacketInput) -> list[str]:
    """One finding with everything a reviewer needs to act on it."""
    status = f" · {f.review_status.value.replace('_', ' ')}" if f.review_status else ""
    lines = [
        f"#### {f.rank}. {inline(f.title, 200)}",
        "",
        (
            f"{f.severity.value} severity · {f.merged_confidence.value} confidence · "
            f"score {f.rank_score or 0:g} · action **{f.action.value}**{status}"
        ),
        "",
        f"- **Where:** {where(f.file, f.line_start, f.line_end, inp.repo_web_url, inp.sha)}",
        *(
            [f"- **Also at:** {', '.join(code(p, 100) for p in f.locations[:10])}"]
            if f.locations
            else []
        ),
        f"- **Why it matters:** {inline(f.why_it_matters, 600)}",
        (
            f"- **Evidence** ({f.evidence.type.value.replace('_', ' ')}): "
            f"{inline(f.evidence.detail, 800)}"
        ),
        f"- **Source:** {_source(f)}",
    ]
    if f.contested_by:
        lines.append(
            f"- **Contested** by {inline(', '.join(f.contested_by))}: a human decides. Positions:"
        )
        lines += [f"  - {inline(p, 400)}" for p in f.positions]
    return lines


def finding_compact(f: SynthesizedFinding, inp: PacketInput) -> str:
    """One finding on one line (used when the packet must shrink)."""
    loc = where(f.file, f.line_start, f.line_end, inp.repo_web_url, inp.sha)
    flag = " · contested" if f.contested_by else ""
    return (
        f"- **{f.rank}.** {inline(f.title, 140)} — {loc} · {f.severity.value} · "
        f"score {f.rank_score or 0:g} · {f.action.value}{flag}"
    )


def _source(f: SynthesizedFinding) -> str:
    out = f"{inline(f.producer)} ({inline(f.finding_id, 60)})"
    if f.corroborated_by:
        out += f"; corroborated by {inline(', '.join(f.corroborated_by))}"
    if f.merged_ids:
        out += f"; merged {inline(', '.join(f.merged_ids[:10]), 200)}"
    return out


def memory(inp: PacketInput) -> list[str]:
    """What changed since the previous review of this PR."""
    d = inp.memory_diff
    if d is None:
        return []
    lines = [
        "### Since the last review",
        "",
        f"{len(d.new)} new, {len(d.still_open)} still open, {len(d.resolved)} resolved.",
    ]
    lines += [
        f"- Resolved: {inline(e.title, 120)} ({code(e.file, 80)})" for e in d.resolved[:LIST_CAP]
    ]
    lines = _more(lines, len(d.resolved), LIST_CAP, "resolved findings")
    if d.dismissed:
        lines += ["", "#### Dismissed", ""]
        for x in d.dismissed[:LIST_CAP]:
            what = inline(x.title, 120) if x.title else f"finding {code(x.fingerprint[:16], 20)}"
            where = f" ({code(x.file, 80)})" if x.file else ""
            why = f": {inline(x.reason, 200)}" if x.reason else ""
            lines.append(f"- {what}{where}, dismissed by {inline(x.by, 40)} ({x.how}){why}")
        lines = _more(lines, len(d.dismissed), LIST_CAP, "dismissed findings")
    for x in d.ignored_dismissals[:LIST_CAP]:
        lines.append(
            f"- A dismissal by {inline(x.by, 40)} ({x.how}) was ignored: dismissing needs "
            "write access to the repository."
        )
    return lines


def human_questions(inp: PacketInput) -> list[str]:
    """Questions for the human ("None." when there are none)."""
    qs = questions(inp.pack, inp.surfaced)
    lines = ["### Questions for the human", ""]
    if not qs:
        return [*lines, "None."]
    lines += [f"- {q}" for q in qs[:40]]
    return _more(lines, len(qs), 40, "questions")


def focus(inp: PacketInput) -> list[str]:
    """Where to look first: risk-contributing hotspots, else the first few."""
    spots = [h for h in inp.pack.hotspots if h.risk_contributing] or list(inp.pack.hotspots[:5])
    lines = ["### Where to look first", ""]
    if not spots:
        return [*lines, "No hotspots were mapped; start with the files in the findings."]
    for h in spots[:LIST_CAP]:
        loc = where(h.file, h.line_start, h.line_end, inp.repo_web_url, inp.sha)
        lines.append(f"- {loc} ({inline(h.category, 40)}): {inline(h.why, 200)}")
    return _more(lines, len(spots), LIST_CAP, "hotspots")


OTHER_SHOWN = 20
LOCATIONS_SHOWN = 3


def _problem(f: SynthesizedFinding) -> str:
    """A verifier title without its place (titles are ``<problem> in `<file>` ``)."""
    head, sep, _ = f.title.rpartition(" in `")
    return head if sep else f.title


def other_checks(inp: PacketInput) -> list[str]:
    """Verifier findings below the bar: one collapsed table row per rule."""
    tool = [f for f in inp.minor if f.source is FindingSource.VERIFIER]
    if not tool:
        return []
    rows: dict[tuple[str, str], list[SynthesizedFinding]] = {}
    for f in tool:
        rows.setdefault((f.producer, f.rule_id or ""), []).append(f)
    lines = [
        (
            f"<details><summary>Other checks: {len(tool)} tool finding(s) below the bar "
            f"for the ranked list ({len(rows)} rule(s))</summary>"
        ),
        "",
        "| Check | Count | First locations |",
        "|---|---|---|",
    ]
    for (origin, rule), group in sorted(rows.items(), key=lambda kv: (-len(kv[1]), kv[0]))[
        :OTHER_SHOWN
    ]:
        places = ", ".join(
            code(f"{f.file}:{f.line_start}" if f.line_start else f.file, 100)
            for f in group[:LOCATIONS_SHOWN]
        )
        more = f" (+{len(group) - LOCATIONS_SHOWN})" if len(group) > LOCATIONS_SHOWN else ""
        label = f"{origin} {rule}".strip()
        lines.append(
            f"| {cell(label, 40)}: {cell(_problem(group[0]), 80)} | {len(group)} | {places}{more} |"
        )
    if len(rows) > OTHER_SHOWN:
        lines.append(f"| … and {len(rows) - OTHER_SHOWN} more rule(s) | | |")
    lines += ["", "</details>"]
    return lines


def minor_notes(inp: PacketInput) -> list[str]:
    """Reviewer findings below the bar: one collapsed line each."""
    notes = [f for f in inp.minor if f.source is not FindingSource.VERIFIER]
    if not notes:
        return []
    lines = [
        (
            f"<details><summary>Minor notes: {len(notes)} (low severity, or one reviewer's "
            "reasoning without cited code)</summary>"
        ),
        "",
    ]
    for f in notes[:LIST_CAP]:
        loc = where(f.file, f.line_start, f.line_end, inp.repo_web_url, inp.sha)
        lines.append(
            f"- {inline(f.title, 160)} — {loc} ({inline(f.producer, 40)}, {f.severity.value}, "
            f"{f.confidence.value} confidence)"
        )
    _more(lines, len(notes), LIST_CAP, "minor notes")
    lines += ["", "</details>"]
    return lines
