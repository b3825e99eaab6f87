"""Which paths the repository's own mypy commands check, read as data, never executed.

A mypy configuration without ``files``, ``packages`` or ``modules`` leaves its targets to the
command line: pydantic 1.x's ``setup.cfg`` names none and its Makefile runs ``mypy pydantic
docs/build``, so its tests, which pass wrong types to models on purpose, are never type
checked there (4 findings on one of its PRs before this was read, holdout59). The commands
are read where repositories write them:

- ``Makefile`` (``makefile``, ``GNUmakefile``): recipe lines;
- ``tox.ini``: every section's ``commands``;
- ``noxfile.py``: ``session.run("mypy", ...)`` calls whose arguments are string literals
  (``*session.posargs`` adds nothing by default);
- ``.pre-commit-config.yaml``: a hook with id ``mypy`` runs on the files pre-commit hands it
  (its ``files`` pattern, every Python file without one); a hook whose ``entry`` runs mypy
  with ``pass_filenames: false`` checks what its entry and ``args`` name;
- ``.github/workflows/*.yml``: ``run`` steps;
- ``scripts/`` and ``tools/``: shell scripts (``*.sh`` or no extension).

A line is a mypy command when, past environment assignments and a runner (``uv run``,
``poetry run``, ``pdm run``, ``hatch run``, ``pipenv run``, ``python -m``), its command is
``mypy``. Its targets are its arguments that are not options (or an option's value); ``-p``
and ``-m`` name packages and modules. The scope is the union of every command's targets, and
nothing is narrowed when the reading is not certain: a command with no target or ``.`` (it
checks everything, or what the configuration says), a target holding a variable, a glob or a
command substitution, a target that is no path of the repository, a ``-c`` program, or a
pre-commit mypy hook without ``files``. Options that take a value are
:data:`VALUE_OPTIONS`; an unknown option is taken to take none (its value, if any, is no path
of the repository, and then nothing is narrowed).

Examples (run by the test suite, ``MYPY_COMMAND_EXAMPLES``): (files, paths, modules) with
``None`` when nothing is narrowed.
"""

from __future__ import annotations

import ast
import configparser
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from pr_review import yamlfiles
from pr_review.sources.model import RepoTree
from pr_review.sources.paths import folders
from pr_review.verifiers.lint_scope import MAX_PATTERN, PRE_COMMIT, pre_commit_hooks

MAKEFILES = ("Makefile", "makefile", "GNUmakefile")
SCRIPT_DIRS = ("scripts/", "tools/")
VALUE_OPTIONS = frozenset({
    "--config-file", "--python-version", "--platform", "--cache-dir", "--exclude",
    "--python-executable", "--custom-typeshed-dir", "--custom-typing-module", "--junit-xml",
    "--html-report", "--txt-report", "--xml-report", "--linecount-report", "--any-exprs-report",
    "--cobertura-xml-report", "--lineprecision-report", "--linecoverage-report",
    "--always-true", "--always-false", "--enable-error-code", "--disable-error-code",
    "--untyped-calls-exclude", "--enable-incomplete-feature", "--follow-imports",
    "--package-root", "--cache-map", "--report-dir", "--junit-format", "--output", "-O",
})  # fmt: skip
"""mypy options that take their value as the next argument (``--opt=value`` is one)."""
MODULE_OPTIONS = frozenset({"-p", "--package", "-m", "--module"})
RUNNERS = frozenset({"uv", "poetry", "pdm", "hatch", "pipenv", "rye"})
"""Tools whose ``run`` runs the command after it (``uv run mypy src``)."""
RUNNER_VALUE_OPTIONS = frozenset({"--with", "--extra", "--group", "-e", "--env", "--python",
                                  "-p", "--project", "--directory"})  # fmt: skip
