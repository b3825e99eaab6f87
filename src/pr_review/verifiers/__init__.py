"""The verifiers stage: real analysis tools on the code a pull request changed.

``run_verifiers`` fills the evidence pack's ``verification`` section; ``verifier_candidates``
turns its findings into candidate findings for synthesis. See ``docs/configuration.md``
(``## verifiers``) for the configuration and the trust model.

The names below are loaded on first use: reading the configuration imports
:mod:`.settings`, and a run that builds no verifier (``verifiers.enabled: false``) should not
pay for the tool runners' imports.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pr_review.lazy import exports

if TYPE_CHECKING:
    from pr_review.verifiers.candidates import verifier_candidates
    from pr_review.verifiers.run import run_verifiers
    from pr_review.verifiers.scope import DiffScope, LineRange

__all__ = ["DiffScope", "LineRange", "run_verifiers", "verifier_candidates"]
_HOMES = {
    "DiffScope": "scope",
    "LineRange": "scope",
    "run_verifiers": "run",
    "verifier_candidates": "candidates",
}

__getattr__ = exports(__name__, _HOMES)
