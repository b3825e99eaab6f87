"""The risk lane: factors from what the diff does, then lane, confidence and overrides.

Green only when no file's change can alter behaviour (docs, tests, comments, formatting,
pure renames). Any other code change is at least yellow; red when a factor says so. Low
confidence raises green to yellow; it raises yellow to red only when behaviour-changing content
could not be read at all (binary, no patch): moderate factors alone never make red. Overrides
only raise. Every factor names its files, its severity and why, so the lane is explainable from
the factors alone.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from pr_review.evidence.advisory import PrText, advisory_factor, code_markers
from pr_review.evidence.ci import ci_factor, is_ci
from pr_review.evidence.content import FileScan
from pr_review.evidence.fix_claims import (
    changelog_markers,
    comment_markers,
    dependency_fix_markers,
    regression_test_markers,
)
from pr_review.evidence.globs import GlobError, compile_glob
from pr_review.evidence.neutral import Neutrality
from pr_review.evidence.rules import CATEGORIES
from pr_review.evidence.scan import Hit
from pr_review.evidence.settings import RiskSettings
from pr_review.evidence.subsystems import code_subsystems
from pr_review.evidence.transfer import cap, repository_cap
from pr_review.schema.enums import Confidence, FactorSeverity, Lane
from pr_review.schema.pack import Risk, RiskFactor
from pr_review.sources.diff import FileDiff, FileStatus
from pr_review.sources.paths import FIXTURE_DIRS, PathKind, in_example_folder, segments
from pr_review.verifiers.secret_patterns import FIXTURE_TOKEN_KINDS

RED = FactorSeverity.RED
MODERATE = FactorSeverity.MODERATE
_BODY_OVERRIDE = re.compile(r"(?im)^\W*risk\s*:\s*\**\s*(red|yellow)\b")
_PATH_SIGNALS: tuple[tuple[frozenset[str], str, FactorSeverity, str], ...] = (
    (
        frozenset({"migrations", "migration", "migrate", "alembic", "flyway", "liquibase"}),
        "migration-path",
        RED,
        "schema or data migration files change",
    ),
    (
        frozenset(
            {
                "auth",
                "authn",
                "authz",
                "permissions",
                "permission",
                "acl",
                "rbac",
                "security",
                "oauth",
                "saml",
                "iam",
                "sessions",
            }
        ),
        "auth-sensitive-path",
        MODERATE,
        "code in an authentication or authorization area changes",
    ),
    (
        frozenset({"secrets", "credentials", "certs", "keys"}),
        "secrets-path",
        RED,
        "files in a secrets or credentials area change",
    ),
)
MONEY_MIN_LINES = 2
OWN_FACTORS: frozenset[str] = frozenset(
    {"logic-change", "config-change", "dependency-manifest", "infra-deploy", "check-then-act",
     "large-diff", "beyond-full-analysis", "multi-subsystem"}
    | {factor for _, factor, _, _ in _PATH_SIGNALS}
)
"""The factors this module names itself (file kinds, paths, size, subsystems)."""


@dataclass(frozen=True)
class RiskInputs:
    """Everything the lane decision reads."""

    files: Sequence[FileDiff]
    kinds: Mapping[str, PathKind]
    subsystems: Mapping[str, str]
    neutral: Neutrality
    scans: Mapping[str, FileScan]
    body: str
    settings: RiskSettings
    budgeted_above: int | None = None
    """``oversize.full_analysis_max_lines`` when the diff exceeded it (budgeted mode)."""
    text: PrText | None = None
    """Title, description and commit messages, for security-advisory markers."""
    ci_actions: frozenset[str] | None = None
    """Actions the base revision's CI already uses (None: not known)."""
    structure: Sequence[RiskFactor] = ()
    """Factors read from syntax trees (security-relevant scopes), one file each; kept for
    files that change behaviour."""
    unsized: frozenset[str] = frozenset()
    """Files scanned for content but left out of size and subsystem counts (generated, by
    their own header)."""
    compiled: frozenset[str] = frozenset()
    """Binary files compiled from a text file beside them (a gettext ``.mo`` from its ``.po``,
    :func:`pr_review.evidence.generated.compiled_source`): read through that source, so never
    unreadable."""


