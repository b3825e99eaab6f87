"""The project's exceptions.

Hierarchy::

    ReviewError                 root of everything we raise on purpose
    ├── UserError               bad input from the person running us (exit code 1)
    │   ├── ConfigError         .pr-review/config.yml (or a verifier file) is invalid
    │   └── SourceError         the PR cannot be read (not a repo, unknown ref, no merge base)
    ├── GitHubError             the GitHub API refused or failed (raised by sources/publish)
    │   └── GitHubUnreachable   no answer at all (GITHUB_API_URL or the network is wrong)
    └── ReviewerError           a model call failed
        ├── ReviewerUnavailable the model could not be reached or refused the request
        └── ReviewerOutputInvalid the model's answer did not validate, even after one retry

Each message states the cause and, where there is one, the fix. ``cli.main`` is the only
place that turns these into exit codes.
"""

from __future__ import annotations


class ReviewError(Exception):
    """Root of the errors this project raises deliberately."""


class UserError(ReviewError):
    """The input is wrong; the message says what and how to fix it (exit code 1)."""


class ConfigError(UserError):
    """A configuration file is invalid; the message names the file and the key path."""


class SourceError(UserError):
    """The pull request cannot be read from its source (git or GitHub)."""


class GitHubError(ReviewError):
    """The GitHub API failed after retries, or refused an operation."""

    def __init__(self, message: str, *, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class GitHubUnreachable(GitHubError):
    """The API gave no HTTP answer (refused, unresolvable or silent): nothing later can work."""


class ReviewerError(ReviewError):
    """A reviewer model call failed."""


class ReviewerUnavailable(ReviewerError):
    """The model could not be reached, or refused the request (auth, quota, overload)."""


class ReviewerOutputInvalid(ReviewerError):
    """The model's structured output did not validate against the schema."""
