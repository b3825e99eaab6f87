"""The runner's file and log commands: outputs, job summary, annotations.

* Outputs go to ``$GITHUB_OUTPUT`` in the ``name<<DELIM`` form with a random delimiter that
  does not occur in the value, so no value can inject another output.
* The job summary is appended to ``$GITHUB_STEP_SUMMARY`` (the runner refuses more than 1 MiB
  per step; we cut below that).
* Annotations are ``::error``/``::warning``/``::notice`` lines escaped as the actions toolkit
  does; the runner keeps only 10 of each type per step, so at most 10 are printed per type.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TextIO

from pr_review.verifiers.sanitize import mask_secrets

MAX_ANNOTATIONS_PER_TYPE = 10
MAX_ANNOTATION_CHARS = 4096
MAX_SUMMARY_BYTES = 1_000_000


class Level(StrEnum):
    """Workflow annotation type."""

    ERROR = "error"
    WARNING = "warning"
    NOTICE = "notice"


@dataclass(frozen=True)
class Annotation:
    """One workflow annotation."""

    level: Level
    message: str
    title: str = ""
    file: str | None = None
    line: int | None = None
    end_line: int | None = None


def escape_data(text: str) -> str:
    """Escape a command's message (toolkit ``escapeData``), recognizable secrets masked first."""
    return mask_secrets(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Escape a command property value (toolkit ``escapeProperty``)."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def format_annotation(a: Annotation) -> str:
    """The ``::level props::message`` line."""
    props = []
    if a.file:
        props.append(f"file={escape_property(a.file)}")
    if a.line is not None:
        props.append(f"line={a.line}")
        if a.end_line is not None and a.end_line >= a.line:
            props.append(f"endLine={a.end_line}")
    if a.title:
        props.append(f"title={escape_property(a.title[:255])}")
    prop_text = (" " + ",".join(props)) if props else ""
    return f"::{a.level.value}{prop_text}::{escape_data(a.message[:MAX_ANNOTATION_CHARS])}"


def emit_annotations(annotations: Iterable[Annotation], out: TextIO) -> int:
    """Print at most 10 annotations per level (what the runner keeps); return how many."""
    counts = dict.fromkeys(Level, 0)
    printed = 0
    for a in annotations:
        if counts[a.level] >= MAX_ANNOTATIONS_PER_TYPE:
            continue
        counts[a.level] += 1
        printed += 1
        out.write(format_annotation(a) + "\n")
    out.flush()
    return printed


def notice(message: str, out: TextIO, level: Level = Level.NOTICE) -> None:
    """One un-anchored annotation line."""
    out.write(format_annotation(Annotation(level=level, message=message)) + "\n")
    out.flush()


def format_outputs(values: Mapping[str, str], *, token: str | None = None) -> str:
    """``name<<DELIM`` blocks; the delimiter is random and checked absent from each value."""
    blocks = []
    for name, value in values.items():
        delim = token or f"ghadelimiter_{secrets.token_hex(16)}"
        if delim in value or delim in name:
            raise ValueError(f"output delimiter occurs in the value of {name}")
        blocks.append(f"{name}<<{delim}\n{value}\n{delim}\n")
    return "".join(blocks)


def write_outputs(path: Path | None, values: Mapping[str, str]) -> bool:
    """Append the outputs to ``$GITHUB_OUTPUT``; False when there is no such file."""
    if path is None:
        return False
    with path.open("a", encoding="utf-8") as fh:
        fh.write(format_outputs(values))
    return True


def write_summary(path: Path | None, markdown: str) -> bool:
    """Append Markdown to ``$GITHUB_STEP_SUMMARY``, cut below the runner's 1 MiB limit."""
    if path is None:
        return False
    data = markdown.encode("utf-8")
    if len(data) > MAX_SUMMARY_BYTES:
        cut = data[:MAX_SUMMARY_BYTES].decode("utf-8", errors="ignore")
        markdown = cut + "\n\n_(summary truncated: the runner accepts at most 1 MiB)_\n"
    with path.open("a", encoding="utf-8") as fh:
        fh.write(markdown + "\n")
    return True
