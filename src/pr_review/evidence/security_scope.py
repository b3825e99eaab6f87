"""Security signals from structure: changed code inside a security-relevant scope.

A changed code line (comments and docstrings do not count) whose enclosing module, class or
function is named for authentication, sessions, cookies, credentials, signing, crypto,
redirects, sanitizing or trust is security-relevant whatever the line says: the
name is the author's own statement of what the code is for. The vocabulary is data below,
each entry with identifiers it must and must not match (run by the test suite). Words are
whole words of an identifier (``get_netrc_auth`` has ``auth``; ``author`` does not).
``token``/``tokens`` name credentials except in a source holding a lexer's tokens
(:mod:`pr_review.evidence.lexer_tokens`). A word the project's own name holds (``cookie`` in
the ``cookie`` parser, ``redirect`` in ``follow-redirects``) names every function of it and
so no scope at all there (:mod:`pr_review.evidence.project_names`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from pr_review.evidence.decisions import FunctionChange, Sides, changed_functions
from pr_review.evidence.lexer_tokens import holds_lexer_tokens
from pr_review.evidence.project_names import named_words
from pr_review.evidence.scopes import ScopedLine, defined_chains, scoped_lines, words
from pr_review.schema.enums import FactorSeverity
from pr_review.schema.pack import RiskFactor
from pr_review.sources.diff import FileDiff, FileStatus
from pr_review.sources.model import RepoTree
from pr_review.sources.paths import PathKind, classify

FACTOR = "security-scope"
CHECK_FACTOR = "security-check-changed"
RED = FactorSeverity.RED
MODERATE = FactorSeverity.MODERATE


@dataclass(frozen=True)
class ScopeRule:
    """Words that make a scope security-relevant, with examples that pin them."""

    words: frozenset[str]
    severity: FactorSeverity
    why: str
    matches: tuple[str, ...]
    misses: tuple[str, ...] = ()
    prefix_only: bool = False
    """Only as the identifier's first word (``safe_join``, not ``thread_safe``)."""
    lexical: frozenset[str] = frozenset()
    """Words that name a lexer's tokens, not credentials, in a source that compares its
    tokens' kinds (:mod:`pr_review.evidence.lexer_tokens`)."""

    def hit(
        self, identifier: str, lexer: bool = False, named: frozenset[str] = frozenset()
    ) -> str | None:
        """The word of ``identifier`` this rule recognizes, or None; in a source holding a
        lexer's tokens (``lexer``) the rule's lexical words are not recognized, nor anywhere
        the words the project's own name holds (``named``)."""
        parts = words(identifier)
        candidates = parts[:1] if self.prefix_only else parts
        known = (self.words - self.lexical if lexer else self.words) - named
        return next((w for w in candidates if w in known), None)


