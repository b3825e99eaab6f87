"""Repository policy verifier files: ``.pr-review/verifiers/*.json`` (seed ``002``).

A verifier file holds one instruction and its checklist of binary checks. The policy
reviewer judges each check against a pull request and writes the verdicts in the seed
``000`` format (:mod:`pr_review.schema.verdicts`).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from pr_review.schema.base import Frozen

KEBAB_CASE = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"


class PolicySource(Frozen):
    """Where an instruction came from."""

    type: Literal["file", "user"]
    filename: str | None = None
    """Path of the source document; required when ``type`` is ``file``."""
    tile: str | None = None
    line_no: int | None = Field(default=None, ge=1)

    @model_validator(mode="after")
    def _filename_for_files(self) -> PolicySource:
        if self.type == "file" and not self.filename:
            raise ValueError("a source of type 'file' needs a filename")
        return self


class ChecklistItem(Frozen):
    """One binary check a judge can answer yes or no."""

    name: str = Field(pattern=KEBAB_CASE, max_length=64)
    """Short kebab-case identifier, unique within its file."""
    rule: str = Field(min_length=1)
    relevant_when: str = Field(min_length=1)


class PolicyFile(Frozen):
    """One verifier file: an instruction and its checklist."""

    instruction: str = Field(min_length=1)
    relevant_when: str = Field(min_length=1)
    context: str = Field(min_length=1)
    sources: tuple[PolicySource, ...] = ()
    checklist: tuple[ChecklistItem, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique_check_names(self) -> PolicyFile:
        names = [item.name for item in self.checklist]
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise ValueError(f"checklist names must be unique; repeated: {', '.join(duplicates)}")
        return self
