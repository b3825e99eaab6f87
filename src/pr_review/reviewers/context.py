"""What the model sees: the shared prefix (evidence pack + diff) and the run's system text.

Built once per run and sent byte-identical by every reviewer call, marked for prompt
caching. It holds only the evidence pack and the diff: no authoring context, no other
reviewer's output. Every PR-authored text is redacted, then fenced as untrusted data.

A PR reviewed in units (a large PR, a cost cap, an incremental re-review) pays for its own
evidence: the shared prefix, identical for every unit and first for prompt caching, holds the
PR's summary (title, description, stats, the lane and its factors, linked issues, missing
artifacts, blockers) without the per-file evidence; each unit's prefix then holds the
evidence about its own files (touched-file entries, hotspots, verifier findings, related
tests, owners) and its diff (:func:`unit_evidence`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from pr_review.reviewers.prompts import load_prompt
from pr_review.reviewers.redact import Redactor
from pr_review.reviewers.untrusted import TokenFactory, fence, new_fence_token
from pr_review.schema.pack import EvidencePack

_HUNK = re.compile(r"^@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")

# Fields of the pack written by the PR author; they are sent fenced, not inside the JSON.
_AUTHORED: dict[str, Any] = {
    "generated_at": True,
    "wall_clock_ms": True,
    "pr": {"title": True, "description": True},
    "diff": {"raw_diff": True},
    "context": {"linked_issues": True, "repo_instructions": True},
}


@dataclass(frozen=True)
class RunContext:
    """The per-run texts every reviewer call shares."""

    system: str
    shared_prefix: str
    token: str
    unit_prefix: str | None = None
    """A review unit's own diff, sent after the shared prefix (units of a large PR)."""


def build_context(
    pack: EvidencePack,
    raw_diff: str,
    redactor: Redactor,
    *,
    token_factory: TokenFactory | None = None,
    diff_in_prefix: bool = True,
) -> RunContext:
    """Redact, fence and assemble the shared prefix and the system text for one run.

    ``diff_in_prefix`` False is a review by units: the shared prefix holds the PR's summary
    (:func:`summary_pack`) and no diff; each unit adds its own evidence and diff with
    :func:`unit_context`. The fence token is still chosen over the whole pack and all of
    ``raw_diff``, so no unit's text can hold it.
    """
    sections = _authored_sections(pack, raw_diff, redactor)
    whole_json = redactor.redact(_pack_json(pack))
    pack_json = whole_json if diff_in_prefix else redactor.redact(_pack_json(summary_pack(pack)))
    # The token is chosen over every fenced text, the pack included (it holds file names).
    data = "\n".join([whole_json, *(text for _, text in sections)])
    token = new_fence_token(data) if token_factory is None else new_fence_token(data, token_factory)
    if not diff_in_prefix:
        sections = [(label, text) for label, text in sections if label != "diff"]
    title = (
        "## Evidence pack (computed by pr-review's deterministic tools)"
        if diff_in_prefix
        else "## Evidence pack: the PR's summary (the evidence about each unit's files follows "
        "with its diff)"
    )
    parts = [
        "# Evidence for this review",
        "",
        title,
        "File names and code quoted inside it come from the pull request, so it is fenced as data.",
        fence(pack_json, "evidence pack (JSON)", token),
    ]
    for label, text in sections:
        parts += ["", f"## {label}", fence(text, label, token)]
    prefix = redactor.redact("\n".join(parts))
    system = load_prompt("system").replace("{token}", token)
    return RunContext(system=system, shared_prefix=prefix, token=token)


def _pack_json(pack: EvidencePack) -> str:
    data = pack.model_dump(mode="json", exclude=_AUTHORED)
    return json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False)


SUMMARY_FILES = 10
"""Files named per risk factor and per split suggestion in the summary every unit shares (a
unit's own evidence names all of its files a factor covers)."""


def summary_pack(pack: EvidencePack) -> EvidencePack:
    """The pack without its per-file evidence: what every unit of a PR shares. Each risk
    factor and split suggestion names its first :data:`SUMMARY_FILES` files and how many more
    (an 800-file PR's factor lists were two thirds of what every unit repeated)."""
    factors = tuple(
        f.model_copy(update={"files": _capped(f.files)}) for f in pack.risk.factors
    )
    split = tuple(
        s.model_copy(update={"files": _capped(s.files)}) for s in pack.diff.oversize.split
    )
    return pack.model_copy(
        update={
            "risk": pack.risk.model_copy(update={"factors": factors}),
            "diff": pack.diff.model_copy(
                update={
                    "touched_files": (),
                    "raw_diff": "",
                    "oversize": pack.diff.oversize.model_copy(update={"split": split}),
                }
            ),
            "hotspots": (),
            "context": pack.context.model_copy(update={"related_tests": (), "owners": ()}),
            "verification": pack.verification.model_copy(
                update={
                    "verifiers": tuple(
                        run.model_copy(update={"findings": (), "files_checked": ()})
                        for run in pack.verification.verifiers
                    )
                }
            ),
        }
    )