SCOPE_RULES: tuple[ScopeRule, ...] = (
    ScopeRule(
        frozenset(
            {
                "auth",
                "authn",
                "authz",
                "authenticate",
                "authenticated",
                "authentication",
                "authorize",
                "authorized",
                "authorization",
                "login",
                "logout",
                "signin",
                "password",
                "passwords",
                "passwd",
                "passphrase",
                "credential",
                "credentials",
                "permission",
                "permissions",
                "privilege",
                "privileges",
                "acl",
                "rbac",
                "oauth",
                "saml",
                "netrc",
            }
        ),
        RED,
        "authentication, credentials or permissions",
        ("get_netrc_auth", "should_strip_auth", "HTTPBasicAuth", "require_permission", "login"),
        ("author", "authors", "authority_name", "logging", "permissive"),
    ),
    ScopeRule(
        frozenset({"cookie", "cookies", "csrf", "xsrf", "jwt", "token", "tokens"}),
        RED,
        "cookies, CSRF or bearer tokens",
        ("SecureCookieSessionInterface", "get_cookie_domain", "csrf_protect", "refresh_token"),
        ("tokenize", "cookiecutter_template", "detokenizer"),
        lexical=frozenset({"token", "tokens"}),
    ),
    ScopeRule(
        frozenset(
            {
                "secret",
                "secrets",
                "signature",
                "signing",
                "signer",
                "sign",
                "signed",
                "unsign",
                "crypto",
                "cryptography",
                "cipher",
                "encrypt",
                "decrypt",
                "hmac",
                "hashed",
                "hasher",
                "salt",
                "nonce",
            }
        ),
        RED,
        "secrets, signing, hashing or encryption",
        ("get_signing_serializer", "secret_key", "compute_hmac", "encrypt_payload"),
        ("design", "signal", "assign", "digestive_tract_name", "__hash__", "generateDigest"),
    ),
    ScopeRule(
        frozenset(
            {
                "redirect",
                "redirects",
                "sanitize",
                "sanitise",
                "sanitizer",
                "escape",
                "unescape",
                "trusted",
                "trust",
                "cert",
                "certs",
                "certificate",
                "certificates",
                "tls",
                "ssl",
                "security",
                "secure",
                "origin",
                "origins",
                "cors",
            }
        ),
        RED,
        "redirects, output sanitizing, TLS, origins or trust decisions",
        ("resolve_redirects", "sanitize_html", "TRUSTED_HOSTS", "ssl_context",
         "is_allowed_origin", "CORSMiddleware"),
        # a debugger is an interactive shell's pdb as often as a web console: no scope
        ("redirection_count_name", "escapement", "truster_name", "originally", "get_debugger"),
    ),
    ScopeRule(
        frozenset({"safe"}),
        RED,
        "a safe_* helper (a sanitizing or containment guarantee)",
        ("safe_join", "safe_str_cmp"),
        ("thread_safe", "is_safe_to_retry_count"),
        prefix_only=True,
    ),
    ScopeRule(
        frozenset({"verify", "verification", "verifier"}),
        RED,
        "verification of tokens, signatures or claims",
        ("VerifyExpiresAt", "verify_request", "_verify_signature"),
        ("versioning", "verbose"),
    ),
    ScopeRule(
        frozenset({"sandbox", "sandboxed", "sandboxing"}),
        RED,
        "a sandbox (what untrusted code or templates may reach)",
        ("SandboxedEnvironment", "sandbox", "is_sandboxed"),
        ("sandboxes_dir", "sandbagging"),
    ),
    ScopeRule(
        frozenset({"session", "sessions"}),
        MODERATE,
        "session state",
        ("sessions", "Session", "open_session"),
        ("obsession_count", "versioning"),
    ),
    ScopeRule(
        frozenset({"digest", "digests"}),
        MODERATE,
        "a digest (content hashes for ETags and checksums as often as message digests)",
        ("generateDigest", "digest_of", "compute_digests"),
        ("digestive_tract_name", "indigestion"),
    ),
)


@dataclass(frozen=True)
class ScopeHit:
    """One changed line in a security-relevant scope."""

    line: ScopedLine
    side: str
    """``added`` (head line numbers) or ``removed`` (base line numbers)."""
    rule: ScopeRule
    name: str
    word: str
    severity: FactorSeverity


SCOPE_WORDS = frozenset(w for rule in SCOPE_RULES for w in rule.words)


def scope_hit(
    line: ScopedLine, side: str, lexer: bool = False, named: frozenset[str] = frozenset()
) -> ScopeHit | None:
    """The strongest rule any name of ``line``'s chain matches (innermost name first);
    ``lexer``: the source holds a lexer's tokens; ``named``: scope words the project's own
    name holds."""
    best: ScopeHit | None = None
    for name in reversed(line.chain):
        for rule in SCOPE_RULES:
            word = rule.hit(name, lexer, named)
            if word is None:
                continue
            if best is None or (rule.severity is RED and best.rule.severity is not RED):
                best = ScopeHit(line, side, rule, name, word, rule.severity)
    return best


def file_hits(
    f: FileDiff, base: RepoTree, head: RepoTree, named: frozenset[str] = frozenset()
) -> list[ScopeHit]:
    """Every changed code line of ``f`` that sits in a security-relevant scope (``named``:
    scope words the project's own name holds, which mark none)."""
    old = None if f.status is FileStatus.ADDED else base.read(f.old_path or f.path)
    new = None if f.status is FileStatus.DELETED else head.read(f.path)
    old_lines = scoped_lines(f.old_path or f.path, old, f.removed_line_numbers)
    new_lines = scoped_lines(f.path, new, f.added_line_numbers)
    # A file the PR deletes keeps none of its scopes.
    remaining = frozenset() if f.status is FileStatus.DELETED else defined_chains(f.path, new)
    lexer = holds_lexer_tokens(f.path, new) or holds_lexer_tokens(f.old_path or f.path, old)
    out = []
    for side, lines in (("added", new_lines), ("removed", old_lines)):
        for line in lines:
            hit = scope_hit(line, side, lexer, named)
            if hit is None:
                continue
            gone = side == "removed" and len(line.chain) > 1
            if (
                gone
                and remaining is not None
                and line.chain not in remaining
                and hit.rule.severity is RED
            ):
                # The whole function or class was deleted (or moved): its callers change
                # too, so the deletion alone is not a weakened security scope.
                hit = dataclasses.replace(hit, severity=MODERATE)
            out.append(hit)
    return out


