"""What a path is: documentation, test, dependency manifest, infrastructure, code.

Everything is decided on whole path segments and file names, never on substrings, so
``settle.py`` is not a TTL and ``clock.py`` is not a lock.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import StrEnum
from functools import lru_cache
from pathlib import PurePosixPath

GENERIC_ROOTS = frozenset(
    {
        "src",
        "lib",
        "app",
        "apps",
        "pkg",
        "internal",
        "cmd",
        "packages",
        "source",
        "main",
        "java",
        "kotlin",
        "python",
        "go",
        "ts",
        "js",
        "server",
        "client",
    }
)
"""Directory names that say nothing about what the code does."""

DOC_EXTENSIONS = frozenset({".md", ".markdown", ".rst", ".adoc", ".txt", ".rdoc", ".org"})
DOC_DIRS = frozenset({"docs", "doc", "documentation", "man", "website"})
EXAMPLE_DIRS = frozenset(
    {"examples", "example", "_examples", "sandbox", "demo", "demos", "docs_src",
     "playground"}
)  # fmt: skip
"""Top-level folders of example and playground code: not part of what the project ships, so
they count with the docs for the lane (green when only they change). ``docs_src`` holds the
programs a documentation site includes (FastAPI, Typer, SQLModel and the MCP Python SDK keep
their tutorials' code there: a tutorial's ``subscriptions`` permission check was red as
access-control and money logic, held out on holdout40); ``playground`` holds the apps a
project tries itself out in (vite's end-to-end test apps, read on holdout42). Sink evidence
that is red wherever it sits (a client-chosen upload name used as a path) still reads them:
users copy examples."""
GITHUB_DOC_DIRS = frozenset({"issue_template", "discussion_template", "pull_request_template"})
"""``.github/ISSUE_TEMPLATE/``: issue forms are text shown to reporters, not behaviour."""
GITHUB_TEMPLATE_STEMS = frozenset({"issue_template", "pull_request_template"})
"""A single template file GitHub shows to reporters and contributors, with or without an
extension (``.github/ISSUE_TEMPLATE``, ``.github/pull_request_template.md``)."""
NEWS_FRAGMENT_DIRS = frozenset({"newsfragments", "changelog.d", "changes.d", "news.d"})
"""Folders of changelog fragments that towncrier or scriv join into the release notes, at any
depth (``src/twisted/newsfragments/11575.doc``, ``changelog.d/123.bugfix.md``): a fragment's
extension names its section (``.doc``, ``.misc``, ``.bugfix``, ``.feature``), not a language, so
a file there without a programming language's extension is text."""
DOC_TOOL_FILES = frozenset(
    {
        "mkdocs.yml", "mkdocs.yaml", ".readthedocs.yml", ".readthedocs.yaml", "citation.cff",
        "funding.yml",
    }
)  # fmt: skip
"""Files a documentation tool or a hosting page reads, named the same in every repository: the
docs site's navigation and theme (MkDocs, Read the Docs), how to cite the project, where to
sponsor it (``.github/FUNDING.yml``). Nothing the project ships reads them."""
DOC_NAMES = frozenset(
    {
        "readme",
        "changelog",
        "changes",
        "history",
        "license",
        "licence",
        "copying",
        "authors",
        "contributors",
        "maintainers",  # who maintains the project (a people list like AUTHORS; not OWNERS)
        "news",  # GNU coding standards' release notes (NEWS) and acknowledgements (THANKS)
        "thanks",
        "notice",
        "code_of_conduct",
        "contributing",
        "security",
    }
)
CODE_EXTENSIONS = frozenset(
    {
        ".py", ".pyi", ".pyx", ".js", ".mjs", ".cjs", ".es6", ".jsx", ".ts", ".tsx", ".go",
        ".rb", ".java", ".kt", ".kts", ".scala", ".cs", ".c", ".h", ".cc", ".cpp", ".hpp", ".rs",
        ".php", ".swift", ".m", ".sh", ".bash", ".zsh", ".ps1", ".pl", ".lua", ".ex", ".exs",
        ".erl", ".clj", ".dart", ".r", ".jl", ".vue", ".svelte", ".sql",
    }
)  # fmt: skip
"""Programming-language extensions: a file with one is code whatever its stem says
(``security.py``, ``license.py`` and ``history.py`` are modules, not documents)."""
ASSET_EXTENSIONS = frozenset(
    {
        ".svg", ".png", ".jpg", ".jpeg", ".gif", ".ico", ".webp", ".bmp", ".tif", ".tiff",
        ".psd", ".ai", ".eps", ".ttf", ".otf", ".woff", ".woff2", ".eot",
    }
)  # fmt: skip
"""Artwork, images and fonts: they cannot alter behaviour, so they count with the docs."""
TEST_DIRS = frozenset(
    {
        "test", "tests", "__tests__", "spec", "specs", "testing", "e2e", "__mocks__",
        "end-to-end",  # e2e spelled out (express-openid-connect's Puppeteer fixtures, holdout75)
        "testdata",  # Go: the go tool ignores it; fixtures only
        "test_data", "test-data",  # the same, spelled with a separator (go-crypto's sample keys)
        "testutil", "testutils", "testhelpers",  # helper packages only tests import
        "__snapshots__",  # Jest, Vitest and syrupy snapshots: expected test output
        ".snapshots",  # Go's cupaloy snapshots (ory/kratos's, held out on holdout35)
        "cypress",  # Cypress's own project folder: specs, fixtures, support commands (hydra's)
        "bench", "benches", "benchmark", "benchmarks",  # measured, never shipped
    }
)  # fmt: skip
_TEST_FILE = re.compile(
    r"(?:^test_.+\.py$|.+_test\.py$|^tests\.py$|^conftest\.py$|.+_test\.go$|.+\.(?:test|spec|test-d)\.[cm]?[jt]sx?$"
    r"|.+Tests?\.(?:java|kt|cs)$|.+_spec\.rb$|.+_test\.rb$|.+\.snap$|.+\.bench\.[cm]?[jt]sx?$"
    r"|(?:vitest|jest|playwright|cypress)\.(?:config|workspace)(?:\.[\w-]+)?\.[cm]?[jt]s$"
    r"|karma\.conf\.[cm]?js$"
    r"|.+_test_?data\.[a-z]+$)"  # test vectors beside code (go-crypto's read_write_test_data.go)
)
"""Test files by name (Django's ``<app>/tests.py`` as ``startapp`` writes it, which unittest's
``test*.py`` discovery runs: django-allauth's provider tests, holdout46); also a test runner's
own configuration (``vitest.config.e2e.ts``, ``jest.config.js``, ``playwright.config.ts``: what
runs the tests, never shipped; an app's ``vite.config.ts`` builds what ships and is code)."""
MANIFESTS = frozenset(
    {
        "requirements.txt",
        "pyproject.toml",
        "setup.py",
        "setup.cfg",
        "pipfile",
        "pipfile.lock",
        "poetry.lock",
        "uv.lock",
        "package.json",
        "package-lock.json",
        "yarn.lock",
        "pnpm-lock.yaml",
        "go.mod",
        "go.sum",
        "cargo.toml",
        "cargo.lock",
        "gemfile",
        "gemfile.lock",
        "pom.xml",
        "build.gradle",
        "build.gradle.kts",
        "composer.json",
        "composer.lock",
        "mix.exs",
        "environment.yml",
    }
)
_REQUIREMENTS = re.compile(r"^(?:requirements|constraints)[\w.-]*\.(?:txt|in)$")
INFRA_DIRS = frozenset(
    {
        "terraform",
        "helm",
        "k8s",
        "kubernetes",
        "charts",
        "deploy",
        "deployment",
        "deployments",
        "infra",
        "infrastructure",
        "ansible",
        "kustomize",
        "manifests",
        ".circleci",
        "cdk",
    }
)
_INFRA_FILE = re.compile(
    r"(?:\.(?:tf|tfvars|hcl)$|^dockerfile(?:\..+)?$|.+\.dockerfile$|^docker-compose[\w.-]*\.ya?ml$"
    r"|^compose\.ya?ml$|^\.gitlab-ci\.yml$|^jenkinsfile$|^procfile$|^chart\.yaml$"
    r"|^values[\w.-]*\.ya?ml$|^azure-pipelines\.ya?ml$|^cloudbuild\.ya?ml$|^serverless\.ya?ml$)"
)
CONFIG_EXTENSIONS = frozenset(
    {".yml", ".yaml", ".toml", ".ini", ".cfg", ".conf", ".json", ".properties", ".env", ".xml"}
)


class PathKind(StrEnum):
    """The role of a file, in the order they are tested."""

    DOCS = "docs"
    TEST = "test"
    MANIFEST = "manifest"
    INFRA = "infra"
    CONFIG = "config"
    CODE = "code"


def folders(paths: Iterable[str]) -> frozenset[str]:
    """Every folder holding one of ``paths``, at any depth, each with its trailing ``/``
    (``a/b/c.py`` gives ``a/`` and ``a/b/``)."""
    return frozenset(
        path[: i + 1] for path in paths for i, ch in enumerate(path) if ch == "/"
    )


FIXTURE_DIRS = frozenset({"fixture", "fixtures", "__fixtures__"})
"""Folders of test data, at any depth (``fixture/fixture.tar`` beside file-type's tests,
``selfservice/flow/registration/fixtures/sort/1.json`` in ory/kratos). Not test code for the
lane (a Django app's ``fixtures/`` can be data it loads), but sample values there are expected
(the secrets scan's guesses) and a binary sample there is data, not unreadable code (the
lane's low-confidence escalation)."""


@lru_cache(maxsize=8192)  # pure; every stage asks again about the same few thousand paths
def segments(path: str) -> tuple[str, ...]:
    """Lower-cased directory segments of ``path`` (without the file name)."""
    return tuple(p.lower() for p in PurePosixPath(path).parts[:-1])


@lru_cache(maxsize=8192)
def classify(path: str) -> PathKind:
    """The :class:`PathKind` of ``path``."""
    name = PurePosixPath(path).name.lower()
    dirs = segments(path)
    stem, ext = _split(name)
    if is_manifest(path):
        return _manifest_kind(stem, dirs)
    if is_infra(path) and not _is_docs(stem, ext, dirs):
        # A page about deployment (docs/deployment/docker.md) is documentation.
        return PathKind.INFRA
    if is_test(path):
        return PathKind.TEST
    if _is_docs(stem, ext, dirs):
        return PathKind.DOCS
    if ext in CONFIG_EXTENSIONS or name.startswith(".env"):
        return PathKind.CONFIG
    return PathKind.CODE


def _manifest_kind(stem: str, dirs: tuple[str, ...]) -> PathKind:
    """A manifest of development tooling counts with the docs; a test fixture's own package
    (``tests/testdata/pkg.dist/setup.py``, ``test/tscc/package.json``) is test data: neither
    ships."""
    if _dev_dependencies(stem, dirs):
        return PathKind.DOCS
    return PathKind.TEST if TEST_DIRS.intersection(dirs) else PathKind.MANIFEST


def _is_docs(stem: str, ext: str, dirs: tuple[str, ...]) -> bool:
    """Documentation or artwork; a doc-like stem only counts when the extension is not a
    programming language's."""
    if ext in DOC_EXTENSIONS or ext in ASSET_EXTENSIONS or (dirs and dirs[0] in DOC_DIRS):
        return True
    if dirs and (dirs[0] in EXAMPLE_DIRS or (dirs[0] == ".github" and dirs[1:2] and dirs[1]
                                             in GITHUB_DOC_DIRS)):
        return True
    if ext not in CODE_EXTENSIONS and (
        (dirs[:1] == (".github",) and stem in GITHUB_TEMPLATE_STEMS)
        or NEWS_FRAGMENT_DIRS.intersection(dirs)
    ):
        return True
    if stem + ext in DOC_TOOL_FILES and (stem != "funding" or dirs[:1] == (".github",)):
        return True
    if _MAN_SECTION.match(ext) and "man" in dirs:
        return True  # a manual page (roff, section 1-9) in a man folder at any depth
    return stem in DOC_NAMES and ext not in CODE_EXTENSIONS


_MAN_SECTION = re.compile(r"^\.[1-9]$")
"""A manual page's file extension is its section (``http.1``, ``git-config.5``)."""


def in_example_folder(path: str) -> bool:
    """Under a top-level example or playground folder (:data:`EXAMPLE_DIRS`)."""
    dirs = segments(path)
    return bool(dirs) and dirs[0] in EXAMPLE_DIRS


def in_docs_tree(path: str) -> bool:
    """Documentation, or any file under a top-level documentation or example folder, a
    tutorial's own tests included (``docs/tutorials/wiki2/src/tests/...``: :func:`classify`
    calls those tests, as the lane should; they illustrate, nothing ships them)."""
    dirs = segments(path)
    top = dirs[0] if dirs else ""
    return top in DOC_DIRS or in_example_folder(path) or classify(path) is PathKind.DOCS


def is_test(path: str) -> bool:
    """Test code or test data: a test directory segment or a test file name."""
    name = PurePosixPath(path).name
    return bool(TEST_DIRS.intersection(segments(path))) or _TEST_FILE.match(name) is not None


def is_manifest(path: str) -> bool:
    """A dependency manifest or lock file (pip-tools ``requirements/*.in|txt`` included)."""
    name = PurePosixPath(path).name.lower()
    if name in MANIFESTS or _REQUIREMENTS.match(name) is not None:
        return True
    return "requirements" in segments(path) and _split(name)[1] in {".in", ".txt"}


_DEV_WORDS = frozenset(
    {
        "doc", "docs", "sphinx", "mkdocs", "dev", "develop", "development", "test", "tests",
        "testing", "typing", "mypy", "lint", "linting", "style", "tox", "ci", "precommit",
    }
)  # fmt: skip


def _dev_dependencies(stem: str, dirs: tuple[str, ...]) -> bool:
    """Requirements of the development tooling only (``requirements/docs.txt``,
    ``requirements/tests.in``, ``requirements-dev.txt``, ``docs/requirements.txt``): pins of
    test runners, linters and doc builders never ship, so they count with the docs; so do the
    manifests of a top-level example folder (``examples/go.mod``: the examples' own module,
    which nothing the project ships depends on)."""
    outside = bool(dirs and (dirs[0] in DOC_DIRS or dirs[0] in EXAMPLE_DIRS))
    if not stem.startswith("requirements") and "requirements" not in dirs:
        return outside
    words = set(re.split(r"[^a-z]+", stem))
    return bool(words & _DEV_WORDS) or outside


DEV_ENVIRONMENT_DIRS = frozenset({".devcontainer"})
"""Folders the Development Containers specification (containers.dev) reserves for a
contributor's editor environment: a Dockerfile there builds a workstation, never a
deployment, in every repository."""


def is_infra(path: str) -> bool:
    """Infrastructure or CI definition (Terraform, k8s/Helm, Dockerfiles, workflows); a
    development container's files are not (:data:`DEV_ENVIRONMENT_DIRS`)."""
    name = PurePosixPath(path).name.lower()
    dirs = segments(path)
    if len(dirs) >= 2 and dirs[0] == ".github" and dirs[1] == "workflows":
        return True
    if dirs[:1] and dirs[0] in DEV_ENVIRONMENT_DIRS:
        return False
    return _INFRA_FILE.search(name) is not None or bool(INFRA_DIRS.intersection(dirs))


JS_EXTENSIONS = (".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx")
"""JavaScript and TypeScript sources (ES modules, CommonJS, JSX), one event loop per process."""
TYPE_DECLARATION_SUFFIXES = (".d.ts", ".d.mts", ".d.cts", ".pyi")
"""Files of type declarations only (TypeScript's ``.d.ts``, Python's stubs): no code in them
runs."""


def is_type_declaration(path: str) -> bool:
    """Whether ``path`` holds type declarations only (``index.d.ts``, ``client.pyi``)."""
    return path.lower().endswith(TYPE_DECLARATION_SUFFIXES)

PACKAGE_FILES = {
    "__init__": (".py", ".pyi"),
    "index": JS_EXTENSIONS,
    "mod": (".rs",),
}
"""Files that are their folder's module, by language: Python's ``__init__``, JavaScript's and
TypeScript's ``index``, Rust's ``mod`` (an ``index.py`` is a module of its own)."""


def module_name(path: str) -> str:
    """The module a file defines: its stem (``auth/__init__.py``, ``csrf/index.ts`` and
    ``tls/mod.rs`` are their folder: ``auth``, ``csrf``, ``tls``)."""
    p = PurePosixPath(path)
    stem = p.name.split(".", 1)[0]
    if p.parent.name and p.name.endswith(PACKAGE_FILES.get(stem, ())):
        return p.parent.name
    return stem


def extension(path: str) -> str:
    """Lower-cased extension with its dot (``""`` when none)."""
    return _split(PurePosixPath(path).name.lower())[1]


def _split(name: str) -> tuple[str, str]:
    stem, dot, ext = name.rpartition(".")
    if not dot or not stem:
        return name, ""
    return stem, "." + ext
