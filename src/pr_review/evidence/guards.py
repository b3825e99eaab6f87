"""Removed guards, read from Python syntax trees: whatever the guard is called.

A guard is what stands between a function's caller and its body: a decorator, an ``assert``,
or an early exit (an ``if`` whose body ends by returning, raising, ``abort(...)``-ing,
continuing or breaking). A function that exists on both sides and holds fewer guards than
before, one of which is gone from the whole file (not moved into a helper), lost a guard:
``@require_permission("approve")`` dropped from an endpoint is that, whatever its name.
A rewritten guard (same count) is not reported: it may be a refactor. The converse counts
too when the guard is access control: a function that gains an access check found nowhere in
the PR's base files (``if filename.anchor: raise HTTPForbidden()`` added to a static-file
handler) changes who gets through, which is how authorization and traversal fixes land.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from pr_review.evidence.pyast import functions, parse_python
from pr_review.schema.enums import FactorSeverity
from pr_review.schema.pack import RiskFactor
from pr_review.sources.diff import FileDiff, FileStatus
from pr_review.sources.model import RepoTree

FACTOR = "guard-removed"
ACCESS_FACTOR = "access-control-removed"
ADDED_FACTOR = "access-control-added"

_ACCESS_CONTROL = re.compile(
    r"(?i)(auth|login|logged_in|permission|\bperms?\b|has_perm|\broles?\b|admin|superuser|"
    r"is_staff|owner|csrf|signature|verify_token|\btoken|scopes?\b|acl|forbidden|"
    r"unauthori[sz]ed|permissiondenied|access_denied|\b40[13]\b|require_)"
)
"""What makes a lost guard access control: its decorator, test or refusal speaks of
authentication, permissions, roles, ownership, CSRF, signatures or tokens, or refuses with
401/403. Examples: ``@login_required``, ``@require_permission("approve")``, ``if not
user.is_admin: abort(403)``, ``if request.user != order.owner: raise PermissionDenied``.
Not: ``if not items: return``, ``@functools.cache``, ``if value is None: return None``."""


def is_access_control(guard: str) -> bool:
    """Whether a guard's text (decorator or ``if <test>: refuse``) is an access check."""
    return _ACCESS_CONTROL.search(guard) is not None


_DENIAL = re.compile(
    r"(?i)(forbidden|unauthori[sz]ed|permission|access_?denied|not_?authenticated|"
    r"authentication_?failed|login|\b40[13]\b)"
)
"""What makes a *new* guard an access check: it refuses with a denial (``HTTPForbidden()``,
``PermissionDenied``, ``abort(401)``), or it is an access-control decorator. A parser's
``if field.translate(None, TOKEN_CHARS): raise ParseError`` speaks of HTTP tokens, not of
access: the words of a test are enough to call a lost guard access control (losing it is the
risk), not a gained one."""


def is_access_denial(guard: str) -> bool:
    """Whether a gained guard denies access: a decorator that is an access check, or an
    ``if`` whose refusal (after its test) is a denial."""
    if guard.startswith("@"):
        return is_access_control(guard)
    refusal = guard.rpartition(": ")[2]
    return _DENIAL.search(refusal) is not None


_EXIT_CALLS = frozenset({"abort", "exit", "deny", "forbid", "reject", "fail"})


@dataclass(frozen=True)
class LostGuard:
    """A guard of ``scope`` on the base side (``line``) with no counterpart on the head."""

    scope: str
    guard: str
    line: int


def _rejects(body: Sequence[ast.stmt]) -> bool:
    """The block ends by refusing: raising, an ``abort(...)``-style call, or returning
    nothing, ``None`` or ``False`` (returning a value is dispatch, not a guard)."""
    if not body:
        return False
    last = body[-1]
    if isinstance(last, ast.Raise):
        return True
    if isinstance(last, ast.Return):
        value = last.value
        return value is None or (isinstance(value, ast.Constant) and value.value in (None, False))
    if isinstance(last, ast.Expr) and isinstance(last.value, ast.Call):
        func = last.value.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        return name in _EXIT_CALLS
    return False


