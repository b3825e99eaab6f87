"""The action's packaging: action.yml matches the inputs the code reads, the Dockerfile installs
exactly as CI does, and this repository reviews itself with the action from its checkout."""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml
from image.dockerfile import Run, parse

from pr_review.action_inputs import ActionInputs
from pr_review.config import parse_config
from pr_review.schema.policy import PolicyFile

ROOT = Path(__file__).resolve().parents[2]


def test_dockerfile_installs_with_the_script_ci_runs() -> None:
    image = parse((ROOT / "Dockerfile").read_text(encoding="utf-8"))
    runs = [" ".join(s.argv) for s in image.steps if isinstance(s, Run)]
    installs = [r for r in runs if "install-runtime" in r]
    assert len(installs) == 1
    # The image's virtual environment is installed into by the one script, unchanged.
    assert re.search(r"(^|&& )PYTHON=/opt/pr-review/bin/python sh /app/\.ci/install-runtime( &&|$)",
                     installs[0].removeprefix("/bin/sh -c "))
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    # .ci/run installs through `make install`, whose recipe runs the same script.
    assert "make install" in ci
    assert re.search(r"^\t.*sh \.ci/install-runtime\s*$", makefile, re.MULTILINE)
    assert image.entrypoint == ("pr-review", "action")
    assert dict(image.env)["PATH"].startswith("/opt/pr-review/bin:")
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert not re.search(r"^(USER|WORKDIR)\b", dockerfile, re.MULTILINE)
    assert image.base == "debian:bookworm-slim"


def test_action_yml_declares_exactly_the_inputs_the_code_reads() -> None:
    meta = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    assert meta["runs"] == {"using": "docker", "image": "Dockerfile"}
    assert set(meta["inputs"]) == set(ActionInputs.model_fields)
    assert meta["inputs"]["github_token"]["default"] == "${{ github.token }}"
    assert set(meta["outputs"]) == {
        "lane",
        "findings_count",
        "blocking",
        "packet_path",
        "head_sha",
        "estimated_input_tokens",
        "estimated_cost_usd",
        "cost_usd",
        "input_tokens",
    }
    for name, spec in meta["inputs"].items():
        assert re.fullmatch(r"[a-z][a-z0-9_]*", name)
        assert spec["description"]


def test_this_repository_reviews_itself_with_the_local_action() -> None:
    workflow = yaml.safe_load(
        (ROOT / ".github/workflows/pr-review.yml").read_text(encoding="utf-8")
    )
    steps = workflow["jobs"]["review"]["steps"]
    assert any(step.get("uses") == "./" for step in steps)
    assert workflow["permissions"]["checks"] == "write"
    assert "concurrency" in workflow
    parse_config((ROOT / ".pr-review/config.yml").read_text(encoding="utf-8"), source="self")
    verifiers = sorted((ROOT / ".pr-review/verifiers").glob("*.json"))
    assert len(verifiers) >= 2
    for path in verifiers:
        PolicyFile.model_validate(json.loads(path.read_text(encoding="utf-8")))
