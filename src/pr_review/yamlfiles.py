"""The one module that imports PyYAML: safe loading only (plain mappings, lists and scalars;
no tags that build objects), and the errors a caller may explain."""

from __future__ import annotations

from typing import Any

import yaml

YAMLError = yaml.YAMLError
ConstructorError = yaml.constructor.ConstructorError


def load(text: str) -> Any:
    """The one document of ``text`` (None when empty); raises :data:`YAMLError`."""
    return yaml.safe_load(text)


def load_all(text: str) -> list[Any]:
    """Every document of ``text`` (``---``-separated); raises :data:`YAMLError`."""
    return list(yaml.safe_load_all(text))
