"""Loading an evaluation corpus: cases in one of two forms, which may mix in one corpus.

- diff form: ``repos/<repo>/base/`` (a plain base tree) and ``cases/<id>/{case.json,pr.diff}``;
- bundle form: ``repos/<repo>.bundle`` (a git bundle) and ``cases/<id>/case.json`` whose
  ``base`` and ``head`` name commits in that bundle (no ``pr.diff``).

``case.json`` is validated with pydantic (unknown keys are errors, so a typo in an
expectation is not silently ignored). See ``docs/eval.md`` for the format.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from pydantic import Field, ValidationError, model_validator

from pr_review.config import format_loc
from pr_review.errors import UserError
from pr_review.schema.base import Frozen
from pr_review.schema.enums import Lane


class CaseCommit(Frozen):
    """One commit of the case's PR: message and ``Name <email>`` author."""

    message: str
    author: str = "PR Author <author@example.invalid>"


class Expected(Frozen):
    """What a correct review of the case shows; every key optional (None = no expectation)."""

    lane_any_of: tuple[Lane, ...] | None = None
    no_high_findings: bool | None = None
    oversized: bool | None = None
    missing_description: bool | None = None
    ai_assisted: bool | None = None
    secrets: bool | None = None


class Criterion(Frozen):
    """One item of the weighted checklist: satisfied items add ``max_score``."""

    name: str = Field(min_length=1)
    description: str = ""
    max_score: int = Field(ge=0)


class ExpectedLines(Frozen):
    """A range of new-file lines where a planted defect is (BugsInPy form)."""

    path: str
    start: int = Field(ge=1)
    end: int = Field(ge=1)


_REV = r"^[A-Za-z0-9_][A-Za-z0-9_./-]*$"
"""A commit name in a bundle: a sha or a ref name (never an option, never a range)."""


class CaseFile(Frozen):
    """``case.json``."""

    id: str = Field(min_length=1, pattern=r"^[A-Za-z0-9_.-]+$")
    repo: str = Field(min_length=1, pattern=r"^[A-Za-z0-9_.-]+$")
    base: str | None = Field(
        default=None, pattern=_REV, description="bundle form: the PR's base commit."
    )
    head: str | None = Field(
        default=None, pattern=_REV, description="bundle form: the PR's head commit."
    )
    title: str
    body: str = ""
    labels: tuple[str, ...] = ()
    commits: tuple[CaseCommit, ...] = ()
    expected: Expected = Field(default_factory=Expected)
    criteria: tuple[Criterion, ...] = ()
    expected_lines: tuple[ExpectedLines, ...] = ()
    source: str = ""

    @model_validator(mode="after")
    def _base_and_head_together(self) -> CaseFile:
        if (self.base is None) != (self.head is None):
            raise ValueError("`base` and `head` go together (the bundle form needs both)")
        return self

    @property
    def form(self) -> CaseForm:
        """Which form the case is in (from ``base``/``head``)."""
        return CaseForm.BUNDLE if self.base is not None else CaseForm.DIFF


class CaseForm(StrEnum):
    """How a case's PR is given."""

    DIFF = "diff"
    """``pr.diff`` applied to ``repos/<repo>/base/``."""
    BUNDLE = "bundle"
    """``base...head`` in ``repos/<repo>.bundle``."""


@dataclass(frozen=True)
class Case:
    """A loaded case and where its files are."""

    spec: CaseFile
    case_dir: Path
    repos_dir: Path

    @property
    def id(self) -> str:
        """The case id."""
        return self.spec.id

    @property
    def form(self) -> CaseForm:
        """Diff or bundle form."""
        return self.spec.form

    @property
    def bundle_path(self) -> Path:
        """The git bundle holding a bundle-form case's commits."""
        return self.repos_dir / f"{self.spec.repo}.bundle"

    @property
    def diff_path(self) -> Path:
        """The PR's unified diff."""
        return self.case_dir / "pr.diff"

    @property
    def base_dir(self) -> Path:
        """The base tree the diff applies to."""
        return self.repos_dir / self.spec.repo / "base"

    @property
    def recorded_dir(self) -> Path:
        """Recorded model outputs for ``--replay`` (may not exist)."""
        return self.case_dir / "recorded"


def load_corpus(corpus_dir: Path) -> tuple[Case, ...]:
    """Every case under ``corpus_dir/cases``, sorted by id; raises UserError naming bad files."""
    cases_dir = corpus_dir / "cases"
    if not cases_dir.is_dir():
        raise UserError(
            f"{corpus_dir}: not a corpus (no cases/ directory). "
            "Point --corpus at a directory holding repos/ and cases/; see docs/eval.md."
        )
    problems: list[str] = []
    cases: list[Case] = []
    for case_dir in sorted(p for p in cases_dir.iterdir() if p.is_dir()):
        try:
            cases.append(load_case(case_dir, corpus_dir / "repos"))
        except UserError as exc:
            problems.append(str(exc))
    if problems:
        raise UserError("invalid corpus: " + " | ".join(problems))
    if not cases:
        raise UserError(f"{cases_dir}: no cases found (each case is a directory with case.json).")
    return tuple(sorted(cases, key=lambda c: c.id))


def load_case(case_dir: Path, repos_dir: Path) -> Case:
    """One case directory, validated, in exactly one form, with its files present.

    Diff form: ``pr.diff`` and the base tree; bundle form: ``base``/``head`` and the bundle.
    """
    path = case_dir / "case.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise UserError(f"{path}: missing case.json.") from exc
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UserError(f"{path}: cannot read case.json ({exc}).") from exc
    try:
        spec = CaseFile.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"`{format_loc(tuple(e['loc'])) or '(top level)'}`: {e['msg']}" for e in exc.errors()
        )
        raise UserError(f"{path}: invalid case: {problems}. See docs/eval.md.") from exc
    case = Case(spec=spec, case_dir=case_dir, repos_dir=repos_dir)
    has_diff = case.diff_path.is_file()
    if case.form is CaseForm.BUNDLE:
        if has_diff:
            raise UserError(
                f"{path}: the case has both `base`/`head` and a pr.diff. Keep one: "
                "delete pr.diff (bundle form) or remove `base` and `head` (diff form)."
            )
        if not case.bundle_path.is_file():
            raise UserError(
                f"{path}: repo {spec.repo!r} has no bundle at {case.bundle_path}. "
                "Add it (`git bundle create`), or give the case a pr.diff instead."
            )
        return case
    if not has_diff:
        raise UserError(
            f"{case.diff_path}: missing pr.diff. Add it, or name the PR's commits in a "
            "bundle with `base` and `head` (see docs/eval.md)."
        )
    if not spec.commits:
        raise UserError(f"{path}: invalid case: `commits`: a diff-form case needs at least one.")
    if not case.base_dir.is_dir():
        raise UserError(f"{path}: repo {spec.repo!r} has no base tree at {case.base_dir}.")
    return case
