"""Authoring repository verifier files: ``pr-review verifiers init`` and ``extract``.

``init`` writes one example file to start from. ``extract`` drafts verifier files from
CONTRIBUTING/AGENTS-style documents with the model, for a person to review before committing;
drafts are validated against the seed-``002`` model like any hand-written file.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from pydantic import ValidationError

from pr_review.errors import UserError
from pr_review.reviewers.interface import ModelRequest, StructuredModel
from pr_review.reviewers.output import DraftVerifier, ExtractOutput
from pr_review.reviewers.policy_judge import load_policies
from pr_review.reviewers.prompts import load_prompt
from pr_review.reviewers.redact import Redactor
from pr_review.reviewers.settings import ReviewerSettings
from pr_review.reviewers.untrusted import fence, new_fence_token
from pr_review.schema.policy import ChecklistItem, PolicyFile, PolicySource

__all__ = [
    "EXAMPLE_VERIFIER",
    "extract_verifiers",
    "load_policies",
    "suggested_filename",
    "write_example_verifier",
    "write_policy_files",
]

EXAMPLE_FILENAME = "tests-accompany-behaviour-changes.json"
EXAMPLE_VERIFIER = PolicyFile(
    instruction="Add or update tests whenever a pull request changes behaviour in src/",
    relevant_when="The pull request adds or changes code under src/ (not only comments or docs)",
    context=(
        "Every behaviour change ships with a test that would fail without it. Refactors that "
        "keep behaviour identical and documentation-only changes need no new test. Tests live "
        "under tests/, mirroring the src/ layout."
    ),
    sources=(PolicySource(type="file", filename="CONTRIBUTING.md"),),
    checklist=(
        ChecklistItem(
            name="tests-touched",
            rule="The pull request adds or modifies at least one file under tests/",
            relevant_when="The pull request changes behaviour of code under src/",
        ),
        ChecklistItem(
            name="new-module-has-test",
            rule="Every new module under src/ has a matching test module under tests/",
            relevant_when="The pull request adds a new module under src/",
        ),
    ),
)


def write_example_verifier(directory: Path) -> Path:
    """Write the example verifier file into ``directory`` (created if needed); never overwrite."""
    path = directory / EXAMPLE_FILENAME
    if path.exists():
        raise UserError(f"{path} already exists; edit it, or remove it to write the example again.")
    directory.mkdir(parents=True, exist_ok=True)
    path.write_text(_dump(EXAMPLE_VERIFIER), encoding="utf-8")
    return path


def extract_verifiers(
    texts: Mapping[str, str],
    model: StructuredModel,
    *,
    model_name: str | None = None,
) -> list[PolicyFile]:
    """Draft verifier files from documents (name -> text) with the model.

    Raises :class:`~pr_review.reviewers.interface.ModelOutputInvalid` or
    :class:`~pr_review.reviewers.interface.ModelUnavailable` when the model fails.
    """
    redactor = Redactor()
    docs = {name: redactor.redact(text) for name, text in sorted(texts.items())}
    token = new_fence_token("\n".join(docs.values()))
    listing = "\n\n".join(fence(_numbered(text), name, token) for name, text in docs.items())
    prompt = (
        load_prompt("extract").replace("{documents}", listing).replace("{tool}", "submit_verifiers")
    )
    request = ModelRequest(
        purpose="verifier_extract",
        model=model_name or ReviewerSettings().policy_model,
        system=load_prompt("system").replace("{token}", token),
        prompt=prompt,
        tool_name="submit_verifiers",
        tool_description="Submit the drafted verifier files.",
    )
    drafts = model.complete(request, ExtractOutput).value.verifiers
    out = []
    for draft in drafts:
        try:
            out.append(_policy_file(draft))
        except ValidationError:
            continue  # e.g. repeated check names: a draft we cannot offer as a valid file
    return out


def suggested_filename(policy: PolicyFile) -> str:
    """A short kebab-case file name derived from the instruction."""
    words = "".join(c if c.isalnum() else " " for c in policy.instruction.lower()).split()
    return "-".join(words[:6] or ["verifier"]) + ".json"


def write_policy_files(policies: list[PolicyFile], directory: Path) -> list[Path]:
    """Write drafts as ``<slug>.json`` files, never overwriting (a ``-2`` suffix is added)."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for policy in policies:
        stem = suggested_filename(policy).removesuffix(".json")
        path, n = directory / f"{stem}.json", 1
        while path.exists():
            n += 1
            path = directory / f"{stem}-{n}.json"
        path.write_text(_dump(policy), encoding="utf-8")
        written.append(path)
    return written


def _policy_file(draft: DraftVerifier) -> PolicyFile:
    source = PolicySource(type="file", filename=draft.source_file, line_no=draft.source_line)
    return PolicyFile(
        instruction=draft.instruction,
        relevant_when=draft.relevant_when,
        context=draft.context,
        sources=(source,),
        checklist=tuple(
            ChecklistItem(name=c.name, rule=c.rule, relevant_when=c.relevant_when)
            for c in draft.checklist
        ),
    )


def _numbered(text: str) -> str:
    return "\n".join(f"{n:>5}  {line}" for n, line in enumerate(text.split("\n"), start=1))


def _dump(policy: PolicyFile) -> str:
    return json.dumps(policy.model_dump(mode="json", exclude_none=True), indent=2) + "\n"
