"""The repository's mypy scope read from its configuration, and the codes that are not findings."""

from __future__ import annotations

from pathlib import Path

import pytest

from pr_review.sources.model import MemoryTree
from pr_review.verifiers.mypy_codes import NOT_FINDINGS, NotAFinding, is_finding, on_ignored_line
from pr_review.verifiers.mypy_commands import mypy_commands
from pr_review.verifiers.mypy_config import (
    FLOOR_EXAMPLES,
    find_mypy_config,
    python_floor,
    sanitized_ini,
)
from pr_review.verifiers.mypy_scope import (
    Layout,
    MypyScope,
    Section,
    module_option,
    mypy_scope,
    resolution_files,
    search_roots,
)

# The shape of a real src-layout CLI library's configuration (strict, files = src + typing
# tests), with an exclude and per-module sections added.
PYPROJECT = """\
[tool.mypy]
python_version = "3.11"
files = ["src", "./tests/typing/"]
exclude = ["^src/clicky/_vendor/"]
strict = true
plugins = ["tests.plugin"]

[[tool.mypy.overrides]]
module = ["clicky._legacy", "clicky.compat.*"]
ignore_errors = true

[[tool.mypy.overrides]]
module = "clicky.compat.py3"
ignore_errors = false
"""

SETUP_CFG = """\
[mypy]
exclude = (?x)(^build/|_pb2\\.py$)
check_untyped_defs = True

[mypy-generated.*]
follow_imports = skip

[mypy-app.*.migrations]
ignore_errors = True
"""

TREE = {
    "src/clicky/__init__.py": "",
    "src/clicky/core.py": "",
    "src/clicky/types.py": "",
    "src/clicky/_legacy.py": "",
    "src/clicky/compat/__init__.py": "",
    "src/clicky/compat/py2.py": "",
    "src/clicky/compat/py3.py": "",
    "src/clicky/_vendor/__init__.py": "",
    "src/clicky/_vendor/six.py": "",
    "tests/test_core.py": "",
    "tests/conftest.py": "",
    "tests/typing/typing_cmd.py": "",
    "docs/conf.py": "",
    "README.md": "",
}


def scope_of(files: dict[str, str]) -> MypyScope:
    config = find_mypy_config(MemoryTree(files))
    assert config is not None
    return mypy_scope(config)


@pytest.fixture
def layout() -> Layout:
    return Layout(frozenset(TREE))


def test_module_names_follow_the_init_files(layout: Layout) -> None:
    assert layout.split("src/clicky/core.py") == ("src", "clicky.core")
    assert layout.split("src/clicky/compat/__init__.py") == ("src", "clicky.compat")
    assert layout.split("tests/typing/typing_cmd.py") == ("tests/typing", "typing_cmd")
    assert layout.split("docs/conf.py") == ("docs", "conf")


@pytest.mark.parametrize(
    ("path", "why"),
    [
        ("src/clicky/core.py", None),
        ("tests/typing/typing_cmd.py", None),
        ("tests/test_core.py", "not in files/packages/modules"),
        ("docs/conf.py", "not in files/packages/modules"),
        ("src/clicky/_vendor/six.py", "matched by exclude"),
        ("src/clicky/_legacy.py", "ignore_errors"),
        ("src/clicky/compat/py2.py", "ignore_errors"),
        ("src/clicky/compat/__init__.py", "ignore_errors"),
        ("src/clicky/compat/py3.py", None),  # the exact section wins over `compat.*`
    ],
)
def test_a_toml_configuration_scopes_files_excludes_and_silenced_modules(
    layout: Layout, path: str, why: str | None
) -> None:
    assert scope_of({"pyproject.toml": PYPROJECT}).why_out(path, layout) == why


@pytest.mark.parametrize(
    ("path", "why"),
    [
        ("app/views.py", None),
        ("tests/test_views.py", None),  # no `files`: every touched file is in scope
        ("build/lib/app/views.py", "matched by exclude"),
        ("app/api_pb2.py", "matched by exclude"),
        ("generated/models.py", "follow_imports skip/silent"),
        ("app/shop/migrations/__init__.py", "ignore_errors"),
        ("app/migrations/__init__.py", "ignore_errors"),  # `.*` matches zero sections too
    ],
)
def test_an_ini_configuration_without_files_scopes_by_exclude_and_sections(
    path: str, why: str | None
) -> None:
    tree = {
        "app/__init__.py": "", "app/shop/__init__.py": "", "app/shop/migrations/__init__.py": "",
        "app/migrations/__init__.py": "", "generated/__init__.py": "",
        "build/lib/app/__init__.py": "",
    }  # fmt: skip
    scope = scope_of({"setup.cfg": SETUP_CFG})
    assert not scope.targeted
    assert scope.why_out(path, Layout(frozenset(tree) | {path})) == why


