"""Which factors made the backtested PRs red, and the caps a repository could try.

A factor red on PR after PR because of what the project *is* (a validation library rewrites
anchored regular expressions all the time; in a signing tool every function is named for
verification) makes a gate teams switch off. ``risk.yellow_at_most`` holds such a factor to
yellow on the paths where it is the project's ordinary work, and ``pr-review backtest --config``
tries that on the history first. This module counts, over a backtest, the PRs each red factor
made red and those it made red *alone* (no other red factor: the cap alone would have changed
their lane), and drafts a ``risk.yellow_at_most`` entry for every factor that alone made two or
more PRs red, with the folders it stood on. A draft, for people: only the maintainers who read
those PRs can judge them ordinary, and a cap holds a real fix of that kind to yellow too. Some
factors mean the same in every repository and are never drafted (:data:`NEVER_DRAFTED`).

File paths come from the PRs (untrusted): a folder is drafted only when every part of it is a
plain name (:data:`_PLAIN`), so the YAML and the Markdown around it stay inert.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from pr_review.evidence.factors import unknown_factor
from pr_review.schema.enums import FactorSeverity, Lane
from pr_review.schema.pack import RiskFactor

MIN_ALONE = 2
"""A cap is drafted for a factor that alone made at least this many PRs red."""
FOLDER_DEPTH = 2
"""A drafted path is a file's first two folders (``cmd/cosign/**``): deep enough to leave the
rest of the repository gated, shallow enough that one entry covers a subsystem."""
MAX_PATHS = 6
"""The most folders one drafted entry lists (the most frequent first)."""

NEVER_DRAFTED: dict[str, str] = {
    "secrets": "a credential is a credential in every repository",
    "ci-trust": "widened CI trust exposes the repository's secrets whatever the project is",
    "security-advisory": "the PR itself says it fixes a vulnerability",
}
"""Factors whose meaning does not depend on the repository: the draft never offers to cap
them (a repository can still write such an entry itself). Factors no cap can name (a
repository override's, ``reviewer-escalation``) are left out by the configuration's own
check (:func:`pr_review.evidence.factors.unknown_factor`)."""

_PLAIN = re.compile(r"^[A-Za-z0-9_.@+-]+$")


class Reviewed(Protocol):
    """What a tally reads of a backtested PR (``PRResult`` satisfies it)."""

    @property
    def lane(self) -> Lane | None: ...

    @property
    def factors(self) -> tuple[RiskFactor, ...]: ...


@dataclass(frozen=True)
class FactorTally:
    """One red factor over a backtest."""

    factor: str
    red: int
    """PRs it was red on (the PR red)."""
    alone: int
    """PRs it was the only red factor of: a cap on it alone makes them yellow."""
    folders: tuple[tuple[str, int], ...]
    """``(glob, PRs)`` of the files it stood on in the PRs it made red alone, most first."""

    @property
    def drafted(self) -> bool:
        """Whether :func:`draft` offers a cap for it."""
        return (
            self.alone >= MIN_ALONE
            and self.factor not in NEVER_DRAFTED
            and unknown_factor(self.factor) is None
            and bool(self.folders)
        )


def folder_glob(path: str) -> str | None:
    """``cmd/cosign/cli/verify.go`` -> ``cmd/cosign/**``; ``lib/a.js`` -> ``lib/**``; a file
    at the root is itself; None when a part is not a plain name."""
    parts = path.split("/")
    if not all(_PLAIN.match(p) and p not in (".", "..") for p in parts):
        return None
    folders = parts[:-1][:FOLDER_DEPTH]
    return "/".join([*folders, "**"]) if folders else path


def tally(prs: Sequence[Reviewed]) -> list[FactorTally]:
    """Every factor that was red on a red PR, most PRs first."""
    red: Counter[str] = Counter()
    alone: Counter[str] = Counter()
    folders: dict[str, Counter[str]] = {}
    for pr in prs:
        if pr.lane is not Lane.RED:
            continue
        reds = [f for f in pr.factors if f.severity is FactorSeverity.RED]
        names = {f.factor for f in reds}
        red.update(names)
        if len(names) != 1:
            continue
        (name,) = names
        alone[name] += 1
        globs = {g for f in reds for p in f.files if (g := folder_glob(p)) is not None}
        folders.setdefault(name, Counter()).update(globs)
    return [
        FactorTally(
            factor=name,
            red=count,
            alone=alone[name],
            folders=tuple(folders.get(name, Counter()).most_common()),
        )
        for name, count in sorted(red.items(), key=lambda item: (-item[1], item[0]))
    ]


def draft(tallies: Sequence[FactorTally]) -> str | None:
    """A ``.pr-review/config.yml`` fragment capping each drafted factor on its folders, or None
    when no factor qualifies. Every string is JSON-quoted (valid YAML) and plain."""
    entries = [t for t in tallies if t.drafted]
    if not entries:
        return None
    lines = ["risk:", "  yellow_at_most:"]
    for t in entries:
        paths = ", ".join(f'"{glob}"' for glob, _ in t.folders[:MAX_PATHS])
        lines += [
            f"    - factor: {t.factor}",
            f"      paths: [{paths}]",
            '      reason: "TODO: why your reviewers judge these PRs ordinary"',
        ]
    return "\n".join(lines) + "\n"
