"""The built-in verifiers, run for real on small real git repositories.

Each fixture repository is reviewed once (module scope); the tests read that one result.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pr_review.schema.enums import TrustMode, VerifierStatus
from pr_review.schema.pack import Verification, VerifierRun
from pr_review.sources.model import PullRequest
from pr_review.verifiers import builtin, run_verifiers, sides
from pr_review.verifiers.settings import VerifierSettings
from tests.verifiers.prs import make_pr
from tests.verifiers.toggles import OTHER_LANGUAGES_OFF

pytestmark = pytest.mark.slow

# Planted secrets, assembled from parts so this file does not itself trip secret scanners.
AWS_KEY_ID = "AKIA" + "Q3EXAMPLE7" + "WZ4NRT"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY"
PEM_BEGIN = "-----BEGIN " + "RSA PRIVATE KEY-----"
PEM_END = "-----END " + "RSA PRIVATE KEY-----"
GH_TOKEN = "ghp_" + "Zq8Rt2Vx6Yb1Nc4Md7Lf0Kg3Jh5Pw9Sa2Ee"
STRIPE_KEY = "sk_live_" + "9fQ2xL7pR4tW1zK8mN3vB6cY"
SLACK_TOKEN = "xoxb-" + "482716390512-2947103865142-QwErTyUiOpAsDfGhJkLzXcVb"
OLD_SECRET = "ghp_" + "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2"

LEGACY_BASE = """\
import json
import os
import subprocess


def run(cmd):
    subprocess.call(cmd, shell=True)


def dump(x):
    return json.dumps(x)


def wrong() -> int:
    return "nope"