def test_a_file_named_by_files_is_checked_even_when_exclude_matches_it() -> None:
    ini = "[mypy]\nfiles = tools/gen_pb2.py, tools\nexclude = _pb2\\.py$\n"
    scope = scope_of({"mypy.ini": ini})
    assert scope.why_out("tools/gen_pb2.py", Layout(frozenset())) is None
    assert scope.why_out("tools/other_pb2.py", Layout(frozenset())) == "matched by exclude"


def test_globs_in_files_and_packages_name_what_is_checked() -> None:
    scope = scope_of({"mypy.ini": "[mypy]\nfiles = src/**/*.py, scripts/*.py\n"})
    empty = Layout(frozenset({"src/a/__init__.py"}))
    assert scope.why_out("src/a/b/c.py", empty) is None
    assert scope.why_out("scripts/run.py", empty) is None
    assert scope.why_out("scripts/sub/run.py", empty) == "not in files/packages/modules"
    by_package = scope_of({"mypy.ini": "[mypy]\npackages = a\n"})
    assert by_package.why_out("src/a/x.py", empty) is None
    assert by_package.why_out("src/ab.py", empty) == "not in files/packages/modules"


def test_a_bad_exclude_is_named_not_fatal() -> None:
    scope = scope_of({"mypy.ini": "[mypy]\nexclude = (unclosed\n"})
    assert scope.excludes == ()
    assert "not a regular expression" in scope.problems[0]


def test_per_module_precedence_is_mypys() -> None:
    sections = (
        Section("a.b", {"ignore_errors": False}),
        Section("a.*", {"ignore_errors": True}),
        Section("a.b.*", {"ignore_errors": True}),
        Section("*.gen", {"follow_imports": "skip"}),
    )
    assert module_option(sections, "a.x", "ignore_errors") is True
    assert module_option(sections, "a.b", "ignore_errors") is False  # exact beats structured
    assert module_option(sections, "a.b.c", "ignore_errors") is True
    assert module_option(sections, "z.gen", "follow_imports") == "skip"
    assert module_option(sections, "b", "ignore_errors") is None


def test_resolution_stages_the_package_and_the_configured_directories(layout: Layout) -> None:
    scope = scope_of({"pyproject.toml": PYPROJECT})
    staged = resolution_files(layout, ["src/clicky/core.py"], scope)
    assert "src/clicky/types.py" in staged
    assert "src/clicky/_vendor/six.py" in staged  # excluded from checks, still importable
    assert "tests/typing/typing_cmd.py" in staged  # a directory `files` names
    assert "tests/test_core.py" not in staged
    assert "docs/conf.py" not in staged
    assert staged.index("src/clicky/types.py") < staged.index("tests/typing/typing_cmd.py")
    assert search_roots([(layout, staged)]) == ("src", "tests/typing")


def test_resolution_without_files_stages_the_package_or_the_siblings() -> None:
    layout = Layout(frozenset({
        "pkg/__init__.py", "pkg/a.py", "pkg/sub/__init__.py", "pkg/sub/b.py",
        "tests/test_a.py", "tests/helpers.py", "tests/data/x.py", "other/c.py",
    }))  # fmt: skip
    staged = resolution_files(layout, ["pkg/sub/b.py", "tests/test_a.py"], MypyScope())
    assert set(staged) == {"pkg/__init__.py", "pkg/a.py", "pkg/sub/__init__.py", "pkg/sub/b.py",
                           "tests/test_a.py", "tests/helpers.py"}  # fmt: skip
    assert search_roots([(layout, staged)]) == ("tests",)


def test_the_sanitized_configuration_keeps_checks_and_drops_plugins() -> None:
    config = find_mypy_config(MemoryTree({"pyproject.toml": PYPROJECT}))
    assert config is not None
    ini = sanitized_ini(config, ("src", "tests/typing", "bad,root"))
    assert "strict = True" in ini
    assert "plugins" not in ini
    assert "files" not in ini
    assert "mypy_path = src, tests/typing\n" in ini
    assert "[mypy-clicky._legacy]\nignore_errors = True" in ini
    # mypy 2's strict-bytes default is not what the project's own mypy ran with
    assert "strict_bytes = False" in ini


