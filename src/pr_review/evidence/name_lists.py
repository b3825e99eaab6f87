"""Lists of names that decide a security question, changed by a PR.

Some names mean one thing in every codebase, and a list of them decides something whatever the
repository calls it. The rules are data (``NAME_LISTS``):

- **Credential headers.** A list (array, set, tuple, Go slice or map literal) whose elements
  are header names and include one that carries a credential (``Authorization``,
  ``Proxy-Authorization``, ``Cookie``, ``Set-Cookie``, ``X-API-Key``...) decides where
  credentials go: the headers a client strips when a redirect leaves the origin, the ones a
  logger redacts, the ones a proxy drops or a CORS policy lets through. urllib3's ``Cookie``
  and then ``Proxy-Authorization`` joining ``DEFAULT_REMOVE_HEADERS_ON_REDIRECT`` were two
  published fixes (credentials leaked to another host on a cross-origin redirect).
- **Link attributes.** A list whose elements are markup attribute names, mostly ones whose
  value is a URL (``href``, ``src``, ``action``, ``formaction``, ``xlink:href``, ``poster``...),
  decides which attributes a sanitizer checks for script URLs or a rewriter treats as links
  (counted when it names ``href`` and at least three such names, half its strings or more):
  lxml's ``formaction`` (CVE-2021-28957) and ``xlink:href`` (GHSA-4jhm-jv67-739f) joining
  ``link_attrs`` were two published fixes (``javascript:`` URLs left in attributes the cleaner
  did not know were links). A list of allowed attributes naming a link or two among others
  (``['href', 'title', 'class']``) is not one.

Factor per rule (red): the PR's code files name the rule's names in such lists a different
number of times after the PR than before (a list rewritten, moved or reformatted with the same
names is no change, and so is one that gains only other names). Python is read with
:mod:`ast`, JavaScript, TypeScript and Go on tree-sitter
(:func:`pr_review.evidence.grammars.string_collections`). Test code is not read.

Examples (run by the test suite, ``NAME_LIST_EXAMPLES``): (path, base, head, factor or None).
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


@dataclass(frozen=True)
class NameListRule:
    """Names whose presence in a list decides a security question, and which lists count."""

    factor: str
    names: frozenset[str]
    """The names that decide (lower case)."""
    shape: re.Pattern[str]
    """Every string of a counted list has this shape."""
    anchors: frozenset[str]
    """A counted list names one of these (lower case) ..."""
    least: int
    """... and at least this many of :attr:`names` ..."""
    share: float
    """... making up at least this share of its strings."""
    noun: str
    """What one of the names is (``credential header``)."""
    decides: str
    """What such a list decides (``such a list decides ...``)."""

    def counted(self, strings: Sequence[str]) -> tuple[str, ...]:
        """The rule's names in a list of ``strings`` (lower case), or none when the list is not
        one the rule counts."""
        if not strings or not all(self.shape.match(s) for s in strings):
            return ()
        found = tuple(s.lower() for s in strings if s.lower() in self.names)
        if (
            self.anchors.isdisjoint(found) or len(found) < self.least
            or len(found) < self.share * len(strings)
        ):  # fmt: skip
            return ()
        return found


_CREDENTIAL_HEADER_NAMES = frozenset({
    "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key",
    "x-auth-token", "x-csrf-token", "x-xsrf-token", "x-amz-security-token",
})  # fmt: skip
CREDENTIAL_HEADERS = NameListRule(
    factor="credential-headers-changed",
    names=_CREDENTIAL_HEADER_NAMES,
    shape=re.compile(r"^[A-Za-z0-9][A-Za-z0-9-]*$"),
    anchors=_CREDENTIAL_HEADER_NAMES,
    least=1,
    share=0.0,
    noun="credential header",
    decides="such a list decides where credentials go (stripped on a cross-origin redirect, "
    "redacted from logs, dropped by a proxy, allowed by CORS)",
)  # fmt: skip
LINK_ATTRIBUTES = NameListRule(
    factor="link-attributes-changed",
    names=frozenset({
        "href", "src", "srcset", "action", "formaction", "xlink:href", "background", "cite",
        "longdesc", "poster", "codebase", "classid", "data", "usemap", "dynsrc", "lowsrc",
        "profile", "archive", "icon", "manifest", "ping",
    }),
    shape=re.compile(r"^[A-Za-z][A-Za-z0-9_:-]*$"),
    anchors=frozenset({"href", "xlink:href"}),  # `src`, `data`, `action` are words, too
    least=3,
    share=0.5,
    noun="link attribute",
    decides="such a list decides which attributes are checked for script URLs or rewritten as "
    "links (a `javascript:` URL in an attribute missing from it is left in place)",
)  # fmt: skip
NAME_LISTS: tuple[NameListRule, ...] = (CREDENTIAL_HEADERS, LINK_ATTRIBUTES)
FACTORS: tuple[str, ...] = tuple(rule.factor for rule in NAME_LISTS)


@dataclass(frozen=True)
class NameList:
    """A list of strings, where it is, and the names each rule counts in it."""

    line: int
    strings: tuple[str, ...]
    counted: tuple[tuple[str, ...], ...]
    """Per rule of :data:`NAME_LISTS`, its names in this list (lower case)."""


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


def name_lists(path: str, source: str | None) -> list[NameList] | None:
    """The lists of ``source`` that some rule of :data:`NAME_LISTS` counts; None when the file
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
    out = []
    for line, strings in found:
        counted = tuple(rule.counted(strings) for rule in NAME_LISTS)
        if any(counted):
            out.append(NameList(line, strings, counted))
    return out


