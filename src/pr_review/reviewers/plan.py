"""Deciding who reviews what: skips, challenger triggers, and oversized-PR chunks."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import PurePosixPath
from typing import assert_never

from pr_review.reviewers.interface import StructuredModel
from pr_review.reviewers.settings import (
    ChallengerMode,
    OversizedMode,
    ReviewerSettings,
    call_cost,
    price_for,
)
from pr_review.schema.enums import FactorSeverity
from pr_review.schema.pack import EvidencePack
from pr_review.schema.run import ReviewerRun, ReviewerStatus
from pr_review.sources.diff import Diff
from pr_review.sources.diff_select import drop_files, sections, select_files
from pr_review.sources.paths import is_test

CHARS_PER_TOKEN = 3.5
"""Characters per token of the pre-call estimate (code and diffs run 3-4)."""
ESTIMATED_OUTPUT_TOKENS = 1500
"""Output tokens assumed per call in the pre-call estimate (a review is 500-3,000)."""


@dataclass(frozen=True)
class Unit:
    """A part of the PR reviewed on its own: the whole PR, or a unit of related files."""

    suffix: str
    """Appended to reviewer names: empty for the whole PR, ``:<subsystem>[#n]`` for a unit."""
    raw_diff: str
    files: frozenset[str] | None
    """The unit's files; None for the whole PR."""
    risk: int = 0
    """How risky the unit's files are (red factors, moderate factors, hotspots)."""
    challenger: bool = True
    """Whether the lane/authorship trigger may start the challenger on this unit."""
    late_challenger: bool = True
    """Whether an uncertain severe finding may still start one (False: the caps forbid it)."""
    estimated_input_tokens: int = 0
    estimated_cost_usd: float | None = None
    calls: int = 0
    """Calls the estimate counts (fresh-eyes, the challenger when the trigger holds, and the
    policy batches of a whole-PR review)."""
    call_tokens: int = 0
    """Estimated input tokens of one reviewer call on this unit (what a late challenger adds)."""
    unpriced: str = ""
    """A model the estimate needs but has no known price for (empty: every price known)."""


@dataclass(frozen=True)
class LeftOut:
    """A file with a patch that no model saw, and why."""

    path: str
    why: str


@dataclass(frozen=True)
class Units:
    """The plan of an AI review."""

    reviewable: tuple[Unit, ...]
    skipped: tuple[ReviewerRun, ...] = ()
    policy_skip: ReviewerRun | None = None
    reviewed_files: frozenset[str] | None = None
    """None: every file with a patch was reviewed."""
    left_out: tuple[LeftOut, ...] = ()
    chunked: bool = False
    """Units carry their own diff after the shared prefix (pack and PR text)."""

    @property
    def estimated_input_tokens(self) -> int:
        """Pre-call estimate of the input tokens of the planned reviewer calls."""
        return sum(u.estimated_input_tokens for u in self.reviewable)

    @property
    def estimated_cost_usd(self) -> float | None:
        """Pre-call estimate in USD; None when a model has no known price."""
        costs = [u.estimated_cost_usd for u in self.reviewable]
        return None if any(c is None for c in costs) else round(sum(c or 0 for c in costs), 6)


def skip_reason_for(
    pack: EvidencePack,
    settings: ReviewerSettings,
    model: StructuredModel | None,
    skip_reason: str | None,
    no_key_reason: str,
) -> str | None:
    """Why no AI reviewer runs at all, or None."""
    if not settings.enabled:
        return "AI reviewers disabled in the configuration (reviewers.enabled: false)"
    if not settings.review_bots and is_bot(pack.pr.author):
        return (
            f"pull request by a bot (`{pack.pr.author}`): deterministic review only; set "
            "reviewers.review_bots: true to review bot pull requests with the model"
        )
    if skip_reason:
        return skip_reason
    if model is None:
        return no_key_reason
    oversize = pack.diff.oversize
    if oversize.oversized and settings.oversized is OversizedMode.SKIP:
        return (
            f"the diff is too large for AI review (about {oversize.estimated_tokens} tokens, "
            f"budget {oversize.threshold_tokens}); nothing was truncated. Split the PR, or set "
            "reviewers.oversized: chunk to review it by subsystem"
        )
    return None


BOT_LOGINS = frozenset({"dependabot", "dependabot-preview", "renovate", "renovate-bot"})
"""Bot logins that do not carry GitHub's ``[bot]`` suffix everywhere (git authors, GHES)."""


def is_bot(author: str | None) -> bool:
    """Dependabot, Renovate, or any GitHub App login (``name[bot]``)."""
    if not author:
        return False
    login = author.strip().lower()
    return login.endswith("[bot]") or login in BOT_LOGINS


def skipped_runs(reason: str, *, has_policies: bool) -> tuple[ReviewerRun, ...]:
    """Every reviewer recorded as skipped with the same reason."""
    names = ["fresh_eyes", "challenger"] + (["policy_verifiers"] if has_policies else [])
    return tuple(ReviewerRun(name=n, status=ReviewerStatus.SKIPPED, reason=reason) for n in names)


def early_trigger(pack: EvidencePack, settings: ReviewerSettings) -> str | None:
    """Why the challenger starts together with fresh-eyes, or None."""
    challenger = settings.challenger
    match challenger.mode:
        case ChallengerMode.OFF:
            return None
        case ChallengerMode.ALWAYS:
            return "challenger mode: always"
        case ChallengerMode.AUTO:
            pass
        case _ as unreachable:
            assert_never(unreachable)
    if pack.risk.lane in challenger.lanes:
        return f"lane {pack.risk.lane.value}"
    authorship = pack.authorship
    if authorship.ai_assisted and authorship.ai_commit_ratio >= challenger.ai_commit_ratio:
        return (
            f"AI-assisted PR ({authorship.ai_commit_ratio:.0%} of commits, threshold "
            f"{challenger.ai_commit_ratio:.0%})"
        )
    return None


def late_trigger_allowed(settings: ReviewerSettings) -> bool:
    """Whether an uncertain severe fresh-eyes finding may still start the challenger."""
    return settings.challenger.mode is ChallengerMode.AUTO


def plan_units(
    pack: EvidencePack,
    diff: Diff,
    settings: ReviewerSettings,
    *,
    prefix_chars: int = 0,
    only: frozenset[str] | None = None,
    challenger_wanted: bool = False,
    policy_chars: tuple[int, ...] = (),
    evidence_chars: Callable[[frozenset[str]], int] | None = None,
) -> Units:
    """The whole PR, or units of related files within the budget, riskiest first.

    Units when the pack is oversized (chunk mode), when ``only`` (an incremental re-review)
    names the files to review again, or when the whole PR would pass a cost cap. Then the
    cost caps drop the least risky units first; every file left out is listed with why.
    ``prefix_chars`` is the size of what every call sends besides the unit's diff (system
    text, the pack's summary, PR text), ``evidence_chars`` the size of the evidence about a set
    of files (a unit sends its own; the whole PR sends all of it) and ``policy_chars`` that of
    each policy batch's verifier files (policy verifiers run on a whole-PR review only); all
    feed the cost estimate.
    """
    evidence = evidence_chars or (lambda _files: 0)
    excluded = frozenset(n.path for n in pack.diff.not_reviewed)
    shown = frozenset(f.path for f in diff.files if f.patch_available) - excluded
    over_cap: str | None = None
    if not pack.diff.oversize.oversized and only is None:
        raw = diff.raw if not excluded else drop_files(diff.raw, excluded)
        files = None if not excluded else shown
        whole = _estimated(
            Unit("", raw, files),
            prefix_chars + evidence(shown),
            settings,
            challenger=challenger_wanted,
            policy_chars=policy_chars,
        )
        over_cap = _over_cap(whole, 0, 0.0, settings)
        if over_cap is None or len(shown) < 2:
            return _capped((whole,), settings, chunked=False, policy_skip=None, every=shown)
        # The whole PR passes a cap: review its riskiest units within the cap instead.
    wanted = shown if only is None else shown & only
    units, left_out = _units(pack, diff, wanted, settings)
    ranked = sorted(units, key=lambda u: (-u.risk, u.suffix))
    ranked = [
        _estimated(
            replace(u, challenger=i < settings.challenger.max_units),
            prefix_chars + evidence(u.files or frozenset()),
            settings,
            challenger=challenger_wanted and i < settings.challenger.max_units,
            # Units share the prefix byte for byte: once the first calls in flight have
            # written it to the prompt cache, later units read it at the cache price.
            cached_chars=prefix_chars if i >= settings.max_concurrency else 0,
        )
        for i, u in enumerate(ranked)
    ]
    why = (
        "incremental re-review by units: policy verifiers judged the whole PR last time"
        if only is not None
        else "the whole PR's review would pass a cost cap, so it is reviewed in units "
        "(riskiest first): policy verifiers judge the whole PR"
        if over_cap is not None
        else "PR reviewed in units: policy verifiers judge the whole PR"
    )
    policy_skip = ReviewerRun(name="policy_verifiers", status=ReviewerStatus.SKIPPED, reason=why)
    plan = _capped(tuple(ranked), settings, chunked=True, policy_skip=policy_skip, every=shown)
    left_out = left_out + plan.left_out
    if only is not None:  # files not changed since the last review were reviewed then
        earlier = shown - wanted
        plan = replace(plan, reviewed_files=(plan.reviewed_files or frozenset()) | earlier)
    if plan.reviewable:
        return replace(plan, left_out=left_out)
    reason = (
        "no file changed since the reviewed head needs a model"
        if only is not None and not wanted
        else "no review unit fits the token budget and cost caps"
    )
    return Units(
        reviewable=(),
        skipped=(
            ReviewerRun(name="fresh_eyes", status=ReviewerStatus.SKIPPED, reason=reason),
            ReviewerRun(name="challenger", status=ReviewerStatus.SKIPPED, reason=reason),
            policy_skip,
        ),
        reviewed_files=plan.reviewed_files if only is not None else frozenset(),
        left_out=left_out,
        chunked=True,
    )


def _units(
    pack: EvidencePack, diff: Diff, wanted: frozenset[str], settings: ReviewerSettings
) -> tuple[list[Unit], tuple[LeftOut, ...]]:
    """Bundles (a source file and its tests) packed by subsystem into units within budget."""
    by_path = {f.path: f for f in diff.files if f.path in wanted}
    texts = sections(diff.raw, frozenset(by_path))
    for path in by_path.keys() - texts.keys():
        texts[path] = select_files(diff.raw, frozenset({path}))
    subsystem = {t.path: t.subsystem for t in pack.diff.touched_files}
    max_tokens = max(pack.diff.oversize.threshold_tokens, 1000)
    lines = {p: f.insertions + f.deletions for p, f in by_path.items()}
    tokens = {p: _tokens(len(texts[p])) for p in by_path}
    scores = _file_risk(pack)
    left_out: list[LeftOut] = []
    groups: dict[str, list[list[str]]] = {}
    for bundle in _bundles(pack, sorted(by_path)):
        groups.setdefault(subsystem.get(bundle[0], "root"), []).append(bundle)
    budget = _Budget(lines, tokens, settings.unit_max_lines, max_tokens)
    units: list[Unit] = []
    for name, bundles in sorted(groups.items()):
        packed = _pack(bundles, budget, left_out)
        names = [_unit_name(name, members) for members in packed]
        for i, members in enumerate(packed):
            label = names[i] if names.count(names[i]) == 1 else f"{names[i]}#{i + 1}"
            raw = "".join(texts[p] for p in sorted(members))
            risk = sum(scores.get(p, 0) for p in members)
            units.append(Unit(f":{label}", raw, frozenset(members), risk=risk))
    return units, tuple(left_out)


def _unit_name(subsystem: str, members: list[str]) -> str:
    """The subsystem, with the members' deepest common directory below it when there is one."""
    parents = [PurePosixPath(p).parent.parts for p in members]
    common: list[str] = []
    for parts in zip(*parents, strict=False):
        if len(set(parts)) != 1:
            break
        common.append(parts[0])
    common = common[common.index(subsystem) :] if subsystem in common else common[-1:]
    return "/".join(common) if len(common) > 1 else subsystem


@dataclass(frozen=True)
class _Budget:
    lines: dict[str, int]
    tokens: dict[str, int]
    max_lines: int
    max_tokens: int

    def fits(self, members: list[str]) -> bool:
        n_lines = sum(self.lines[p] for p in members)
        n_tokens = sum(self.tokens[p] for p in members)
        return n_lines <= self.max_lines and n_tokens <= self.max_tokens


def _pack(bundles: list[list[str]], budget: _Budget, left_out: list[LeftOut]) -> list[list[str]]:
    """Pack bundles in path order: a whole directory joins the current unit when it fits, else
    starts one; a directory over budget goes bundle by bundle, a bundle over budget file by
    file. A single file over the token budget is left out, with why."""
    packed: list[list[str]] = []
    directories: dict[PurePosixPath, list[list[str]]] = {}
    for bundle in bundles:
        directories.setdefault(PurePosixPath(bundle[0]).parent, []).append(bundle)
    for group in directories.values():
        block = [p for bundle in group for p in bundle]
        if budget.fits(block):
            _place(packed, block, budget)
            continue
        for bundle in group:
            pieces = [bundle] if budget.fits(bundle) else [[p] for p in bundle]
            for piece in pieces:
                if budget.tokens[piece[0]] > budget.max_tokens:
                    left_out.append(
                        LeftOut(
                            piece[0],
                            f"too large for one model call on its own "
                            f"(~{budget.tokens[piece[0]]} tokens, budget {budget.max_tokens})",
                        )
                    )
                    continue
                _place(packed, piece, budget)
    return packed


def _place(packed: list[list[str]], piece: list[str], budget: _Budget) -> None:
    if packed and budget.fits(packed[-1] + piece):
        packed[-1].extend(piece)
    else:
        packed.append(list(piece))


def _bundles(pack: EvidencePack, paths: list[str]) -> list[list[str]]:
    """Each source file with the changed tests that test it; other files alone."""
    changed = set(paths)
    tests_of: dict[str, list[str]] = {}
    claimed: set[str] = set()
    for rel in pack.context.related_tests:
        if rel.source_file in changed and rel.test_file in changed and rel.test_file not in claimed:
            tests_of.setdefault(rel.source_file, []).append(rel.test_file)
            claimed.add(rel.test_file)
    stems = {PurePosixPath(p).stem: p for p in paths if p not in claimed and not is_test(p)}
    for p in paths:
        if p in claimed or not is_test(p):
            continue
        source = stems.get(_tested_stem(PurePosixPath(p).stem))
        if source is not None:
            tests_of.setdefault(source, []).append(p)
            claimed.add(p)
    return [[p, *tests_of.get(p, [])] for p in paths if p not in claimed]


def _tested_stem(stem: str) -> str:
    """``test_views`` / ``views_test`` / ``views.test`` / ``ViewsTest`` -> the tested stem."""
    for prefix in ("test_",):
        if stem.startswith(prefix):
            return stem[len(prefix) :]
    for suffix in ("_test", ".test", ".spec", "_spec", "Test", "Tests"):
        if stem.endswith(suffix):
            return stem[: -len(suffix)]
    return stem


def _file_risk(pack: EvidencePack) -> dict[str, int]:
    """Per file: 10 per red factor, 3 per moderate factor naming it, 1 per hotspot."""
    weight = {FactorSeverity.RED: 10, FactorSeverity.MODERATE: 3}
    scores: dict[str, int] = {}
    for factor in pack.risk.factors:
        for path in factor.files:
            scores[path] = scores.get(path, 0) + weight.get(factor.severity, 1)
    for spot in pack.hotspots:
        scores[spot.file] = scores.get(spot.file, 0) + 1
    return scores


def _tokens(chars: int) -> int:
    return int(chars / CHARS_PER_TOKEN) + 1 if chars else 0


def estimate_call(
    model: str, chars: int, settings: ReviewerSettings
) -> tuple[int, float | None]:
    """The pre-call estimate of one call sending ``chars`` characters to ``model``: input
    tokens, and USD (None when the model has no known price). The same constants as the
    review units' estimate."""
    tokens = _tokens(chars)
    return tokens, _call_cost(model, tokens, settings)


def _estimated(
    unit: Unit,
    prefix_chars: int,
    settings: ReviewerSettings,
    *,
    challenger: bool,
    policy_chars: tuple[int, ...] = (),
    cached_chars: int = 0,
) -> Unit:
    """The unit with its pre-call estimate: every call sends the prefix and the unit's diff,
    each at its own model's price (fresh-eyes, the challenger's model, the policy model).
    ``cached_chars`` of the prefix are priced as prompt-cache reads (a unit after the first
    ones of a review by units); the token count still counts them."""
    per_call = _tokens(prefix_chars + len(unit.raw_diff))
    cached = min(_tokens(cached_chars), per_call)
    calls = [(settings.fresh_eyes_model, per_call)]
    if challenger:
        calls.append((settings.challenger.model, per_call))
    calls += [(settings.policy_model, per_call + _tokens(n)) for n in policy_chars]
    costs = [
        _call_cost(model, tokens - (cached if model != settings.policy_model else 0), settings,
                   cached=cached if model != settings.policy_model else 0)
        for model, tokens in calls
    ]  # fmt: skip
    unpriced = next((m for (m, _), c in zip(calls, costs, strict=True) if c is None), "")
    return replace(
        unit,
        estimated_input_tokens=sum(tokens for _, tokens in calls),
        estimated_cost_usd=None if unpriced else round(sum(c or 0.0 for c in costs), 6),
        calls=len(calls),
        call_tokens=per_call,
        unpriced=unpriced,
    )


def _call_cost(
    model: str, input_tokens: int, settings: ReviewerSettings, *, cached: int = 0
) -> float | None:
    """Estimated USD of one call of ``model``: ``input_tokens`` at the input price, ``cached``
    more at the cache-read price; None without a price."""
    return call_cost(
        price_for(model, settings.price_table()),
        input_tokens=input_tokens,
        output_tokens=ESTIMATED_OUTPUT_TOKENS,
        cache_creation_input_tokens=0,
        cache_read_input_tokens=cached,
    )


def _capped(
    ranked: tuple[Unit, ...],
    settings: ReviewerSettings,
    *,
    chunked: bool,
    policy_skip: ReviewerRun | None,
    every: frozenset[str],
) -> Units:
    """Keep units in risk order until the next would pass a cap; the rest are left out."""
    kept: list[Unit] = []
    left_out: list[LeftOut] = []
    tokens, cost = 0, 0.0
    stopped: str | None = None
    for unit in ranked:
        if stopped is None:
            stopped = _over_cap(unit, tokens, cost, settings)
        if stopped is not None:
            files = every if unit.files is None else unit.files
            left_out += [LeftOut(p, stopped) for p in sorted(files)]
            continue
        kept.append(unit)
        tokens += unit.estimated_input_tokens
        cost += unit.estimated_cost_usd or 0.0
    if not chunked and not kept:
        reason = left_out[0].why if left_out else "cost cap"
        return Units(
            reviewable=(),
            skipped=(
                ReviewerRun(name="fresh_eyes", status=ReviewerStatus.SKIPPED, reason=reason),
                ReviewerRun(name="challenger", status=ReviewerStatus.SKIPPED, reason=reason),
            ),
            reviewed_files=frozenset(),
            left_out=tuple(left_out),
        )
    kept = _late_allowance(kept, settings, tokens, cost)
    if not chunked:
        unit = kept[0]
        return Units(reviewable=(unit,), reviewed_files=unit.files)
    reviewed = frozenset(p for u in kept for p in (u.files or ()))
    return Units(
        reviewable=tuple(kept),
        policy_skip=policy_skip,
        reviewed_files=reviewed,
        left_out=tuple(left_out),
        chunked=True,
    )


def _late_allowance(
    kept: list[Unit], settings: ReviewerSettings, tokens: int, cost: float
) -> list[Unit]:
    """Which units may still start a late challenger without passing a cap (riskiest first)."""
    if settings.max_input_tokens is None and settings.max_cost_usd is None:
        return kept
    model = settings.challenger.model
    out = []
    for unit in kept:
        price = _call_cost(model, unit.call_tokens, settings)
        extra = replace(
            unit,
            estimated_input_tokens=unit.call_tokens,
            estimated_cost_usd=price,
            unpriced="" if price is not None else model,
        )
        allowed = _over_cap(extra, tokens, cost, settings) is None
        if allowed:
            tokens += extra.estimated_input_tokens
            cost += extra.estimated_cost_usd or 0.0
        out.append(replace(unit, late_challenger=allowed))
    return out


def _over_cap(unit: Unit, tokens: int, cost: float, settings: ReviewerSettings) -> str | None:
    """Why ``unit`` would pass a cap after ``tokens``/``cost`` are spent, or None."""
    cap_tokens = settings.max_input_tokens
    if cap_tokens is not None and tokens + unit.estimated_input_tokens > cap_tokens:
        return (
            f"cost cap: reviewers.max_input_tokens {cap_tokens} reached (estimated "
            f"{tokens + unit.estimated_input_tokens} with this unit); riskier units went first"
        )
    cap_cost = settings.max_cost_usd
    if cap_cost is not None:
        if unit.estimated_cost_usd is None:
            model = unit.unpriced or settings.fresh_eyes_model
            return (
                f"cost cap: reviewers.max_cost_usd is set but `{model}` "
                "has no known price (add it under reviewers.prices)"
            )
        if cost + unit.estimated_cost_usd > cap_cost:
            return (
                f"cost cap: reviewers.max_cost_usd ${cap_cost:.4g} reached (estimated "
                f"${cost + unit.estimated_cost_usd:.4f} with this unit); riskier units went first"
            )
    return None


def files_not_reviewed(
    pack: EvidencePack, diff: Diff, *, reviewed: frozenset[str] | None
) -> tuple[str, ...]:
    """Touched files no AI reviewer saw: outside the reviewed chunks, without a patch, binary.

    ``reviewed`` None with an oversized pack means AI review was skipped for size: every file.
    """
    skipped_for_size = reviewed is None and pack.diff.oversize.oversized
    listed = {n.path for n in pack.diff.not_reviewed}  # listed with their reason elsewhere
    out = []
    for touched in pack.diff.touched_files:
        if touched.path in listed:
            continue
        outside = reviewed is not None and touched.path not in reviewed
        # A binary file's patch says only "Binary files differ": no model saw its content.
        if skipped_for_size or outside or not touched.patch_available or touched.binary:
            out.append(touched.path)
    known = {t.path for t in pack.diff.touched_files}
    out += [
        f.path
        for f in diff.files
        if not f.patch_available and f.path not in known and f.path not in listed
    ]
    return tuple(out)
