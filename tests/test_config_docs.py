"""Every configuration key is documented in docs/configuration.md."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel

from pr_review.config import Config

DOC = Path(__file__).resolve().parents[1] / "docs" / "configuration.md"


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [m for arg in getattr(annotation, "__args__", ()) for m in _models_in(arg)]


def _keys(model: type[BaseModel], prefix: str = "") -> list[str]:
    keys = []
    for name, field in model.model_fields.items():
        keys.append(prefix + name)
        for sub in _models_in(field.annotation):
            if sub is not model:
                keys.extend(_keys(sub, f"{prefix}{name}."))
    return keys


def test_every_key_is_documented() -> None:
    text = DOC.read_text(encoding="utf-8")
    missing = [key for key in _keys(Config) if key.rsplit(".", 1)[-1] not in text]
    assert not missing, f"document these keys in docs/configuration.md: {missing}"


def test_every_section_has_a_heading() -> None:
    text = DOC.read_text(encoding="utf-8")
    for section in Config.model_fields:
        assert f"## {section}" in text, section
