"""Where a pull request comes from: a local git repository or GitHub.

Sources turn their input into :class:`~pr_review.sources.model.PullRequest` values; later
stages never see git, PyGithub or unidiff objects.
"""
