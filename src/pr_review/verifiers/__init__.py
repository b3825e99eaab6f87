"""The verifiers stage: real analysis tools on the code a pull request changed.

``run_verifiers`` fills the evidence pack's ``verification`` section; ``verifier_candidates``
turns its findings into candidate findings for synthesis. See ``docs/configuration.md``
(``## verifiers``) for the configuration and the trust model.
"""

from pr_review.verifiers.candidates import verifier_candidates
from pr_review.verifiers.run import run_verifiers
from pr_review.verifiers.scope import DiffScope, LineRange

__all__ = ["DiffScope", "LineRange", "run_verifiers", "verifier_candidates"]