def _guards_of(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[tuple[str, int]]:
    found = [(f"@{ast.unparse(d)}", d.lineno) for d in function.decorator_list]
    for node in ast.walk(function):
        if node is not function and isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if isinstance(node, ast.If) and _rejects(node.body):
            refusal = ast.unparse(node.body[-1]).splitlines()[0]
            found.append((f"if {ast.unparse(node.test)}: {refusal}", node.lineno))
    return found


Guards = dict[str, list[tuple[str, int]]]
"""Each function's guards: qualified name -> (guard, line)."""


def guards(source: str) -> Guards | None:
    """Each function's guards, or None when unparsable."""
    tree = parse_python(source)
    if tree is None:
        return None
    return {name: _guards_of(function) for name, function in functions(tree)}


_RAISED_CALL = re.compile(r"^(?P<head>.*: raise [\w.]+)\(.*\)$", re.DOTALL)


def guard_key(guard: str) -> str:
    """What identifies a guard across a PR: its condition and what it raises, not the
    arguments of the exception (``raise InvalidClientError(status_code=401)`` and the same
    with a ``description=`` added are one guard)."""
    match = _RAISED_CALL.match(guard)
    return guard if match is None else match.group("head")


def _counted(found: Guards) -> Counter[str]:
    return Counter(guard_key(g) for entries in found.values() for g, _ in entries)


def lost_guards(
    before: Guards, after: Guards, elsewhere: Counter[str] | None = None
) -> list[LostGuard]:
    """Guards lost by functions that exist on both sides. A guard found anywhere in ``after``
    or in ``elsewhere`` (the PR's other head files) was moved, not lost."""
    everywhere = _counted(after)
    everywhere.update(elsewhere or Counter())
    out: list[LostGuard] = []
    for scope, entries in before.items():
        if scope not in after or len(after[scope]) >= len(entries):
            continue
        remaining = Counter(guard_key(g) for g, _ in after[scope])
        for guard, line in entries:
            key = guard_key(guard)
            if remaining[key]:
                remaining[key] -= 1
            elif not everywhere[key]:
                out.append(LostGuard(scope, guard, line))
    return out


def gained_access_guards(
    before: Guards, after: Guards, elsewhere: Counter[str] | None = None
) -> list[LostGuard]:
    """Access-control guards of functions on both sides that are new: in neither ``before``
    nor ``elsewhere`` (the PR's other base files)."""
    known = _counted(before)
    known.update(elsewhere or Counter())
    return [
        LostGuard(scope, guard, line)
        for scope, entries in after.items()
        if scope in before
        for guard, line in entries
        if is_access_denial(guard) and not known[guard_key(guard)]
    ]


def _python(f: FileDiff) -> bool:
    return f.path.endswith((".py", ".pyi")) and not f.binary


def _side(tree: RepoTree, paths: list[str]) -> dict[str, Guards | None]:
    """The guards of each file at ``paths`` on one side, each parsed once."""
    texts = {path: tree.read(path) for path in paths}
    return {path: None if text is None else guards(text) for path, text in texts.items()}


def _others(every: dict[str, Guards | None], path: str) -> Counter[str]:
    """The guards of every file but ``path`` on one side."""
    out: Counter[str] = Counter()
    for other, found in every.items():
        if other != path and found is not None:
            out.update(_counted(found))
    return out


def guard_factors(files: Sequence[FileDiff], base: RepoTree, head: RepoTree) -> list[RiskFactor]:
    """One red factor per Python file whose functions lost a guard, naming the first; one per
    file whose functions gained an access check no base file of the PR had."""
    candidates = [f for f in files if _python(f) and f.status is FileStatus.MODIFIED]
    if not candidates:
        return []
    python = [f for f in files if _python(f)]
    heads = _side(head, [f.path for f in python if f.status is not FileStatus.DELETED])
    bases = _side(
        base, [f.old_path or f.path for f in python if f.status is not FileStatus.ADDED]
    )
    out: list[RiskFactor] = []
    for f in candidates:
        old, new = bases.get(f.old_path or f.path), heads.get(f.path)
        if old is None or new is None:
            continue
        lost = lost_guards(old, new, _others(heads, f.path))
        if lost:
            access = [g for g in lost if is_access_control(g.guard)]
            first = (access or lost)[0]
            out.append(
                RiskFactor(
                    factor=ACCESS_FACTOR if access else FACTOR,
                    files=(f.path,),
                    severity=FactorSeverity.RED,
                    why=f"`{first.scope}` lost its guard `{first.guard}` (line {first.line} of "
                    f"the base file), which no other function took over; {len(lost)} guard(s) "
                    "lost",
                )
            )
        gained = gained_access_guards(old, new, _others(bases, f.path))
        if gained:
            first = gained[0]
            out.append(
                RiskFactor(
                    factor=ADDED_FACTOR,
                    files=(f.path,),
                    severity=FactorSeverity.RED,
                    why=f"`{first.scope}` gained the access check `{first.guard}` (line "
                    f"{first.line}), found in no base file of the PR: who gets through changes; "
                    f"{len(gained)} check(s) added",
                )
            )
    return out
