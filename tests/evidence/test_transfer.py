"""Red only from transferable evidence: name- and count-keyed factors are yellow at most;
access-control guards, new sinks and widened CI trust stay red; a deleted workflow does not."""

from __future__ import annotations

from pathlib import Path

import pytest

from pr_review.config import parse_config
from pr_review.errors import ConfigError
from pr_review.evidence.build import build_pack
from pr_review.evidence.factors import known_factors
from pr_review.evidence.guards import is_access_control
from pr_review.evidence.transfer import YELLOW_AT_MOST, NotTransferable, cap, transferable
from pr_review.schema.enums import FactorSeverity, Lane
from pr_review.schema.pack import RiskFactor
from pr_review.sources.diff import FileStatus
from tests.evidence.helpers import file_diff, pull_request
from tests.evidence.helpers import lane_and_factors as _risk


@pytest.mark.parametrize("entry", YELLOW_AT_MOST, ids=lambda e: e.factor)
def test_a_name_or_count_factor_is_yellow_at_most(entry: NotTransferable) -> None:
    red = RiskFactor(factor=entry.factor, files=("a.py",), severity=FactorSeverity.RED,
                     why=entry.example)  # fmt: skip
    capped = cap(red)
    assert capped.severity is FactorSeverity.MODERATE
    assert f"yellow at most: keyed to {entry.keyed_to}" in capped.why
    assert not transferable(entry.factor)


@pytest.mark.parametrize(
    "factor",
    ["secrets", "crypto", "sql-construction", "access-control-removed", "sink-code-eval",
     "ci-trust", "migration", "check-then-act", "money-movement", "security-advisory",
     "access-control-added", "input-limit-changed", "sink-proxy-header", "sink-object-key"],
)  # fmt: skip
def test_transferable_evidence_keeps_red(factor: str) -> None:
    red = RiskFactor(factor=factor, files=("a.py",), severity=FactorSeverity.RED, why="x")
    assert cap(red) == red


@pytest.mark.parametrize(
    ("guard", "access"),
    [
        ("@login_required", True),
        ('@require_permission("approve")', True),
        ("if not user.is_admin: abort(403)", True),
        ("if request.user != order.owner: raise PermissionDenied()", True),
        ("if not verify_signature(payload, sig): return None", True),
        ("if not items: return None", False),
        ("@functools.cache", False),
        ("if value is None: return None", False),
        ("if len(args) > 3: raise TypeError('too many')", False),
    ],
)
def test_access_control_guards(guard: str, access: bool) -> None:
    assert is_access_control(guard) is access


_VIEWS = '''@app.route("/orders/<id>")
@login_required
def order(id):
    return load(id)


def total(items):
    if not items:
        return None
    return sum(items)
'''


def test_an_access_check_removed_is_red_and_says_which() -> None:
    head = _VIEWS.replace("@login_required\n", "")
    lane, factors = _risk(
        files=[file_diff("app/views.py", [], ["@login_required"], start=2)],
        base={"app/views.py": _VIEWS}, head={"app/views.py": head},
    )  # fmt: skip
    assert lane is Lane.RED
    why = factors["access-control-removed:red"].why
    assert "@login_required" in why
    assert "line 2" in why


def test_an_ordinary_guard_removed_is_yellow() -> None:
    head = _VIEWS.replace("    if not items:\n        return None\n", "")
    lane, factors = _risk(
        files=[file_diff("app/views.py", [], ["    if not items:", "        return None"],
                         start=8)],
        base={"app/views.py": _VIEWS}, head={"app/views.py": head},
    )  # fmt: skip
    assert lane is Lane.YELLOW
    assert "guard-removed:moderate" in factors


_WORKFLOW = (
    "name: release\non:\n  push:\n    tags: ['v*']\npermissions:\n  contents: write\n"
    "jobs:\n  publish:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make publish\n"
)


def test_a_deleted_workflow_is_not_red() -> None:
    lane, factors = _risk(
        files=[file_diff(".github/workflows/release.yml", [], _WORKFLOW.splitlines(),
                         status=FileStatus.DELETED)],
        base={".github/workflows/release.yml": _WORKFLOW}, head={},
    )  # fmt: skip
    assert lane is Lane.YELLOW
    assert "ci-change:moderate" in factors


_HANDLER = 'export function handler(req: any) {\n  return String(req.query.expr);\n}\n'
_EVAL = ("return String(req.query.expr);", "return eval(String(req.query.expr));")


def test_request_input_newly_reaching_eval_is_red_with_its_line() -> None:
    head = _HANDLER.replace(*_EVAL)
    lane, factors = _risk(
        files=[file_diff("src/handler.ts", ["  return eval(String(req.query.expr));"],
                         ["  return String(req.query.expr);"], start=2)],
        base={"src/handler.ts": _HANDLER}, head={"src/handler.ts": head},
    )  # fmt: skip
    assert lane is Lane.RED
    why = factors["sink-code-eval:red"].why
    assert "line 2" in why
    assert "eval(String(req.query.expr))" in why


