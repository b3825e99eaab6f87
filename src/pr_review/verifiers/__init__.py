"""The verifiers stage: real analysis tools on the code a pull request changed.

``run_verifiers`` fills the evidence pack's ``verification`` section; ``verifier_candidates``
turns its findings into candidate findings for synthesis. See ``docs/configuration.md``
(``## verifiers``) for the configuration and the trust model.

The names below are loaded on first use: reading the configuration imports
:mod:`.settings`, and a run that builds no verifier (``verifiers.enabled: false``) should not
pay for the tool runners' imports.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

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


def __getattr__(name: str) -> Any:
    """The public name ``name``, imported from its module on first use."""
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_HOMES[name]}"), name)
