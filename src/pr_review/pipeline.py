"""The review pipeline: PR -> evidence pack -> reviewers -> synthesis -> packet.

Each stage is a function of the previous stage's values; the collaborators with effects
(verifier subprocesses, the model) are parameters. The CLI, the Action and the eval harness
all call :func:`run_review`; its first stage, :func:`build_evidence`, lives in
:mod:`pr_review.evidence.stage` (``pr-review pack`` runs it alone).
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from pydantic import TypeAdapter

from pr_review import __version__
from pr_review.config import Config
from pr_review.errors import UserError
from pr_review.evidence.escalate import escalate_pack
from pr_review.evidence.stage import build_evidence
from pr_review.incremental import History, decide, model_findings
from pr_review.packet.markdown import render_packet
from pr_review.packet.model import PacketInput
from pr_review.packet.sarif import to_sarif
from pr_review.reviewers.capped import CappedModel
from pr_review.reviewers.credentials import missing_credentials
from pr_review.reviewers.interface import StructuredModel
from pr_review.reviewers.run import run_reviewers
from pr_review.schema.enums import NotReviewedReason, TrustMode
from pr_review.schema.finding import SynthesizedFinding
from pr_review.schema.pack import EvidencePack
from pr_review.schema.run import (
    LeftOutFile,
    ModelCall,
    ReviewerRun,
    ReviewerStatus,
    ReviewMeta,
)
from pr_review.schema.verdicts import VerdictFile
from pr_review.sources.model import PullRequest
from pr_review.synthesis.core import synthesize
from pr_review.synthesis.memory import (
    MEMORY_VERSION,
    MemoryDiff,
    ReviewMemory,
    build_memory,
    compare,
)
from pr_review.verifiers.candidates import verifier_candidates

Progress = Callable[[str], None]


def not_reviewed_paths(pack: EvidencePack, reason: NotReviewedReason) -> frozenset[str]:
    """The files the pack leaves out of AI review for ``reason`` (vendored third-party code,
    a generator's output)."""
    return frozenset(n.path for n in pack.diff.not_reviewed if n.reason is reason)


def _quiet(_: str) -> None:
    """Progress sink that drops messages."""


@dataclass(frozen=True)
class ReviewOutcome:
    """Everything one review produced."""

    pack: EvidencePack
    findings: tuple[SynthesizedFinding, ...]
    """Every finding, surfaced and suppressed, in rank order (surfaced first)."""
    verdicts: VerdictFile | None
    meta: ReviewMeta
    packet_markdown: str
    sarif: dict[str, object]
    memory: ReviewMemory
    """What the next review of this PR compares against."""
    memory_diff: MemoryDiff
    """New, still-open and resolved findings since the previous review."""
    packet_input: PacketInput
    """What the packet was rendered from (the terminal rendering uses it too)."""

    @property
    def surfaced(self) -> tuple[SynthesizedFinding, ...]:
        """The findings the packet shows."""
        return tuple(f for f in self.findings if not f.suppressed)


def session_id(pr: PullRequest) -> str:
    """How verdict files name the reviewed PR."""
    if pr.repository and pr.number:
        return f"{pr.repository}#{pr.number}@{pr.head_sha}"
    return f"local:{pr.head_ref or 'HEAD'}@{pr.head_sha}"


def model_from_env(
    config: Config, env: Mapping[str, str]
) -> tuple[StructuredModel | None, str | None]:
    """The model gateway from the environment, or None and the reason it is missing."""
    missing = missing_credentials(config.reviewers, env)
    if missing is not None:
        return None, f"{missing}: AI reviewers did not run"
    # Imported here: the gateway loads the anthropic SDK, which only a model review needs.
    from pr_review.reviewers.gateway import build_gateway  # noqa: PLC0415

    gateway = build_gateway(config.reviewers, env)
    if gateway is None:
        return None, "no model credentials: AI reviewers did not run"
    return gateway, None


def close_model(model: StructuredModel | None) -> None:
    """Release a model client's connections (the gateway holds an HTTP connection pool)."""
    close = getattr(model, "close", None)
    if callable(close):
        close()


def run_review(
    pr: PullRequest,
    config: Config,
    *,
    trust_mode: TrustMode,
    model: StructuredModel | None,
    model_skip_reason: str | None = None,
    policy_files: Mapping[str, str] | None = None,
    previous: ReviewMemory | None = None,
    history: History | None = None,
    force: bool = False,
    progress: Progress = _quiet,
) -> ReviewOutcome:
    """Review one pull request end to end; partial failures are recorded, not raised.

    With ``previous`` (the last review of this PR) and ``history``, only the files changed
    since the reviewed head go to the model again (see :mod:`pr_review.incremental`).
    """
    started = time.monotonic()
    digest = config_hash(config)
    pack = build_evidence(pr, config, trust_mode=trust_mode, progress=progress)
    incremental = decide(
        previous, pr, history=history, config_hash=digest, force=force, pack=pack
    )
    if incremental.note:
        progress(incremental.note)
    progress("running the reviewers")
    reviewed = run_reviewers(
        pack,
        pr.diff,
        config.reviewers,
        model=model,
        skip_reason=model_skip_reason,
        policy_files=dict(policy_files or {}),
        session_id=session_id(pr),
        progress=progress,
        only=incremental.only,
    )
    progress("synthesizing findings")
    carried = incremental.carried
    candidates = (
        *verifier_candidates(
            pack.verification, pr.diff,
            vendored=not_reviewed_paths(pack, NotReviewedReason.VENDORED),
            generated=not_reviewed_paths(pack, NotReviewedReason.GENERATED),
        ),
        *reviewed.candidates,
        *carried,
    )
    synthesis = synthesize(
        candidates,
        diff=pr.diff,
        verification=pack.verification,
        settings=config.synthesis,
        model=_within_caps(model, config, reviewed.runs),
    )
    findings, memory_diff = compare(previous, synthesis.findings, config.synthesis.dismiss)
    # Reviewers may raise the lane (corroborated critical findings), never lower it.
    pack = escalate_pack(
        pack, findings, config.risk.escalation, config.artifacts, pr.base_tree.paths()
    )
    runs = reviewed.runs
    if synthesis.model_calls:
        runs = (*runs, synthesis_run(synthesis.model_calls))
    meta = ReviewMeta(
        reviewers=runs,
        wall_clock_ms=int((time.monotonic() - started) * 1000),
        files_not_reviewed=reviewed.files_not_reviewed,
        left_out=tuple(LeftOutFile(path=x.path, why=x.why) for x in reviewed.left_out),
        review_units=reviewed.units,
        estimated_input_tokens=reviewed.estimated_input_tokens,
        estimated_cost_usd=reviewed.estimated_cost_usd,
        unit_estimates=reviewed.unit_estimates,
        rereview=incremental.note,
        trust_mode=trust_mode.value,
    )
    remembered = [
        c.model_copy(update={"hunk": None})
        for c in (*model_findings(reviewed.candidates), *carried)
    ]
    memory = build_memory(
        pr.head_sha,
        digest,
        findings,
        base_sha=pr.base_sha,
        carried=remembered,
        unreviewed=reviewed.unreviewed,
        dismissed=memory_diff.dismissed,
    )
    progress("rendering the packet")
    packet_input = PacketInput(
        pack=pack,
        findings=findings,
        meta=meta,
        repo_web_url=pr.web_url,
        head_sha=pr.head_sha,
        memory_diff=memory_diff,
        state=memory,
        config_hash=digest,
    )
    return ReviewOutcome(
        pack=pack,
        findings=findings,
        verdicts=reviewed.verdicts,
        meta=meta,
        packet_markdown=render_packet(packet_input),
        packet_input=packet_input,
        sarif=to_sarif(findings, tool_version=__version__),
        memory=memory,
        memory_diff=memory_diff,
    )


def _within_caps(
    model: StructuredModel | None, config: Config, runs: tuple[ReviewerRun, ...]
) -> StructuredModel | None:
    """The model for calls after the reviewers': kept within the run's cost caps."""
    settings = config.reviewers
    if model is None or (settings.max_input_tokens is None and settings.max_cost_usd is None):
        return model
    return CappedModel(model, settings, tuple(c for run in runs for c in run.calls))


def synthesis_run(calls: tuple[ModelCall, ...]) -> ReviewerRun:
    """The synthesis tie-break's model calls, recorded like a reviewer's for cost reporting."""
    return ReviewerRun(
        name="synthesis-tiebreak",
        status=ReviewerStatus.RAN,
        reason="settled ambiguous duplicate pairs",
        model=calls[0].model,
        calls=calls,
        duration_ms=sum(c.duration_ms for c in calls),
    )


def config_hash(config: Config) -> str:
    """A stable digest of the configuration: same head + same hash = already reviewed."""
    text = json.dumps(config.model_dump(mode="json"), sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


STATE_FILE = "review-state.json"
"""What ``review --previous DIR`` reads: the reviewed head, base, config and model findings."""


def read_previous(out_dir: Path) -> ReviewMemory:
    """The state an earlier ``review --out-dir`` wrote; a one-line error when it is missing,
    not a directory, not valid JSON, not a review state, or of a newer format."""
    path = out_dir / STATE_FILE
    again = (
        "Pass the --out-dir of an earlier `pr-review review` of this PR, "
        "or review without --previous."
    )
    if not out_dir.exists():
        raise UserError(f"--previous {out_dir}: no such directory. {again}")
    if not out_dir.is_dir():
        raise UserError(f"--previous {out_dir}: not a directory. {again}")
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise UserError(f"--previous {out_dir}: no {STATE_FILE} there. {again}") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(
            f"--previous {out_dir}: {STATE_FILE} is unreadable ({type(exc).__name__}). {again}"
        ) from exc
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise UserError(f"--previous {out_dir}: {STATE_FILE} is not valid JSON. {again}") from exc
    version = data.get("version", MEMORY_VERSION) if isinstance(data, dict) else None
    if isinstance(version, int) and version > MEMORY_VERSION:
        raise UserError(
            f"--previous {out_dir}: {STATE_FILE} has format version {version}, newer than this "
            f"pr-review reads ({MEMORY_VERSION}). Upgrade pr-review, or review without --previous."
        )
    try:
        return ReviewMemory.model_validate(data)
    except ValueError as exc:
        raise UserError(
            f"--previous {out_dir}: {STATE_FILE} is not a review state written by pr-review. "
            f"{again}"
        ) from exc


_FINDINGS_JSON = TypeAdapter(list[SynthesizedFinding])


def write_outputs(outcome: ReviewOutcome, out_dir: Path) -> None:
    """Write the review's files: pack, findings, verdicts and packet."""
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / "evidence-pack.json").write_text(
            outcome.pack.model_dump_json(indent=2) + "\n", encoding="utf-8"
        )
        # pydantic's serializer, not json.dumps of dicts: seconds for thousands of findings.
        (out_dir / "findings.json").write_bytes(
            _FINDINGS_JSON.dump_json(list(outcome.findings), indent=2) + b"\n"
        )
        verdicts = (
            outcome.verdicts.model_dump(mode="json", by_alias=True)
            if outcome.verdicts is not None
            else None
        )
        (out_dir / "verdicts.json").write_text(
            json.dumps(verdicts, indent=2) + "\n", encoding="utf-8"
        )
        (out_dir / "packet.md").write_text(outcome.packet_markdown, encoding="utf-8")
        (out_dir / STATE_FILE).write_text(
            outcome.memory.model_dump_json(indent=1) + "\n", encoding="utf-8"
        )
    except OSError as exc:
        raise UserError(
            f"cannot write the review outputs to {out_dir}: {exc.strerror}. "
            "Choose a writable --out-dir."
        ) from exc