"""

# Two lines inserted at the top shift every old problem; `dump` stops using json, so the
# untouched `import json` becomes unused: new in head, and the PR's doing.
LEGACY_HEAD = "# Legacy helpers.\n\n" + LEGACY_BASE.replace(
    "    return json.dumps(x)", "    return str(x)"
)

SERVICE_TEMPLATE = '''\
import subprocess


def run_user_command(cmd: str) -> int:
    return subprocess.call(cmd, shell=True)


def find_user(name: str) -> str:
    query = f"SELECT * FROM users WHERE name = '{name}'"
    return query


def count() -> int:
    total: int = "many"
    return total


AWS_ACCESS_KEY_ID = "@AWS_KEY_ID@"
DEPLOY_KEY = """@PEM_BEGIN@
MIIEowIBAAKCAQEA7bq3
@PEM_END@"""
'''
SERVICE = (
    SERVICE_TEMPLATE.replace("@AWS_KEY_ID@", AWS_KEY_ID)
    .replace("@PEM_BEGIN@", PEM_BEGIN)
    .replace("@PEM_END@", PEM_END)
)


def line_of(text: str, needle: str) -> int:
    """1-based number of the first line containing ``needle``."""
    for number, line in enumerate(text.splitlines(), start=1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in text")


def by_name(verification: Verification, name: str) -> VerifierRun:
    return next(r for r in verification.verifiers if r.name == name)


def hits(run: VerifierRun, path: str) -> set[tuple[str | None, int | None]]:
    return {(f.rule_id, f.line) for f in run.findings if f.file == path}


@pytest.fixture(scope="module")
def risky(tmp_path_factory: pytest.TempPathFactory) -> tuple[PullRequest, Verification]:
    root = tmp_path_factory.mktemp("risky")
    pr = make_pr(
        root / "repo",
        {
            "pyproject.toml": "[tool.mypy]\nstrict = true\n\n[tool.ruff]\nline-length = 100\n",
            "requirements-dev.txt": "mypy\nruff\n",  # the repository runs mypy: it installs it
            "app/__init__.py": "",
            "app/legacy.py": LEGACY_BASE,
        },
        {"app/legacy.py": LEGACY_HEAD, "app/service.py": SERVICE},
    )
    verification = run_verifiers(
        pr, VerifierSettings(), trust_mode=TrustMode.UNTRUSTED, tmp_root=root
    )
    return pr, verification


def test_bandit_reports_shell_true_and_sql_built_with_an_f_string(
    risky: tuple[PullRequest, Verification],
) -> None:
    _, verification = risky
    bandit = by_name(verification, "bandit")
    found = hits(bandit, "app/service.py")
    assert ("B602", line_of(SERVICE, "shell=True")) in found
    assert ("B608", line_of(SERVICE, "SELECT")) in found
    assert bandit.status is VerifierStatus.FAIL
    assert bandit.files_checked == ("app/legacy.py", "app/service.py")


def test_secrets_reports_the_aws_key_and_the_private_key_without_their_values(
    risky: tuple[PullRequest, Verification],
) -> None:
    _, verification = risky
    secrets = by_name(verification, "secrets")
    lines = {f.line for f in secrets.findings if f.file == "app/service.py"}
    assert line_of(SERVICE, "AWS_ACCESS_KEY_ID") in lines
    assert line_of(SERVICE, "BEGIN RSA") in lines
    assert secrets.status is VerifierStatus.FAIL
    dumped = verification.model_dump_json()
    assert AWS_KEY_ID not in dumped
    assert "MIIEowIBAAKCAQEA7bq3" not in dumped


def test_mypy_reports_the_new_type_error_when_the_repository_configures_it(
    risky: tuple[PullRequest, Verification],
) -> None:
    _, verification = risky
    mypy = by_name(verification, "mypy")
    assert ("assignment", line_of(SERVICE, 'total: int = "many"')) in hits(mypy, "app/service.py")
    assert mypy.status is VerifierStatus.FAIL


def test_old_problems_on_untouched_lines_are_not_reported(
    risky: tuple[PullRequest, Verification],
) -> None:
    _, verification = risky
    legacy = [
        (run.name, f.rule_id, f.line)
        for run in verification.verifiers
        for f in run.findings
        if f.file == "app/legacy.py"
    ]
    # Only the import the PR made unused is the PR's; shell=True, `os`, the bad return
    # and the untyped defs were all there before, on lines that merely moved.
    assert legacy == [("ruff", "F401", line_of(LEGACY_HEAD, "import json"))]
    assert "left out" in (by_name(verification, "bandit").reason or "")


def test_summary_counts_each_status(risky: tuple[PullRequest, Verification]) -> None:
    _, verification = risky
    statuses = [r.status for r in verification.verifiers]
    assert verification.summary.failed == statuses.count(VerifierStatus.FAIL)
    assert verification.summary.passed == statuses.count(VerifierStatus.PASS)
    assert verification.trust_mode is TrustMode.UNTRUSTED
    assert all(r.duration_ms > 0 for r in verification.verifiers)


SECRET_FILES = {
    ".env": f"APP_NAME=demo\nAWS_SECRET_ACCESS_KEY={AWS_SECRET}\n",
    "config/settings.yaml": f"service:\n  name: demo\n  github_token: {GH_TOKEN}\n",
    "config/app.json": json.dumps({"name": "demo", "stripe": STRIPE_KEY}, indent=2) + "\n",
    "web/client.js": f'const name = "demo";\nconst slack = "{SLACK_TOKEN}";\n',
}


@pytest.fixture(scope="module")
def leaky(tmp_path_factory: pytest.TempPathFactory) -> Verification:
    root = tmp_path_factory.mktemp("leaky")
    old = f"token = {OLD_SECRET}\nretries = 3\n"
    pr = make_pr(
        root / "repo",
        {"README.md": "demo\n", "old.ini": old},
        {**SECRET_FILES, "old.ini": old.replace("retries = 3", "retries = 5")},
    )
    return run_verifiers(pr, VerifierSettings(), trust_mode=TrustMode.UNTRUSTED, tmp_root=root)


@pytest.mark.parametrize("path", sorted(SECRET_FILES))
def test_a_secret_added_to_any_text_file_is_caught(leaky: Verification, path: str) -> None:
    secrets = by_name(leaky, "secrets")
    planted = line_of(SECRET_FILES[path], next(
        s for s in (AWS_SECRET, GH_TOKEN, STRIPE_KEY, SLACK_TOKEN) if s in SECRET_FILES[path]
    ))  # fmt: skip
    assert planted in {f.line for f in secrets.findings if f.file == path}
    assert secrets.status is VerifierStatus.FAIL


def test_a_secret_already_in_the_base_is_not_the_prs(leaky: Verification) -> None:
    secrets = by_name(leaky, "secrets")
    assert [f for f in secrets.findings if f.file == "old.ini"] == []
    assert all(s not in leaky.model_dump_json() for s in (GH_TOKEN, STRIPE_KEY, OLD_SECRET))


def test_python_tools_skip_a_pr_without_python_files(leaky: Verification) -> None:
    for name in ("ruff", "bandit"):
        run = by_name(leaky, name)
        assert run.status is VerifierStatus.SKIPPED
        assert run.reason == "no Python files touched"
    assert "not configured" in (by_name(leaky, "mypy").reason or "")


def test_workspace_is_removed_after_the_run(tmp_path: Path) -> None:
    pr = make_pr(tmp_path / "repo", {"a.py": "x = 1\n"}, {"a.py": "x = 2\n"})
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    only_ruff = VerifierSettings.model_validate(
        {"builtin": {**OTHER_LANGUAGES_OFF, "bandit": False, "secrets": False, "mypy": False}}
    )
    verification = run_verifiers(pr, only_ruff, trust_mode=TrustMode.TRUSTED, tmp_root=scratch)
    assert by_name(verification, "ruff").status is VerifierStatus.PASS
    assert list(scratch.iterdir()) == []


NOISY = """\
import sys
import os
from datetime import timezone, datetime


