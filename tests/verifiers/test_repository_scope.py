"""The built-in tools run as the repository runs them, on small real repositories.

Configurations are shaped like real ones: a src-layout CLI library with strict mypy over
``files = ["src", "tests/typing"]`` (its tests are not type-checked, its package imports its
siblings with ``from . import types``), ruff with exclusions and per-file ignores and
``fix = true``, bandit with ``exclude_dirs`` and ``skips``. Each repository is reviewed once.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pr_review.schema.enums import TrustMode, VerifierStatus
from pr_review.schema.pack import Verification, VerifierRun
from pr_review.verifiers import run_verifiers
from pr_review.verifiers.settings import VerifierSettings
from tests.verifiers.prs import make_pr

pytestmark = pytest.mark.slow


def by_name(verification: Verification, name: str) -> VerifierRun:
    return next(r for r in verification.verifiers if r.name == name)


def found(run: VerifierRun) -> set[tuple[str, int | None, str | None]]:
    return {(f.file, f.line, f.rule_id) for f in run.findings}


def line_of(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


def review(
    root: Path,
    base: dict[str, str],
    head: dict[str, str | None],
    trust_mode: TrustMode = TrustMode.TRUSTED,
) -> Verification:
    pr = make_pr(root / "repo", base, head)
    # Trusted mode by default: even there, the repository's mypy plugins are never loaded.
    return run_verifiers(pr, VerifierSettings(), trust_mode=trust_mode, tmp_root=root)


# mypy ------------------------------------------------------------------------------------

CLI_PYPROJECT = """\
[project]
name = "clicky"

[tool.mypy]
python_version = "3.11"
files = ["src", "tests/typing"]
show_error_codes = true
pretty = true
strict = true
plugins = ["clicky_mypy_plugin"]

[[tool.mypy.overrides]]
module = ["colorama.*"]
ignore_missing_imports = true
"""

TYPES = """\
class ParamType:
    name: str = "text"

    def convert(self, value: str) -> int:
        return int(value)
"""

CORE = """\
from __future__ import annotations

from . import types
from ._compat import term_len


class Command:
    def __init__(self, param: types.ParamType) -> None:
        self.param = param

    def run(self, value: str) -> int:
        return self.param.convert(value) + term_len(value)
"""

# What the PR adds to core.py: annotated code that uses its siblings (must raise nothing),
# untyped code (strictness only: must raise nothing), a stub, a line the author marked
# `type: ignore` (under another code), and one real type error.
CORE_ADDED = """\

    def label(self) -> str:
        return self.param.name.upper()

    def width(self, value):
        return term_len(value)

    def shout(self) -> str:
        return legacy_helper(self.label())

    def size(self) -> int:
        return self.param.name

    def count(self) -> int:
        return self.param.name  # type: ignore[misc]

    def later(self) -> int:
        ...


def legacy_helper(text):
    return text + "!"
"""

# A module the PR adds: every line is new, its imports of siblings included.
FORMATTING = """\
from __future__ import annotations

from . import types
from ._compat import term_len
from .core import Command


def describe(command: Command, param: types.ParamType) -> str:
    return f"{param.name}: {term_len(command.label())}"
"""

TEST_CORE = """\
import clicky


def test_run():
    assert clicky.Command(clicky.core.types.ParamType()).run("1") == 2
"""

TYPING_BASE = """\
from typing import assert_type

from clicky import Command


def check(command: Command) -> None:
    assert_type(command.run("1"), int)
