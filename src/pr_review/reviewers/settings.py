"""Configuration of the reviewer stage (the ``reviewers`` section of ``.pr-review/config.yml``)."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from pr_review.schema.enums import Lane


class _Section(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ChallengerMode(StrEnum):
    """When the challenger runs."""

    OFF = "off"
    AUTO = "auto"
    """Only when one of its triggers holds (lane, AI authorship, uncertain severe finding)."""
    ALWAYS = "always"


class OversizedMode(StrEnum):
    """What AI review does with a diff over the token budget."""

    SKIP = "skip"
    """No AI review; the packet says why and recommends a split."""
    CHUNK = "chunk"
    """Review units of related files (a subsystem, a source file with its tests) that fit the
    budget, riskiest first; list the files left out and why."""


class ModelPrice(_Section):
    """USD per million tokens of one model."""

    input: float = Field(ge=0)
    output: float = Field(ge=0)
    cache_write: float | None = Field(
        default=None, ge=0, description="Cache-creation input; default 1.25x input (5-minute TTL)."
    )
    cache_read: float | None = Field(
        default=None, ge=0, description="Cache-read input; default 0.1x input."
    )


# Published list prices at the time of writing; a repository can override or add models.
# A model absent from the table gets no cost estimate (we never guess a rate).
DEFAULT_PRICES: dict[str, ModelPrice] = {
    "claude-haiku-4-5": ModelPrice(input=1.0, output=5.0),
    "claude-sonnet-4-5": ModelPrice(input=3.0, output=15.0),
    "claude-sonnet-4-6": ModelPrice(input=3.0, output=15.0),
    "claude-opus-4-5": ModelPrice(input=5.0, output=25.0),
    "claude-opus-4-6": ModelPrice(input=5.0, output=25.0),
    "claude-opus-4-1": ModelPrice(input=15.0, output=75.0),
}


class ChallengerSettings(_Section):
    """The selective challenger."""

    mode: ChallengerMode = ChallengerMode.AUTO
    model: str = Field(
        default="claude-opus-4-6",
        description="A different model from fresh-eyes gives a real second opinion.",
    )
    lanes: tuple[Lane, ...] = Field(
        default=(Lane.YELLOW, Lane.RED), description="Lanes that start the challenger."
    )
    ai_commit_ratio: float = Field(
        default=0.5,
        ge=0,
        le=1,
        description="Share of AI-assisted commits at or above which the challenger starts.",
    )
    max_units: int = Field(
        default=3,
        ge=1,
        description="A PR reviewed in units: the lane/authorship trigger starts the challenger "
        "on this many of the riskiest units (an uncertain severe finding still starts it on "
        "its own unit).",
    )


class ReviewerSettings(_Section):
    """Models, budgets and switches of the AI reviewers."""

    enabled: bool = True
    fresh_eyes_model: str = "claude-sonnet-4-6"
    challenger: ChallengerSettings = Field(default_factory=ChallengerSettings)
    policy_model: str = "claude-haiku-4-5"
    policy_batch_size: int = Field(
        default=8, ge=1, description="Verifier files judged per model call."
    )
    oversized: OversizedMode = OversizedMode.CHUNK
    unit_max_lines: int = Field(
        default=600,
        ge=50,
        description="Changed lines per review unit when a PR is reviewed in units (oversized "
        "or incremental); a unit also stays within oversize.max_diff_tokens.",
    )
    max_input_tokens: int | None = Field(
        default=None, ge=1, description="Estimated input tokens per run above which units stop."
    )
    max_cost_usd: float | None = Field(
        default=None, gt=0, description="Estimated USD per run above which units stop."
    )
    review_bots: bool = Field(
        default=False,
        description="Also run the AI reviewers on PRs by bots (Dependabot, Renovate, any "
        "`[bot]` login); by default they get the deterministic review only.",
    )
    max_concurrency: int = Field(default=4, ge=1, description="Model calls in flight at once.")
    max_retries: int = Field(
        default=3, ge=0, description="SDK retries on 429, 5xx and 529 (with its own backoff)."
    )
    timeout_seconds: float = Field(default=300, gt=0, description="Per-request timeout.")
    max_output_tokens: int = Field(default=8192, ge=256, le=16384)
    prices: dict[str, ModelPrice] = Field(
        default_factory=lambda: dict(DEFAULT_PRICES),
        description="Model id -> USD per million tokens; merged over the defaults.",
    )

    def price_table(self) -> dict[str, ModelPrice]:
        """Defaults overlaid with the configured prices."""
        return {**DEFAULT_PRICES, **self.prices}


def price_for(model: str, prices: dict[str, ModelPrice]) -> ModelPrice | None:
    """The price of ``model``; a dated id (``claude-haiku-4-5-20251001``) uses its alias's."""
    if model in prices:
        return prices[model]
    aliases = [name for name in prices if model.startswith(name + "-")]
    return prices[max(aliases, key=len)] if aliases else None


def call_cost(
    price: ModelPrice | None,
    *,
    input_tokens: int,
    output_tokens: int,
    cache_creation_input_tokens: int,
    cache_read_input_tokens: int,
) -> float | None:
    """Estimated USD of one call; None without a known price."""
    if price is None:
        return None
    write = price.cache_write if price.cache_write is not None else price.input * 1.25
    read = price.cache_read if price.cache_read is not None else price.input * 0.1
    total = (
        input_tokens * price.input
        + output_tokens * price.output
        + cache_creation_input_tokens * write
        + cache_read_input_tokens * read
    )
    return round(total / 1_000_000, 6)