def handler(items=[]):
    try:
        return undefined_helper(items)
    except Exception:
        pass
    assert items
    print(datetime.now(timezone.utc), os.sep)


def shut(handle):
    handle.close


def text(value):
    if sys.version_info[0] == 2:
        return unicode(value)
    return str(value)
"""

NOISY_TEST = """\
import pytest


def test_login():
    password = "hunter2-fixture"
    assert password


def test_the_sandbox_refuses_the_formatter(sandbox):
    with pytest.raises(NotImplementedError):
        sandbox.Formatter
"""


@pytest.fixture(scope="module")
def unconfigured(tmp_path_factory: pytest.TempPathFactory) -> Verification:
    """A repository with no ruff or bandit configuration: the default rule sets run."""
    root = tmp_path_factory.mktemp("unconfigured")
    pr = make_pr(
        root / "repo",
        {"README.md": "demo\n"},
        {"app/noisy.py": NOISY, "tests/test_noisy.py": NOISY_TEST},
    )
    return run_verifiers(pr, VerifierSettings(), trust_mode=TrustMode.UNTRUSTED, tmp_root=root)


def test_default_ruff_set_reports_bugs_not_style(unconfigured: Verification) -> None:
    rules = {f.rule_id for f in by_name(unconfigured, "ruff").findings}
    assert {"F821", "B006"} <= rules  # undefined name, mutable default
    assert not rules & {"I001", "F401", "UP017", "BLE001", "S110", "E401", "PT"}


def test_default_ruff_set_keeps_a_missing_call_not_an_expected_raise(
    unconfigured: Verification,
) -> None:
    useless = {(f.file, f.line) for f in by_name(unconfigured, "ruff").findings
               if f.rule_id == "B018"}  # fmt: skip
    assert useless == {("app/noisy.py", 16)}  # `handle.close`; not `sandbox.Formatter`


def test_default_ruff_set_leaves_python2_builtins_to_python2(unconfigured: Verification) -> None:
    undefined = {f.message for f in by_name(unconfigured, "ruff").findings if f.rule_id == "F821"}
    assert undefined == {"Undefined name `undefined_helper`"}  # not `unicode` under a PY2 test


def test_default_bandit_set_drops_asserts_and_test_passwords(unconfigured: Verification) -> None:
    bandit = by_name(unconfigured, "bandit")
    assert bandit.status is VerifierStatus.PASS  # it ran, and only dropped rules would hit
    assert bandit.files_checked == ("app/noisy.py", "tests/test_noisy.py")
    rules = {(f.file, f.rule_id) for f in bandit.findings}
    assert not {r for _, r in rules} & {"B101", "B110"}
    assert ("tests/test_noisy.py", "B105") not in rules


def test_python_files_over_the_byte_budget_are_named_not_parsed(tmp_path: Path) -> None:
    from pr_review.verifiers.builtin import MAX_TOOL_BYTES

    item = "'abcdefghij', "
    data = "DATA = [" + item * (MAX_TOOL_BYTES // len(item) + 1) + "]\n"
    pr = make_pr(
        tmp_path / "repo",
        {"app/__init__.py": ""},
        {"app/data.py": data, "app/small.py": "print(undefined_name)\n"},
    )
    settings = VerifierSettings.model_validate(
        {"builtin": {**OTHER_LANGUAGES_OFF, "secrets": False, "mypy": False}}
    )
    verification = run_verifiers(pr, settings, trust_mode=TrustMode.UNTRUSTED, tmp_root=tmp_path)
    for name in ("ruff", "bandit"):
        run = by_name(verification, name)
        assert "app/data.py" not in run.files_checked
        assert "app/small.py" in run.files_checked
        assert "over 2 MB: app/data.py" in (run.reason or "")
    assert hits(by_name(verification, "ruff"), "app/small.py") == {("F821", 1)}


def test_bandit_split_across_processes_reports_what_one_process_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Old problems on context lines make the base side run too: both sides get split.
    risky = "import subprocess\n\n\ndef run(cmd):\n    return subprocess.call(cmd, shell=True)\n"
    base = {f"app/m{i}.py": risky for i in range(5)}
    query = "\n\ndef q(x):\n    return f'SELECT * FROM t WHERE a = {x}'\n"
    head = dict.fromkeys(base, risky + query)
    pr = make_pr(tmp_path / "repo", base, head)
    settings = VerifierSettings.model_validate(
        {"builtin": {**OTHER_LANGUAGES_OFF, "secrets": False, "mypy": False, "ruff": False}}
    )

    def bandit_run(cores: int, min_bytes: int) -> tuple[VerifierRun, list[str]]:
        monkeypatch.setattr(sides, "usable_cores", lambda: cores)
        monkeypatch.setattr(builtin, "usable_cores", lambda: cores)
        monkeypatch.setattr(sides, "SHARD_MIN_BYTES", min_bytes)
        reports: list[str] = []
        real = sides.run_tool

        def spy(*args: Any, **kwargs: Any) -> Any:
            reports.append(kwargs["side"].output_for("bandit", Path()).name)
            return real(*args, **kwargs)

        monkeypatch.setattr(sides, "run_tool", spy)
        verification = run_verifiers(
            pr, settings, trust_mode=TrustMode.UNTRUSTED, tmp_root=tmp_path
        )
        return by_name(verification, "bandit"), sorted(reports)

    whole, whole_reports = bandit_run(1, 1)
    split, split_reports = bandit_run(3, 1)
    assert whole_reports == ["bandit-base.out", "bandit-head.out"]
    assert split_reports == [f"bandit-{s}-{i}.out" for s in ("base", "head") for i in (1, 2, 3)]
    assert whole.findings
    assert whole.findings == split.findings
    assert {(f.file, f.rule_id) for f in split.findings} == {
        (f"app/m{i}.py", "B608") for i in range(5)
    }
    assert split.files_checked == whole.files_checked


# A public key spelled out in code, as pyload's captcha userscript verifies the scripts it runs
# (holdout39): the entropy detector guesses at its body lines, which are public by design.
PUBLIC_KEY_JS = (
    "const sig = new KJUR.crypto.Signature({alg: 'SHA384withRSA'});\n"
    'sig.init("-----BEGIN ' + 'PUBLIC KEY-----\\n" +\n'
    '  "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAuEHE4uAeTeEQjIwB//YH\\n" +\n'
    '  "Gl5e058aJRCRyOvApv1iC1ZQgXGHopgEd528+AtkAZKdCRkoNCWda7L/hROpZNjq\\n" +\n'
    '  "xgO5NjjlBnotntQiZ6xr7A4Kfdctmw1DPcv/dkp6SXRpAAw8BE9CctZ3H7cE/4UT\\n" +\n'
    '  "-----END ' + 'PUBLIC KEY-----");\n'
    f'const slack = "{SLACK_TOKEN}";\n'
)


def test_a_public_key_spelled_out_in_code_is_information_a_token_beside_it_is_not(
    tmp_path: Path,
) -> None:
    pr = make_pr(tmp_path / "repo", {"README.md": "demo\n"},
                 {"README.md": "demo\n", "web/verify.js": PUBLIC_KEY_JS})
    secrets = by_name(run_verifiers(pr, VerifierSettings(), trust_mode=TrustMode.UNTRUSTED,
                                    tmp_root=tmp_path), "secrets")
    by_line = {f.line: f for f in secrets.findings if f.file == "web/verify.js"}
    assert by_line[line_of(PUBLIC_KEY_JS, SLACK_TOKEN)].severity.value == "error"
    key_lines = {line_of(PUBLIC_KEY_JS, "MIIBIj"), line_of(PUBLIC_KEY_JS, "Gl5e05"),
                 line_of(PUBLIC_KEY_JS, "xgO5Nj")}
    guessed = [by_line[n] for n in key_lines if n in by_line]
    assert guessed  # the entropy detector does guess at the body lines
    assert all(f.severity.value == "info" for f in guessed), guessed
    assert all("public key or certificate" in f.message for f in guessed)


# passport re-indenting a JSDoc usage example (holdout72): detect-secrets' keyword detector sees
# the line as added; the value was in the file before the PR.
USAGE_BEFORE = (
    "/**\n * Examples:\n *\n *     app.configure(function() {\n"
    " *       app.use(connect.session({ secret: 'keyboard cat' }));\n *     });\n */\n"
)
USAGE_AFTER = (
    "/**\n * Examples:\n *\n"
    " *     app.use(connect.session({ secret: 'keyboard cat' }));\n"
    " *     app.use(connect.session({ secret: 'tabby cat' }));\n */\n"
)


def test_a_guess_the_pr_only_re_indented_is_information_a_new_value_is_not(
    tmp_path: Path,
) -> None:
    pr = make_pr(tmp_path / "repo", {"lib/auth.js": USAGE_BEFORE}, {"lib/auth.js": USAGE_AFTER})
    secrets = by_name(run_verifiers(pr, VerifierSettings(), trust_mode=TrustMode.UNTRUSTED,
                                    tmp_root=tmp_path), "secrets")
    by_line = {f.line: f for f in secrets.findings if f.file == "lib/auth.js"}
    moved, new = by_line[line_of(USAGE_AFTER, "keyboard")], by_line[line_of(USAGE_AFTER, "tabby")]
    assert moved.severity.value == "info"
    assert "before the PR" in moved.message
    assert new.severity.value == "warning"
