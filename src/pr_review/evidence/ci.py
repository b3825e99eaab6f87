"""CI definitions: what changes the trust a pipeline runs with, and what is routine.

A CI change is ``ci-trust`` (red) when it changes who or what the pipeline trusts: a trigger
that runs on untrusted PR input with the base repository's secrets (``pull_request_target``,
``workflow_run``, comment triggers), token permissions, secrets handed to steps, removed
hardening (``harden-runner``, ``persist-credentials: false``), PR-controlled text interpolated
into a shell, or an action the repository did not use before. Anything else (a version bump
of an action already in use, a matrix or step edit) is ``ci-change`` (moderate). Rules are
data with their own examples, as the content rules are; comments do not count.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import PurePosixPath

from pr_review.schema.enums import FactorSeverity
from pr_review.schema.pack import RiskFactor
from pr_review.sources.diff import FileDiff, FileStatus
from pr_review.sources.model import RepoTree
from pr_review.sources.paths import segments

TRUST = "ci-trust"
CHANGE = "ci-change"
MAX_WORKFLOWS = 200
_FIRST_PARTY = frozenset({"actions", "github"})
_USES = re.compile(r"^\s*-?\s*uses\s*:\s*[\"']?(?P<ref>[^\s\"'#]+)")
_COMMENT = re.compile(r"(?:^|\s)#.*$")


@dataclass(frozen=True)
class CiRule:
    """A line pattern that changes the pipeline's trust, on the side(s) it applies to."""

    pattern: str
    why: str
    added: bool
    removed: bool
    matches: tuple[str, ...]
    misses: tuple[str, ...] = ()


CI_RULES: tuple[CiRule, ...] = (
    CiRule(
        r"\b(?:pull_request_target|workflow_run|issue_comment|pull_request_review_comment)\b",
        "a trigger that runs on untrusted PR input with the repository's secrets",
        added=True,
        removed=False,
        matches=("on: pull_request_target", "  workflow_run:", "on: [push, issue_comment]"),
        misses=("on: pull_request", "  pull_request:"),
    ),
    CiRule(
        r"^\s*permissions\s*:|\b(?:write|read)-all\b|^\s*-?\s*(?:contents|packages|id-token|actions|"
        r"pull-requests|issues|deployments|security-events|statuses|checks|attestations|pages)"
        r"\s*:\s*(?:write|read|none)\b",
        "workflow token permissions",
        added=True,
        removed=True,
        matches=(
            "permissions:",
            "  contents: write",
            "permissions: write-all",
            "  id-token: write",
        ),
        misses=("  contents-check: true", "# permissions: read"),
    ),
    CiRule(
        r"\$\{\{\s*secrets\.|^\s*secrets\s*:\s*inherit\b|\bGITHUB_TOKEN\b",
        "secrets handed to the pipeline",
        added=True,
        removed=False,
        matches=("  token: ${{ secrets.PYPI_TOKEN }}", "    secrets: inherit"),
        misses=("  token: ${{ github.token_url }}",),
    ),
    CiRule(
        r"\bharden-runner\b|\begress-policy\s*:|\bpersist-credentials\s*:\s*false\b|"
        r"--ignore-scripts\b|\ballowed-endpoints\s*:",
        "pipeline hardening removed",
        added=False,
        removed=True,
        matches=(
            "  uses: step-security/harden-runner@5ef0c079 # v2",
            "    persist-credentials: false",
            "      egress-policy: audit",
        ),
        misses=("    persist-credentials: true",),
    ),
    CiRule(
        r"\$\{\{\s*github\.(?:event\.(?:issue|pull_request|comment|review|review_comment|"
        r"head_commit|commits|pages|discussion)\b|head_ref\b)",
        "PR-controlled text interpolated into the workflow",
        added=True,
        removed=False,
        matches=(
            'run: echo "${{ github.event.pull_request.title }}"',
            "  run: git checkout ${{ github.head_ref }}",
        ),
        misses=("  ref: ${{ github.sha }}", "if: ${{ github.event_name == 'push' }}"),
    ),
)
_COMPILED = tuple((rule, re.compile(rule.pattern)) for rule in CI_RULES)