"""


@pytest.fixture(scope="module")
def cli_library(tmp_path_factory: pytest.TempPathFactory) -> Verification:
    root = tmp_path_factory.mktemp("cli")
    base = {
        "pyproject.toml": CLI_PYPROJECT,
        "tox.ini": "[testenv:typing]\ncommands = mypy\n",
        "src/clicky/__init__.py": "from .core import Command as Command\n",
        "src/clicky/_compat.py": "def term_len(text: str) -> int:\n    return len(text)\n",
        "src/clicky/types.py": TYPES,
        "src/clicky/core.py": CORE,
        "tests/test_core.py": TEST_CORE,
        "tests/typing/typing_command.py": TYPING_BASE,
    }
    head: dict[str, str | None] = {
        "src/clicky/core.py": CORE + CORE_ADDED,
        "src/clicky/formatting.py": FORMATTING,
        # Untyped tests, an untyped call, even a real type error: the repository's own mypy
        # run never checks tests/ outside tests/typing, so neither does the review.
        "tests/test_core.py": TEST_CORE + "\n\ndef test_more(tmp_path):\n"
        "    count: int = 'many'\n    assert helper(count)\n\n\ndef helper(x):\n    return x\n",
        "tests/typing/typing_command.py": TYPING_BASE + "    assert_type(command.label(), str)\n",
    }
    return review(root, base, head)


def test_mypy_reports_the_real_type_error_in_scope_and_nothing_else(
    cli_library: Verification,
) -> None:
    mypy = by_name(cli_library, "mypy")
    expected_line = line_of(CORE + CORE_ADDED, "def size(self) -> int:") + 1
    assert found(mypy) == {("src/clicky/core.py", expected_line, "return-value")}
    assert mypy.status is VerifierStatus.FAIL


def test_files_outside_the_configured_mypy_scope_are_not_checked(
    cli_library: Verification,
) -> None:
    mypy = by_name(cli_library, "mypy")
    assert not any(f.file.startswith("tests/test_") for f in mypy.findings)
    assert "tests/test_core.py" not in mypy.files_checked
    assert "tests/typing/typing_command.py" in mypy.files_checked
    reason = mypy.reason or ""
    assert "outside the repository's mypy scope" in reason
    assert "tests/test_core.py" in reason


def test_the_projects_own_imports_resolve(cli_library: Verification) -> None:
    # `from . import types` and `from ._compat import ...` in src/, `from clicky import ...`
    # in tests/typing: none is an error, and the typing test's assert_type holds.
    mypy = by_name(cli_library, "mypy")
    assert mypy.status is VerifierStatus.FAIL  # it ran (and found the real error)
    assert not {f.rule_id for f in mypy.findings} & {"attr-defined", "name-defined", "assert-type"}


def test_strictness_codes_never_surface(cli_library: Verification) -> None:
    mypy = by_name(cli_library, "mypy")
    assert mypy.status is VerifierStatus.FAIL  # it ran (and found the real error)
    strict_only = {"no-untyped-def", "no-untyped-call", "untyped-decorator", "no-any-return"}
    assert not {f.rule_id for f in mypy.findings} & strict_only


MYPY_INI = """\
[mypy]
files = app
exclude = ^app/generated/
check_untyped_defs = True

[mypy-app.legacy.*]
ignore_errors = True
"""

BROKEN = "def total() -> int:\n    return 'none'\n"


@pytest.fixture(scope="module")
def excluded_and_silenced(tmp_path_factory: pytest.TempPathFactory) -> Verification:
    root = tmp_path_factory.mktemp("ini")
    base = {
        "mypy.ini": MYPY_INI,
        ".pre-commit-config.yaml": "repos:\n- repo: https://github.com/pre-commit/mirrors-mypy\n"
                                   "  hooks:\n  - id: mypy\n",
        "app/__init__.py": "",
        "app/legacy/__init__.py": "",
        "app/generated/__init__.py": "",
        "app/core.py": "X = 1\n",
    }
    head: dict[str, str | None] = {
        "app/legacy/old.py": BROKEN,
        "app/generated/models_pb2.py": BROKEN,
        "scripts/tool.py": BROKEN,
        "app/core.py": "X = 1\n\n\n" + BROKEN,
    }
    return review(root, base, head)


def test_mypy_exclude_and_ignore_errors_are_honoured(excluded_and_silenced: Verification) -> None:
    mypy = by_name(excluded_and_silenced, "mypy")
    assert found(mypy) == {("app/core.py", 5, "return-value")}
    reason = mypy.reason or ""
    assert "matched by exclude: app/generated/models_pb2.py" in reason
    assert "ignore_errors: app/legacy/old.py" in reason
    assert "not in files/packages/modules: scripts/tool.py" in reason


# ruff ------------------------------------------------------------------------------------

RUFF_PYPROJECT = """\
[tool.ruff]
fix = true
exclude = ["generated"]
extend-exclude = ["legacy"]