def name_list_factors(
    files: Sequence[FileDiff], base: RepoTree, head: RepoTree
) -> list[RiskFactor]:
    """One red factor per rule whose names the PR's code lists a different number of times,
    at the first file where the count moved."""
    per_file = [(s.path, s.old, s.new) for s in code_sides(files, base, head, name_lists)]
    out: list[RiskFactor] = []
    for index, rule in enumerate(NAME_LISTS):
        before = sum((_names(old, index) for _, old, _ in per_file), Counter[str]())
        after = sum((_names(new, index) for _, _, new in per_file), Counter[str]())
        if before == after:  # the same names, perhaps moved to another file of the PR
            continue
        for path, old, new in per_file:
            if _names(new, index) != _names(old, index):
                out.append(_factor(rule, index, path, old, new))
                break
    return out


def _names(lists: list[NameList], index: int) -> Counter[str]:
    """How often the lists name each name of rule ``index``."""
    return Counter(n for found in lists for n in found.counted[index])


def _factor(
    rule: NameListRule, index: int, path: str, old: list[NameList], new: list[NameList]
) -> RiskFactor:
    came, gone = _names(new, index), _names(old, index)
    added, removed = came - gone, gone - came
    name = sorted(added or removed)[0]
    side = new if added else old
    where = next(found for found in side if name in found.counted[index])
    verb = "added to" if added else "removed from"
    base_note = "" if added else " of the base file"
    listed = ", ".join(f'"{s}"' for s in where.strings)
    shown = next(s for s in where.strings if s.lower() == name)
    return RiskFactor(
        factor=rule.factor,
        files=(path,),
        severity=FactorSeverity.RED,
        why=f"{rule.noun} `{shown}` {verb} a list of {rule.noun.split()[-1]} names (line "
        f"{where.line}{base_note}: [{shorten(listed, 90)}]): {rule.decides}",
    )


NAME_LIST_EXAMPLES: tuple[tuple[str, str, str, str | None], ...] = (
    (
        "retry.py",
        'class Retry:\n    DEFAULT_REMOVE = frozenset(["Authorization"])\n',
        'class Retry:\n    DEFAULT_REMOVE = frozenset(["Cookie", "Authorization"])\n',
        CREDENTIAL_HEADERS.factor,
    ),
    (
        "redirect.js",
        "const strip = ['authorization', 'cookie', 'proxy-authorization']\n",
        "const strip = ['authorization', 'cookie']\n",
        CREDENTIAL_HEADERS.factor,
    ),
    (
        "proxy.go",
        'package p\nvar sensitive = map[string]bool{"Authorization": true}\n',
        'package p\nvar sensitive = map[string]bool{"Authorization": true, "Cookie": true}\n',
        CREDENTIAL_HEADERS.factor,
    ),
    (
        "html/defs.py",
        "link_attrs = frozenset(['action', 'href', 'src', 'lowsrc'])\n",
        "link_attrs = frozenset(['action', 'href', 'src', 'lowsrc', 'formaction'])\n",
        LINK_ATTRIBUTES.factor,
    ),
    (
        "sanitize.js",
        "const schemeAttributes = ['href', 'src', 'cite']\n",
        "const schemeAttributes = ['href', 'src', 'cite', 'xlink:href']\n",
        LINK_ATTRIBUTES.factor,
    ),
    # the same names reformatted, reordered or moved; lists that are not such lists
    (
        "retry.py",
        'REMOVE = frozenset(["Cookie", "Authorization"])\n',
        'REMOVE = frozenset(\n    ["Authorization", "Cookie"]\n)\n',
        None,
    ),
    (
        "cors.ts",
        "const allowed = ['Content-Type', 'Authorization']\n",
        "const allowed = ['Content-Type', 'Authorization', 'X-Request-Id']\n",
        None,
    ),
    (
        "messages.py",
        'HINTS = ["Set the Authorization header", "cookie"]\n',
        'HINTS = ["Set the Authorization header"]\n',
        None,
    ),
    # an allow-list naming one link attribute among others; a link list gaining another name
    (
        "sanitizer.py",
        "ALLOWED = {'a': ['href', 'title'], 'img': ['src', 'alt']}\n",
        "ALLOWED = {'a': ['href', 'title', 'rel'], 'img': ['src', 'alt', 'width', 'height']}\n",
        None,
    ),
    (
        "clean.ts",
        "const links = ['href', 'src', 'action']\n",
        "const links = ['href', 'src', 'action', 'data-original']\n",
        None,
    ),
    (
        "cli.py",
        "FOLDERS = ['src', 'data', 'docs', 'tests']\n",
        "FOLDERS = ['src', 'data', 'docs', 'tests', 'icon']\n",
        None,
    ),
)
"""A base and a head source of one file, and the factor the change gives (None: no factor)."""