def is_ci(path: str) -> bool:
    """A CI pipeline definition (GitHub workflow or composite action, GitLab, CircleCI,
    Azure Pipelines)."""
    name = PurePosixPath(path).name.lower()
    dirs = segments(path)
    if dirs[:2] == (".github", "workflows") or (
        dirs[:1] == (".github",)
        and name
        in {
            "action.yml",
            "action.yaml",
        }
    ):
        return True
    return ".circleci" in dirs or name in {".gitlab-ci.yml", "azure-pipelines.yml"}


def action_of(ref: str) -> str:
    """``owner/repo`` of a ``uses:`` reference (``docker://`` and local ``./`` kept whole)."""
    if ref.startswith(("docker://", "./")):
        return ref.split("@", 1)[0]
    return "/".join(ref.split("@", 1)[0].split("/")[:2]).lower()


def actions_used(texts: Iterable[str | None]) -> frozenset[str]:
    """Every action (``owner/repo``) referenced by ``uses:`` in the given workflow texts."""
    found: set[str] = set()
    for text in texts:
        for line in (text or "").splitlines():
            match = _USES.match(_COMMENT.sub("", line))
            if match:
                found.add(action_of(match.group("ref")))
    return frozenset(found)


def base_actions(base: RepoTree) -> frozenset[str]:
    """The actions the base revision's CI definitions already use."""
    paths = sorted(p for p in base.paths() if is_ci(p))[:MAX_WORKFLOWS]
    return actions_used(base.read(p) for p in paths)


def _new_action(ref: str, known: frozenset[str]) -> bool:
    action = action_of(ref)
    if action.startswith("./"):
        return False
    owner = action.split("/", 1)[0]
    return action not in known and (owner not in _FIRST_PARTY or action.startswith("docker://"))


def ci_factor(f: FileDiff, known: frozenset[str] | None) -> RiskFactor:
    """``ci-trust`` naming the first trust change (rule, side, line), else ``ci-change``.

    ``known`` are the actions the base already uses (None: unknown, only this file's removed
    lines count as known).
    """
    if f.status is FileStatus.DELETED:
        # A deleted workflow runs nothing: less privilege, never more.
        return RiskFactor(
            factor=CHANGE,
            files=(f.path,),
            severity=FactorSeverity.MODERATE,
            why="a CI definition is deleted (nothing it ran runs any more)",
        )
    removed = [(n, _COMMENT.sub("", t)) for h in f.hunks for n, t in h.removed]
    added = [(n, _COMMENT.sub("", t)) for h in f.hunks for n, t in h.added]
    used = known if known is not None else actions_used(t for _, t in removed)
    for side, lines in (("added", added), ("removed", removed)):
        for number, text in lines:
            for rule, pattern in _COMPILED:
                applies = rule.added if side == "added" else rule.removed
                if applies and pattern.search(text):
                    return _trust(f.path, f"{rule.why} ({side} line {number})")
            uses = _USES.match(text) if side == "added" else None
            if uses and _new_action(uses.group("ref"), used):
                action = action_of(uses.group("ref"))
                return _trust(
                    f.path, f"a third-party action not used before: {action} (line {number})"
                )
    return RiskFactor(
        factor=CHANGE,
        files=(f.path,),
        severity=FactorSeverity.MODERATE,
        why="CI definitions change without new trust (versions of actions already used, "
        "matrix or step edits)",
    )


def _trust(path: str, why: str) -> RiskFactor:
    return RiskFactor(
        factor=TRUST,
        files=(path,),
        severity=FactorSeverity.RED,
        why=f"the CI pipeline's trust changes: {why}",
    )