def test_strict_bytes_the_configuration_asks_for_is_kept() -> None:
    tree = MemoryTree({"mypy.ini": "[mypy]\nstrict_bytes = True\n"})
    config = find_mypy_config(tree)
    assert config is not None
    ini = sanitized_ini(config)
    assert "strict_bytes = True" in ini
    assert "strict_bytes = False" not in ini


@pytest.mark.parametrize(("path", "text", "floor"), FLOOR_EXAMPLES)
def test_python_floor_examples(path: str, text: str, floor: tuple[int, int] | None) -> None:
    assert python_floor(MemoryTree({path: text})) == floor


@pytest.mark.parametrize(
    ("options", "floor", "line"),
    [
        # a repository needing a newer Python than ours: its CI's mypy targets that one
        ("", (3, 99), "python_version = 3.99"),
        # one we run on or newer than it needs: mypy's own default (the running Python)
        ("", (3, 8), None),
        ("", None, None),
        # the configuration's own choice wins
        ("python_version = 3.10\n", (3, 99), "python_version = 3.10"),
    ],
)
def test_mypy_targets_the_python_a_repository_needs(
    options: str, floor: tuple[int, int] | None, line: str | None
) -> None:
    config = find_mypy_config(MemoryTree({"mypy.ini": "[mypy]\n" + options}))
    assert config is not None
    versions = [x for x in sanitized_ini(config, (), floor).splitlines() if "python_version" in x]
    assert versions == ([line] if line else [])


def test_follow_imports_per_module_is_kept_in_the_sanitized_configuration() -> None:
    config = find_mypy_config(MemoryTree({"setup.cfg": SETUP_CFG}))
    assert config is not None
    assert "[mypy-generated.*]\nfollow_imports = skip" in sanitized_ini(config)


@pytest.mark.parametrize("entry", NOT_FINDINGS, ids=lambda e: f"{e.code}:{e.example[:30]}")
def test_each_strictness_code_is_dropped_with_a_reason(entry: NotAFinding) -> None:
    assert entry.why
    assert not is_finding(entry.code, entry.example)


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("arg-type", 'Argument 1 to "f" has incompatible type "str"; expected "int"'),
        ("attr-defined", 'Item "None" of "Optional[Foo]" has no attribute "bar"'),
        ("return-value", 'Incompatible return value type (got "str", expected "int")'),
        ("call-arg", 'Missing positional argument "x" in call to "f"'),
        ("union-attr", 'Item "None" of "str | None" has no attribute "upper"'),
        ("misc", "Cannot assign to a method"),
        (None, "Name 'x' already defined"),
    ],
)
def test_real_type_errors_stay_findings(code: str | None, message: str) -> None:
    assert is_finding(code, message)


def test_a_line_marked_type_ignore_is_recognised() -> None:
    assert on_ignored_line("    x = f()  # type: ignore[misc]")
    assert on_ignored_line("x = f()  #type:ignore")
    assert not on_ignored_line("x = 'type: ignore'")  # no comment marker
    assert not on_ignored_line("x = f()  # pyright: ignore")
    assert not on_ignored_line(None)


def test_every_code_that_is_not_a_finding_is_documented() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "configuration.md").read_text("utf-8")
    for entry in NOT_FINDINGS:
        assert f"`{entry.code}`" in doc


def test_without_files_the_repositorys_own_mypy_commands_are_the_scope() -> None:
    # pydantic 1.x: `[mypy]` in setup.cfg names no files, its Makefile runs
    # `mypy pydantic docs/build`; its tests pass wrong types to models on purpose.
    tree = MemoryTree({
        "setup.cfg": "[mypy]\nstrict_optional = True\n",
        "Makefile": ".PHONY: mypy\nmypy:\n\tmypy pydantic docs/build\n",
        "pydantic/fields.py": "", "docs/build/main.py": "", "tests/test_edge_cases.py": "",
    })  # fmt: skip
    config = find_mypy_config(tree)
    assert config is not None
    scope = mypy_scope(config, mypy_commands(tree))
    layout = Layout(tree.paths())
    assert scope.why_out("pydantic/fields.py", layout) is None
    reason = scope.why_out("tests/test_edge_cases.py", layout)
    assert reason is not None
    assert "Makefile: `mypy pydantic docs/build`" in reason
    # configured files win over any command
    files = MemoryTree({**tree.files, "setup.cfg": "[mypy]\nfiles = tests\n"})
    configured = find_mypy_config(files)
    assert configured is not None
    assert mypy_scope(configured, mypy_commands(files)).why_out("tests/test_edge_cases.py",
                                                                 layout) is None
