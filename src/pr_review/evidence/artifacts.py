"""Missing artifacts: what a PR of this lane should carry and does not.

Defaults per lane (a lane configured in ``artifacts`` replaces its defaults): green —
intent recommended; yellow — intent and tests required, changelog when the repository keeps
one; red — those plus migration/rollback notes when a migration factor is present, rollout
notes for feature flags or infrastructure, security notes for auth, secrets or crypto.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pr_review.evidence.settings import ArtifactRule, ArtifactSettings
from pr_review.schema.enums import Lane
from pr_review.schema.pack import LinkedIssue, MissingArtifact, RelatedTest, RiskFactor

CHANGELOGS = (
    "changelog.md",
    "changelog",
    "changes.md",
    "changes.rst",
    "history.md",
    "news.md",
    "changelog.rst",
)
MIN_INTENT_CHARS = 20
_MIGRATION = re.compile(
    r"(?i)rollback|roll back|migration plan|backward[- ]compat|revert|down migration|schema change"
)
_ROLLOUT = re.compile(
    r"(?i)rollout|roll out|deploy|feature flag|gradual|canary|percentage|kill switch"
)
_SECURITY = re.compile(
    r"(?i)security|\bauth|permission|trust|credential|secret|vulnerab|threat model|attack surface"
)


@dataclass(frozen=True)
class ArtifactInputs:
    """What the checks read."""

    body: str
    linked_issues: Sequence[LinkedIssue]
    related_tests: Sequence[RelatedTest]
    factors: Sequence[RiskFactor]
    touched: frozenset[str]
    repo_paths: frozenset[str]


LOCATIONS = {
    "has_intent": "PR description body",
    "has_tests": "test file covering the changed source (see related tests)",
    "has_changelog": "CHANGELOG.md",
    "has_migration_guidance": "PR description under a '## Migration' heading",
    "has_rollout_note": "PR description under a '## Rollout' heading",
    "has_security_note": "PR description under a '## Security' heading",
}
_MIGRATION_FACTORS = {"migration", "migration-path"}
_ROLLOUT_FACTORS = {"rollout-feature-flag", "infra-deploy", "infra-lifecycle"}
_SECURITY_FACTORS = {
    "auth-permission",
    "secrets",
    "secrets-path",
    "crypto",
    "sql-construction",
    "error-details-exposed",
    "reviewer-escalation",
}


def _rule(artifact: str, check: str, why: str, *, required: bool = True) -> ArtifactRule:
    return ArtifactRule(artifact=artifact, check=check, required=required, why_required=why)


_INTENT = _rule(
    "PR description or linked issue", "has_intent", "reviewers need to know what the change is for"
)
_TESTS = _rule(
    "tests for the changed behaviour", "has_tests", "behaviour changes need tests that pin them"
)
_CHANGELOG = _rule(
    "changelog entry", "has_changelog", "the repository keeps a changelog", required=False
)
DEFAULTS: dict[Lane, tuple[ArtifactRule, ...]] = {
    Lane.GREEN: (
        _rule(
            "PR description or linked issue",
            "has_intent",
            "even small changes should say why",
            required=False,
        ),
    ),
    Lane.YELLOW: (_INTENT, _TESTS, _CHANGELOG),
    Lane.RED: (
        _INTENT,
        _TESTS,
        _CHANGELOG,
        _rule(
            "migration and rollback notes",
            "has_migration_guidance",
            "a migration changes stored data: say how to apply and undo it",
        ),
        _rule(
            "rollout notes",
            "has_rollout_note",
            "flags and infrastructure changes need a rollout and rollback plan",
        ),
        _rule(
            "security notes",
            "has_security_note",
            "auth, secrets or crypto changes need their threat model stated",
        ),
    ),
}


def missing_artifacts(
    lane: Lane, settings: ArtifactSettings, inputs: ArtifactInputs
) -> tuple[MissingArtifact, ...]:
    """The artifacts this lane expects that the PR lacks."""
    configured = {Lane.GREEN: settings.green, Lane.YELLOW: settings.yellow, Lane.RED: settings.red}[
        lane
    ]
    rules = configured if configured is not None else DEFAULTS[lane]
    out = []
    for rule in rules:
        check = CHECKS.get(rule.check)
        if check is None or check(inputs):
            continue
        out.append(
            MissingArtifact(
                artifact=rule.artifact,
                why_required=rule.why_required or rule.artifact,
                suggested_location=LOCATIONS.get(rule.check, "PR description"),
                required=rule.required,
            )
        )
    return tuple(out)


def _factor_names(inputs: ArtifactInputs) -> set[str]:
    return {f.factor for f in inputs.factors}


def has_intent(inputs: ArtifactInputs) -> bool:
    """A description of some substance, or a linked issue."""
    return len(inputs.body.strip()) > MIN_INTENT_CHARS or bool(inputs.linked_issues)


def has_tests(inputs: ArtifactInputs) -> bool:
    """The PR touched a test of the code it changed: one named after a changed source, one
    that imports its module, or one in the test directory mirroring its directory (see
    :mod:`pr_review.evidence.related_tests`). No changed source code: nothing to test."""
    if not inputs.related_tests:
        return True
    return any(t.touched_in_pr for t in inputs.related_tests)


def has_changelog(inputs: ArtifactInputs) -> bool:
    """True when the repository keeps no changelog or the PR touched it."""
    logs = {p for p in inputs.repo_paths if p.lower() in CHANGELOGS}
    return not logs or bool(logs & inputs.touched)


def has_migration_guidance(inputs: ArtifactInputs) -> bool:
    """Not applicable without a migration factor; else the description covers it."""
    return not (_factor_names(inputs) & _MIGRATION_FACTORS) or bool(_MIGRATION.search(inputs.body))


def has_rollout_note(inputs: ArtifactInputs) -> bool:
    """Not applicable without flag/infra factors; else the description covers it."""
    return not (_factor_names(inputs) & _ROLLOUT_FACTORS) or bool(_ROLLOUT.search(inputs.body))


def has_security_note(inputs: ArtifactInputs) -> bool:
    """Not applicable without security factors; else the description covers it."""
    return not (_factor_names(inputs) & _SECURITY_FACTORS) or bool(_SECURITY.search(inputs.body))


CHECKS: dict[str, Callable[[ArtifactInputs], bool]] = {
    "has_intent": has_intent,
    "has_tests": has_tests,
    "has_changelog": has_changelog,
    "has_migration_guidance": has_migration_guidance,
    "has_rollout_note": has_rollout_note,
    "has_security_note": has_security_note,
}
