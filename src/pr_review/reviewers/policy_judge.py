"""Repository policy verifiers judged against a PR (files from `.pr-review/verifiers/*.json`).

Each file is validated on its own (a bad file is reported by name, the others still run).
The valid ones are judged in batches of ``policy_batch_size`` per model call: relevance per
instruction, then every checklist item. The verdicts form one seed-``000`` verdict file for
the PR; failed checks become candidate findings with evidence type ``repo_policy``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pydantic import ValidationError

from pr_review.errors import ReviewerError
from pr_review.reviewers.anchors import fingerprint
from pr_review.reviewers.critics import POLICY_TOOL, ReviewerResult, Shared, failed, request_for
from pr_review.reviewers.interface import describe_validation_error
from pr_review.reviewers.output import InstructionJudgement, PolicyOutput
from pr_review.reviewers.prompts import load_prompt
from pr_review.schema.enums import Action, Confidence, EvidenceType, FindingSource, Severity
from pr_review.schema.finding import CandidateFinding, Evidence
from pr_review.schema.policy import PolicyFile
from pr_review.schema.run import ReviewerRun, ReviewerStatus
from pr_review.schema.verdicts import CheckVerdict, InstructionVerdict

DEFAULT_TILE = ".pr-review"
MAX_POLICY_FILE_BYTES = 64 * 1024
"""A verifier file larger than this is refused by name, never sent (one instruction and a
short checklist fit in a few KiB)."""


@dataclass(frozen=True)
class LoadedPolicies:
    """The valid verifier files by name, and one problem line per invalid file."""

    files: tuple[tuple[str, PolicyFile], ...]
    problems: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class PolicyBatchResult:
    """One batch's run record, verdicts and findings."""

    result: ReviewerResult
    verdicts: tuple[InstructionVerdict, ...] = ()


def load_policies(texts: Mapping[str, str]) -> LoadedPolicies:
    """Parse and validate each file (name -> JSON text), in name order."""
    files: list[tuple[str, PolicyFile]] = []
    problems: list[tuple[str, str]] = []
    for name in sorted(texts):
        size = len(texts[name].encode("utf-8"))
        if size > MAX_POLICY_FILE_BYTES:
            cap = MAX_POLICY_FILE_BYTES // 1024
            problem = (
                f"{size // 1024} KiB is over the {cap} KiB cap for a verifier file (each is "
                "sent to the model whole); split it into smaller files of one instruction each"
            )
            problems.append((name, problem))
            continue
        try:
            files.append((name, PolicyFile.model_validate_json(texts[name])))
        except ValidationError as exc:
            problems.append((name, _problem(exc)))
    return LoadedPolicies(tuple(files), tuple(problems))


def invalid_file_run(name: str, problem: str) -> ReviewerRun:
    """The record of a verifier file that could not be used."""
    return ReviewerRun(
        name=f"policy:{name}",
        status=ReviewerStatus.FAILED,
        reason=f"invalid verifier file {name}: {problem}",
    )


def judge_batch(
    shared: Shared, batch: Sequence[tuple[str, PolicyFile]], *, name: str
) -> PolicyBatchResult:
    """Judge one batch of verifier files in one model call."""
    model = shared.settings.policy_model
    listing = json.dumps(
        [{"file": fname, **pf.model_dump(mode="json", exclude={"sources"})} for fname, pf in batch],
        indent=1,
        ensure_ascii=False,
    )
    prompt = load_prompt("policy").replace("{verifiers}", listing)
    request = request_for(shared, purpose=name, model=model, tool=POLICY_TOOL, prompt=prompt)
    started = shared.clock()
    try:
        answer = shared.model.complete(request, PolicyOutput)
    except ReviewerError as exc:
        return PolicyBatchResult(failed(name, model, exc, _ms(shared.clock() - started)))
    by_name = {j.file: j for j in answer.value.instructions}
    verdicts = [_verdict(fname, pf, by_name.get(fname)) for fname, pf in batch]
    judged = [v for v in verdicts if v is not None]
    missing = [fname for (fname, _), v in zip(batch, verdicts, strict=True) if v is None]
    findings = [
        f
        for (fname, pf), judgement in ((b, by_name.get(b[0])) for b in batch)
        if judgement is not None
        for f in _failed_checks(shared, fname, pf, judgement)
    ]
    reason = f"not judged by the model: {', '.join(missing)}" if missing else None
    run = ReviewerRun(
        name=name,
        status=ReviewerStatus.RAN,
        reason=reason,
        model=model,
        calls=answer.calls,
        findings_count=len(findings),
        duration_ms=_ms(shared.clock() - started),
    )
    return PolicyBatchResult(ReviewerResult(run, tuple(findings)), tuple(judged))


def _verdict(
    fname: str, pf: PolicyFile, judgement: InstructionJudgement | None
) -> InstructionVerdict | None:
    """The seed-000 entry: only the file's own checks, none when not relevant."""
    if judgement is None:
        return None
    names = {item.name for item in pf.checklist}
    checks = tuple(
        CheckVerdict(
            name=c.name,
            applicable=c.applicable,
            passed=c.passed,
            confidence=c.confidence,
            evidence=c.evidence,
        )
        for c in judgement.checks
        if c.name in names
    )
    tile = next((s.tile for s in pf.sources if s.tile), None) or DEFAULT_TILE
    return InstructionVerdict(
        file=fname,
        instruction=pf.instruction,
        tile=tile,
        relevant=judgement.relevant,
        checks=checks if judgement.relevant else (),
    )


def _failed_checks(
    shared: Shared, fname: str, pf: PolicyFile, judgement: InstructionJudgement
) -> list[CandidateFinding]:
    """A candidate finding for each applicable check the PR failed."""
    if not judgement.relevant:
        return []
    rules = {item.name: item.rule for item in pf.checklist}
    out = []
    for check in judgement.checks:
        if check.name not in rules or check.passed is not False:
            continue
        path = shared.index.resolve(check.file) if check.file else None
        line = shared.index.checked_line(path, check.line)
        origin = f"policy:{fname}"
        out.append(
            CandidateFinding(
                finding_id=f"{origin}#{check.name}",
                source=FindingSource.VERIFIER,
                title=f"Repository rule not followed: {rules[check.name]}",
                file=path or "",
                line_start=line,
                line_end=line,
                why_it_matters=f"The repository requires: {pf.instruction}",
                evidence=Evidence(
                    type=EvidenceType.REPO_POLICY,
                    detail=f"{fname} check `{check.name}`: {check.evidence}",
                ),
                confidence=check.confidence,
                severity=Severity.MEDIUM,
                action=Action.FIX,
                requires_human=check.confidence is Confidence.LOW,
                origin=origin,
                category="policy",
                rule_id=check.name,
                fingerprint=fingerprint(path or "", f"policy:{fname}", check.name),
            )
        )
    return out


def _problem(exc: ValidationError) -> str:
    return describe_validation_error(exc)


def _ms(seconds: float) -> int:
    return max(0, round(seconds * 1000))