def test_a_sink_that_was_already_there_is_not_new_evidence() -> None:
    base = _HANDLER.replace(*_EVAL)
    head = "// evaluates the expression\n" + base
    _, factors = _risk(
        files=[file_diff("src/handler.ts", ["// evaluates the expression"], [], start=1)],
        base={"src/handler.ts": base}, head={"src/handler.ts": head},
    )  # fmt: skip
    assert not [k for k in factors if k.startswith("sink-")]


def test_go_tls_verification_off_is_red_and_a_shell_string_is_yellow() -> None:
    tls = "package p\n\nvar c = &tls.Config{InsecureSkipVerify: true}\n"
    shell = 'package p\n\nfunc f(n string) { exec.Command("sh", "-c", "tar xf "+n).Run() }\n'
    lane, factors = _risk(
        files=[file_diff("net/client.go", tls.splitlines(), status=FileStatus.ADDED),
               file_diff("tools/untar.go", shell.splitlines(), status=FileStatus.ADDED)],
        head={"net/client.go": tls, "tools/untar.go": shell},
    )  # fmt: skip
    assert lane is Lane.RED
    assert "sink-tls:red" in factors
    assert "sink-shell:moderate" in factors


def _capped_pack(config_text: str, body: str = "A description long enough to state the intent.") \
        -> tuple[Lane, dict[str, RiskFactor]]:
    head = _VIEWS.replace("@login_required\n", "")
    pr = pull_request(
        [file_diff("app/views.py", [], ["@login_required"], start=2)],
        body=body, base={"app/views.py": _VIEWS}, head={"app/views.py": head},
    )  # fmt: skip
    pack = build_pack(pr, parse_config(config_text, source="config.yml"))
    return pack.risk.lane, {f"{f.factor}:{f.severity}": f for f in pack.risk.factors}


_CAP = """risk:
  yellow_at_most:
    - factor: access-control-removed
      paths: [{paths}]
      reason: our views are public by design
    - factor: auth-permission
      paths: [{paths}]
      reason: the same decorator, read by its words
"""


def test_a_repository_caps_a_factor_on_its_own_paths() -> None:
    lane, factors = _capped_pack(_CAP.format(paths="'app/**'"))
    assert lane is Lane.YELLOW
    why = factors["access-control-removed:moderate"].why
    assert "yellow at most in this repository, risk.yellow_at_most[0]: our views are public" in why
    assert "@login_required" in why


def test_a_cap_leaves_a_factor_on_other_paths_red() -> None:
    lane, factors = _capped_pack(_CAP.format(paths="'lib/**'"))
    assert lane is Lane.RED
    assert "access-control-removed:red" in factors


def test_a_cap_never_stops_the_raising_rules() -> None:
    raised = _CAP.format(paths="'**'") + "  overrides:\n    - paths: ['app/**']\n      lane: red\n"
    assert _capped_pack(raised)[0] is Lane.RED
    body = "Removes the login check.\n\nrisk: red\n"
    assert _capped_pack(_CAP.format(paths="'**'"), body=body)[0] is Lane.RED


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ("factor: sink-validaton\n      reason: r",
         "`risk.yellow_at_most[0].factor`: unknown risk factor `sink-validaton` (known: "),
        ("factor: reviewer-escalation\n      reason: r",
         "`reviewer-escalation` cannot be capped here: set `risk.escalation` instead"),
        ("factor: sink-validation", "`risk.yellow_at_most[0].reason`: Field required"),
        ("factor: sink-validation\n      reason: r\n      paths: ['[a']",
         "`risk.yellow_at_most[0].paths[0]`: Value error, unbalanced brackets"),
    ],
)
def test_a_bad_cap_is_a_configuration_error_naming_the_fix(entry: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(f"risk:\n  yellow_at_most:\n    - {entry}\n", source="config.yml")
    assert message in str(caught.value)
    assert str(caught.value).startswith("config.yml: invalid configuration:")


def test_the_factor_registry_knows_every_factor_the_stage_names() -> None:
    """Every name a test here or the built-in caps use, and each family's constants."""
    known = known_factors()
    names = {e.factor for e in YELLOW_AT_MOST} | {
        "secrets", "crypto", "sql-construction", "access-control-removed", "sink-code-eval",
        "ci-trust", "ci-change", "migration", "check-then-act", "money-movement",
        "security-advisory", "access-control-added", "input-limit-changed", "logic-change",
        "sink-proxy-header", "sink-object-key", "path-containment-changed", "beyond-full-analysis",
        "regex-backtracking-removed", "origin-check-changed", "security-check-changed",
    }  # fmt: skip
    assert names <= known
    assert not {"reviewer-escalation", "override:app/**"} & known


def test_every_known_factor_is_documented() -> None:
    docs = (Path(__file__).resolve().parents[2] / "docs" / "configuration.md").read_text()
    missing = sorted(f for f in known_factors() if f"`{f}`" not in docs)
    assert not missing, f"factors docs/configuration.md does not name: {missing}"
