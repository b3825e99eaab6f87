"""Turn a corpus case into a real git repository, with the one materializer the project has.

:func:`pr_review.corpus.materialize_case` builds it (branch ``base`` holds the base tree,
branch ``pr`` the applied diff committed with the case's messages); this module adapts it to
the eval runner's ``Materializer`` seam, which tests replace.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pr_review.corpus import BASE_BRANCH, PR_BRANCH, materialize_case
from pr_review.evaluation.corpus import Case


@dataclass(frozen=True)
class MaterializedCase:
    """A case's git repository and the refs to review."""

    repo: Path
    base: str
    head: str


Materializer = Callable[[Case, Path], MaterializedCase]
"""``(case, dest) -> MaterializedCase``."""


def materialize(case: Case, dest: Path) -> MaterializedCase:
    """Build the case's repository at ``dest``."""
    materialize_case(case.case_dir, case.repos_dir, dest)
    return MaterializedCase(repo=dest, base=BASE_BRANCH, head=PR_BRANCH)
