"""The reviewers' prompts, kept as Markdown files beside this module."""

from __future__ import annotations

from functools import cache
from importlib.resources import files


@cache
def load_prompt(name: str) -> str:
    """The text of ``<name>.md`` (UTF-8, trailing whitespace removed)."""
    return files(__name__).joinpath(f"{name}.md").read_text(encoding="utf-8").rstrip()