def _capped(files: tuple[str, ...]) -> tuple[str, ...]:
    if len(files) <= SUMMARY_FILES:
        return files
    return (*files[:SUMMARY_FILES], f"... and {len(files) - SUMMARY_FILES} more file(s)")


def unit_evidence(pack: EvidencePack, files: frozenset[str]) -> str:
    """The evidence about ``files`` (JSON): the risk factors that cover them (with those
    files), their touched-file entries, hotspots, verifier findings, related tests and
    owners. Empty when there is none."""
    found: dict[str, Any] = {
        "risk_factors": [
            {**f.model_dump(mode="json"), "files": [p for p in f.files if p in files]}
            for f in pack.risk.factors
            if len(f.files) > SUMMARY_FILES and any(p in files for p in f.files)
        ],
        "touched_files": [
            t.model_dump(mode="json") for t in pack.diff.touched_files if t.path in files
        ],
        "hotspots": [h.model_dump(mode="json") for h in pack.hotspots if h.file in files],
        "verifier_findings": {
            run.name: [f.model_dump(mode="json") for f in run.findings if f.file in files]
            for run in pack.verification.verifiers
            if any(f.file in files for f in run.findings)
        },
        "related_tests": [
            t.model_dump(mode="json")
            for t in pack.context.related_tests
            if t.source_file in files or t.test_file in files
        ],
        "owners": [
            {**o.model_dump(mode="json"), "files": [f for f in o.files if f in files]}
            for o in pack.context.owners
            if any(f in files for f in o.files)
        ],
    }
    kept = {key: value for key, value in found.items() if value}
    return json.dumps(kept, indent=1, sort_keys=True, ensure_ascii=False) if kept else ""


def unit_context(
    context: RunContext,
    raw_diff: str,
    redactor: Redactor,
    evidence: str = "",
) -> RunContext:
    """``context`` with one review unit's evidence (:func:`unit_evidence`) and diff, redacted,
    numbered and fenced."""
    text = number_diff(redactor.redact(raw_diff)) or "(empty diff)"
    parts = []
    if evidence:
        parts += [
            "## Evidence about this unit's files (JSON, from the deterministic tools)",
            fence(redactor.redact(evidence), "unit evidence (JSON)", context.token),
            "",
        ]
    parts += [
        "## diff (this review unit: the files below; the summary above covers the whole PR)",
        fence(text, "diff", context.token),
    ]
    return RunContext(
        system=context.system,
        shared_prefix=context.shared_prefix,
        token=context.token,
        unit_prefix=redactor.redact("\n".join(parts)),
    )


def _authored_sections(
    pack: EvidencePack, raw_diff: str, redactor: Redactor
) -> list[tuple[str, str]]:
    """(label, redacted text) of every PR-authored or repository-authored text."""
    sections = [
        ("pull request title", pack.pr.title),
        ("pull request description", pack.pr.description or "(empty)"),
    ]
    for issue in pack.context.linked_issues:
        body = f"#{issue.number} {issue.title}\n\n{issue.body}"
        sections.append((f"linked issue #{issue.number}", body))
    if pack.context.repo_instructions:
        sections.append(("repository instructions", pack.context.repo_instructions))
    sections = [(label, redactor.redact(text)) for label, text in sections]
    # Redact the raw diff before numbering, so a multi-line secret keeps the diff's lines.
    sections.append(("diff", number_diff(redactor.redact(raw_diff)) or "(empty diff)"))
    return sections


def number_diff(raw: str) -> str:
    """The unified diff with each hunk line prefixed by its head-side line number.

    Added and context lines carry the number a finding must cite; removed lines and
    headers carry none. Hunk lengths are followed exactly, so a ``--`` removed line is
    never taken for a header.
    """
    out: list[str] = []
    old_left = new_left = 0
    number = 0
    blank = " " * 6
    for line in raw.split("\n"):
        if old_left > 0 or new_left > 0:
            tag = line[:1]
            if tag in ("+", " ", ""):
                out.append(f"{number:>6} {line}")
                number += 1
                new_left -= 1
                old_left -= 0 if tag == "+" else 1
                continue
            if tag in ("-", "\\"):
                out.append(f"{blank} {line}")
                old_left -= 1 if tag == "-" else 0
                continue
            old_left = new_left = 0
        match = _HUNK.match(line)
        if match:
            old_left = int(match.group(1) or 1)
            number = int(match.group(2))
            new_left = int(match.group(3) or 1)
        elif line.startswith("\\"):
            out.append(f"{blank} {line}")
            continue
        out.append(f"{blank} {line}" if line else line)
    return "\n".join(out).rstrip("\n")
