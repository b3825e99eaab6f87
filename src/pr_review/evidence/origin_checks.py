"""Comparisons of two URLs' origins that a PR adds, removes or rewrites.

A comparison whose two sides read the same part of an origin from two values
(``next.protocol !== current.protocol``, ``old.hostname != new.hostname``, ``a.Host ==
b.Host``, ``u.Hostname() != v.Hostname()``) asks, in every repository, whether two URLs are
the same site: whether credentials, cookies and headers follow a redirect, whether a request
is same-origin, whether a connection may be reused for another host. The fields are those of
the standard URL types (WHATWG ``URL``, Python's ``urlsplit``, Go's ``net/url``: host,
hostname, origin, protocol, scheme, netloc, port), so the meaning does not depend on the
project. follow-redirects' CVE-2022-0536 added ``redirectUrlParts.protocol !==
currentUrlParts.protocol`` to the test that drops credentials on a redirect.

Red, as factor ``origin-check-changed``, when the PR's code files hold a different number of
such comparisons after the PR than before (compared with receivers masked, so a renamed
variable or a comparison moved between files of the PR is no change). A field compared with a
literal (``url.scheme == "https"``: which transport, not whether two URLs are one site) or
with a plain name is not one. Python is read with :mod:`ast`, JavaScript/TypeScript and Go on
tree-sitter (:func:`pr_review.evidence.grammars.field_equalities`).

Examples (run by the test suite, ``ORIGIN_CHECK_EXAMPLES``): (path, base, head, changed?).
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import dataclass

from pr_review.evidence.grammars import field_equalities
from pr_review.evidence.lexing import mask_receivers, shorten
from pr_review.evidence.pyast import parse_python
from pr_review.evidence.scopes import PYTHON_EXTENSIONS
from pr_review.evidence.sides import code_sides, first_moved, red_when_moved
from pr_review.schema.pack import RiskFactor
from pr_review.sources.diff import FileDiff
from pr_review.sources.model import RepoTree

FACTOR = "origin-check-changed"

ORIGIN_FIELDS = frozenset({"host", "hostname", "origin", "protocol", "scheme", "netloc", "port"})
"""The parts of a URL that make its origin, lower-cased (Go's ``Host``, ``Hostname()``)."""


@dataclass(frozen=True)
class OriginCheck:
    """A comparison of the same origin part of two values."""

    line: int
    code: str
    """The comparison's source, whitespace collapsed."""

    @property
    def key(self) -> str:
        """The comparison with receivers masked: the same after a rename or a move."""
        return mask_receivers(self.code)


def _python_field(node: ast.expr) -> str | None:
    if isinstance(node, ast.Call) and not node.args and not node.keywords:
        node = node.func
    return node.attr if isinstance(node, ast.Attribute) else None


def _is_origin_pair(left: str | None, right: str | None) -> bool:
    return (
        left is not None
        and right is not None
        and left.lower() in ORIGIN_FIELDS
        and right.lower() in ORIGIN_FIELDS
    )


def checks(path: str, source: str | None) -> list[OriginCheck] | None:
    """The origin comparisons of ``source``; None when it is not read on a tree."""
    if source is None:
        return None
    if path.endswith(PYTHON_EXTENSIONS):
        tree = parse_python(source)
        if tree is None:
            return None
        found = []
        for node in ast.walk(tree):
            if not isinstance(node, ast.Compare):
                continue
            sides = [node.left, *node.comparators]
            for op, left, right in zip(node.ops, sides, sides[1:], strict=False):
                if isinstance(op, ast.Eq | ast.NotEq) and _is_origin_pair(
                    _python_field(left), _python_field(right)
                ):
                    code = f"{ast.unparse(left)} {'==' if isinstance(op, ast.Eq) else '!='} "
                    found.append(OriginCheck(node.lineno, code + ast.unparse(right)))
        return sorted(found, key=lambda c: c.line)
    compared = field_equalities(path, source)
    if compared is None:
        return None
    return [
        OriginCheck(line, code) for line, left, right, code in compared
        if _is_origin_pair(left, right)
    ]  # fmt: skip


def origin_check_factors(
    files: Sequence[FileDiff], base: RepoTree, head: RepoTree
) -> list[RiskFactor]:
    """One red factor when the PR's code files hold a different set of origin comparisons
    after the PR than before, at the first file whose set moved."""
    moved = first_moved(code_sides(files, base, head, checks), lambda c: c.key)
    return red_when_moved(
        FACTOR,
        moved,
        lambda moved: f"a comparison of two URLs' origins {moved.verb} or rewritten "
        f"({moved.where}: `{shorten(moved.item.code, 80)}`; {moved.came} new, {moved.gone} gone "
        "in the PR's files): whether two URLs are the same site decides whether credentials, "
        "cookies and headers follow a redirect or a request counts as same-origin",
    )


ORIGIN_CHECK_EXAMPLES: tuple[tuple[str, str, str, bool], ...] = (
    (  # follow-redirects' CVE-2022-0536: credentials dropped across schemes too
        "index.js",
        (
            "function drop(redirectUrlParts, currentUrlParts, currentHost) {\n"
            "  if (!(redirectUrlParts.host === currentHost)) {\n"
            "    removeMatchingHeaders(/^(?:authorization|cookie)$/i, this._options.headers)\n"
            "  }\n}\n"
        ),
        (
            "function drop(redirectUrlParts, currentUrlParts, currentHost) {\n"
            "  if (redirectUrlParts.protocol !== currentUrlParts.protocol ||\n"
            "      !(redirectUrlParts.host === currentHost)) {\n"
            "    removeMatchingHeaders(/^(?:authorization|cookie)$/i, this._options.headers)\n"
            "  }\n}\n"
        ),
        True,
    ),
    (  # requests' should_strip_auth: a host comparison removed (Python)
        "sessions.py",
        (
            "def should_strip_auth(self, old_url, new_url):\n"
            "    old_parsed, new_parsed = urlparse(old_url), urlparse(new_url)\n"
            "    if old_parsed.hostname != new_parsed.hostname:\n        return True\n"
            "    return False\n"
        ),
        (
            "def should_strip_auth(self, old_url, new_url):\n"
            "    old_parsed, new_parsed = urlparse(old_url), urlparse(new_url)\n"
            "    return False\n"
        ),
        True,
    ),
    (  # Go: a redirect to another host keeps the Authorization header no longer
        "client.go",
        (
            "package c\nfunc keep(req, via *http.Request) bool {\n\treturn true\n}\n"
        ),
        (
            "package c\nfunc keep(req, via *http.Request) bool {\n"
            "\treturn req.URL.Hostname() == via.URL.Hostname()\n}\n"
        ),
        True,
    ),
    # not an origin comparison, or no change: a scheme compared with a literal, a plain name,
    # a renamed receiver, a comparison moved to another function
    (
        "proxy.py",
        "def pick(url):\n    return None\n",
        (
            "def pick(url):\n    if url.scheme == 'https':\n        return HTTPS_PROXY\n"
            "    return None\n"
        ),
        False,
    ),
    (
        "lib/pool.js",
        "function same(a, host) {\n  return false\n}\n",
        "function same(a, host) {\n  return a.host === host\n}\n",
        False,
    ),
    (
        "lib/redirect.js",
        "function same(event) {\n  return event.request.url.host === event.target.host\n}\n",
        "function same(event) {\n  return event.req.url.host === event.target.host\n}\n",
        False,
    ),
    (
        "url.go",
        (
            "package u\nfunc a(x, y *url.URL) bool {\n\treturn x.Host == y.Host\n}\n"
            "func b() bool {\n\treturn false\n}\n"
        ),
        (
            "package u\nfunc a() bool {\n\treturn false\n}\n"
            "func b(x, y *url.URL) bool {\n\treturn x.Host == y.Host\n}\n"
        ),
        False,
    ),
    (  # a field that is not part of an origin
        "lib/cache.ts",
        "function same(a: Req, b: Req) {\n  return false\n}\n",
        "function same(a: Req, b: Req) {\n  return a.method === b.method\n}\n",
        False,
    ),
)
"""A base and a head source of one file, and whether the change is red."""
