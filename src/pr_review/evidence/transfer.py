"""Which risk factors may make a lane red: evidence that means the same in every repository.

Red blocks a merge until a person acknowledges it, so it is given only by evidence whose
meaning does not depend on the repository or its language: a credential; an access-control
check removed or added; request input newly reaching a dangerous sink, or the code a fix of
such a sink rewrites; a bound on input size or count newly enforced or no longer enforced;
a regular expression whose super-linear backtracking shape the PR rewrote away (ReDoS fixes);
a credential header added to or removed from a list of header names (stripped on redirects),
or a link attribute to or from a sanitizer's list of them (checked for script URLs);
a check refusing CR/LF in a value added or removed (header injection, request smuggling);
a function testing input for an attack marker (`..`, a script URL scheme, `__proto__`) whose
decisions change (path traversal, script-URL XSS, prototype pollution);
an escape of markup changed (an escaping call put around or taken from a value of HTML
markup, or an HTML character reference such as `'&lt;'` added to or removed from the code);
TLS, cookie, hashing or crypto settings weakened; a file's random source swapped between a
predictable generator and a cryptographic one (guessable tokens and nonces); CI trust widened;
dependency sources changed; destructive migrations; money or payment logic (the product's spec
makes payments red: payment, refund, amount, price... words on at least two changed code
lines; word-keyed, measured rare: one case in about 1,000 real PRs, a published fix); a shared
store read then written non-atomically; a security advisory the PR cites; a reviewer's
corroborated critical security finding; the repository's own overrides.

Factors keyed to a name, a count or generic code contribute yellow at most (:data:`YELLOW_AT_MOST`,
each with why and an example of what raised it red before). They are kept in the pack, named,
with their reason; the lane is red only when transferable evidence says so. A repository may
hold any other factor to yellow on its own paths, with its reason (``risk.yellow_at_most``,
:func:`repository_cap`): its maintainers' judgement of a factor its subject trips on every PR.
"""

from __future__ import annotations

from dataclasses import dataclass

from pr_review.evidence.globs import compile_glob
from pr_review.evidence.settings import FactorCap
from pr_review.schema.enums import FactorSeverity
from pr_review.schema.pack import RiskFactor


@dataclass(frozen=True)
class NotTransferable:
    """A factor that is yellow at most, why, and a real case it made red before."""

    factor: str
    keyed_to: str
    example: str


YELLOW_AT_MOST: tuple[NotTransferable, ...] = (
    NotTransferable(
        "security-scope",
        "the name of the enclosing function or module (auth, cookie, redirect, jwt...)",
        "type annotations added to `_safe_write`; an import reordered in `api_jwt`",
    ),
    NotTransferable(
        "multi-subsystem",
        "a count of top-level folders",
        "a 10-file feature of a small client touching `core/`, `types/` and `utils/`",
    ),
    NotTransferable(
        "large-diff",
        "a count of changed lines",
        "704 lines of regenerated TypeScript declarations",
    ),
    NotTransferable(
        "public-api",
        "a route, export or signature added",
        "an ordinary HTTP route added to an application",
    ),
    NotTransferable(
        "error-handling-removed",
        "a try/except or catch removed, whatever it guarded",
        "a refactor of `Parameter` that drops a redundant except",
    ),
    NotTransferable(
        "error-details-exposed",
        "names such as exc_info, traceback or str(e) on a changed line",
        "`exc_info: typing.Any` re-annotated as `exc_info: Any` in a type-hints PR",
    ),
    NotTransferable(
        "cache-ttl-invalidation",
        "names such as ttl, expire or cache.delete on a changed line",
        "a session lifetime computed with a method instead of a helper",
    ),
    NotTransferable(
        "rollout-feature-flag",
        "names such as feature_flag, canary or is_enabled on a changed line",
        "a flag renamed in a settings module",
    ),
    NotTransferable(
        "concurrency",
        "names such as lock, thread or async on a changed line",
        "a lock renamed in a refactor",
    ),
    NotTransferable(
        "guard-removed",
        "an early return or decorator whose meaning is not access control",
        "`if not items: return` dropped from a formatting helper",
    ),
    NotTransferable(
        "secrets-path",
        "a path segment named secrets, keys or certs",
        "a rename inside `docs/keys/`",
    ),
    NotTransferable(
        "infra-deploy",
        "the kind of a file (Dockerfile, Terraform, Helm, Kubernetes), whatever its change says",
        "a demo identity provider's Dockerfile told where to find its templates",
    ),
    NotTransferable(
        "migration-path",
        "a path segment named migrations",
        "a data migration that adds a nullable column",
    ),
)
"""History (bench/bench_corpora.py --lanes-only, tune half): capping security-scope,
multi-subsystem, large-diff, public-api and error-handling-removed at first cut ordinary false
reds from 8/118 to 2/118 but security fixes red from 10/14 to 5/14 (1/14 with neutral titles).
They were capped once the structural rules carried what those names had caught: decisions
changed in a security-named function (:mod:`pr_review.evidence.decisions`), the sink rules
(redirects, headers, URL parsing, object keys), bounds on input and access checks."""

_BY_NAME = {entry.factor: entry for entry in YELLOW_AT_MOST}


def transferable(factor: str) -> bool:
    """Whether ``factor`` may make the lane red."""
    return factor not in _BY_NAME


def cap(factor: RiskFactor) -> RiskFactor:
    """``factor`` at most yellow when it is not transferable evidence, saying why."""
    entry = _BY_NAME.get(factor.factor)
    if entry is None or factor.severity is not FactorSeverity.RED:
        return factor
    why = f"{factor.why} (yellow at most: keyed to {entry.keyed_to})"
    return factor.model_copy(update={"severity": FactorSeverity.MODERATE, "why": why})


def repository_cap(factor: RiskFactor, caps: tuple[FactorCap, ...]) -> RiskFactor:
    """``factor`` at most yellow when the repository's ``risk.yellow_at_most`` names it and
    every file it stands on matches the entry's paths, saying so with the entry's reason.

    For a factor that is routinely red in one repository by its nature (a validation
    library's every PR rewrites anchored regular expressions): the maintainers keep the gate
    on and judge that factor themselves. Read from the base branch, so a PR cannot cap its own
    factors; path overrides, a `risk: red` line and reviewer escalation still raise the lane."""
    if factor.severity is not FactorSeverity.RED:
        return factor
    for index, entry in enumerate(caps):
        if entry.factor != factor.factor:
            continue
        globs = [compile_glob(p) for p in entry.paths]
        if all(any(g.matches(path) for g in globs) for path in factor.files):
            why = (f"{factor.why} (yellow at most in this repository, "
                   f"risk.yellow_at_most[{index}]: {entry.reason})")
            return factor.model_copy(update={"severity": FactorSeverity.MODERATE, "why": why})
    return factor
