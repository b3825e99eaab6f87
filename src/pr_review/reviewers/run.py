"""The reviewer stage's entry point: :func:`run_reviewers`.

Plans the run (who runs, why, or why not), starts every model call of the run at once within
``max_concurrency``, and collects the results. Fresh-eyes, a challenger started by the lane
or authorship trigger, and every policy batch start together; a challenger started by an
uncertain severe fresh-eyes finding starts when fresh-eyes ends (and still never sees it).
Wall time is therefore close to the slowest chain of calls.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime

from pr_review.reviewers.anchors import AnchorIndex, injection_findings
from pr_review.reviewers.context import RunContext, build_context, unit_context, unit_evidence
from pr_review.reviewers.critics import (
    ReviewerResult,
    Shared,
    run_challenger,
    run_fresh_eyes,
    uncertain_severe,
)
from pr_review.reviewers.interface import StructuredModel
from pr_review.reviewers.plan import (
    LeftOut,
    Unit,
    Units,
    early_trigger,
    files_not_reviewed,
    late_trigger_allowed,
    plan_units,
    skip_reason_for,
    skipped_runs,
)
from pr_review.reviewers.policy_judge import (
    LoadedPolicies,
    PolicyBatchResult,
    invalid_file_run,
    judge_batch,
    load_policies,
)
from pr_review.reviewers.redact import Redactor, build_redactor
from pr_review.reviewers.settings import ReviewerSettings
from pr_review.reviewers.untrusted import InjectionHit, TokenFactory, scan, scan_added_lines
from pr_review.reviewers.verdicts import build_verdict_file
from pr_review.schema.enums import FindingSource
from pr_review.schema.finding import CandidateFinding
from pr_review.schema.pack import EvidencePack
from pr_review.schema.run import ReviewerRun, ReviewerStatus, UnitEstimate
from pr_review.schema.verdicts import VerdictFile
from pr_review.sources.diff import Diff
from pr_review.sources.diff_select import drop_files

NO_KEY_REASON = "no ANTHROPIC_API_KEY: AI reviewers did not run"


@dataclass(frozen=True)
class ReviewerOutcome:
    """Everything the reviewer stage produced."""

    candidates: tuple[CandidateFinding, ...]
    runs: tuple[ReviewerRun, ...]
    verdicts: VerdictFile | None
    files_not_reviewed: tuple[str, ...] = ()
    left_out: tuple[LeftOut, ...] = ()
    """Files with a patch no model saw because of the token budget or a cost cap, and why."""
    units: tuple[str, ...] = ()
    """Names of the review units, when the PR was reviewed in units."""
    estimated_input_tokens: int = 0
    estimated_cost_usd: float | None = None
    unit_estimates: tuple[UnitEstimate, ...] = ()
    unreviewed: tuple[str, ...] = ()
    """Files with a patch (generated and excluded ones aside) that no model has reviewed as of
    this head: every one when AI review was skipped, those left out by a cap or the budget."""


@dataclass(frozen=True)
class Collaborators:
    """Clocks and the fence-token source; production defaults, replaceable in tests."""

    clock: Callable[[], float] = time.monotonic
    now: Callable[[], datetime] = field(default=lambda: datetime.now(UTC))
    token_factory: TokenFactory | None = None


def run_reviewers(
    pack: EvidencePack,
    diff: Diff,
    settings: ReviewerSettings,
    *,
    model: StructuredModel | None,
    skip_reason: str | None = None,
    policy_files: Mapping[str, str] | None = None,
    session_id: str = "",
    progress: Callable[[str], None] | None = None,
    collaborators: Collaborators | None = None,
    only: frozenset[str] | None = None,
) -> ReviewerOutcome:
    """Run fresh-eyes, the challenger (when triggered) and the policy verifiers on one PR.

    ``policy_files`` maps verifier file names to their JSON text. ``model`` None means no
    API key: every reviewer is recorded as skipped with that reason. ``only`` (an incremental
    re-review) limits the model to those files, reviewed in units.
    """
    say = progress or (lambda _message: None)
    env = collaborators or Collaborators()
    policies = load_policies(policy_files or {})
    # Priming a redactor reads every added line for secrets (seconds on a large PR): done
    # only when text may leave for a model or an injection quote must be masked.
    primed = functools.cache(lambda: build_redactor(pack, diff))
    index = AnchorIndex.from_diff(diff)
    hits = detect_injections(pack, diff, lambda text: primed().redact(text))
    bad_files = tuple(invalid_file_run(name, problem) for name, problem in policies.problems)
    reason = skip_reason_for(pack, settings, model, skip_reason, NO_KEY_REASON)
    if reason is not None or model is None:
        say(f"AI reviewers skipped: {reason}")
        runs = skipped_runs(reason or NO_KEY_REASON, has_policies=bool(policies.files))
        return ReviewerOutcome(
            candidates=tuple(injection_findings(hits, (), index)),
            runs=(*runs, *bad_files),
            verdicts=None,
            files_not_reviewed=files_not_reviewed(pack, diff, reviewed=None),
            unreviewed=unreviewed_files(pack, diff, reviewed=frozenset()),
        )
    redactor = primed()
    # The gateway redacts every request as a whole, for every purpose (the synthesis
    # tie-break included): it must know the values this run found too.
    learn = getattr(model, "learn_secrets", None)
    if callable(learn):
        learn(redactor)
    trigger = early_trigger(pack, settings)
    base, units = plan_review(
        pack,
        diff,
        settings,
        redactor,
        policy_chars=policy_batch_chars(policies, settings.policy_batch_size),
        token_factory=env.token_factory,
        only=only,
    )
    if not units.reviewable:
        say("AI reviewers: nothing to review within the budget")
        return _outcome(
            pack,
            diff,
            units,
            candidates=tuple(injection_findings(hits, (), index)),
            runs=(*units.skipped, *bad_files),
            verdicts=None,
        )

    def context_of(unit: Unit) -> RunContext:
        if units.chunked:
            evidence = unit_evidence(pack, unit.files) if unit.files is not None else ""
            return unit_context(base, unit.raw_diff, redactor, evidence)
        return build_context(pack, unit.raw_diff, redactor, token_factory=env.token_factory)

    shared = [
        (
            unit,
            Shared(
                context=context_of(unit),
                model=model,
                index=AnchorIndex.from_diff(diff, only=unit.files)
                if unit.files is not None
                else index,
                redactor=redactor,
                settings=settings,
                clock=env.clock,
            ),
        )
        for unit in units.reviewable
    ]
    plan = _Plan(shared, policies, settings, trigger, units.policy_skip)
    results, verdicts = _execute(plan, session_id, say, env)
    reports = [
        (r.run.name, _source_of(r.run.name), report) for r in results for report in r.reports
    ]
    candidates = injection_findings(hits, reports, index)
    candidates += [c for r in results for c in r.candidates]
    return _outcome(
        pack,
        diff,
        units,
        candidates=tuple(candidates),
        runs=(*(r.run for r in results), *units.skipped, *bad_files),
        verdicts=verdicts,
    )


def plan_review(
    pack: EvidencePack,
    diff: Diff,
    settings: ReviewerSettings,
    redactor: Redactor,
    *,
    policy_chars: tuple[int, ...] = (),
    token_factory: TokenFactory | None = None,
    only: frozenset[str] | None = None,
) -> tuple[RunContext, Units]:
    """The run's shared context and its review units with their pre-call estimates (what
    ``run_reviewers`` sends; ``bench/bench_cost.py`` prices PRs with it, calling nothing)."""
    base = build_context(
        pack,
        drop_files(diff.raw, frozenset(n.path for n in pack.diff.not_reviewed)),
        redactor,
        token_factory=token_factory,
        diff_in_prefix=False,
    )
    units = plan_units(
        pack,
        diff,
        settings,
        prefix_chars=len(base.system) + len(base.shared_prefix),
        evidence_chars=lambda files: len(unit_evidence(pack, files)),
        only=only,
        challenger_wanted=early_trigger(pack, settings) is not None,
        policy_chars=policy_chars,
    )
    return base, units


def _outcome(
    pack: EvidencePack,
    diff: Diff,
    units: Units,
    *,
    candidates: tuple[CandidateFinding, ...],
    runs: tuple[ReviewerRun, ...],
    verdicts: VerdictFile | None,
) -> ReviewerOutcome:
    return ReviewerOutcome(
        candidates=candidates,
        runs=runs,
        verdicts=verdicts,
        files_not_reviewed=files_not_reviewed(pack, diff, reviewed=units.reviewed_files),
        left_out=units.left_out,
        units=tuple(u.suffix.lstrip(":") for u in units.reviewable if units.chunked),
        estimated_input_tokens=units.estimated_input_tokens,
        estimated_cost_usd=units.estimated_cost_usd,
        unit_estimates=tuple(
            UnitEstimate(
                unit=u.suffix.lstrip(":"),
                files=len(u.files or ()),
                calls=u.calls,
                estimated_input_tokens=u.estimated_input_tokens,
                estimated_cost_usd=u.estimated_cost_usd,
            )
            for u in units.reviewable
            if units.chunked
        ),
        unreviewed=unreviewed_files(pack, diff, reviewed=units.reviewed_files),
    )


def unreviewed_files(
    pack: EvidencePack, diff: Diff, *, reviewed: frozenset[str] | None
) -> tuple[str, ...]:
    """Files with a patch, not generated or excluded, outside ``reviewed`` (None: all in it)."""
    if reviewed is None:
        return ()
    excluded = {n.path for n in pack.diff.not_reviewed}
    return tuple(
        f.path
        for f in diff.files
        if f.patch_available and f.path not in excluded and f.path not in reviewed
    )


def detect_injections(
    pack: EvidencePack, diff: Diff, redact: Callable[[str], str]
) -> list[InjectionHit]:
    """Deterministic injection phrasing in PR-authored text, file names and added diff lines.

    Text is scanned as written; only text with a hit is redacted and scanned again, so the
    quotes carry no secret and ``redact`` (priming it reads the whole diff) is rarely called.
    """

    def scanned(text: str, location: str, file: str | None = None) -> list[InjectionHit]:
        return scan(redact(text), location, file=file) if scan(text, location) else []

    hits = scanned(pack.pr.title, "pr_title") + scanned(pack.pr.description, "pr_description")
    for changed in diff.files:
        for name in dict.fromkeys(p for p in (changed.old_path, changed.path) if p):
            hits += scanned(name, "file_name", file=changed.path)
    for issue in pack.context.linked_issues:
        hits += scanned(f"{issue.title}\n{issue.body}", "linked_issue")
    added = ((f.path, n, text) for f in diff.files for h in f.hunks for n, text in h.added)
    flagged = {(hit.file, hit.line) for hit in scan_added_lines(added)}
    again = (
        (f.path, n, redact(text))
        for f in diff.files
        for h in f.hunks
        for n, text in h.added
        if (f.path, n) in flagged
    )
    return hits + scan_added_lines(again)


@dataclass(frozen=True)
class _Plan:
    units: list[tuple[Unit, Shared]]
    policies: LoadedPolicies
    settings: ReviewerSettings
    trigger: str | None
    policy_skip: ReviewerRun | None


def _execute(
    plan: _Plan, session_id: str, say: Callable[[str], None], env: Collaborators
) -> tuple[list[ReviewerResult], VerdictFile | None]:
    """Start every call, start late challengers when fresh-eyes asks, collect in plan order."""
    settings = plan.settings
    first = plan.units[0][1]
    size = settings.policy_batch_size
    files = plan.policies.files if plan.policy_skip is None else ()
    batches = [files[i : i + size] for i in range(0, len(files), size)]
    started_at, started = env.now(), env.clock()
    results: list[ReviewerResult] = []
    with ThreadPoolExecutor(max_workers=settings.max_concurrency) as pool:
        chains = [
            (
                unit,
                s,
                pool.submit(run_fresh_eyes, s, name=f"fresh_eyes{unit.suffix}"),
                pool.submit(
                    run_challenger, s, trigger=plan.trigger, name=f"challenger{unit.suffix}"
                )
                if plan.trigger and unit.challenger
                else None,
            )
            for unit, s in plan.units
        ]
        policy_futures = [
            pool.submit(judge_batch, first, batch, name=_batch_name(i, len(batches)))
            for i, batch in enumerate(batches)
        ]
        say(f"AI reviewers: {len(chains)} fresh-eyes, {len(batches)} policy call(s) started")
        for unit, s, fresh, early in chains:
            fe_result = fresh.result()
            say(f"{fe_result.run.name}: {fe_result.run.status.value}")
            results.append(fe_result)
            if early is not None:
                results.append(early.result())
            else:
                late, skipped = _maybe_late(pool, unit, s, fe_result, settings)
                results.append(late.result() if late is not None else skipped)
            say(f"{results[-1].run.name}: {results[-1].run.status.value}")
        batch_results: list[PolicyBatchResult] = [f.result() for f in policy_futures]
    results += [b.result for b in batch_results]
    if plan.policy_skip is not None:
        results.append(ReviewerResult(plan.policy_skip))
    verdicts = build_verdict_file(
        batch_results,
        session_id=session_id,
        model=settings.policy_model,
        started_at=started_at,
        completed_at=env.now(),
        duration_ms=round((env.clock() - started) * 1000),
        transcript_chars=len(first.context.shared_prefix),
    )
    return results, verdicts


def policy_batch_chars(policies: LoadedPolicies, size: int) -> tuple[int, ...]:
    """Characters of the verifier files each policy call sends (for the cost estimate)."""
    files = policies.files
    return tuple(
        sum(len(pf.model_dump_json()) for _, pf in files[i : i + size])
        for i in range(0, len(files), size)
    )


def _batch_name(i: int, total: int) -> str:
    return "policy_verifiers" if total == 1 else f"policy_verifiers[{i + 1}/{total}]"


def _source_of(run_name: str) -> FindingSource:
    if run_name.startswith("challenger"):
        return FindingSource.CHALLENGER
    return FindingSource.FRESH_EYES


def _maybe_late(
    pool: ThreadPoolExecutor,
    unit: Unit,
    s: Shared,
    fe_result: ReviewerResult,
    settings: ReviewerSettings,
) -> tuple[Future[ReviewerResult] | None, ReviewerResult]:
    """Start the challenger after fresh-eyes when an uncertain severe finding asks for it.

    Returns the started challenger, or None and the record of why it did not run.
    """
    name = f"challenger{unit.suffix}"
    allowed = late_trigger_allowed(settings) and unit.late_challenger
    severe = uncertain_severe(fe_result.candidates) if allowed else None
    if severe is None:
        why = (
            "no trigger held: lane not in the challenger's lanes, not AI-assisted enough, "
            "and no high or critical finding held with less than high confidence"
            if allowed
            else "challenger mode off"
            if not late_trigger_allowed(settings)
            else "a cost cap leaves no room for the challenger on this unit"
        )
        skipped = ReviewerRun(name=name, status=ReviewerStatus.SKIPPED, reason=why)
        return None, ReviewerResult(skipped)
    trigger = (
        f"fresh-eyes reported a {severe.severity.value} finding at "
        f"{severe.confidence.value} confidence"
    )
    return pool.submit(run_challenger, s, trigger=trigger, name=name), ReviewerResult(
        ReviewerRun(name=name, status=ReviewerStatus.SKIPPED, reason="pending")
    )