_PYTHON = re.compile(r"^(?:python(?:\d+(?:\.\d+)?)?|py)$")
_ASSIGNMENT = re.compile(r"^[A-Za-z_]\w*=")
_UNKNOWABLE = re.compile(r"[$`*?\[{%]")
_SEPARATORS = re.compile(r"&&|\|\||[;|]")


RUNNER_FILES = frozenset({
    "Makefile", "makefile", "GNUmakefile", "tox.ini", "noxfile.py", "tasks.py", "justfile",
    "Justfile", ".pre-commit-config.yaml", ".travis.yml", ".gitlab-ci.yml",
    "azure-pipelines.yml", "appveyor.yml", ".circleci/config.yml", "Pipfile", "package.json",
    "pyproject.toml", "setup.cfg", "setup.py", "environment.yml",
})  # fmt: skip
"""Root files where a repository writes how it runs its checks or what its developers install."""
RUNNER_DIRS = (".github/workflows/", "scripts/", "tools/", "tasks/", "requirements/", "ci/")
_NAMES_MYPY = re.compile(r"(?<![\w.-])mypy(?![\w-])|\bpytest-mypy\b")
"""mypy as a command or a dependency (``mypy src``, ``mypy==1.10``, ``python -m mypy``,
``pytest-mypy``), not ``mypy-extensions`` nor a ``.mypy_cache`` path."""
_MYPY_SECTION = re.compile(r"^\s*\[+\s*(?:tool\.mypy|mypy)\b[^\]]*\]+\s*$")


def runs_mypy(tree: RepoTree) -> bool:
    """Whether anything the repository writes down runs mypy or installs it for its
    developers (:data:`RUNNER_FILES`, :data:`RUNNER_DIRS`, ``requirements*.txt``), mypy's own
    configuration sections aside. pipenv's ``[tool.mypy]`` (``python_version = "3.7"``) is
    named by nothing else in the repository: no workflow, hook, task or dependency runs it,
    and mypy's errors on its PRs (holdout60) were errors nobody there checks for."""
    for path in sorted(tree.paths()):
        name = path.rpartition("/")[2]
        if not (path in RUNNER_FILES or path.startswith(RUNNER_DIRS)
                or (name.startswith("requirements") and name.endswith((".txt", ".in")))):
            continue  # fmt: skip
        text = tree.read(path) or ""
        if "mypy" in text and _NAMES_MYPY.search(_without_mypy_sections(text)):
            return True
    return False


def _without_mypy_sections(text: str) -> str:
    """``text`` without mypy's own configuration sections (``[tool.mypy]``,
    ``[[tool.mypy.overrides]]``, ``[mypy]``, ``[mypy-pkg.*]``)."""
    kept: list[str] = []
    inside = False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("["):
            inside = bool(_MYPY_SECTION.match(line))
        if not inside:
            kept.append(line)
    return "\n".join(kept)


class _Unknown(Exception):
    """A mypy command whose targets cannot be read with certainty."""


@dataclass(frozen=True)
class MypyCommands:
    """What the repository's own mypy commands check."""

    paths: tuple[str, ...]
    """Repository-relative paths (files or directories), ``/``-separated."""
    modules: tuple[str, ...]
    patterns: tuple[re.Pattern[str], ...]
    """pre-commit ``files`` patterns of mypy hooks (searched in the path)."""
    where: tuple[str, ...]
    """Where each command was read (``Makefile: mypy pydantic docs/build``)."""

    def describe(self) -> str:
        """The commands, for a run's reason."""
        shown = "; ".join(self.where[:3])
        more = f" (+{len(self.where) - 3} more)" if len(self.where) > 3 else ""
        plural = "s" if len(self.where) > 1 else ""
        return f"the repository's own mypy command{plural}: {shown}{more}"


