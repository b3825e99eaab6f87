"""``run_verifiers``: materialize the PR's files, run every verifier in parallel, scope, summarize.

Verifiers run concurrently (``max_parallel`` threads; each mostly waits on its subprocess)
under a per-verifier timeout and a total budget: a verifier that would start after the
budget is spent is skipped with that reason, and a running one gets at most what is left.
A verifier that times out is killed with its children (``process.run`` kills the process
group) and reported; the others go on. Statuses come from the scoped findings, never from
exit codes: ``fail`` when one has error severity, ``warn`` when the worst is a warning.
The summary counts timeouts as skipped, as the seed's tile does.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from functools import partial
from pathlib import Path

from pr_review import process
from pr_review.schema.enums import TrustMode, VerifierStatus
from pr_review.schema.pack import Verification, VerificationSummary, VerifierRun
from pr_review.sources.model import PullRequest, RepoTree
from pr_review.verifiers.builtin import Bandit, Mypy, Ruff, python_files
from pr_review.verifiers.custom import CustomCommand
from pr_review.verifiers.model import (
    Category,
    Context,
    Deadline,
    Locator,
    Outcome,
    Runner,
    Skipped,
    Verifier,
)
from pr_review.verifiers.outcome import to_run
from pr_review.verifiers.polyglot import (
    Hadolint,
    Oxlint,
    Pick,
    Shellcheck,
    Sinks,
    Zizmor,
    dockerfiles,
    js_files,
    shell_files,
    sink_files,
    workflow_files,
)
from pr_review.verifiers.scope import DiffScope
from pr_review.verifiers.secrets import Secrets
from pr_review.verifiers.settings import ToolConfigSource, VerifierSettings
from pr_review.verifiers.stage import NOTHING, Materialized, materialize_pr
from pr_review.verifiers.tools import command_env, locate_tool, tool_env
from pr_review.verifiers.workspace import Workspace

Clock = Callable[[], float]


def select_verifiers(
    settings: VerifierSettings, *, checkout_ready: bool, touched: Sequence[str] | None = None
) -> tuple[Verifier, ...]:
    """The enabled built-ins, then the declared commands, in a fixed order.

    The tools of other languages are chosen only when the PR touches a file of their kind
    (``touched``: the PR's paths; None chooses them all): a Python PR's packet does not list
    five tools that had nothing to read. With such a file touched, a missing tool is a
    ``skipped`` run with the reason, as for the Python tools.
    """
    timeout = settings.timeout_seconds
    toggles = settings.builtin
    chosen: list[Verifier] = []
    if toggles.ruff:
        chosen.append(Ruff(timeout))
    if toggles.bandit:
        chosen.append(Bandit(timeout))
    if toggles.secrets:
        chosen.append(Secrets(settings.secrets_timeout_seconds))
    if toggles.mypy:
        chosen.append(Mypy(timeout))
    for enabled, make, pick in _languages(settings):
        if enabled and (touched is None or pick(touched)):
            chosen.append(make(timeout))
    chosen.extend(CustomCommand(spec, checkout_ready) for spec in settings.custom)
    return tuple(chosen)


def run_verifiers(
    pr: PullRequest,
    settings: VerifierSettings,
    *,
    trust_mode: TrustMode,
    run: Runner = process.run,
    tmp_root: Path | None = None,
    progress: Callable[[str], None] | None = None,
    locate: Locator = locate_tool,
    environ: Mapping[str, str] | None = None,
    clock: Clock = time.monotonic,
) -> Verification:
    """Run the verifiers on ``pr`` and return the pack's ``verification`` section.

    ``environ`` is the environment the tool environments are derived from (default: this
    process's, read now). Never raises for a tool's failure: it is a run's status.
    """
    if not settings.enabled:
        return Verification(trust_mode=trust_mode)
    parent_env = dict(os.environ if environ is None else environ)
    config_tree = pr.base_tree if settings.tool_config is ToolConfigSource.BASE else pr.head_tree
    report = progress or _quiet
    with tempfile.TemporaryDirectory(prefix="pr-review-verifiers-", dir=tmp_root) as tmp:
        report("staging the files for the verifiers")
        workspace = Workspace(Path(tmp))
        wants_checkout = trust_mode is TrustMode.TRUSTED and bool(settings.custom)
        staged = _stage(pr, workspace, config_tree, settings, full_checkout=wants_checkout)
        ctx = Context(
            pr=pr,
            scope=DiffScope.from_diff(pr.diff),
            workspace=workspace,
            settings=settings,
            trust_mode=trust_mode,
            run=run,
            locate=locate,
            tool_env=tool_env(workspace, parent_env),
            command_env=command_env(workspace, parent_env),
            head_files=staged.head_files,
            base_files=staged.base_files,
            config_tree=config_tree,
        )
        touched = [f.path for f in pr.diff.files]
        verifiers = select_verifiers(
            settings, checkout_ready=staged.checkout_ready, touched=touched
        )
        report("running the verifier tools")
        runs = _run_all(verifiers, ctx, staged, clock=clock, progress=progress)
    return Verification(verifiers=runs, summary=summarize(runs), trust_mode=trust_mode)


def _stage(
    pr: PullRequest,
    workspace: Workspace,
    config_tree: RepoTree,
    settings: VerifierSettings,
    *,
    full_checkout: bool,
) -> Materialized:
    """Write only what the selected verifiers read: nothing when none reads the workspace
    (secrets reads the diff), only the files of the enabled tools' kinds when no repository
    command runs."""
    picks = _enabled_picks(settings)
    if not picks and not settings.custom:
        workspace.prepare()
        return NOTHING

    def checked(path: str) -> bool:
        return any(pick((path,)) for pick in picks)

    only = None if settings.custom else checked
    return materialize_pr(pr, workspace, config_tree, full_checkout=full_checkout, only=only)


def _enabled_picks(settings: VerifierSettings) -> list[Pick]:
    """The file choosers of the enabled built-in tools that read the workspace."""
    toggles = settings.builtin
    picks: list[Pick] = []
    if toggles.ruff or toggles.bandit or toggles.mypy:
        picks.append(python_files)
    picks.extend(pick for enabled, _, pick in _languages(settings) if enabled)
    return picks


_Language = tuple[bool, Callable[[float], Verifier], Pick]


def _languages(settings: VerifierSettings) -> tuple[_Language, ...]:
    """The other languages' tools: (enabled, constructor, the files it reads)."""
    toggles = settings.builtin
    return (
        (toggles.sinks, Sinks, sink_files),
        (toggles.oxlint, Oxlint, js_files),
        (toggles.shellcheck, Shellcheck, shell_files),
        (toggles.hadolint, Hadolint, dockerfiles),
        (toggles.zizmor, Zizmor, workflow_files),
    )


def _quiet(_: str) -> None:
    """Progress sink that drops messages."""


def _run_all(
    verifiers: tuple[Verifier, ...],
    ctx: Context,
    staged: Materialized,
    *,
    clock: Clock,
    progress: Callable[[str], None] | None,
) -> tuple[VerifierRun, ...]:
    budget_ends = clock() + ctx.settings.total_budget_seconds
    runs: dict[int, VerifierRun] = {}
    # The secrets scan is submitted first, so it never queues behind other tools.
    order = sorted(range(len(verifiers)), key=lambda i: not _own_budget(verifiers[i]))
    with ThreadPoolExecutor(max_workers=ctx.settings.max_parallel) as pool:
        futures: dict[Future[VerifierRun], int] = {}
        for i in order:
            run_one = partial(_run_one, verifiers[i], ctx, staged, budget_ends=budget_ends)
            futures[pool.submit(run_one, clock=clock)] = i
        for future in as_completed(futures):
            result = future.result()
            runs[futures[future]] = result
            if progress is not None:
                progress(f"verifier {result.name}: {result.status.value}")
    return tuple(runs[i] for i in range(len(verifiers)))


def _own_budget(verifier: Verifier) -> bool:
    """The secrets scan has its own time limit, outside the shared budget: a miss there leaks
    a credential, so time spent by style and type tools must never starve it."""
    return verifier.category is Category.SECRETS


def _run_one(
    verifier: Verifier, ctx: Context, staged: Materialized, *, budget_ends: float, clock: Clock
) -> VerifierRun:
    started = clock()
    if _own_budget(verifier):
        budget_ends = started + verifier.timeout_seconds
    if budget_ends - started <= 0:
        budget = ctx.settings.total_budget_seconds
        late = Skipped(f"the total verifier budget of {budget:g} s was spent before it started")
        return to_run(verifier.name, late, ctx, staged, duration_ms=0)
    capped = started + verifier.timeout_seconds > budget_ends
    deadline = Deadline(min(started + verifier.timeout_seconds, budget_ends), clock)
    outcome: Outcome
    try:
        outcome = verifier.check(ctx, deadline)
    except Exception as exc:  # a bug in one verifier must not sink the others: it is data
        outcome = Skipped(f"internal error in the {verifier.name} verifier: {exc!r}")
    duration_ms = int((clock() - started) * 1000)
    return to_run(verifier.name, outcome, ctx, staged, duration_ms=duration_ms, capped=capped)


def summarize(runs: tuple[VerifierRun, ...]) -> VerificationSummary:
    """Counts per status; ``skipped`` includes timeouts (as the seed's tile counts them)."""
    counts = dict.fromkeys(VerifierStatus, 0)
    for r in runs:
        counts[r.status] += 1
    return VerificationSummary(
        passed=counts[VerifierStatus.PASS],
        failed=counts[VerifierStatus.FAIL],
        warnings=counts[VerifierStatus.WARN],
        skipped=counts[VerifierStatus.SKIPPED] + counts[VerifierStatus.TIMEOUT],
    )