def security_scope_factors(
    files: Sequence[FileDiff], code: Collection[str], base: RepoTree, head: RepoTree
) -> list[RiskFactor]:
    """One factor per file and severity, naming the first line, its scope and the word."""
    out: list[RiskFactor] = []
    sides = Sides(files, base, head)
    named = named_words(base, SCOPE_WORDS)
    for f in files:
        if f.path not in code or f.binary or not f.patch_available:
            continue
        if classify(f.path) is not PathKind.CODE:
            continue  # configuration named "auth.yml" is not a function named for auth
        hits = file_hits(f, base, head, named)
        for severity in (RED, MODERATE):
            chosen = [h for h in hits if h.severity is severity]
            if not chosen:
                continue
            first = chosen[0]
            old_side = "" if first.side == "added" else " of the base file"
            where = f"line {first.line.line}{old_side}"
            how = "" if first.line.parsed else " (module name only: no syntax tree for this file)"
            deleted = severity is not first.rule.severity
            gone = " (the whole scope is deleted)" if deleted else ""
            out.append(
                RiskFactor(
                    factor=FACTOR,
                    files=(f.path,),
                    severity=severity,
                    why=f"code changes inside `{first.line.qualified}` ({where}), named for "
                    f"{first.rule.why} (`{first.word}` in `{first.name}`){gone}{how}; "
                    f"{len(chosen)} changed line(s) in such scopes",
                )
            )
        check = _check_changed(f, [h for h in hits if h.severity is RED], sides)
        if check is not None:
            out.append(check)
    return out


def _component(found: FunctionChange, f: FileDiff, sides: Sides) -> bool:
    """Whether the function is UI code on every side it has (it renders JSX or, in a Svelte
    module, declares reactive state: :meth:`SourceDecisions.ui_code`) and the PR changes no
    refusal in it: a UI component named for a security concern (mitmproxy's `tls` column,
    showing whether a flow was encrypted; gradio's `createHFAuth`, the sign-in button's state)
    decides what a browser shows its own user, which no server trusts; markup built from input
    is read by the `html` sink rules, and a server-rendered handler that gains or loses a
    `throw` is read as any function."""
    change = (*found.change.added, *found.change.removed)
    if any(atom.startswith("refuse ") for atom in change):
        return False
    sides_of = [("head", f.path, found.after), ("base", f.old_path or f.path, found.before)]
    present = [(side, path, scope) for side, path, scope in sides_of if scope is not None]
    return bool(present) and all(
        sides.parsed(side, path).ui_code(scope) for side, path, scope in present
    )


def _check_changed(f: FileDiff, hits: Sequence[ScopeHit], sides: Sides) -> RiskFactor | None:
    """Red when a function named for a security concern changes what it decides, refuses or
    calls (on both sides' syntax trees): the name says what the code is for, the tree says
    the change reaches a decision. The first such function is named with its first change."""
    named: dict[tuple[str, ...], ScopeHit] = {}
    for hit in hits:
        named.setdefault(hit.line.chain, hit)
    added = [h.line for h in hits if h.side == "added"]
    removed = [h.line for h in hits if h.side == "removed"]
    for found in changed_functions(f, added, sides, removed=removed):
        if _component(found, f, sides):
            continue
        hit = named[found.line.chain]
        what = "is new in this PR" if found.before is None else "changes what it decides"
        return RiskFactor(
            factor=CHECK_FACTOR,
            files=(f.path,),
            severity=RED,
            why=f"`{hit.line.qualified}` ({found.where}), named for {hit.rule.why} "
            f"(`{hit.word}`), {what}: {found.change.describe()}",
        )
    return None
