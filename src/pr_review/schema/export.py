"""JSON Schema of the contract models, for ``pr-review schema NAME`` and ``schemas/*.json``."""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel

from pr_review.schema.eval import Analysis, Comparison, Grading, Scorecard
from pr_review.schema.finding import CandidateFinding, SynthesizedFinding
from pr_review.schema.pack import EvidencePack
from pr_review.schema.verdicts import VerdictAggregate, VerdictFile

SCHEMAS: dict[str, type[BaseModel]] = {
    "evidence-pack": EvidencePack,
    "candidate-finding": CandidateFinding,
    "finding": SynthesizedFinding,
    "verdicts": VerdictFile,
    "verdicts-aggregate": VerdictAggregate,
    "grading": Grading,
    "comparison": Comparison,
    "analysis": Analysis,
    "scorecard": Scorecard,
}
"""Schema name -> model. ``finding`` is a finding after synthesis (the five extra fields)."""

_ID_BASE = "https://github.com/pr-review-guardrails/schemas/"


def json_schema(name: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a named contract, in serialization mode."""
    model = SCHEMAS[name]
    schema = model.model_json_schema(mode="serialization", by_alias=True)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"{_ID_BASE}{name}.json",
        **schema,
    }


def schema_text(name: str) -> str:
    """The schema as stable, pretty-printed JSON text (what ``schemas/NAME.json`` holds)."""
    return json.dumps(json_schema(name), indent=2, sort_keys=True) + "\n"
