"""Configuration of what the Action publishes besides the packet (``labels``)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class LabelSettings(BaseModel):
    """Lane labels: exactly one ``<prefix><lane>`` label on the PR, kept in step with the lane."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    enabled: bool = Field(default=True, description="Put the lane label on the PR.")
    prefix: str = Field(
        default="pr-review:",
        min_length=1,
        max_length=40,
        pattern=r"^[^,]+$",
        description="Label names are the prefix and the lane: pr-review:green ...",
    )
    green: str = Field(default="2da44e", pattern=r"^[0-9a-fA-F]{6}$")
    yellow: str = Field(default="d4a72c", pattern=r"^[0-9a-fA-F]{6}$")
    red: str = Field(default="cf222e", pattern=r"^[0-9a-fA-F]{6}$")
