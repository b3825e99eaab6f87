"""Values the verifiers pass around before they become the pack's ``verification`` section."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Protocol

from pr_review.process import ProcessResult
from pr_review.schema.enums import TrustMode, VerifierSeverity
from pr_review.sources.model import PullRequest, RepoTree
from pr_review.verifiers.sanitize import sanitize_message
from pr_review.verifiers.scope import DiffScope
from pr_review.verifiers.settings import VerifierSettings
from pr_review.verifiers.workspace import Workspace


class Runner(Protocol):
    """The shape of :func:`pr_review.process.run`."""

    def __call__(
        self,
        argv: Sequence[str],
        *,
        cwd: Path | None = None,
        timeout_s: float,
        env: Mapping[str, str] | None = None,
        stdin: bytes | None = None,
    ) -> ProcessResult:
        """Run a command and report what happened."""
        ...


Locator = Callable[[str, str], tuple[str, ...] | None]
"""``(module, executable) -> argv prefix`` that runs the tool, or None when it is missing."""


class Category(StrEnum):
    """What kind of check a verifier is; decides how its findings are weighed."""

    LINT = "lint"
    SECURITY = "security"
    SECRETS = "secrets"
    TYPE = "type"
    CUSTOM = "custom"


@dataclass(frozen=True, slots=True)
class RawFinding:
    """One finding as a tool reported it, path relative to the directory it checked."""

    path: str
    line: int | None
    end_line: int | None
    rule_id: str | None
    message: str
    severity: VerifierSeverity
    replacement: str | None = None
    """The tool's own safe fix as the new text of ``line`` (``""`` deletes the line)."""

    def __post_init__(self) -> None:
        """Every tool's message loses the secret values it quotes, whatever the parser."""
        object.__setattr__(self, "message", sanitize_message(self.message))


@dataclass(frozen=True)
class Checked:
    """The tool ran. ``base`` is None when it did not run on the base versions."""

    head: tuple[RawFinding, ...]
    base: tuple[RawFinding, ...] | None
    files_checked: tuple[str, ...]
    note: str | None = None
    failed_without_findings: str | None = None
    """Set when the tool said it failed but reported nothing we can attribute (custom only)."""


@dataclass(frozen=True)
class Skipped:
    """Not applicable, not available, or not allowed; ``reason`` says which."""

    reason: str
    files_checked: tuple[str, ...] = ()


@dataclass(frozen=True)
class TimedOut:
    """The tool was killed at its deadline."""

    reason: str
    files_checked: tuple[str, ...] = ()


Outcome = Checked | Skipped | TimedOut


@dataclass
class Deadline:
    """A point in time a verifier must finish by (monotonic clock)."""

    expires_at: float
    clock: Callable[[], float] = field(default=time.monotonic)

    def remaining(self) -> float:
        """Seconds left; zero or less when spent."""
        return self.expires_at - self.clock()


@dataclass(frozen=True)
class Context:
    """Everything a verifier may use; built once per review by :func:`run_verifiers`."""

    pr: PullRequest
    scope: DiffScope
    workspace: Workspace
    settings: VerifierSettings
    trust_mode: TrustMode
    run: Runner
    locate: Locator
    tool_env: Mapping[str, str]
    """Minimal environment for built-in tools: no tokens, HOME in the temp dir."""
    command_env: Mapping[str, str]
    """Environment for repository-declared commands (trusted mode only): secrets removed."""
    head_files: tuple[str, ...]
    """Touched files written under ``workspace.head`` (head paths)."""
    base_files: tuple[str, ...]
    """Base versions written under ``workspace.base`` (base paths)."""
    config_tree: RepoTree
    """The revision tool configuration is read from (base by default)."""


class Verifier(Protocol):
    """One verifier: a name, a category and a check that returns an outcome."""

    @property
    def name(self) -> str:
        """Name in the pack (``ruff``, ``custom:<name>`` ...)."""
        ...

    @property
    def category(self) -> Category:
        """What kind of check it is."""
        ...

    @property
    def timeout_seconds(self) -> float:
        """Its own time limit."""
        ...

    def check(self, ctx: Context, deadline: Deadline) -> Outcome:
        """Run on the PR's files and report; never raises for the tool's own failures."""
        ...
