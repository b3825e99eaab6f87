"""One planted defect per language, found at its line by the deterministic review (no model
key), and an ordinary refactor in each language that surfaces nothing.

The defects are the issue's: TypeScript ``eval`` of a query parameter and a shell command
built from one, Go ``sh -c`` with a concatenated name and SQL by concatenation, shell
``rm -rf "$DIR/"*``, a Dockerfile error, a ``pull_request_target`` workflow putting the PR
title into a script, Python SQL by string formatting (our sink rule, bandit's B608 as
corroboration). Real CLI, real tools.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.gitrepo import GitRepo
from tests.verifiers.offline import review_offline

pytestmark = pytest.mark.slow

BASE = {
    "web/handler.ts": (
        'import { exec } from "child_process";\n'
        "export function handler(req: any, res: any): void {\n"
        "  res.send(String(req.query.expr));\n"
        "}\n"
    ),
    "web/util.js": "function total(items) {\n  return items.reduce((a, b) => a + b, 0);\n}\n"
    "module.exports = { total };\n",
    "cmd/server.go": (
        "package main\n\nimport (\n\t\"database/sql\"\n\t\"net/http\"\n\t\"os/exec\"\n)\n\n"
        "func handle(db *sql.DB, w http.ResponseWriter, r *http.Request) {\n"
        "\tname := r.URL.Query().Get(\"name\")\n"
        "\texec.Command(\"tar\", \"xf\", name).Run()\n"
        "\tdb.Query(\"SELECT * FROM users WHERE name = $1\", name)\n"
        "}\n"
    ),
    "scripts/clean.sh": '#!/bin/sh\nset -eu\nSTAGE_DIR="${1:?}"\nrm -rf "${STAGE_DIR:?}/"*\n',
    "Dockerfile": "FROM python:3.11-slim\nWORKDIR /app\nCOPY . /app\n",
    ".github/workflows/ci.yml": (
        "name: ci\non:\n  pull_request:\npermissions:\n  contents: read\njobs:\n  test:\n"
        "    runs-on: ubuntu-latest\n    steps:\n      - run: echo testing\n"
    ),
    "app/db.py": (
        "def find(cursor, name):\n"
        '    return cursor.execute("SELECT * FROM users WHERE name = %s", (name,))\n'
    ),
}

DEFECTS = {
    # path: (new text, the defect's line, the tool that must report it there)
    "web/handler.ts": (
        ('import { exec } from "child_process";\n'
        "export function handler(req: any, res: any): void {\n"
        "  const value = eval(String(req.query.expr));\n"
        "  exec(`convert ${req.query.file} out.png`);\n"
        "  res.send(value);\n"
        "}\n"),
        3,
        "sinks",
    ),
    "web/util.js": (
        ("function total(items) {\n  if (items.length == NaN) { return 0; }\n"
        "  return items.reduce((a, b) => a + b, 0);\n}\nmodule.exports = { total };\n"),
        2,
        "oxlint",
    ),
    "cmd/server.go": (
        ("package main\n\nimport (\n\t\"database/sql\"\n\t\"net/http\"\n\t\"os/exec\"\n)\n\n"
        "func handle(db *sql.DB, w http.ResponseWriter, r *http.Request) {\n"
        "\tname := r.URL.Query().Get(\"name\")\n"
        "\texec.Command(\"sh\", \"-c\", \"tar xf \"+name).Run()\n"
        "\tdb.Query(\"SELECT * FROM users WHERE name = '\" + name + \"'\")\n"
        "}\n"),
        11,
        "sinks",
    ),
    "scripts/clean.sh": ('#!/bin/sh\nset -eu\nSTAGE_DIR="$1"\nrm -rf "$STAGE_DIR/"*\n', 4,
                         "shellcheck"),
    "Dockerfile": ("FROM python:3.11-slim\nWORKDIR app\nCOPY . /app\n", 2, "hadolint"),
    ".github/workflows/ci.yml": (
        ("name: ci\non:\n  pull_request_target:\npermissions:\n  contents: read\njobs:\n  test:\n"
        "    runs-on: ubuntu-latest\n    steps:\n"
        "      - uses: actions/checkout@v4\n        with:\n"
        "          ref: ${{ github.event.pull_request.head.sha }}\n"
        '      - run: echo "${{ github.event.pull_request.title }}"\n'),
        13,
        "zizmor",
    ),
    "app/db.py": (
        ("def find(cursor, name):\n"
        "    return cursor.execute(\"SELECT * FROM users WHERE name = '%s'\" % name)\n"),
        2,
        "sinks",
    ),
}  # fmt: skip

REFACTOR = {
    "web/handler.ts": (
        'import { exec } from "child_process";\n'
        "function render(value: unknown): string {\n  return String(value);\n}\n"
        "export function handler(req: any, res: any): void {\n"
        "  res.send(render(req.query.expr));\n"
        "}\n"
    ),
    "web/util.js": "function total(items) {\n  let sum = 0;\n  for (const item of items) {\n"
    "    sum += item;\n  }\n  return sum;\n}\nmodule.exports = { total };\n",
    "cmd/server.go": (
        "package main\n\nimport (\n\t\"database/sql\"\n\t\"net/http\"\n\t\"os/exec\"\n)\n\n"
        "func extract(name string) error {\n"
        "\treturn exec.Command(\"tar\", \"xf\", name).Run()\n}\n\n"
        "func handle(db *sql.DB, w http.ResponseWriter, r *http.Request) {\n"
        "\tname := r.URL.Query().Get(\"name\")\n"
        "\t_ = extract(name)\n"
        "\tdb.Query(\"SELECT * FROM users WHERE name = $1\", name)\n"
        "}\n"
    ),
    "scripts/clean.sh": '#!/bin/sh\nset -eu\nstage_dir="${1:?}"\nrm -rf "${stage_dir:?}/"*\n',
    "Dockerfile": "FROM python:3.11-slim\nWORKDIR /app\nCOPY requirements.txt /app/\nCOPY . /app\n",
    ".github/workflows/ci.yml": (
        "name: ci\non:\n  pull_request:\npermissions:\n  contents: read\njobs:\n  test:\n"
        "    runs-on: ubuntu-latest\n    steps:\n      - run: echo testing the code\n"
    ),
    "app/db.py": (
        'QUERY = "SELECT * FROM users WHERE name = %s"\n\n\n'
        "def find(cursor, name):\n    return cursor.execute(QUERY, (name,))\n"
    ),
}


def _review(tmp_path: Path, head: dict[str, str]) -> list[dict[str, Any]]:
    repo = GitRepo.init(tmp_path / "repo")
    for path, text in BASE.items():
        repo.write(path, text)
    repo.commit("base")
    repo.branch("feature")
    for path, text in head.items():
        repo.write(path, text)
    repo.commit("change")
    review_offline(repo.path, tmp_path / "out")
    pack = json.loads((tmp_path / "out" / "evidence-pack.json").read_text(encoding="utf-8"))
    ran = {run["name"]: run for run in pack["verification"]["verifiers"]}
    for tool in ("oxlint", "shellcheck", "hadolint", "zizmor", "sinks", "bandit"):
        assert ran[tool]["status"] in ("pass", "fail", "warn"), ran[tool]
    findings: list[dict[str, Any]] = json.loads(
        (tmp_path / "out" / "findings.json").read_text(encoding="utf-8")
    )
    return [f for f in findings if f["source"] == "verifier" and not f["suppressed"]]


def test_every_planted_defect_surfaces_at_its_line(tmp_path: Path) -> None:
    surfaced = _review(tmp_path, {path: text for path, (text, _, _) in DEFECTS.items()})
    at = {
        (f["file"], f["line_start"], tool)
        for f in surfaced
        for tool in {f["origin"], *(c.split(":")[0] for c in f["corroborated_by"])}
    }
    for path, (_, line, tool) in DEFECTS.items():
        assert (path, line, tool) in at, (path, line, tool, sorted(at))
    # Two tools on one line about one concern are one finding, the second as corroboration.
    python = [f for f in surfaced if f["file"] == "app/db.py"]
    assert len(python) == 1, python
    assert "bandit:B608" in python[0]["corroborated_by"], python
    go = {(f["line_start"], f["rule_id"]) for f in surfaced if f["file"] == "cmd/server.go"}
    assert (12, "go-sql-built") in go, go
    ts = {(f["line_start"], f["rule_id"]) for f in surfaced if f["file"] == "web/handler.ts"}
    assert (4, "js-shell-untrusted") in ts, ts


def test_an_ordinary_refactor_in_each_language_surfaces_nothing(tmp_path: Path) -> None:
    surfaced = _review(tmp_path, REFACTOR)
    assert surfaced == [], [(f["file"], f["line_start"], f["title"]) for f in surfaced]
