"""pr-review-guardrails: evidence-first pull request review."""

__version__ = "0.1.0"
