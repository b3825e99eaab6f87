"""Verifier messages lose quoted secret values when the finding is parsed."""

from __future__ import annotations

import json
from pathlib import Path

from pr_review.schema.enums import VerifierSeverity
from pr_review.verifiers.model import RawFinding
from pr_review.verifiers.parsers import parse_bandit
from pr_review.verifiers.sanitize import WITHHELD, sanitize_message

_VALUE = "Qm4" + "-zT8!vR2"


def test_bandit_single_quoted_value_never_enters_a_finding(tmp_path: Path) -> None:
    report = {
        "results": [
            {
                "filename": str(tmp_path / "app.py"),
                "line_number": 3,
                "test_id": test_id,
                "test_name": "hardcoded_password_string",
                "issue_text": f"Possible hardcoded password: '{_VALUE}'",
                "issue_severity": "LOW",
                "issue_confidence": "MEDIUM",
            }
            for test_id in ("B105", "B106", "B107")
        ]
    }
    findings, _errors = parse_bandit(json.dumps(report), tmp_path)
    assert len(findings) == 3
    for finding in findings:
        assert _VALUE not in finding.message
        assert finding.message.startswith(f"Possible hardcoded password: {WITHHELD}")


def test_names_are_kept_and_recognizable_secrets_typed() -> None:
    assert (
        sanitize_message('Possible hardcoded password assigned to: "DB_PASSWORD"')
        == 'Possible hardcoded password assigned to: "DB_PASSWORD"'
    )
    token = "ghp_" + "Ab1" * 12
    assert sanitize_message(f"found {token} here") == "found [REDACTED:github_token] here"


def test_every_raw_finding_is_sanitized_whatever_builds_it() -> None:
    finding = RawFinding(
        path="x.py",
        line=1,
        end_line=None,
        rule_id="custom",
        message=f'the db password: "{_VALUE}"',
        severity=VerifierSeverity.WARNING,
    )
    assert _VALUE not in finding.message
