"""Structural evidence for the lane from the sink rule set (``pr_review.rules``).

The same rules the ``sinks`` verifier reports on lines: here a hit that is new in the PR
(present on the head side, not on the base side, compared by rule and the matched code
without whitespace, so moved code cancels out) is a factor ``sink-<category>``, red when the
rule says its new hit is red (request input reaching code evaluation, a shell or a file path;
TLS verification or cookie flags turned off), yellow otherwise (a shell command or SQL built
from strings without visible request input). A rule with ``on_change`` also weighs a hit of
the base revision that the PR rewrote or removed (an open-redirect, XSS or ReDoS fix rewrites
exactly such code); watched constructs (``report: false``: a redirect to a computed location,
markup built by concatenation, a ``'__proto__'`` check, a URL or quadratic regular expression)
count here only. The factor names the file, the line, what was matched and why it matters, in
one line. Code that only had a receiver renamed (``event.request`` -> ``event.req`` in a
refactor) is the same hit on both sides: neither new nor rewritten.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from functools import partial

from pr_review.evidence.lexing import mask_receivers
from pr_review.evidence.shared_parses import parsed
from pr_review.rules import SinkHit, SinkLane, language_of
from pr_review.rules.engine import scan_source
from pr_review.schema.enums import FactorSeverity
from pr_review.schema.pack import RiskFactor
from pr_review.sources.diff import FileDiff, FileStatus
from pr_review.sources.model import RepoTree
from pr_review.sources.paths import PathKind, classify

MAX_BYTES = 1_000_000
"""Larger files (bundles, generated data) are not parsed for the lane."""

_SPACE = re.compile(r"\s+")


def _key(hit: SinkHit) -> tuple[str, str]:
    """A hit by rule and matched code, whitespace dropped and receivers masked:
    ``event.request.headers.get("x-forwarded-host")`` and ``event.req.headers.get(...)`` are
    the same code after a rename."""
    return hit.rule_id, mask_receivers(hit.code or _SPACE.sub("", hit.snippet))


def _hits(tree: RepoTree, path: str, language: str) -> list[SinkHit]:
    text = tree.read(path)
    if text is None or len(text) > MAX_BYTES:
        return []
    return hits_of(text, language)


def hits_of(source: str, language: str) -> list[SinkHit]:
    """Every sink rule's hits in ``source``, scanned once per pack
    (:mod:`pr_review.evidence.shared_parses`): the markup reader reads the same hits."""
    return parsed(f"sink-rules:{language}", source, partial(scan_source, source, language))


def _severity(lane: SinkLane) -> FactorSeverity:
    return FactorSeverity.RED if lane is SinkLane.RED else FactorSeverity.MODERATE


def sink_factors(files: Sequence[FileDiff], base: RepoTree, head: RepoTree) -> list[RiskFactor]:
    """One factor per file and category with a sink hit the PR introduced, or (for rules
    with ``on_change``) a hit of the base revision the PR rewrote or removed (in documentation
    and example code only a rule red on its own)."""
    sides: dict[str, tuple[list[SinkHit], list[SinkHit]]] = {}
    for f in files:
        language = language_of(f.path)
        if language is None or f.binary or f.status is FileStatus.DELETED:
            continue
        new = _hits(head, f.path, language)
        old = [] if f.status is FileStatus.ADDED else _hits(base, f.old_path or f.path, language)
        if new or old:
            sides[f.path] = (old, new)
    before = Counter(_key(h) for old, _ in sides.values() for h in old)
    after = Counter(_key(h) for _, new in sides.values() for h in new)
    out: list[RiskFactor] = []
    for path, (old, new) in sides.items():
        seen: set[str] = set()
        # a watched sink rewritten in example or tutorial code is no fix the project ships
        # (pyramid's tutorial dropping its `came_from` redirect); a red one (request input in a
        # path, gin's upload example) counts there both ways: examples are copied
        examples = classify(path) is PathKind.DOCS
        for hit in new:
            key = _key(hit)
            if before[key]:
                before[key] -= 1  # the same sink existed before (moved, unchanged or renamed)
                continue
            if hit.category.value in seen:
                continue
            seen.add(hit.category.value)
            out.append(
                RiskFactor(
                    factor=f"sink-{hit.category.value}",
                    files=(path,),
                    severity=_severity(hit.lane),
                    why=f"{hit.message} (line {hit.line}: `{hit.snippet[:80]}`): {hit.why}",
                )
            )
        for hit in old:
            key = _key(hit)
            if after[key]:
                after[key] -= 1  # still there (perhaps moved or its receiver renamed)
                continue
            if hit.on_change is None or f"{hit.category.value} gone" in seen:
                continue
            if examples and hit.lane is not SinkLane.RED:
                continue
            seen.add(f"{hit.category.value} gone")
            out.append(
                RiskFactor(
                    factor=f"sink-{hit.category.value}",
                    files=(path,),
                    severity=_severity(hit.on_change),
                    why=f"{hit.message}: rewritten or removed (line {hit.line} of the base file: "
                    f"`{hit.snippet[:80]}`): {hit.why}",
                )
            )
    return out