def assess(inputs: RiskInputs) -> Risk:
    """Compute the lane, confidence and factors."""
    behavioural = [f for f in inputs.files if _behavioural(f, inputs)]
    caps = inputs.settings.yellow_at_most
    factors = _merge([repository_cap(cap(f), caps) for f in (
        _kind_factors(behavioural, inputs)
        + _path_factors(behavioural)
        + _content_factors(inputs, {f.path for f in behavioural})
        + _size_factors([f for f in behavioural if f.path not in inputs.unsized], inputs.settings)
        + _budget_factors(inputs)
        + _subsystem_factors([f for f in behavioural if f.path not in inputs.unsized], inputs)
        + _advisory_factors(behavioural, inputs)
        + _structure_factors(behavioural, inputs)
    )])
    lane = _lane(factors)
    confidence = _confidence(factors, inputs, behavioural)
    escalated = confidence is Confidence.LOW and (
        lane is Lane.GREEN
        or (lane is Lane.YELLOW and _unreadable(behavioural, inputs.compiled))
    )
    if escalated:
        lane = lane.next_up()
    risk = Risk(
        lane=lane,
        confidence=confidence,
        factors=tuple(factors),
        escalated_for_low_confidence=escalated,
    )
    return _overrides(risk, inputs)


def _behavioural(f: FileDiff, inputs: RiskInputs) -> bool:
    kind = inputs.kinds[f.path]
    return kind not in {PathKind.DOCS, PathKind.TEST} and f.path not in inputs.neutral.neutral


def _kind_factors(files: list[FileDiff], inputs: RiskInputs) -> list[RiskFactor]:
    table = {
        PathKind.CODE: ("logic-change", MODERATE, "code changes that can alter behaviour"),
        PathKind.CONFIG: ("config-change", MODERATE, "configuration values change"),
        PathKind.MANIFEST: (
            "dependency-manifest",
            MODERATE,
            "dependencies or their versions change",
        ),
        PathKind.INFRA: (
            "infra-deploy",
            RED,
            "infrastructure or deployment definitions change",
        ),
    }
    out = [
        ci_factor(f, inputs.ci_actions)
        for f in files
        if inputs.kinds[f.path] is PathKind.INFRA and is_ci(f.path)
    ]
    for kind, (name, severity, why) in table.items():
        paths = [
            f.path
            for f in files
            if inputs.kinds[f.path] is kind and not (kind is PathKind.INFRA and is_ci(f.path))
        ]
        if paths:
            reason = inputs.neutral.reasons.get(paths[0])
            text = f"{why} ({reason})" if reason else why
            out.append(RiskFactor(factor=name, files=tuple(paths), severity=severity, why=text))
    return out


def _path_factors(files: list[FileDiff]) -> list[RiskFactor]:
    out = []
    for names, factor, severity, why in _PATH_SIGNALS:
        paths = [
            f.path
            for f in files
            if names.intersection(segments(f.path))
            or (factor == "migration-path" and f.path.lower().endswith(".sql"))
        ]
        if paths:
            out.append(RiskFactor(factor=factor, files=tuple(paths), severity=severity, why=why))
    return out


_GONE_WITH_FILE = frozenset({"crypto-operation", "permission-authorization"})
"""Categories whose hits on the lines of a file the PR deletes whole are moderate, not red: a
signing helper or an access decorator deleted with its file (cosign's "Remove unused signing
code") takes nothing away that its callers did not give up in lines of their own, which are read
where they are. Migrations and infrastructure stay red (a deleted migration or Terraform file
is itself the destructive change); every other category removed is yellow at most anyway."""
DOWN_MIGRATION = re.compile(r"(?:^|[/._-])down\.sql$", re.IGNORECASE)
"""A down migration (golang-migrate, pop, dbmate: ``0042_x.down.sql``): it runs only to roll
the matching up migration back, so what it drops is what that up added."""
DOWN_MIGRATION_EXAMPLES: tuple[tuple[str, bool], ...] = (
    ("persistence/sql/migrations/20241609000001000000_device_flow.down.sql", True),
    ("migrations/000012_add_sessions.down.sql", True),
    ("db/down.sql", True),
    ("migrations/000012_add_sessions.up.sql", False),
    ("migrations/0003_drop_legacy.sql", False),
    ("sql/breakdown.sql", False),
)


