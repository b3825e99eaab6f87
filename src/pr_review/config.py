"""Repository configuration: ``.pr-review/config.yml``, loaded and validated.

Each stage owns its section model (``evidence.settings``, ``verifiers.settings`` ...);
this module composes them, reads the YAML and turns validation errors into one clear
message that names the file, the key path and what is allowed. A missing file means
defaults. Unknown keys are errors.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pr_review import yamlfiles
from pr_review.errors import ConfigError
from pr_review.evidence.settings import (
    ArtifactSettings,
    InstructionSettings,
    OversizeSettings,
    PathSettings,
    RiskSettings,
    SubsystemGlobs,
)
from pr_review.publish.settings import LabelSettings
from pr_review.reviewers.settings import ReviewerSettings
from pr_review.synthesis.settings import SynthesisSettings
from pr_review.verifiers.settings import VerifierSettings

CONFIG_RELPATH = Path(".pr-review") / "config.yml"


class Config(BaseModel):
    """The whole repository configuration."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    subsystems: SubsystemGlobs = Field(
        default_factory=dict, description="Subsystem name -> glob patterns; first match wins."
    )
    risk: RiskSettings = Field(default_factory=RiskSettings)
    artifacts: ArtifactSettings = Field(default_factory=ArtifactSettings)
    oversize: OversizeSettings = Field(default_factory=OversizeSettings)
    paths: PathSettings = Field(default_factory=PathSettings)
    instructions: InstructionSettings = Field(default_factory=InstructionSettings)
    verifiers: VerifierSettings = Field(default_factory=VerifierSettings)
    reviewers: ReviewerSettings = Field(default_factory=ReviewerSettings)
    synthesis: SynthesisSettings = Field(default_factory=SynthesisSettings)
    labels: LabelSettings = Field(default_factory=LabelSettings)


def load_config(path: Path) -> Config:
    """Read and validate a config file; a missing file gives the defaults."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Config()
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read the configuration file ({exc}).") from exc
    return parse_config(text, source=str(path))


_TAG = re.compile(r"(?<=tag ')[^']+")


def _short_tag(tag: str) -> str:
    """``tag:yaml.org,2002:python/object:x`` -> ``!!python/object:x`` (as it was written)."""
    prefix = "tag:yaml.org,2002:"
    return "!!" + tag[len(prefix) :] if tag.startswith(prefix) else tag


def parse_config(text: str, *, source: str) -> Config:
    """Validate configuration text; ``source`` names it in error messages."""
    try:
        data = yamlfiles.load(text)
    except yamlfiles.YAMLError as exc:
        where = ""
        mark = getattr(exc, "problem_mark", None)
        if mark is not None:
            where = f" at line {mark.line + 1}, column {mark.column + 1}"
        tag = _TAG.search(str(getattr(exc, "problem", "") or ""))
        if isinstance(exc, yamlfiles.ConstructorError) and tag is not None:
            raise ConfigError(
                f"{source}: the YAML tag {_short_tag(tag.group(0))}{where} is not allowed: the "
                "configuration is plain YAML (mappings, lists, strings, numbers); remove the "
                "tag. See docs/configuration.md."
            ) from exc
        raise ConfigError(
            f"{source}: not valid YAML{where}. Fix the syntax; see docs/configuration.md."
        ) from exc
    if data is None:
        return Config()
    if not isinstance(data, dict):
        raise ConfigError(
            f"{source}: the top level must be a mapping of sections "
            f"(allowed: {', '.join(Config.model_fields)}), not {type(data).__name__}."
        )
    try:
        config = Config.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(describe_validation_error(exc, source=source, model=Config)) from exc
    if config.risk.yellow_at_most:
        _check_factor_names(config, source)
    return config


def _check_factor_names(config: Config, source: str) -> None:
    """Every ``risk.yellow_at_most`` entry names a factor the evidence stage knows."""
    # The registry imports every evidence rule module (about 0.1 s): only a configuration that
    # caps a factor pays for it, not every command's start-up.
    from pr_review.evidence.factors import unknown_factor  # noqa: PLC0415 (see above)

    problems = [
        f"`risk.yellow_at_most[{index}].factor`: {why}"
        for index, entry in enumerate(config.risk.yellow_at_most)
        if (why := unknown_factor(entry.factor)) is not None
    ]
    if problems:
        listing = "; ".join(problems)
        raise ConfigError(f"{source}: invalid configuration: {listing}. See docs/configuration.md.")


def describe_validation_error(
    exc: ValidationError, *, source: str, model: type[BaseModel]
) -> str:
    """One message naming the file, each bad key path, and what is allowed there."""
    problems = []
    for err in exc.errors():
        loc = tuple(err["loc"])
        path = format_loc(loc) or "(top level)"
        if err["type"] == "extra_forbidden":
            allowed = _allowed_keys(model, loc[:-1])
            hint = f" (allowed here: {', '.join(allowed)})" if allowed else ""
            problems.append(f"unknown key `{path}`{hint}")
        else:
            problems.append(f"`{path}`: {err['msg']}")
    listing = "; ".join(problems)
    return f"{source}: invalid configuration: {listing}. See docs/configuration.md."


def format_loc(loc: Sequence[int | str]) -> str:
    """``("risk", "overrides", 0, "lane")`` -> ``risk.overrides[0].lane``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def _allowed_keys(model: type[BaseModel], loc: Sequence[int | str]) -> list[str]:
    """Field names of the model reached by following ``loc`` from ``model``."""
    current: Any = model
    for part in loc:
        if isinstance(part, int) or current is None:
            continue
        field = current.model_fields.get(part) if _is_model(current) else None
        if field is None:
            return []
        current = _model_in(field.annotation)
    return list(current.model_fields) if _is_model(current) else []


def _is_model(obj: object) -> bool:
    return isinstance(obj, type) and issubclass(obj, BaseModel)


def _model_in(annotation: Any) -> Any:
    """The BaseModel class inside an annotation such as ``tuple[X, ...] | None``."""
    if _is_model(annotation):
        return annotation
    for arg in getattr(annotation, "__args__", ()):
        found = _model_in(arg)
        if found is not None:
            return found
    return None
