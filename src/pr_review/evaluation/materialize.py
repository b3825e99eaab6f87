"""Turn a corpus case into a git repository and the refs to review.

Diff form: :func:`pr_review.corpus.materialize_case` builds a repository per case (branch
``base`` holds the base tree, branch ``pr`` the applied diff committed with the case's
messages); :func:`materialize` adapts it to the runner's ``Materializer`` seam, which tests
replace. Bundle form: :class:`BundleClones` clones each ``repos/<repo>.bundle`` once per run
and every case of that repo is reviewed as ``base...head`` in the one clone (the review only
reads commits and trees, so concurrent cases share it safely).
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pr_review.corpus import BASE_BRANCH, PR_BRANCH, clone_bundle, materialize_case
from pr_review.evaluation.corpus import Case, CaseForm


@dataclass(frozen=True)
class MaterializedCase:
    """A case's git repository and the refs to review."""

    repo: Path
    base: str
    head: str


Materializer = Callable[[Case, Path], MaterializedCase]
"""``(case, dest) -> MaterializedCase``."""


def materialize(case: Case, dest: Path) -> MaterializedCase:
    """Build the diff-form case's repository at ``dest``."""
    materialize_case(case.case_dir, case.repos_dir, dest)
    return MaterializedCase(repo=dest, base=BASE_BRANCH, head=PR_BRANCH)


class BundleClones:
    """One bare clone per bundle under ``root``, made on first use (thread-safe)."""

    def __init__(self, root: Path) -> None:
        self._root = root
        self._lock = threading.Lock()
        self._repo_locks: dict[Path, threading.Lock] = {}
        self._clones: dict[Path, Path] = {}

    def materialize(self, case: Case) -> MaterializedCase:
        """The bundle-form case's clone and its ``base``/``head`` commits."""
        if case.form is not CaseForm.BUNDLE or case.spec.base is None or case.spec.head is None:
            raise ValueError(f"{case.id} is not a bundle-form case")
        return MaterializedCase(
            repo=self._clone(case.bundle_path), base=case.spec.base, head=case.spec.head
        )

    @property
    def count(self) -> int:
        """How many bundles were cloned."""
        with self._lock:
            return len(self._clones)

    def _clone(self, bundle: Path) -> Path:
        key = bundle.resolve()
        with self._lock:
            repo_lock = self._repo_locks.setdefault(key, threading.Lock())
        with repo_lock:  # other bundles clone in parallel; this one exactly once
            with self._lock:
                done = self._clones.get(key)
            if done is not None:
                return done
            tag = hashlib.sha256(str(key).encode()).hexdigest()[:12]
            dest = clone_bundle(key, self._root / f"{bundle.stem}-{tag}")
            with self._lock:
                self._clones[key] = dest
            return dest
