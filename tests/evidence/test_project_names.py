"""The project's own names from its root manifests, and scope words they hold."""

from __future__ import annotations

import pytest

from pr_review.config import Config
from pr_review.evidence.build import build_pack
from pr_review.evidence.project_names import (
    NAME_EXAMPLES,
    named_words,
    names_word,
    project_names,
)
from pr_review.schema.enums import Lane
from pr_review.sources.model import MemoryTree
from tests.evidence.helpers import file_diff, pull_request


@pytest.mark.parametrize(("name", "word", "named"), NAME_EXAMPLES)
def test_name_examples(name: str, word: str, named: bool) -> None:
    assert names_word(name, word) is named


@pytest.mark.parametrize(
    ("path", "text", "name"),
    [
        ("package.json", '{"name": "follow-redirects", "version": "1.0.0"}', "follow-redirects"),
        ("package.json", '{"name": "@hono/cookie"}', "cookie"),
        ("go.mod", "module github.com/gorilla/csrf\n\ngo 1.20\n", "csrf"),
        ("go.mod", "module github.com/golang-jwt/jwt/v5\n", "jwt"),
        ("pyproject.toml", '[project]\nname = "PyJWT"\n', "pyjwt"),
        ("pyproject.toml", '[tool.poetry]\nname = "authlib"\n', "authlib"),
        ("setup.cfg", "[metadata]\nname = itsdangerous\n", "itsdangerous"),
        ("setup.py", "from setuptools import setup\nsetup(name='webob', version='1')\n", "webob"),
    ],
)
def test_names_come_from_each_manifest(path: str, text: str, name: str) -> None:
    assert project_names(MemoryTree({path: text})) == {name}


def test_broken_or_missing_manifests_name_nothing() -> None:
    broken = MemoryTree(
        {
            "package.json": "{not json",
            "pyproject.toml": "[project\nname=",
            "setup.cfg": "no section",
            "setup.py": "setup(name=NAME)",
            "go.mod": "go 1.21\n",
        }
    )
    assert project_names(broken) == frozenset()
    assert project_names(MemoryTree({})) == frozenset()
    assert named_words(MemoryTree({"package.json": '{"name": "cookie"}'}), {"cookie", "tls"}) == {
        "cookie"
    }


_BASE = (
    "function stringifyCookie(cookie, options) {\n"
    "  if (cookie.value) return cookie.name + '=' + cookie.value\n"
    "  return cookie.name\n"
    "}\n"
)
_HEAD = (
    "function stringifyCookie(cookie, options) {\n"
    "  if (cookie.value == null) return cookie.name\n"
    "  return cookie.name + '=' + cookie.value\n"
    "}\n"
)


def _lane(manifest: str) -> tuple[Lane, dict[str, str]]:
    files = [
        file_diff(
            "src/index.js",
            _HEAD.splitlines()[1:3],
            _BASE.splitlines()[1:3],
            start=2,
        )
    ]
    pr = pull_request(
        files,
        base={"src/index.js": _BASE, "package.json": manifest},
        head={"src/index.js": _HEAD, "package.json": manifest},
    )
    pack = build_pack(pr, Config())
    return pack.risk.lane, {f.factor: f.severity.value for f in pack.risk.factors}


def test_a_cookie_function_changing_its_decisions_is_red_except_in_the_cookie_project() -> None:
    lane, factors = _lane('{"name": "my-web-app"}')
    assert lane is Lane.RED
    assert factors["security-check-changed"] == "red"
    lane, factors = _lane('{"name": "cookie"}')
    assert lane is Lane.YELLOW
    assert "security-check-changed" not in factors
    assert "security-scope" not in factors
