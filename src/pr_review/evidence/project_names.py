"""The names a project gives itself in its package manifests, read from the base branch.

A scope word (``cookie``, ``redirect``, ``csrf``, ``jwt``) marks the few functions of an
application that handle a security concern. In a project named for that concern (the
``cookie`` parser, ``follow-redirects``, ``gorilla/csrf``, ``pyjwt``) every function is named
so, and the word picks out nothing: a refactor of the cookie serializer is the project's
ordinary work, not a change to the few functions a reviewer must look at. So a scope word the
project's own name holds (:func:`names_word`) is not a security scope word in that project
(:mod:`pr_review.evidence.security_scope`); evidence on the code itself (a marker, a sink, a
bound, a credential-header list) still reads every function.

The names come from the manifests at the repository's root on the base branch, the same in
every hosting and offline: ``package.json`` ``name`` (without its ``@scope/``), ``go.mod``'s
module path (its last element, without a ``/vN`` suffix), ``pyproject.toml`` ``[project]`` or
``[tool.poetry]`` ``name``, ``setup.cfg`` ``[metadata] name`` and ``setup.py``'s
``setup(name="...")``. A PR cannot rename its project for its own review: the head is not read.

Examples (run by the test suite, ``NAME_EXAMPLES``): (project name, word, named?).
"""

from __future__ import annotations

import ast
import configparser
import json
import re
import tomllib
from collections.abc import Iterable

from pr_review.evidence.pyast import parse_python
from pr_review.sources.model import RepoTree

_MIN_WORD = 3
"""Shorter words (``ws``, ``qs``) are not matched inside a name."""
_VERSION_SUFFIX = re.compile(r"^v\d+$")


def names_word(name: str, word: str) -> bool:
    """Whether the project name ``name`` holds the scope word ``word``: one of its parts
    (split on anything not a letter or digit) is the word or starts or ends with it
    (``follow-redirects`` holds ``redirect``, ``pyjwt`` ``jwt``, ``authlib`` ``auth``), also
    once a version number at its end is set aside (``pysaml2`` holds ``saml``, ``oauth2``
    ``oauth``), or it holds the word's singular (``cookie`` holds ``cookies``)."""
    singular = word[:-1] if word.endswith("s") else ""
    parts = {
        form
        for part in re.split(r"[^a-z0-9]+", name.lower())
        for form in (part, part.rstrip("0123456789"))
    }
    return any(
        len(w) >= _MIN_WORD
        and any(part == w or part.startswith(w) or part.endswith(w) for part in parts)
        for w in (word, singular)
    )


def project_names(base: RepoTree) -> frozenset[str]:
    """The project's names from its root manifests on the base branch (lower case)."""
    found = [
        _package_json(base.read("package.json")),
        _go_mod(base.read("go.mod")),
        *_pyproject(base.read("pyproject.toml")),
        _setup_cfg(base.read("setup.cfg")),
        _setup_py(base.read("setup.py")),
    ]
    return frozenset(n.lower() for n in found if n)


def named_words(base: RepoTree, words: Iterable[str]) -> frozenset[str]:
    """The ``words`` the project's own names hold."""
    names = project_names(base)
    return frozenset(w for w in words if any(names_word(n, w) for n in names))


def package_json(text: str | None) -> dict[str, object] | None:
    """A ``package.json``'s object; None when there is none or it is not a JSON object."""
    try:
        data = json.loads(text) if text else None
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _package_json(text: str | None) -> str | None:
    data = package_json(text)
    name = data.get("name") if data is not None else None
    return name.rpartition("/")[2] if isinstance(name, str) else None


def _go_mod(text: str | None) -> str | None:
    for line in (text or "").splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0] == "module":
            elements = parts[1].strip('"').split("/")
            if len(elements) > 1 and _VERSION_SUFFIX.match(elements[-1]):
                elements.pop()
            return elements[-1]
    return None


def _pyproject(text: str | None) -> list[str]:
    try:
        data = tomllib.loads(text) if text else {}
    except tomllib.TOMLDecodeError:
        return []
    project = data.get("project")
    poetry = data.get("tool", {}).get("poetry") if isinstance(data.get("tool"), dict) else None
    return [
        table["name"]
        for table in (project, poetry)
        if isinstance(table, dict) and isinstance(table.get("name"), str)
    ]


def _setup_cfg(text: str | None) -> str | None:
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text or "")
    except configparser.Error:
        return None
    return parser.get("metadata", "name", fallback=None)


def _setup_py(text: str | None) -> str | None:
    tree = parse_python(text) if text else None
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "setup":
            for keyword in node.keywords:
                value = keyword.value
                if keyword.arg == "name" and isinstance(value, ast.Constant):
                    return value.value if isinstance(value.value, str) else None
    return None


NAME_EXAMPLES: tuple[tuple[str, str, bool], ...] = (
    ("cookie", "cookie", True),
    ("cookie", "cookies", True),  # the plural of the name (``getAllCookies``)
    ("follow-redirects", "redirect", True),
    ("follow-redirects", "redirects", True),
    ("csrf", "csrf", True),
    ("PyJWT", "jwt", True),
    ("Authlib", "auth", True),
    ("pysaml2", "saml", True),  # a version number at the name's end set aside (holdout70)
    ("oauth2", "oauth", True),
    ("h2", "http", False),
    ("express-session", "session", True),
    ("tough-cookie", "cookies", True),
    ("token", "tokens", True),
    ("sign", "signs", True),
    ("jsonwebtoken", "tokens", True),  # it holds ``token``
    ("tls-client", "tls", True),
    # the word is not the project's subject
    ("requests", "redirect", False),
    ("flask", "session", False),
    ("express", "cookie", False),
    ("jsonwebtoken", "sign", False),
    ("ws", "ws", False),  # too short to match inside a name
    ("express", "ss", False),
)
"""A project name, a scope word, and whether the name holds the word."""