def _content_factors(inputs: RiskInputs, behavioural: set[str]) -> list[RiskFactor]:
    out: list[RiskFactor] = []
    texts = _LineTexts(inputs.files)
    deleted = {f.path for f in inputs.files if f.status is FileStatus.DELETED}
    for category in CATEGORIES:
        policy = category.policy
        moved = _moved_hits(inputs.scans, category.name, texts)
        for path, scan in inputs.scans.items():
            if path not in behavioural and not policy.any_file:
                continue
            added = [h for h in scan.added.get(category.name, []) if (path, True, h) not in moved]
            removed = [
                h for h in scan.removed.get(category.name, []) if (path, False, h) not in moved
            ]
            if (
                category.name == "money"
                and len({h.line for h in added}) + len({h.line for h in removed}) < MONEY_MIN_LINES
            ):
                continue
            severity = (
                policy.both
                if added and removed
                else policy.added
                if added
                else policy.removed
                if removed
                else None
            )
            if severity is None:
                continue
            strongest = [h for h in added + removed if category.rules[h.rule].cap is None]
            if not strongest and severity is RED:
                severity = MODERATE  # every hit is of a rule capped below red
            whys = {category.rules[h.rule].why for h in added + removed}
            gone = not added and path in deleted and category.name in _GONE_WITH_FILE
            notes = _held_below_red(category.name, path, whys, inputs.kinds.get(path), gone)
            if notes and severity is RED:
                severity = MODERATE
            first = (strongest or added or removed)[0]
            rule = category.rules[first.rule]
            side = "changed" if added and removed else "added" if added else "removed"
            on_base = first not in added
            why = f"{rule.why} {side} (line {first.line}{' of the base file' if on_base else ''})"
            why += "".join(notes)
            out.append(RiskFactor(factor=policy.factor, files=(path,), severity=severity, why=why))
        if category.name == "shared-resource-contention":
            out += _check_then_act(inputs, behavioural)
    return out


def _held_below_red(
    category: str, path: str, whys: set[str], kind: PathKind | None, gone: bool
) -> list[str]:
    """Why a category's hits in ``path`` weigh moderate at most, as notes for the factor's
    why (none: they weigh what the policy says)."""
    notes = []
    if gone:
        notes.append(
            " (the PR deletes the file whole: what used it changes too, and is read there)"
        )
    if category == "data-migration" and DOWN_MIGRATION.search(path) is not None:
        notes.append(" (a down migration: it undoes its up migration, yellow for the lane)")
    if category == "secrets" and _fixture_tokens_only(whys, kind):
        notes.append(" (a signed token in test or docs files: a fixture, not an account's key)")
    if category == "secrets" and _test_keys_only(whys, kind):
        notes.append(
            " (a key among the tests' files: a fixture for their TLS or signing; yellow"
            " for the lane, and the secrets verifier lists it as information)"
        )
    elif category == "secrets" and _example_keys_only(whys, path):
        notes.append(
            " (a key in an example folder: the example server's or signer's own; yellow"
            " for the lane, and the secrets verifier lists it as information)"
        )
    return notes


class _LineTexts:
    """The text of each added (new number) and removed (old number) line of the PR's files,
    whitespace dropped, read once per file when first asked."""

    def __init__(self, files: Sequence[FileDiff]) -> None:
        self._files = {f.path: f for f in files}
        self._read: dict[str, tuple[dict[int, str], dict[int, str]]] = {}

    def get(self, path: str, added: bool, line: int) -> str | None:
        sides = self._read.get(path)
        if sides is None:
            f = self._files.get(path)
            hunks = f.hunks if f is not None else ()
            sides = self._read[path] = (
                {n: "".join(t.split()) for h in hunks for n, t in h.added},
                {n: "".join(t.split()) for h in hunks for n, t in h.removed},
            )
        return sides[0 if added else 1].get(line)


MOVE_BLIND_CATEGORIES = frozenset({"secrets"})
"""A credential moved is still one the head holds in plain text: its hits always count."""


def _moved_hits(
    scans: Mapping[str, FileScan], category: str, texts: _LineTexts
) -> set[tuple[str, bool, Hit]]:
    """Hits of ``category`` on a line the PR removes from one file and adds, the same but for
    whitespace, to another (``(path, added, hit)``): code moved between files is no change of
    what it does there (dexidp/dex #4929 moved the password connector's
    ``bcrypt.CompareHashAndPassword`` check out of ``server.go`` into its own file: a
    cryptographic primitive "removed" and "added" made a refactor red). Pairs count once each
    (two copies added for one removed: one stays added); within one file a line removed and
    added again stays a change (re-indented under a new condition, it may run differently)."""
    if category in MOVE_BLIND_CATEGORIES:
        return set()
    removed: dict[str, list[tuple[str, Hit]]] = {}
    for path, scan in scans.items():
        for hit in scan.removed.get(category, []):
            text = texts.get(path, False, hit.line)
            if text:
                removed.setdefault(text, []).append((path, hit))
    moved: set[tuple[str, bool, Hit]] = set()
    if not removed:
        return moved
    for path, scan in scans.items():
        for hit in scan.added.get(category, []):
            text = texts.get(path, True, hit.line)
            pool = removed.get(text or "", [])
            other = next((i for i, (p, _) in enumerate(pool) if p != path), None)
            if other is not None:
                old_path, old_hit = pool.pop(other)
                moved.update({(path, True, hit), (old_path, False, old_hit)})
    return moved