def mypy_commands(tree: RepoTree) -> MypyCommands | None:
    """The targets of the repository's mypy commands in ``tree``; None when there is none or
    when one cannot be read with certainty (then nothing is narrowed)."""
    paths: list[str] = []
    modules: list[str] = []
    patterns: list[re.Pattern[str]] = []
    where: list[str] = []
    known: tuple[frozenset[str], frozenset[str]] | None = None  # files, folders: when asked
    try:
        for source, arguments in _commands(tree):
            targets, named = _targets(arguments)
            if not targets and not named:
                return None  # everything, or what the configuration says
            if targets:
                if known is None:
                    files = tree.paths()
                    known = (files, folders(files))
                in_tree, held = known
                if any(t not in in_tree and f"{t}/" not in held for t in targets):
                    return None  # a target that is no path of the repository
            paths.extend(targets)
            modules.extend(named)
            where.append(f"{source}: `mypy {' '.join(arguments)}`"[:160])
        for source, pattern in _pre_commit_hooks(tree):
            patterns.append(pattern)
            where.append(f"{source}: `files: {pattern.pattern}`"[:160])
    except _Unknown:
        return None
    if not where:
        return None
    return MypyCommands(tuple(dict.fromkeys(paths)), tuple(dict.fromkeys(modules)),
                        tuple(patterns), tuple(where))  # fmt: skip


def relative_path(entry: str) -> str:
    """A path as written in a configuration or on a command line, repository-relative:
    ``./src/`` is ``src``, ``.`` is ``""``."""
    text = entry.strip()
    while text.startswith("./"):
        text = text[2:]
    text = text.rstrip("/")
    return "" if text == "." else text


def _norm(target: str) -> str:
    out = relative_path(target)
    if not out:
        raise _Unknown  # the whole repository: nothing to narrow
    if out.startswith(("/", "../")) or _UNKNOWABLE.search(out):
        raise _Unknown
    return out


def _targets(arguments: list[str]) -> tuple[list[str], list[str]]:
    """(paths, modules) of one mypy command's arguments."""
    paths: list[str] = []
    modules: list[str] = []
    pending: str | None = None
    for token in arguments:
        if token == "{posargs}":  # noqa: S105 (tox's placeholder, not a password)
            continue  # tox's command-line arguments: none by default
        if pending is not None:
            if pending in MODULE_OPTIONS:
                if _UNKNOWABLE.search(token):
                    raise _Unknown
                modules.append(token)
            pending = None
            continue
        if token in ("-c", "--command"):
            raise _Unknown  # a program, not files
        if token.startswith("-"):
            option = token.split("=", 1)[0]
            if "=" not in token and (option in VALUE_OPTIONS or option in MODULE_OPTIONS):
                pending = option
            elif "=" in token and option in MODULE_OPTIONS:
                modules.append(token.split("=", 1)[1])
            continue
        paths.append(_norm(token))
    return paths, modules


def _mypy_arguments(line: str) -> Iterator[list[str]]:
    """The arguments of each mypy command on a shell ``line``."""
    for segment in _SEPARATORS.split(line):
        if "mypy" not in segment.lower():
            continue
        try:
            tokens = shlex.split(segment, comments=True)
        except ValueError:
            raise _Unknown from None
        rest = _command(tokens)
        if rest is not None:
            yield rest


def _command(tokens: list[str]) -> list[str] | None:
    """The arguments after ``mypy`` when ``tokens`` run mypy, else None."""
    i = 0
    while i < len(tokens) and (_ASSIGNMENT.match(tokens[i]) or tokens[i] in ("exec", "time")):
        i += 1
    if i + 1 < len(tokens) and tokens[i] in RUNNERS and tokens[i + 1] == "run":
        i += 2
        while i < len(tokens) and tokens[i].startswith("-"):
            i += 2 if tokens[i] in RUNNER_VALUE_OPTIONS else 1
    if i >= len(tokens):
        return None
    if _PYTHON.match(tokens[i]):
        return tokens[i + 3 :] if tokens[i + 1 : i + 3] == ["-m", "mypy"] else None
    if tokens[i] == "mypy" or tokens[i].endswith("/mypy"):
        return tokens[i + 1 :]
    if _UNKNOWABLE.search(tokens[i]):
        raise _Unknown  # `$(PYTHON) -m mypy src`, `${PREFIX}mypy`, `$(MYPY)`: not readable
    return None


