"""``build_pack``: the evidence stage's entry point, composing every section of the pack."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import UTC, datetime

from pr_review.config import Config
from pr_review.evidence.advisory import PrText
from pr_review.evidence.artifacts import ArtifactInputs, missing_artifacts
from pr_review.evidence.authorship import authorship
from pr_review.evidence.budgeted import scan_all_budgeted
from pr_review.evidence.ci import base_actions, is_ci
from pr_review.evidence.codeowners import owner_rules, read_codeowners
from pr_review.evidence.content import scan_all
from pr_review.evidence.generated import Excluded, detect, is_lock_file
from pr_review.evidence.guards import guard_factors
from pr_review.evidence.handlers import confirm as confirm_handlers
from pr_review.evidence.hotspots import hotspots
from pr_review.evidence.input_flows import input_flow_factors
from pr_review.evidence.instructions import repo_instructions
from pr_review.evidence.issues import linked_issues
from pr_review.evidence.neutral import Neutrality, analyse
from pr_review.evidence.oversize import blocker, budgeted, oversize
from pr_review.evidence.paths import PathKind, classify
from pr_review.evidence.related_tests import related_tests
from pr_review.evidence.risk import RiskInputs, assess
from pr_review.evidence.security_scope import security_scope_factors
from pr_review.evidence.subsystems import compile_subsystems, subsystem_of
from pr_review.schema.pack import (
    Context,
    Diff,
    DiffStats,
    EvidencePack,
    NotReviewedFile,
    PullRequestInfo,
    RiskFactor,
    TouchedFile,
    Verification,
)
from pr_review.sources.diff_model import FileDiff
from pr_review.sources.diff_select import drop_files
from pr_review.sources.model import PullRequest


def _utc_now() -> datetime:
    return datetime.now(UTC)


def build_pack(
    pr: PullRequest,
    config: Config,
    *,
    verification: Verification | None = None,
    now: Callable[[], datetime] = _utc_now,
    clock: Callable[[], float] = time.monotonic,
) -> EvidencePack:
    """Build the evidence pack of ``pr``; ``verification`` comes from the verifier stage."""
    started = clock()
    excluded = detect(
        pr.diff.files,
        gitattributes=pr.base_tree.read(".gitattributes"),
        exclude=config.paths.exclude,
    )
    # Generated, vendored, lock and excluded files are not sized nor analysed for the lane.
    files = [f for f in pr.diff.files if f.path not in excluded]
    all_paths = [f.path for f in pr.diff.files]
    paths = [f.path for f in files]
    touched = frozenset(all_paths)
    kinds = {p: classify(p) for p in all_paths}
    codeowners = read_codeowners(pr.base_tree)
    configured = compile_subsystems(config.subsystems)
    subsystems = {p: subsystem_of(p, configured, codeowners) for p in all_paths}

    changed = sum(f.insertions + f.deletions for f in files)
    code_paths = frozenset(p for p, k in kinds.items() if k not in {PathKind.DOCS, PathKind.TEST})
    if budgeted(changed, config.oversize):
        # Too large to analyse line by line: red by size; no cosmetic analysis (nothing is
        # taken as neutral) and a file-level content pass (see pr_review.evidence.budgeted).
        neutral = Neutrality(neutral=frozenset(), tree_checked=False)
        scans = scan_all_budgeted(files, code_paths)
        budget: int | None = config.oversize.full_analysis_max_lines
        structure: list[RiskFactor] = []
    else:
        neutral = analyse(files, pr.base_tree, pr.head_tree)
        scanned = scan_all(files, code_paths - neutral.neutral, pr.base_tree, pr.head_tree)
        scans = confirm_handlers(files, scanned, pr.base_tree, pr.head_tree)
        budget = None
        structure = security_scope_factors(files, code_paths, pr.base_tree, pr.head_tree)
        structure += guard_factors(files, pr.base_tree, pr.head_tree)
        structure += input_flow_factors(files, pr.base_tree, pr.head_tree)
    risk_files = files + _lock_files_by_kind(pr.diff.files, excluded)
    risk = assess(
        RiskInputs(
            risk_files,
            kinds,
            subsystems,
            neutral,
            scans,
            pr.body,
            config.risk,
            budget,
            PrText(pr.title, pr.body, tuple(c.message for c in pr.commits)),
            base_actions(pr.base_tree) if any(is_ci(p) for p in paths) else None,
            structure,
        )
    )

    reviewable_raw = drop_files(pr.diff.raw, frozenset(excluded))
    size = oversize(reviewable_raw, files, subsystems, config.oversize)
    block = blocker(size, changed, config.oversize)
    issues = linked_issues(f"{pr.title}\n{pr.body}", repository=pr.repository, details=pr.issues)
    head_paths = pr.head_tree.paths()
    tests = related_tests(
        [p for p in paths if kinds[p] is PathKind.CODE and p in head_paths],
        head_paths,
        touched,
        _touched_test_texts(pr, paths, kinds, head_paths),
    )
    missing = missing_artifacts(
        risk.lane,
        config.artifacts,
        ArtifactInputs(pr.body, issues, tests, risk.factors, touched, pr.base_tree.paths()),
    )
    diff = Diff(
        stats=DiffStats(
            files_changed=len(pr.diff.files),
            insertions=pr.diff.insertions,
            deletions=pr.diff.deletions,
        ),
        touched_files=tuple(
            TouchedFile(
                path=f.path,
                change_type=f.change_type,
                subsystem=subsystems[f.path],
                insertions=f.insertions,
                deletions=f.deletions,
                old_path=f.old_path,
                binary=f.binary,
                patch_available=f.patch_available,
            )
            for f in pr.diff.files
        ),
        subsystems=tuple(sorted(set(subsystems.values()))),
        raw_diff=pr.diff.raw,
        oversize=size,
        not_reviewed=_not_reviewed(excluded),
    )
    context = Context(
        linked_issues=issues,
        related_tests=tests,
        owners=owner_rules(codeowners, all_paths),
        repo_instructions=repo_instructions(pr.base_tree, max_chars=config.instructions.max_chars),
    )
    return EvidencePack(
        generated_at=now().astimezone(UTC).isoformat().replace("+00:00", "Z"),
        wall_clock_ms=max(0, round((clock() - started) * 1000)),
        pr=_pr_info(pr),
        authorship=authorship(pr.commits),
        diff=diff,
        context=context,
        risk=risk,
        verification=verification or Verification(),
        hotspots=hotspots(scans, kinds, risk.factors),
        missing_artifacts=missing,
        blockers=(block,) if block else (),
    )


def _touched_test_texts(
    pr: PullRequest, paths: list[str], kinds: Mapping[str, PathKind], head_paths: frozenset[str]
) -> dict[str, str]:
    """Head text of the Python tests the PR touched (read for their imports)."""
    wanted = [
        p for p in paths if kinds[p] is PathKind.TEST and p.endswith(".py") and p in head_paths
    ]
    out = {}
    for path in wanted:
        text = pr.head_tree.read(path)
        if text is not None:
            out[path] = text
    return out


def _lock_files_by_kind(
    files: tuple[FileDiff, ...], excluded: Mapping[str, Excluded]
) -> list[FileDiff]:
    """Excluded lock files as size-free changes: a dependency factor by kind, never by size."""
    return [
        replace(f, hunks=(), insertions=0, deletions=0)
        for f in files
        if f.path in excluded and is_lock_file(f.path)
    ]


def _not_reviewed(excluded: Mapping[str, Excluded]) -> tuple[NotReviewedFile, ...]:
    return tuple(
        NotReviewedFile(path=e.path, reason=e.reason, detail=e.detail) for e in excluded.values()
    )


def _pr_info(pr: PullRequest) -> PullRequestInfo:
    return PullRequestInfo(
        number=pr.number,
        title=pr.title,
        description=pr.body,
        labels=pr.labels,
        url=pr.url,
        author=pr.author,
        base_ref=pr.base_ref,
        head_ref=pr.head_ref,
        base_sha=pr.base_sha,
        head_sha=pr.head_sha,
    )