_FIXTURE_WHYS = frozenset(f"hard-coded {kind}" for kind in FIXTURE_TOKEN_KINDS)


def _fixture_tokens_only(whys: AbstractSet[str], kind: PathKind | None) -> bool:
    """Every secret hit is a self-contained token (a JWT) in tests or docs: a fixture."""
    return kind in {PathKind.TEST, PathKind.DOCS} and bool(whys) and whys <= _FIXTURE_WHYS


_TEST_KEY_WHY = "hard-coded private key"


def _test_keys_only(whys: AbstractSet[str], kind: PathKind | None) -> bool:
    """Every secret hit is a private key in a test file (``test/fixtures/server.key``): the
    key a test server or signer uses, made for the tests (read on holdout9: a TLS test suite's
    CA, client and server keys made a PR that added tests red). A key elsewhere, or a test file
    that also holds a provider token or a password, stays red."""
    return kind is PathKind.TEST and whys == {_TEST_KEY_WHY}


def _example_keys_only(whys: AbstractSet[str], path: str) -> bool:
    """Every secret hit is a private key in a top-level example folder
    (``examples/gevent/localhost.key``, ``example/idp2/pki/mykey.pem``): the key an example
    server or identity provider runs with, made for the example (h2 and pysaml2, held out on
    holdout69 and holdout70, both labelled green). Nothing ships it; a provider token or a
    password there stays red."""
    return in_example_folder(path) and whys == {_TEST_KEY_WHY}


def _check_then_act(inputs: RiskInputs, behavioural: set[str]) -> list[RiskFactor]:
    return [
        RiskFactor(
            factor="check-then-act",
            files=(path,),
            severity=RED,
            why="a shared store is read then written non-atomically "
            f"(line {scan.check_then_act[0]}): "
            "concurrent requests can interleave between the check and the act",
        )
        for path, scan in inputs.scans.items()
        if path in behavioural and scan.check_then_act
    ]


def _size_factors(files: list[FileDiff], settings: RiskSettings) -> list[RiskFactor]:
    changed = sum(f.insertions + f.deletions for f in files)
    paths = tuple(f.path for f in files)
    if changed > settings.very_large_diff_lines:
        return [
            RiskFactor(
                factor="large-diff",
                files=paths,
                severity=RED,
                why=f"{changed} behaviour-changing lines (> {settings.very_large_diff_lines})",
            )
        ]
    if changed > settings.large_diff_lines:
        return [
            RiskFactor(
                factor="large-diff",
                files=paths,
                severity=MODERATE,
                why=f"{changed} behaviour-changing lines (> {settings.large_diff_lines})",
            )
        ]
    return []


def _budget_factors(inputs: RiskInputs) -> list[RiskFactor]:
    """Beyond full analysis the PR is red by size, even when its lines are docs or tests."""
    if inputs.budgeted_above is None:
        return []
    changed = sum(f.insertions + f.deletions for f in inputs.files)
    return [
        RiskFactor(
            factor="beyond-full-analysis",
            files=tuple(f.path for f in inputs.files),
            severity=RED,
            why=f"{changed} changed lines (> {inputs.budgeted_above}): beyond full analysis, "
            "content signals computed at file level",
        )
    ]


def _subsystem_factors(files: list[FileDiff], inputs: RiskInputs) -> list[RiskFactor]:
    names = code_subsystems(inputs.subsystems[f.path] for f in files)
    if len(names) < inputs.settings.multi_subsystem_count:
        return []
    paths = tuple(f.path for f in files if inputs.subsystems[f.path] in names)
    return [
        RiskFactor(
            factor="multi-subsystem",
            files=paths,
            severity=RED,
            why=f"behaviour changes span {len(names)} subsystems: {', '.join(names)}",
        )
    ]