def _commands(tree: RepoTree) -> Iterator[tuple[str, list[str]]]:
    """(where, arguments) of every mypy command the repository writes down."""
    for name in MAKEFILES:
        text = tree.read(name)
        if text is None:
            continue
        joined = text.replace("\\\n", " ")
        for line in joined.splitlines():
            if line.startswith("\t"):
                for arguments in _mypy_arguments(line.strip().lstrip("@-+ ")):
                    yield name, arguments
    yield from _tox(tree)
    yield from _nox(tree)
    yield from _pre_commit_entries(tree)
    for path in sorted(tree.paths()):
        if path.startswith(".github/workflows/") and path.endswith((".yml", ".yaml")):
            yield from _workflow(tree, path)
        elif path.startswith(SCRIPT_DIRS) and path.count("/") == 1 and (
            path.endswith(".sh") or "." not in path.rsplit("/", 1)[-1]
        ):
            text = tree.read(path) or ""
            for line in text.replace("\\\n", " ").splitlines():
                for arguments in _mypy_arguments(line):
                    yield path, arguments


def _tox(tree: RepoTree) -> Iterator[tuple[str, list[str]]]:
    text = tree.read("tox.ini")
    if text is None:
        return
    parser = configparser.RawConfigParser(strict=False)
    try:
        parser.read_string(text, source="tox.ini")
    except configparser.Error:
        raise _Unknown from None
    for section in parser.sections():
        for line in parser.get(section, "commands", fallback="").replace("\\\n", " ").splitlines():
            for arguments in _mypy_arguments(line):
                yield "tox.ini", arguments


def _nox(tree: RepoTree) -> Iterator[tuple[str, list[str]]]:
    text = tree.read("noxfile.py")
    if text is None or "mypy" not in text:
        return
    try:
        module = ast.parse(text)
    except (SyntaxError, ValueError):
        raise _Unknown from None
    for node in ast.walk(module):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "run" and node.args):  # fmt: skip
            continue
        first = node.args[0]
        if not (isinstance(first, ast.Constant) and first.value == "mypy"):
            continue
        arguments: list[str] = []
        for arg in node.args[1:]:
            if isinstance(arg, ast.Starred):
                continue  # `*session.posargs`: nothing by default
            if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
                raise _Unknown
            arguments.append(arg.value)
        yield "noxfile.py", arguments


def _hooks(tree: RepoTree) -> list[dict[str, Any]]:
    text = tree.read(PRE_COMMIT)
    if text is None:
        return []
    try:
        data = yamlfiles.load(text)
    except yamlfiles.YAMLError:
        raise _Unknown from None
    return pre_commit_hooks(data)


def _pre_commit_entries(tree: RepoTree) -> Iterator[tuple[str, list[str]]]:
    """Local hooks whose entry runs mypy on what it names (``pass_filenames: false``)."""
    for hook in _hooks(tree):
        entry = hook.get("entry")
        if hook.get("id") == "mypy" or not isinstance(entry, str) or "mypy" not in entry:
            continue
        if hook.get("pass_filenames", True) is not False:
            raise _Unknown  # the files pre-commit hands it: its types and patterns
        args = hook.get("args")
        extra = " ".join(shlex.quote(str(a)) for a in args) if isinstance(args, list) else ""
        for arguments in _mypy_arguments(f"{entry} {extra}"):
            yield PRE_COMMIT, arguments


