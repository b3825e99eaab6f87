"""The project's own name, from its manifests: words that name the whole repository.

A function named for cookies says where the security-relevant code is in a web framework;
in a cookie library every function is named for cookies, so the word says nothing about which
one matters. The project's name is read from the base tree's root manifests
(``package.json`` ``name``, ``go.mod`` ``module``, ``pyproject.toml`` ``[project] name``,
``Cargo.toml`` ``[package] name``) and from ``owner/name`` when the PR's repository is known;
its words (:func:`pr_review.evidence.scopes.words`) are the project's subject.
"""

from __future__ import annotations

import json
import re
import tomllib

from pr_review.evidence.scopes import words
from pr_review.sources.model import RepoTree

_GO_MODULE = re.compile(r"^module\s+(\S+)", re.MULTILINE)
_GO_MAJOR = re.compile(r"^v\d+$")


def _names(tree: RepoTree, repository: str | None) -> list[str]:
    names: list[str] = []
    if repository:
        names.append(repository.rsplit("/", 1)[-1])
    text = tree.read("package.json")
    if text:
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        if isinstance(data, dict) and isinstance(data.get("name"), str):
            names.append(data["name"].rsplit("/", 1)[-1])  # "@scope/name" -> name
    text = tree.read("go.mod")
    match = _GO_MODULE.search(text or "")
    if match:
        parts = [p for p in match.group(1).split("/") if not _GO_MAJOR.match(p)]
        names.extend(parts[-1:])
    for manifest, table in (("pyproject.toml", "project"), ("Cargo.toml", "package")):
        text = tree.read(manifest)
        if not text:
            continue
        try:
            section = tomllib.loads(text).get(table)
        except tomllib.TOMLDecodeError:
            continue
        if isinstance(section, dict) and isinstance(section.get("name"), str):
            names.append(section["name"])
    return names


def project_words(tree: RepoTree, repository: str | None = None) -> frozenset[str]:
    """The words of the project's names: ``{"cookie"}`` for jshttp/cookie, ``{"csrf"}`` for
    ``github.com/gorilla/csrf``, ``{"py", "jwt"}`` for PyJWT; empty when nothing names it."""
    return frozenset(w for name in _names(tree, repository) for w in words(name))