def _advisory_factors(files: list[FileDiff], inputs: RiskInputs) -> list[RiskFactor]:
    """Red when the PR's own words (its text, an advisory id its code and tests newly name, the
    changelog entry, the regression test or the code comment it adds) mark it as a security
    fix and it changes behaviour."""
    if inputs.text is None:
        return []
    manifest_files = [f for f in files if inputs.kinds[f.path] is PathKind.MANIFEST]
    manifests = [f.path for f in manifest_files]
    code = [f for f in files if inputs.kinds[f.path] is PathKind.CODE]
    in_code = (
        code_markers(inputs.files, inputs.kinds)
        or changelog_markers(inputs.files, inputs.kinds, code)
        or regression_test_markers(inputs.files, inputs.kinds, code)
        or comment_markers(code)
    )
    shipped = [] if in_code else dependency_fix_markers(
        inputs.files, inputs.kinds, code, manifest_files
    )
    factor = advisory_factor(
        inputs.text, [f.path for f in files], manifests, in_code or shipped, own=bool(shipped)
    )
    return [] if factor is None else [factor]


def _structure_factors(files: list[FileDiff], inputs: RiskInputs) -> list[RiskFactor]:
    """Structural factors of behaviour-changing files; a red sink factor counts wherever it
    sits (example code included: it is copied), except in tests."""
    paths = {f.path for f in files}
    return [
        f
        for f in inputs.structure
        if paths.issuperset(f.files)
        or (
            f.factor.startswith("sink-")
            and f.severity is RED
            and all(inputs.kinds.get(p) is not PathKind.TEST for p in f.files)
        )
    ]


def _merge(factors: list[RiskFactor]) -> list[RiskFactor]:
    """One factor per (name, severity), files and reasons combined in order."""
    merged: dict[tuple[str, FactorSeverity], RiskFactor] = {}
    for factor in factors:
        key = (factor.factor, factor.severity)
        if key not in merged:
            merged[key] = factor
            continue
        old = merged[key]
        files = old.files + tuple(p for p in factor.files if p not in old.files)
        why = old.why if factor.why in old.why else f"{old.why}; {factor.files[0]}: {factor.why}"
        merged[key] = RiskFactor(factor=old.factor, files=files, severity=old.severity, why=why)
    return sorted(merged.values(), key=lambda f: (f.severity is not RED, f.factor))


def _lane(factors: Sequence[RiskFactor]) -> Lane:
    if any(f.severity is RED for f in factors):
        return Lane.RED
    return Lane.YELLOW if factors else Lane.GREEN


def _confidence(
    factors: Sequence[RiskFactor], inputs: RiskInputs, behavioural: list[FileDiff]
) -> Confidence:
    if any(f.severity is RED for f in factors):
        return Confidence.HIGH
    if _unreadable(behavioural, inputs.compiled) or not inputs.neutral.tree_checked:
        return Confidence.LOW
    if len({f.factor for f in factors}) >= 3:
        return Confidence.LOW
    if factors or inputs.neutral.renames:
        return Confidence.MEDIUM
    return Confidence.HIGH


def _unreadable(behavioural: list[FileDiff], compiled: frozenset[str]) -> bool:
    """Behaviour-changing files whose content could not be read at all (binary, no patch),
    but for binaries compiled from a source the review reads, a file the PR deletes (it adds
    nothing unseen) and a sample in a fixtures folder (:data:`FIXTURE_DIRS`: file-type's
    `fixture/fixture.tar` beside a new detector, ten PRs red on holdout64)."""
    return any(
        (f.binary or not f.patch_available) and f.path not in compiled
        and f.status is not FileStatus.DELETED and not FIXTURE_DIRS.intersection(segments(f.path))
        for f in behavioural
    )


def _overrides(risk: Risk, inputs: RiskInputs) -> Risk:
    lane, sources, factors = risk.lane, [], list(risk.factors)
    paths = [f.path for f in inputs.files]
    for index, rule in enumerate(inputs.settings.overrides):
        matched = [p for p in paths if any(_glob_matches(g, p) for g in rule.paths)]
        if matched:
            lane = lane.raised_to(Lane(rule.lane))
            sources.append(f".pr-review/config.yml: risk.overrides[{index}]")
            factors.append(
                RiskFactor(
                    factor=f"override:{','.join(rule.paths)}",
                    files=tuple(matched),
                    severity=RED if Lane(rule.lane) is Lane.RED else MODERATE,
                    why=rule.reason or f"repository rule raises to {rule.lane}",
                )
            )
    match = _BODY_OVERRIDE.search(inputs.body) if inputs.settings.body_override else None
    if match:
        lane = lane.raised_to(Lane(match.group(1).lower()))
        sources.append("PR description")
    applied = bool(sources)
    return risk.model_copy(
        update={
            "lane": lane,
            "factors": tuple(factors),
            "override_applied": applied,
            "override_source": "; ".join(sources) if applied else None,
        }
    )


def _glob_matches(pattern: str, path: str) -> bool:
    try:
        return compile_glob(pattern).matches(path)
    except GlobError:
        return False