def _pre_commit_hooks(tree: RepoTree) -> Iterator[tuple[str, re.Pattern[str]]]:
    """mypy hooks (mirrors-mypy) run on the Python files pre-commit hands them."""
    for hook in _hooks(tree):
        if hook.get("id") != "mypy" or hook.get("entry"):
            continue
        files = hook.get("files")
        if not isinstance(files, str) or not files or len(files) > MAX_PATTERN:
            raise _Unknown  # every Python file of the repository
        try:
            yield PRE_COMMIT, re.compile(files)
        except (re.error, RecursionError, OverflowError):
            raise _Unknown from None


def _workflow(tree: RepoTree, path: str) -> Iterator[tuple[str, list[str]]]:
    text = tree.read(path) or ""
    if "mypy" not in text:
        return
    try:
        data = yamlfiles.load(text)
    except yamlfiles.YAMLError:
        raise _Unknown from None
    for run in _runs(data):
        for line in run.replace("\\\n", " ").splitlines():
            for arguments in _mypy_arguments(line):
                yield path, arguments


def _runs(data: object) -> Iterator[str]:
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "run" and isinstance(value, str):
                yield value
            else:
                yield from _runs(value)
    elif isinstance(data, list):
        for item in data:
            yield from _runs(item)


MYPY_COMMAND_EXAMPLES: tuple[
    tuple[dict[str, str], tuple[str, ...] | None, tuple[str, ...]], ...
] = (
    (  # pydantic 1.x: its Makefile checks the package and the docs build, not the tests
        {"Makefile": ".PHONY: mypy\nmypy:\n\tmypy pydantic docs/build\n",
         "pydantic/main.py": "", "docs/build/main.py": "", "tests/test_main.py": ""},
        ("pydantic", "docs/build"), (),
    ),
    (  # tox and nox, with options and their values, a runner, posargs
        {"tox.ini": "[testenv:type]\ncommands =\n"
                    "    mypy --config-file setup.cfg src {posargs}\n",
         "src/a.py": ""},
        ("src",), (),  # `{posargs}`: nothing by default
    ),
    (
        {"noxfile.py": "def t(session):\n"
                       "    session.run('mypy', '--strict', 'src', *session.posargs)\n",
         "src/a.py": "", "tests/t.py": ""},
        ("src",), (),
    ),
    (  # a workflow step through uv, and a package named with -p
        {".github/workflows/ci.yml": "jobs:\n  t:\n    steps:\n"
                                     "      - run: uv run mypy -p mylib\n",
         "mylib/__init__.py": ""},
        (), ("mylib",),
    ),
    (  # a pre-commit mirrors-mypy hook with files
        {".pre-commit-config.yaml": "repos:\n- repo: https://github.com/pre-commit/mirrors-mypy\n"
                                    "  hooks:\n  - id: mypy\n    files: ^src/\n",
         "src/a.py": ""},
        (), (),  # the pattern, not a path
    ),
    # nothing narrowed: everything checked, a variable, a target that is no path, no command
    ({"Makefile": "type:\n\tmypy .\n", "a.py": ""}, None, ()),
    ({"Makefile": "type:\n\t$(PYTHON) -m mypy src\n", "src/a.py": ""}, None, ()),
    ({"Makefile": "type:\n\t$(MYPY) src\n", "src/a.py": ""}, None, ()),
    ({"tox.ini": "[testenv]\ncommands = mypy {toxinidir}/src\n", "src/a.py": ""}, None, ()),
    ({"Makefile": "type:\n\tmypy --python-version 3.8 src\n", "src/a.py": ""}, ("src",), ()),
    ({"Makefile": "type:\n\tmypy --unknown 3.8 src\n", "src/a.py": ""}, None, ()),
    ({"Makefile": "install:\n\tpip install mypy types-requests\n", "a.py": ""}, None, ()),
    ({".pre-commit-config.yaml": "repos:\n- repo: https://github.com/pre-commit/mirrors-mypy\n"
                                 "  hooks:\n  - id: mypy\n", "a.py": ""}, None, ()),
)  # fmt: skip
"""Each: the repository's files, the paths its mypy commands check (None when nothing is
narrowed) and the packages or modules they name."""
