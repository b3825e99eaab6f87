"""``pr-review backtest``: what the review would have said about a repository's merged PRs.

history (the PRs merged into a branch, from its first-parent history) -> run (the review of
each, deterministic unless ``--with-model``, concurrent, with progress) -> report
(``backtest.json`` and ``backtest.md``). :mod:`.estimate` prices a model run before it
starts; :mod:`.command` is the glue the CLI calls.
"""
