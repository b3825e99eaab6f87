"""``pr-review eval``: measure a reviewer configuration on a labelled corpus.

corpus (load cases) -> materialize (a real git repo per case) -> review (the pipeline) ->
metrics (deterministic) -> grader (criteria; model for the non-deterministic ones) ->
scorecard (seed 001). Also: the blind comparator (seed 004), the verdict roll-up (seed 000)
and replay of recorded model outputs. Entry points: :mod:`pr_review.evaluation.api`.
"""
