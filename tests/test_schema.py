"""Exported JSON Schemas are current and accept what the code produces."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from pr_review.cli import main
from pr_review.schema import SCHEMA_NAMES
from pr_review.schema.export import SCHEMAS, json_schema, schema_text

ROOT = Path(__file__).resolve().parents[1]


def test_the_command_line_offers_exactly_the_exported_schemas() -> None:
    """`pr-review schema` takes its choices from SCHEMA_NAMES without importing the models."""
    assert list(SCHEMAS) == list(SCHEMA_NAMES)


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_committed_schema_files_are_current(name: str) -> None:
    """`schemas/NAME.json` equals what the models export (regenerate with the CLI)."""
    committed = (ROOT / "schemas" / f"{name}.json").read_text(encoding="utf-8")
    assert committed == schema_text(name), (
        f"schemas/{name}.json is stale: run `pr-review schema {name} > schemas/{name}.json`"
    )


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_schemas_are_valid_json_schema(name: str) -> None:
    jsonschema.Draft202012Validator.check_schema(json_schema(name))


def test_pack_schema_keeps_every_seed_field() -> None:
    """Every field of seed 003's evidence pack is present under its seed name."""
    schema = json_schema("evidence-pack")
    defs = schema["$defs"]
    top = set(schema["properties"])
    assert {
        "schema_version",
        "generated_at",
        "wall_clock_ms",
        "pr",
        "authorship",
        "diff",
        "context",
        "risk",
        "verification",
        "hotspots",
        "missing_artifacts",
    } <= top
    expected = {
        "PullRequestInfo": {"number", "title", "description", "labels", "url"},
        "Authorship": {"ai_assisted", "ai_tools", "ai_commit_ratio", "total_commits"},
        "DiffStats": {"files_changed", "insertions", "deletions"},
        "TouchedFile": {"path", "change_type", "subsystem", "insertions", "deletions"},
        "Diff": {"stats", "touched_files", "subsystems", "raw_diff"},
        "LinkedIssue": {"number", "title", "body", "labels"},
        "RelatedTest": {"source_file", "test_file", "test_exists"},
        "OwnerRule": {"path_pattern", "owners"},
        "Context": {"linked_issues", "related_tests", "owners", "repo_instructions"},
        "Risk": {"lane", "confidence", "factors", "override_applied", "override_source"},
        "RiskFactor": {"factor", "files", "severity"},
        "VerifierRun": {"name", "status", "findings", "duration_ms"},
        "VerifierFinding": {"file", "line", "message", "severity"},
        "VerificationSummary": {"passed", "failed", "warnings", "skipped"},
        "Hotspot": {"file", "line_start", "line_end", "category", "why", "risk_contributing"},
        "MissingArtifact": {"artifact", "why_required", "suggested_location", "required"},
    }
    for model, fields in expected.items():
        assert fields <= set(defs[model]["properties"]), model
        assert fields <= set(defs[model]["required"]), model
    assert defs["Lane"]["enum"] == ["green", "yellow", "red"]
    assert defs["ChangeType"]["enum"] == ["added", "modified", "deleted", "renamed"]
    assert set(defs["VerifierStatus"]["enum"]) == {"pass", "fail", "warn", "skipped", "timeout"}


def test_finding_schema_has_the_five_synthesis_fields() -> None:
    schema = json_schema("finding")
    props = set(schema["properties"])
    assert {
        "finding_id",
        "source",
        "title",
        "file",
        "line_start",
        "line_end",
        "hunk",
        "why_it_matters",
        "evidence",
        "confidence",
        "severity",
        "action",
        "requires_human",
    } <= props
    assert {
        "corroborated_by",
        "contested_by",
        "merged_confidence",
        "suppressed",
        "suppression_reason",
    } <= props


def test_cli_prints_schema(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "evidence-pack"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["title"] == "EvidencePack"
