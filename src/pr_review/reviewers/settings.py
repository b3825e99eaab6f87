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


class Provider(StrEnum):
    """Where the Messages API is served."""

    ANTHROPIC = "anthropic"
    BEDROCK = "bedrock"
    """Amazon Bedrock, through the SDK's ``AnthropicBedrock`` client."""
    VERTEX = "vertex"
    """Google Vertex AI, through the SDK's ``AnthropicVertex`` client."""


PROVIDER_MODELS: dict[Provider, dict[str, str]] = {
    Provider.BEDROCK: {
        "claude-opus-4-6": "anthropic.claude-opus-4-6-v1",
        "claude-sonnet-4-6": "anthropic.claude-sonnet-4-6",
        "claude-haiku-4-5": "anthropic.claude-haiku-4-5-20251001-v1:0",
        "claude-sonnet-4-5": "anthropic.claude-sonnet-4-5-20250929-v1:0",
        "claude-opus-4-5": "anthropic.claude-opus-4-5-20251101-v1:0",
        "claude-opus-4-1": "anthropic.claude-opus-4-1-20250805-v1:0",
    },
    Provider.VERTEX: {
        "claude-opus-4-6": "claude-opus-4-6",
        "claude-sonnet-4-6": "claude-sonnet-4-6",
        "claude-haiku-4-5": "claude-haiku-4-5@20251001",
        "claude-sonnet-4-5": "claude-sonnet-4-5@20250929",
        "claude-opus-4-5": "claude-opus-4-5@20251101",
        "claude-opus-4-1": "claude-opus-4-1@20250805",
    },
}
"""Our model ids (the Anthropic API's) -> each provider's id; ``provider_models`` overrides."""

PROVIDER_ENV = (
    "AWS_REGION",
    "AWS_DEFAULT_REGION",
    "AWS_BEARER_TOKEN_BEDROCK",
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "AWS_PROFILE",
    "ANTHROPIC_BEDROCK_BASE_URL",
    "CLOUD_ML_REGION",
    "ANTHROPIC_VERTEX_PROJECT_ID",
    "GOOGLE_CLOUD_PROJECT",
    "GOOGLE_OAUTH_ACCESS_TOKEN",
    "GOOGLE_APPLICATION_CREDENTIALS",
    "ANTHROPIC_VERTEX_BASE_URL",
)
"""The standard variables the Bedrock and Vertex clients read their region and credentials from."""


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
    provider: Provider = Field(
        default=Provider.ANTHROPIC,
        description="anthropic (ANTHROPIC_API_KEY), bedrock (AWS environment) or vertex "
        "(Google Cloud environment).",
    )
    provider_models: dict[str, str] = Field(
        default_factory=dict,
        description="Model id -> the provider's model id; merged over the built-in map.",
    )
    fresh_eyes_model: str = "claude-sonnet-4-6"
    challenger: ChallengerSettings = Field(default_factory=ChallengerSettings)
    policy_model: str = "claude-haiku-4-5"
    policy_batch_size: int = Field(
        default=8, ge=1, description="Verifier files judged per model call."
    )
    oversized: OversizedMode = OversizedMode.CHUNK
    unit_max_lines: int = Field(
        default=1000,
        ge=50,
        description="Changed lines per review unit when a PR is reviewed in units (oversized "
        "or incremental); a unit also stays within oversize.max_diff_tokens. Every unit pays "
        "a call's fixed part (output, the shared summary): on the 800-file release bench 600 "
        "lines made 493 units and $22.2, 1000 lines 298 units and $17.4 (bench/bench_cost.py).",
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

    def model_map(self) -> dict[str, str]:
        """Our model ids -> the provider's (empty for the Anthropic API: ids are its own)."""
        if self.provider is Provider.ANTHROPIC:
            return dict(self.provider_models)
        return {**PROVIDER_MODELS[self.provider], **self.provider_models}


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