[tool.ruff.lint]
select = ["F"]

[tool.ruff.lint.per-file-ignores]
"src/pkg/__init__.py" = ["F401"]
"tests/*" = ["F811", "F821"]
"""

UNDEFINED = "import os\n\n\ndef f():\n    return undefined_name\n"


@pytest.fixture(scope="module")
def ruff_configured(tmp_path_factory: pytest.TempPathFactory) -> Verification:
    root = tmp_path_factory.mktemp("ruff")
    base = {"pyproject.toml": RUFF_PYPROJECT, "src/pkg/__init__.py": ""}
    head: dict[str, str | None] = {
        "src/pkg/__init__.py": "import os\n",
        "src/pkg/mod.py": UNDEFINED,
        "legacy/old.py": UNDEFINED,
        "generated/api.py": UNDEFINED,
        "tests/test_mod.py": "def t():\n    pass\n\n\ndef t():\n    return undefined_name\n",
    }
    return review(root, base, head)


def test_ruff_honours_exclude_extend_exclude_and_per_file_ignores(
    ruff_configured: Verification,
) -> None:
    ruff = by_name(ruff_configured, "ruff")
    # fix = true in the configuration neither hides the fixable unused import nor shifts
    # the undefined name off its line.
    assert found(ruff) == {("src/pkg/mod.py", 1, "F401"), ("src/pkg/mod.py", 5, "F821")}


PRE_COMMIT_SCOPE = """\
exclude: ^(profiling/|tests/data/)
repos:
  - repo: https://github.com/pycqa/flake8
    rev: 7.3.0
    hooks:
      - id: flake8
        exclude: ^src/vendored/
"""


def test_ruff_without_a_configuration_reads_the_repositorys_lint_scope(tmp_path: Path) -> None:
    # black's shape: formatter test data in tests/data/ is sample code its pre-commit excludes
    base = {
        ".pre-commit-config.yaml": PRE_COMMIT_SCOPE,
        ".flake8": "[flake8]\nextend-exclude = legacy\n",
        "src/pkg/__init__.py": "",
    }
    head: dict[str, str | None] = {
        "src/pkg/mod.py": UNDEFINED,
        "tests/data/cases/sample.py": UNDEFINED,
        "src/vendored/lib.py": UNDEFINED,
        "legacy/old.py": UNDEFINED,
    }
    ruff = by_name(review(tmp_path, base, head), "ruff")
    assert {f.file for f in ruff.findings} == {"src/pkg/mod.py"}
    assert tuple(ruff.files_checked) == ("src/pkg/mod.py",)
    reason = ruff.reason or ""
    assert "3 touched Python file(s) outside the repository's ruff scope" in reason
    for path in ("tests/data/cases/sample.py", "src/vendored/lib.py", "legacy/old.py"):
        assert path in reason


def test_a_lint_scope_that_cannot_be_read_is_said_so_and_everything_is_linted(
    tmp_path: Path,
) -> None:
    base = {".pre-commit-config.yaml": "exclude: '^(tests/data/'\n", "src/pkg/__init__.py": ""}
    head: dict[str, str | None] = {"tests/data/sample.py": UNDEFINED}
    ruff = by_name(review(tmp_path, base, head), "ruff")
    assert {f.file for f in ruff.findings} == {"tests/data/sample.py"}
    assert "`exclude` does not compile" in (ruff.reason or "")


FLOOR_PYPROJECT = """\
[project]
name = "wheelish"
requires-python = ">=3.8"

