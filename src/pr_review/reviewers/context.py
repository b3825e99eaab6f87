"""What the model sees: the shared prefix (evidence pack + diff) and the run's system text.

Built once per run and sent byte-identical by every reviewer call, marked for prompt
caching. It holds only the evidence pack and the diff: no authoring context, no other
reviewer's output. Every PR-authored text is redacted, then fenced as untrusted data.
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

    ``diff_in_prefix`` False leaves the diff out of the shared prefix (units of a large PR
    each add theirs with :func:`unit_context`); the fence token is still chosen over all of
    ``raw_diff``, so no unit's text can hold it.
    """
    sections = _authored_sections(pack, raw_diff, redactor)
    pack_json = redactor.redact(
        json.dumps(
            pack.model_dump(mode="json", exclude=_AUTHORED),
            indent=1,
            sort_keys=True,
            ensure_ascii=False,
        )
    )
    # The token is chosen over every fenced text, the pack included (it holds file names).
    data = "\n".join([pack_json, *(text for _, text in sections)])
    token = new_fence_token(data) if token_factory is None else new_fence_token(data, token_factory)
    if not diff_in_prefix:
        sections = [(label, text) for label, text in sections if label != "diff"]
    parts = [
        "# Evidence for this review",
        "",
        "## Evidence pack (computed by pr-review's deterministic tools)",
        "File names and code quoted inside it come from the pull request, so it is fenced as data.",
        fence(pack_json, "evidence pack (JSON)", token),
    ]
    for label, text in sections:
        parts += ["", f"## {label}", fence(text, label, token)]
    prefix = redactor.redact("\n".join(parts))
    system = load_prompt("system").replace("{token}", token)
    return RunContext(system=system, shared_prefix=prefix, token=token)


def unit_context(context: RunContext, raw_diff: str, redactor: Redactor) -> RunContext:
    """``context`` with one review unit's diff, redacted, numbered and fenced."""
    text = number_diff(redactor.redact(raw_diff)) or "(empty diff)"
    unit = "\n".join(
        [
            "## diff (this review unit: the files below; the evidence pack covers the whole PR)",
            fence(text, "diff", context.token),
        ]
    )
    return RunContext(
        system=context.system,
        shared_prefix=context.shared_prefix,
        token=context.token,
        unit_prefix=redactor.redact(unit),
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
