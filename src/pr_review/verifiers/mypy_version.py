"""The mypy version a repository pins, and whether ours checks the same way.

mypy's verdicts change between versions: typeshed's stubs grow stricter (``ast.AST`` lost
``lineno``), new checks arrive (``functools.partial`` arguments, ``overload-overlap``), old
ones go. A repository whose CI runs mypy 1.16 and passes can show a dozen errors under 2.x on
the lines a PR wrote (werkzeug's routing compiler, starlette's ``TypeIs`` handlers, urllib3's
``ClassVar[Final[...]]``), and none of them is the PR's defect. So the review reads the version
the repository pins, from its own files on the configuration tree (never a version the PR
sets): a lock file (``uv.lock``, ``poetry.lock``, ``pdm.lock``), an exact pin in a
requirements file (``requirements*.txt``/``.in``, ``requirements/*.txt``) or in
``pyproject.toml``, ``tox.ini``, ``setup.cfg`` (``mypy==1.16.0``), a Poetry constraint
(``mypy = "^1.8"``: the major version only) or the ``mirrors-mypy`` hook's ``rev`` in
``.pre-commit-config.yaml``. When that version's major (or, for an exact pin, minor) version
differs from ours, mypy still runs but its findings are information, and the run says why.

Examples (run by the test suite): ``PIN_EXAMPLES`` (a file, its text, the version read).
"""

from __future__ import annotations

import importlib.metadata
import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from pr_review.sources.model import RepoTree


@dataclass(frozen=True)
class Pin:
    """A mypy version the repository names, and where."""

    version: tuple[int, ...]
    exact: bool
    """``==1.16.0`` or a lock file; a Poetry caret or tilde constraint fixes the major only."""
    where: str

    def text(self) -> str:
        """``1.16.0`` (or ``1.8`` and up, below 2, for a constraint)."""
        shown = ".".join(map(str, self.version))
        return shown if self.exact else f"^{shown}"


_VERSION = r"v?(?P<version>\d+(?:\.\d+)+)"
_LOCK = re.compile(r'(?m)^name = "mypy"\s*\nversion = "' + _VERSION + '"')
_EXACT = re.compile(
    r"(?im)(?:^|[\s\"'\[,])mypy(?:\[[\w,\s-]*\])?\s*===?\s*" + _VERSION + r"(?![\d.])"
)
_POETRY = re.compile(r"(?m)^mypy\s*=\s*(?:\{\s*version\s*=\s*)?[\"'](?P<op>[\^~=]*)" + _VERSION)
_PRE_COMMIT = re.compile(r"mirrors-mypy['\"]?\s*\n\s*rev:\s*['\"]?" + _VERSION)

LOCK_FILES = ("uv.lock", "poetry.lock", "pdm.lock")
PIN_FILES = ("pyproject.toml", "tox.ini", "setup.cfg", ".pre-commit-config.yaml")
_REQUIREMENTS = re.compile(r"^(?:requirements[\w.-]*\.(?:txt|in)|[\w.-]+\.(?:txt|in))$")

PIN_EXAMPLES: tuple[tuple[str, str, str | None], ...] = (
    ("requirements-dev.txt", "pytest==8.3.5\nmypy==1.16.0\n", "1.16.0"),
    ("requirements/typing.txt", "mypy==1.13.0\n    # via -r typing.in\n", "1.13.0"),
    ("requirements.txt", "mypy>=1.0\n", None),  # a floor says nothing about CI's version
    ("requirements.txt", "mypy-extensions==1.0.0\n", None),
    ("pyproject.toml", '[dependency-groups]\ntyping = ["mypy==1.15.0", "pyright"]\n', "1.15.0"),
    ("pyproject.toml", '[tool.poetry.group.dev.dependencies]\nmypy = "^1.8"\n', "^1.8"),
    ("uv.lock", '[[package]]\nname = "mypy"\nversion = "1.14.1"\nsource = {}\n', "1.14.1"),
    (".pre-commit-config.yaml",
     "  - repo: https://github.com/pre-commit/mirrors-mypy\n    rev: v1.11.2\n", "1.11.2"),
    ("tox.ini", "[testenv:typing]\ndeps = mypy==1.9.0\n", "1.9.0"),
)  # fmt: skip


def read_pin(path: str, text: str) -> Pin | None:
    """The mypy version ``text`` (the file at ``path``) pins, or None."""
    name = PurePosixPath(path).name
    if name in LOCK_FILES:
        found = _LOCK.search(text)
        return _pin(found["version"], True, path) if found else None
    if name == ".pre-commit-config.yaml":
        found = _PRE_COMMIT.search(text)
        return _pin(found["version"], True, path) if found else None
    exact = _EXACT.search(text)
    if exact:
        return _pin(exact["version"], True, path)
    if name == "pyproject.toml":
        poetry = _POETRY.search(text)
        if poetry:
            return _pin(poetry["version"], poetry["op"] in ("", "=", "=="), path)
    return None


def _pin(version: str, exact: bool, where: str) -> Pin:
    return Pin(tuple(int(p) for p in version.split(".")), exact, where)


def _candidates(tree: RepoTree) -> list[str]:
    """The files a pin may live in: lock files first (what CI installs), then the rest."""
    paths = tree.paths()
    fixed = [p for p in (*LOCK_FILES, *PIN_FILES) if p in paths]
    requirements = sorted(
        p for p in paths
        if (p.count("/") == 0 and _REQUIREMENTS.match(p) and p.startswith("requirements"))
        or (p.count("/") == 1 and p.split("/")[0] in ("requirements", "reqs")
            and _REQUIREMENTS.match(p.split("/")[1]))
    )  # fmt: skip
    return [*fixed, *requirements]


def pinned_mypy(tree: RepoTree) -> Pin | None:
    """The first mypy pin of the repository's own files, or None."""
    for path in _candidates(tree):
        text = tree.read(path)
        pin = read_pin(path, text) if text is not None else None
        if pin is not None:
            return pin
    return None


def ours() -> tuple[int, ...] | None:
    """The version of the mypy this review runs (None when it is not installed here)."""
    try:
        raw = importlib.metadata.version("mypy")
    except importlib.metadata.PackageNotFoundError:
        return None
    found = re.match(r"\d+(?:\.\d+)*", raw)
    return tuple(int(p) for p in found.group(0).split(".")) if found else None


def skew(pin: Pin, version: tuple[int, ...]) -> bool:
    """Whether ``version`` checks differently from the pinned one: another major version, or
    another minor one under an exact pin."""
    if pin.version[:1] != version[:1]:
        return True
    return pin.exact and pin.version[:2] != version[:2]
