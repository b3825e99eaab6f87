"""Configuration of the verifiers stage (``verifiers``)."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, model_validator

from pr_review.schema.enums import VerifierSeverity


class _Section(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class OutputFormat(StrEnum):
    """How a custom command's output is parsed into findings."""

    GENERIC = "generic"
    SARIF = "sarif"
    NONE = "none"


class CustomVerifier(_Section):
    """A repository-declared command; runs only in trusted mode."""

    name: str = Field(min_length=1, pattern=r"^[A-Za-z0-9_.-]+$")
    argv: tuple[str, ...] = Field(min_length=1, description="Command and arguments; no shell.")
    timeout_seconds: float = Field(default=60, gt=0)
    format: OutputFormat = OutputFormat.GENERIC
    pass_files: bool = Field(
        default=False, description="Append the PR's touched files (that exist) to argv."
    )
    default_severity: VerifierSeverity = Field(
        default=VerifierSeverity.ERROR,
        description="Severity of a generic-format finding whose message names no level.",
    )


class ToolConfigSource(StrEnum):
    """Which revision the tools' own configuration files are read from."""

    BASE = "base"
    HEAD = "head"


class BuiltinToggles(_Section):
    """Which built-in verifiers run."""

    ruff: bool = True
    bandit: bool = True
    secrets: bool = True
    mypy: bool = True
    oxlint: bool = True
    shellcheck: bool = True
    hadolint: bool = True
    zizmor: bool = True
    sinks: bool = True


class VerifierSettings(_Section):
    """Verifier timeouts, toggles and custom commands."""

    enabled: bool = True
    timeout_seconds: float = Field(default=60, gt=0, description="Per-verifier timeout.")
    secrets_timeout_seconds: float = Field(
        default=120, gt=0, description="The secrets scan's own limit, outside the total budget."
    )
    total_budget_seconds: float = Field(default=300, gt=0, description="Budget for all verifiers.")
    max_parallel: int = Field(default=4, ge=1)
    builtin: BuiltinToggles = Field(default_factory=BuiltinToggles)
    custom: tuple[CustomVerifier, ...] = ()
    tool_config: ToolConfigSource = Field(
        default=ToolConfigSource.BASE,
        description="Revision whose pyproject.toml, setup.cfg, ruff.toml, mypy.ini, .bandit "
        "and tox.ini configure the tools: base, so a PR cannot weaken its own checks.",
    )

    @model_validator(mode="after")
    def _unique_custom_names(self) -> VerifierSettings:
        names = [c.name for c in self.custom]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise ValueError(f"custom verifier names must be unique: {', '.join(dupes)}")
        return self