[tool.ruff.lint]
select = ["F"]
"""
PARENTHESIZED_WITH = (
    "def f(a, b):\n    with (\n        open(a) as x,\n        open(b) as y,\n    ):\n"
    "        return x, y\n"
)


@pytest.mark.parametrize(("floor", "reported"), [(">=3.9", False), (">=3.8", True)])
def test_syntax_of_a_newer_python_is_no_error_when_the_pr_raises_its_floor(
    tmp_path: Path, floor: str, reported: bool
) -> None:
    # wheel's (holdout57): a PR dropping Python 3.8 writes a parenthesized `with`
    base = {"pyproject.toml": FLOOR_PYPROJECT, "src/w/__init__.py": ""}
    head: dict[str, str | None] = {
        "pyproject.toml": FLOOR_PYPROJECT.replace(">=3.8", floor),
        "src/w/tags.py": PARENTHESIZED_WITH,
    }
    ruff = by_name(review(tmp_path, base, head), "ruff")
    syntax = [f for f in ruff.findings if f.rule_id == "invalid-syntax"]
    assert bool(syntax) is reported
    if reported:
        assert "syntax was added in Python 3.9" in syntax[0].message


# bandit ----------------------------------------------------------------------------------

BANDIT_PYPROJECT = """\
[tool.bandit]
exclude_dirs = ["tests", "scripts"]
skips = ["B602"]
"""

RISKY = '''\
import subprocess


def run(cmd: str) -> int:
    return subprocess.call(cmd, shell=True)


def query(name: str) -> str:
    return f"SELECT * FROM users WHERE name = '{name}'"
'''


@pytest.fixture(scope="module")
def bandit_configured(tmp_path_factory: pytest.TempPathFactory) -> Verification:
    root = tmp_path_factory.mktemp("bandit")
    base = {"pyproject.toml": BANDIT_PYPROJECT, "src/app/__init__.py": ""}
    head: dict[str, str | None] = {
        "src/app/db.py": RISKY,
        "tests/test_db.py": RISKY,
        "scripts/seed.py": RISKY + "\n\nprint(eval(input()))\n",
    }
    return review(root, base, head)


def test_bandit_honours_exclude_dirs_and_skips(bandit_configured: Verification) -> None:
    bandit = by_name(bandit_configured, "bandit")
    assert ("src/app/db.py", 9, "B608") in found(bandit)
    assert {f.file for f in bandit.findings} == {"src/app/db.py"}  # tests/, scripts/ excluded
    assert "B602" not in {f.rule_id for f in bandit.findings}  # skipped: shell=True


def test_bandit_honours_an_ini_exclude_and_skips(tmp_path: Path) -> None:
    base = {".bandit": "[bandit]\nexclude = tests\nskips = B608\n", "src/app/__init__.py": ""}
    verification = review(tmp_path, base, {"src/app/db.py": RISKY, "tests/test_db.py": RISKY})
    bandit = by_name(verification, "bandit")
    assert ("src/app/db.py", 5, "B602") in found(bandit)
    assert {f.file for f in bandit.findings} == {"src/app/db.py"}
    assert "B608" not in {f.rule_id for f in bandit.findings}


FRAMEWORK_DEFAULTS = """\
import time

from fastapi import Depends, Query
import typer


def dep():
    return 1


def endpoint(x=Depends(dep), q=Query(None)):
    return x


def command(name: str = typer.Option("a")):
    return name


def stamp(t=time.time()):
    return t
"""


def test_framework_parameter_markers_are_no_call_defaults(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # fastapi's tests declare `Depends(...)` defaults by design (holdout61); the default set
    # still reports a call whose result would be shared by every call
    root = tmp_path_factory.mktemp("markers")
    verification = review(root, {"app/__init__.py": ""}, {"app/api.py": FRAMEWORK_DEFAULTS})
    ruff = by_name(verification, "ruff")
    line = FRAMEWORK_DEFAULTS.splitlines().index("def stamp(t=time.time()):") + 1
    assert found(ruff) == {("app/api.py", line, "B008")}
