"""Lists of HTTP header names that hold a credential header, changed by a PR.

A list (array, set, tuple, Go slice or map literal) whose elements are header names and
include one that carries a credential (``Authorization``, ``Proxy-Authorization``,
``Cookie``, ``Set-Cookie``, ``X-API-Key``...) decides where credentials go, whatever the
repository calls it: the headers a client strips when a redirect leaves the origin, the ones
a logger redacts, the ones a proxy drops or a CORS policy lets through. A credential header
added to or removed from such a list changes that decision in every language: urllib3's
``Cookie`` and then ``Proxy-Authorization`` joining ``DEFAULT_REMOVE_HEADERS_ON_REDIRECT``
were two published fixes (credentials leaked to another host on a cross-origin redirect).

Factor ``credential-headers-changed`` (red): the PR's code files name a credential header in
such lists a different number of times after the PR than before (a list rewritten, moved or
reformatted with the same names is no change). Python is read with :mod:`ast`, JavaScript,
TypeScript and Go on tree-sitter (:func:`pr_review.evidence.grammars.string_collections`).
Test code is not read.

Examples (run by the test suite, ``CREDENTIAL_HEADER_EXAMPLES``): (path, base, head, changed?).
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from pr_review.evidence.grammars import string_collections
from pr_review.evidence.lexing import shorten
from pr_review.evidence.pyast import parse_python
from pr_review.evidence.scopes import PYTHON_EXTENSIONS
from pr_review.evidence.sides import code_sides
from pr_review.schema.enums import FactorSeverity
from pr_review.schema.pack import RiskFactor
from pr_review.sources.diff import FileDiff
from pr_review.sources.model import RepoTree

FACTOR = "credential-headers-changed"
CREDENTIAL_HEADERS = frozenset(
    {
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key",
        "x-auth-token", "x-csrf-token", "x-xsrf-token", "x-amz-security-token",
    }
)  # fmt: skip
"""Header names whose value is a credential (lower case)."""
_HEADER_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9-]*$")


@dataclass(frozen=True)
class HeaderList:
    """A list of header names naming at least one credential header."""

    line: int
    names: tuple[str, ...]

    @property
    def credentials(self) -> tuple[str, ...]:
        """Its credential headers, lower case."""
        return tuple(n.lower() for n in self.names if n.lower() in CREDENTIAL_HEADERS)


def _header_list(line: int, strings: Sequence[str]) -> HeaderList | None:
    """A collection of strings is a header list when every string is a header name and one
    is a credential header."""
    if not strings or not all(_HEADER_NAME.match(s) for s in strings):
        return None
    if not any(s.lower() in CREDENTIAL_HEADERS for s in strings):
        return None
    return HeaderList(line, tuple(strings))


def _python_collections(source: str) -> list[tuple[int, tuple[str, ...]]] | None:
    tree = parse_python(source)
    if tree is None:
        return None
    out: list[tuple[int, tuple[str, ...]]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.List | ast.Set | ast.Tuple):
            strings = tuple(
                e.value for e in node.elts
                if isinstance(e, ast.Constant) and isinstance(e.value, str)
            )  # fmt: skip
            if strings:
                out.append((node.lineno, strings))
    return out


def header_lists(path: str, source: str | None) -> list[HeaderList] | None:
    """The header-name lists of ``source`` that name a credential header; None when the file
    is not read here (no tree for its language, or it does not parse)."""
    if source is None:
        return None
    found = (
        _python_collections(source)
        if path.endswith(PYTHON_EXTENSIONS)
        else string_collections(path, source)
    )
    if found is None:
        return None
    return [h for line, strings in found if (h := _header_list(line, strings)) is not None]


def credential_header_factors(
    files: Sequence[FileDiff], base: RepoTree, head: RepoTree
) -> list[RiskFactor]:
    """One red factor for a PR whose code changes how often header-name lists name each
    credential header, at the first file where the count moved."""
    before: Counter[str] = Counter()
    after: Counter[str] = Counter()
    per_file = [(s.path, s.old, s.new) for s in code_sides(files, base, head, header_lists)]
    for _, old, new in per_file:
        before.update(c for h in old for c in h.credentials)
        after.update(c for h in new for c in h.credentials)
    if before == after:
        return []
    for path, old, new in per_file:
        came = Counter(c for h in new for c in h.credentials)
        gone = Counter(c for h in old for c in h.credentials)
        if came == gone:
            continue
        added, removed = came - gone, gone - came
        name = sorted(added or removed)[0]
        side = new if added else old
        where = next(h for h in side if name in h.credentials)
        verb = "added to" if added else "removed from"
        base_note = "" if added else " of the base file"
        listed = ", ".join(f'"{n}"' for n in where.names)
        return [
            RiskFactor(
                factor=FACTOR,
                files=(path,),
                severity=FactorSeverity.RED,
                why=f"credential header `{_display(where, name)}` {verb} a list of header "
                f"names (line {where.line}{base_note}: [{shorten(listed, 90)}]): such a list "
                "decides where credentials go (stripped on a cross-origin redirect, "
                "redacted from logs, dropped by a proxy, allowed by CORS)",
            )
        ]
    return []


def _display(where: HeaderList, name: str) -> str:
    return next(n for n in where.names if n.lower() == name)


CREDENTIAL_HEADER_EXAMPLES: tuple[tuple[str, str, str, bool], ...] = (
    (
        "retry.py",
        'class Retry:\n    DEFAULT_REMOVE = frozenset(["Authorization"])\n',
        'class Retry:\n    DEFAULT_REMOVE = frozenset(["Cookie", "Authorization"])\n',
        True,
    ),
    (
        "redirect.js",
        "const strip = ['authorization', 'cookie', 'proxy-authorization']\n",
        "const strip = ['authorization', 'cookie']\n",
        True,
    ),
    (
        "proxy.go",
        'package p\nvar sensitive = map[string]bool{"Authorization": true}\n',
        'package p\nvar sensitive = map[string]bool{"Authorization": true, "Cookie": true}\n',
        True,
    ),
    # the same names reformatted, reordered or moved; lists that are not header names
    (
        "retry.py",
        'REMOVE = frozenset(["Cookie", "Authorization"])\n',
        'REMOVE = frozenset(\n    ["Authorization", "Cookie"]\n)\n',
        False,
    ),
    (
        "cors.ts",
        "const allowed = ['Content-Type', 'Authorization']\n",
        "const allowed = ['Content-Type', 'Authorization', 'X-Request-Id']\n",
        False,
    ),
    (
        "messages.py",
        'HINTS = ["Set the Authorization header", "cookie"]\n',
        'HINTS = ["Set the Authorization header"]\n',
        False,
    ),
)
"""A base and a head source of one file, and whether the change is red."""
