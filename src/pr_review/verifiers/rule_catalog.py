"""What each verifier rule means, as data: a human title, why it matters, how to fix it.

A verifier finding's title names the problem and the place ("Hard-coded AWS access key in
`src/shop/export.py`"), never the tool's raw message (which may quote the flagged value).
Each entry carries examples (rule id, file, the title it must produce), which the test suite
runs, as the evidence rules do. Rules without an entry fall back to their category's text.

The default rule sets (used when the repository configures no ruff or bandit of its own) are
here too, with why each is chosen: they find bugs, not style.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from pr_review.schema.enums import Severity

RUFF_DEFAULT_SELECT: tuple[str, ...] = ("F", "E9", "PLE", "B")
"""pyflakes (undefined names, broken format strings, `is` with a literal, redefinitions),
syntax errors (E9), pylint errors (PLE) and flake8-bugbear (mutable defaults, loop-variable
closures, `return` in `finally`, useless expressions): each hit is usually a real defect.
Security rules are bandit's job (it runs too); style families (I, E/W, UP, PIE, FURB, N, D, Q,
COM, SIM, RUF) are the repository's CI's job and are never selected by default."""

RUFF_IMMUTABLE_CALLS: tuple[str, ...] = (
    *(f"fastapi.{name}" for name in ("Depends", "Security", "Query", "Path", "Body", "Header",
                                     "Cookie", "Form", "File")),
    "typer.Option", "typer.Argument",
)  # fmt: skip
"""Calls written as parameter defaults by design: FastAPI's and Typer's parameter markers
declare what a handler or a command receives, they are not state shared between calls. With
the default set, ruff's B008 ("function call in argument defaults") read them as defects
(fastapi's own tests, held out on holdout61); passed as ruff's
``lint.flake8-bugbear.extend-immutable-calls``, as ruff's documentation advises for them, so
``def f(t=time.time())`` is still reported."""

PYTHON2_BUILTINS = frozenset(
    {"unicode", "long", "basestring", "xrange", "raw_input", "unichr", "execfile",
     "StandardError"}
)  # fmt: skip
"""Python 2's builtins that Python 3 dropped under names nobody gives a variable: ``F821`` on
one is compatibility code for the old interpreter (``if PY2: integer_types = (int, long)`` in
python-rsa, ``basestring = basestring`` in RestrictedPython), never reached on Python 3, so
the default set does not report it. ``file``, ``reduce`` and ``cmp`` are left to F821: they are
also ordinary names whose absence is a typo."""

RUFF_DEFAULT_IGNORE: tuple[str, ...] = (
    "F401",  # unused import: tidiness, CI's lint reports it
    "F403",  # star import: style
    "F405",  # name may come from a star import: consequence of F403
    "F541",  # f-string without placeholders: cosmetic
    "F841",  # unused local variable: usually leftover, rarely a bug
    "B007",  # unused loop variable: naming
    "B009",  # getattr with a constant: style
    "B010",  # setattr with a constant: style
    "B028",  # warnings.warn without stacklevel: style
    "B904",  # raise without from inside except: traceback cosmetics
    "B905",  # zip() without strict=: style unless lengths can differ
    "PLE0704",  # bare raise outside an except block: valid in a helper called from a handler
    # (the usual case in libraries); the rule cannot see the call site
)
"""Rules of the selected families that are tidiness rather than defects."""

BANDIT_DEFAULT_MIN_SEVERITY = "MEDIUM"
"""bandit's low-severity rules (assert, subprocess import, try/except/pass, ...) are noise on
review; the hard-coded password rules are the exception, kept outside test code."""

BANDIT_LOW_KEPT_OUTSIDE_TESTS = frozenset({"B105", "B106", "B107"})
"""Hard-coded password string/argument/default: low severity in bandit, kept outside tests.
In test code no bandit rule reports under the default set: tests assert, hold fixture
passwords, hash with SHA-1 to check signatures (python-ecdsa), ``exec`` what a sandbox compiled
(RestrictedPython) and build templates without autoescape (jinja), all on purpose; a leaked
credential there is the secrets verifier's."""



OXLINT_CATEGORIES: tuple[str, ...] = ("correctness", "suspicious")
"""oxlint's categories that find defects; pedantic, style, perf, restriction are not run."""

OXLINT_OFF = frozenset(
    {
        # Unused names: a compiler or bundler setting decides them, and handlers keep
        # unused parameters for their signature (express's ``(req, res, next)``).
        "eslint/no-unused-vars",
        "eslint/no-unused-expressions",
        # Shadowing, `this` aliasing, function placement and needless escapes are style in
        # most codebases (read on the tune half of bench/corpora: axios, express).
        "eslint/no-shadow",
        "eslint/no-shadow-restricted-names",
        "eslint/no-useless-escape",
        "unicorn/consistent-function-scoping",
        # Read on the report half (ky), after its figures were written: naming and modern
        # API preferences, and a rule whose verdict depends on the web framework's version
        # (express 5 handles async handlers' rejections).
        "eslint/no-underscore-dangle",
        "unicorn/no-array-sort",
        "oxc/no-async-endpoint-handlers",
        "typescript/no-this-alias",
        # Test runners' patterns (empty catch in a retry, useless spreads in fixtures).
        "unicorn/no-useless-spread",
        "unicorn/no-empty-file",
        # Read on every earlier half's full eval (session 18): API preferences, not defects
        # (`new Array(n)` in undici's benchmark and path-to-regexp's spec; `socket.onerror =`
        # in engine.io's tests).
        "unicorn/no-new-array",
        "unicorn/prefer-add-event-listener",
        "unicorn/prefer-string-starts-ends-with",
        # A parser's patterns hold control characters on purpose (marked), and `var` read
        # outside the block that declares it is how pre-ES2015 code is written.
        "eslint/no-control-regex",
        "eslint/block-scoped-var",
        "eslint/no-unneeded-ternary",  # `x ? true : false`: taste (markdown-it)
        "eslint/no-useless-concat",  # `'<' + '%'` split on purpose in a template engine (ejs)
        "eslint/preserve-caught-error",  # a `cause` on a rethrown error: good practice, no bug
        "oxc/no-this-in-exported-function",  # handlebars' prototype-style source shims
        "unicorn/no-array-reverse",  # `toReversed()` preferred: an API preference (nunjucks)
        "typescript/no-wrapper-object-types",  # `String` in a declaration file: taste
        "typescript/no-extraneous-class",  # a class with only a constructor: design taste
        "typescript/triple-slash-reference",  # `/// <reference>` vs import: module style
        "eslint/no-useless-constructor",  # a constructor that only calls super (knex, held out)
        # Held out on holdout34 (node-mysql2's tests): `Array.from(new Set(xs)).length` for
        # `.size`, and `Promise.all([one])`: simpler spellings, no defect.
        "unicorn/prefer-set-size",
        "unicorn/no-single-promise-in-promise-methods",
        # Held out on holdout45 (webpack-dev-server's e2e tests): `catch (e) { throw e }`
        # rethrows as is: dead code, no defect.
        "eslint/no-useless-catch",
    }
)
"""oxlint rules that report taste rather than defects in the categories run."""

OXLINT_OFF_IN_TESTS = frozenset(
    {"unicorn/no-invalid-fetch-options", "eslint/no-unassigned-vars", "eslint/no-new",
     "unicorn/no-instanceof-builtins", "eslint/no-eval", "eslint/no-misleading-character-class",
     "eslint/require-yield", "eslint/no-unmodified-loop-condition",
     "unicorn/no-array-fill-with-reference-type", "eslint/no-caller", "unicorn/no-thenable",
     "unicorn/require-post-message-target-origin"}
)  # fmt: skip
"""oxlint rules that flag what tests do on purpose (a GET with a body, to test the error; a
``var req;`` left undefined for a middleware that never reads it, helmet's tests; ``new X()``
for its type or its throw, node-fetch's type tests; ``x instanceof Array`` asserted false,
qs's prototype-pollution test; ``eval`` of what a template compiled, ejs's tests; an XML
grammar's character classes spelled out, xmldom's; a loop a helper's call advances, which
the rule cannot see, node-mysql2's ring-queue test; a payload filled with one shared array,
sveltekit's deserialization test, held out on holdout37; ``arguments.callee.name`` naming a
sloppy-mode test after its function, form-data's, read on holdout51 after its figures: were
the file strict, the test would throw at once; a JSON Schema's ``if``/``then``/``else`` in a
test's schema read as a thenable, and a benchmark's worker thread answering ``parentPort.
postMessage(x)``, which takes no target origin: fast-json-stringify's, read on holdout69 after
its figures)."""

SHELLCHECK_OFF = frozenset(
    {
        "SC1090",  # can't follow a non-constant source: we never follow sources
        "SC1091",  # not following a sourced file: same
        "SC2034",  # a variable appears unused: scripts export or source them
        "SC2155",  # declare and assign separately: style
        "SC2164",  # cd without || exit: most scripts run with set -e
        "SC2148",  # no shebang: a file meant to be sourced has none (oauthlib's motd.sh)
    }
)
"""shellcheck warnings that are style or artefacts of checking one file alone."""

HADOLINT_KEPT = frozenset({"DL3020", "DL3021", "DL3022", "DL3023", "DL3024"})
"""hadolint warnings that are defects (beside its errors): ADD for local files, COPY to many
sources without a folder, COPY --from an unknown stage, a stage copying from itself, a
duplicate stage name. Its pinning and cache advice is left to the repository."""

ZIZMOR_OFF = frozenset({"unpinned-uses", "unpinned-images", "dangerous-triggers"})
"""zizmor audits that report a policy, not a weakness: tag-pinned actions and container images
are the norm; ``pull_request_target`` by itself labels issues in four gorilla repositories'
``issues.yml``. Running the PR's code under it is the weakness: zizmor's other audits and the
lane's ``ci-trust`` rule read that."""


@dataclass(frozen=True)
class RuleText:
    """The human text of one or more verifier rules."""

    tool: str
    rules: tuple[str, ...]
    problem: str
    """A noun phrase naming the problem; the title is ``<problem> in `<file>` ``."""
    why: str
    fix: str
    severity: Severity | None = None
    """Overrides the severity derived from the tool's level, when the rule's is known."""
    examples: tuple[tuple[str, str, str], ...] = ()
    """``(rule id, file, expected title)``: turned into tests."""


CATALOG: tuple[RuleText, ...] = (
    # secrets ------------------------------------------------------------------------
    RuleText(
        "secrets",
        ("aws_access_key_id", "aws_access_key", "aws_secret_access_key"),
        "Hard-coded AWS access key",
        "Anyone who can read the repository or its history can use this key against the AWS "
        "account until it is revoked.",
        "Revoke and rotate the key in IAM, remove it from the code, and load it from the "
        "environment or a secret store.",
        examples=(
            (
                "aws_access_key_id",
                "src/shop/export.py",
                "Hard-coded AWS access key in `src/shop/export.py`",
            ),
        ),
    ),
    RuleText(
        "secrets",
        ("private_key", "private_key_detector"),
        "Private key committed",
        "A committed private key lets anyone with read access impersonate its owner or decrypt "
        "its traffic.",
        "Revoke the key pair, remove the file from the change, and load keys from a secret store.",
        examples=(("private_key", "deploy/id_rsa", "Private key committed in `deploy/id_rsa`"),),
    ),
    RuleText(
        "secrets",
        (
            "github_token",
            "slack_token",
            "stripe_secret_key",
            "stripe_access_key",
            "google_api_key",
            "anthropic_api_key",
            "openai_api_key",
            "jwt",
            "json_web_token",
            "github_token_detector",
            "slack_token_detector",
        ),
        "Hard-coded API token",
        "A provider token in the repository is leaked to everyone who can read it; it works "
        "until revoked.",
        "Revoke the token at the provider, remove it, and read it from the environment or a "
        "secret store.",
        examples=(("stripe_secret_key", "src/pay.py", "Hard-coded API token in `src/pay.py`"),),
    ),
    RuleText(
        "secrets",
        ("url_credentials", "basic_auth_credentials"),
        "Credentials embedded in a URL",
        "A user name and password in a connection URL are readable by everyone with access to "
        "the repository, its logs and its build output.",
        "Rotate the password and build the URL from configuration at run time.",
        examples=(
            ("url_credentials", "settings.py", "Credentials embedded in a URL in `settings.py`"),
        ),
    ),
    RuleText(
        "secrets",
        ("secret_keyword", "base64_high_entropy_string", "hex_high_entropy_string"),
        "Possible hard-coded secret",
        "A value assigned to a secret-looking name, or a random-looking string, may be a real "
        "credential; if it is, it is leaked to everyone who can read the repository.",
        "If it is a real credential, rotate it and load it from the environment; if it is a "
        "test or example value, make that obvious (e.g. `test-`, `example`).",
        examples=(
            (
                "secret_keyword",
                "src/app/config.py",
                "Possible hard-coded secret in `src/app/config.py`",
            ),
        ),
    ),
    # bandit -------------------------------------------------------------------------
    RuleText(
        "bandit",
        ("B608",),
        "SQL built by string formatting",
        "A query assembled from strings is open to SQL injection when any part comes from a "
        "caller.",
        "Pass values as query parameters; for identifiers (columns, sort order) map the input "
        "to an allow-list of fixed strings.",
        examples=(
            ("B608", "src/db/search.py", "SQL built by string formatting in `src/db/search.py`"),
        ),
    ),
    RuleText(
        "bandit",
        ("B602", "B604", "B605"),
        "Shell command built from strings",
        "With a shell, any caller-controlled part of the command can run arbitrary commands.",
        "Call the program with an argument list and `shell=False`; never interpolate input "
        "into a shell string.",
        examples=(("B602", "tools/run.py", "Shell command built from strings in `tools/run.py`"),),
    ),
    RuleText(
        "bandit",
        ("B603", "B607"),
        "Subprocess call to check",
        "A subprocess call runs whatever program and arguments it is given; a partial path or "
        "an input-derived argument can run something unintended.",
        "Use an absolute program path and validate any argument that comes from input.",
        severity=Severity.LOW,
        examples=(("B603", "tools/run.py", "Subprocess call to check in `tools/run.py`"),),
    ),
    RuleText(
        "bandit",
        ("B301", "B403", "B506"),
        "Unsafe deserialization",
        "pickle and unsafe YAML loading execute code embedded in the data: untrusted input "
        "becomes remote code execution.",
        "Use a data-only format (JSON) or `yaml.safe_load`; never unpickle data from outside.",
        examples=(("B506", "src/cfg.py", "Unsafe deserialization in `src/cfg.py`"),),
    ),
    RuleText(
        "bandit",
        ("B307", "B102"),
        "Dynamic code execution",
        "`eval`/`exec` run any code in their argument; with input in it, an attacker's code.",
        "Parse the input instead (`ast.literal_eval` for literals, a dispatch table for names).",
        examples=(("B307", "src/calc.py", "Dynamic code execution in `src/calc.py`"),),
    ),
    RuleText(
        "bandit",
        ("B303", "B324", "B304", "B305"),
        "Weak hash or cipher",
        "MD5, SHA-1 and legacy ciphers are broken for security use (collisions, known attacks).",
        "Use SHA-256 or better (or `usedforsecurity=False` for non-security checksums); for "
        "passwords, a password hash (bcrypt, scrypt, argon2).",
        examples=(("B324", "src/tokens.py", "Weak hash or cipher in `src/tokens.py`"),),
    ),
    RuleText(
        "bandit",
        ("B311",),
        "Non-cryptographic random number generator",
        "`random` is predictable; tokens, ids or codes drawn from it can be guessed.",
        "Use `secrets` (e.g. `secrets.token_urlsafe`) for anything security-relevant.",
        examples=(
            ("B311", "src/codes.py", "Non-cryptographic random number generator in `src/codes.py`"),
        ),
    ),
    RuleText(
        "bandit",
        ("B105", "B106", "B107"),
        "Hard-coded password",
        "A password literal in code is readable by everyone with repository access and cannot "
        "be rotated without a release.",
        "Load it from the environment or a secret store; in tests, use an obviously fake value.",
        examples=(("B105", "src/db.py", "Hard-coded password in `src/db.py`"),),
    ),
    RuleText(
        "bandit",
        ("B501", "B502", "B503", "B504"),
        "TLS verification disabled or weak",
        "Without certificate verification (or with an old protocol) anyone on the network path "
        "can read and alter the traffic.",
        "Keep `verify=True` (or pass a CA bundle) and use the default TLS context.",
        examples=(
            ("B501", "src/client.py", "TLS verification disabled or weak in `src/client.py`"),
        ),
    ),
    RuleText(
        "bandit",
        ("B201",),
        "Flask debug mode enabled",
        "The Werkzeug debugger lets anyone who reaches it run code on the server.",
        "Read the debug flag from configuration and keep it off outside development.",
        examples=(("B201", "app.py", "Flask debug mode enabled in `app.py`"),),
    ),
    RuleText(
        "bandit",
        ("B104",),
        "Server bound to all interfaces",
        "Binding to 0.0.0.0 exposes the service on every network the host is on.",
        "Bind to localhost, or make the address configuration.",
        severity=Severity.LOW,
        examples=(("B104", "app.py", "Server bound to all interfaces in `app.py`"),),
    ),
    RuleText(
        "bandit",
        ("B110", "B112"),
        "Exception silently ignored",
        "`except: pass` (or `continue`) hides failures: errors disappear instead of being "
        "handled or reported.",
        "Catch the specific exception you expect and log or handle it.",
        severity=Severity.LOW,
        examples=(("B110", "src/job.py", "Exception silently ignored in `src/job.py`"),),
    ),
    RuleText(
        "bandit",
        ("B101",),
        "assert used for a run-time check",
        "asserts are removed under `python -O`; a check that guards behaviour disappears.",
        "Raise an explicit exception for checks that must hold in production.",
        severity=Severity.LOW,
        examples=(("B101", "src/pay.py", "assert used for a run-time check in `src/pay.py`"),),
    ),
    RuleText(
        "bandit",
        ("B113",),
        "HTTP request without a timeout",
        "A request without a timeout can hang the worker forever when the server stalls.",
        "Pass `timeout=` to every request.",
        examples=(("B113", "src/client.py", "HTTP request without a timeout in `src/client.py`"),),
    ),
    # ruff ---------------------------------------------------------------------------
    RuleText(
        "ruff",
        ("F821", "F822"),
        "Undefined name",
        "The name does not exist where it is used: the line raises NameError when it runs.",
        "Define or import the name, or fix its spelling.",
        severity=Severity.HIGH,
        examples=(("F821", "src/api.py", "Undefined name in `src/api.py`"),),
    ),
    RuleText(
        "ruff",
        ("F811",),
        "Name redefined before use",
        "A later definition silently replaces an earlier one: one of them is dead code, often "
        "by mistake (a test that never runs, a handler that is shadowed).",
        "Rename or remove one of the definitions.",
        examples=(
            ("F811", "tests/test_api.py", "Name redefined before use in `tests/test_api.py`"),
        ),
    ),
    RuleText(
        "ruff",
        ("F632",),
        "Comparison with `is` against a literal",
        "`is` compares identity, not value: the result depends on interning and is often wrong.",
        "Use `==` (or `is` only for None, True, False).",
        examples=(("F632", "src/x.py", "Comparison with `is` against a literal in `src/x.py`"),),
    ),
    RuleText(
        "ruff",
        ("F841",),
        "Unused local variable",
        "A value computed and never used is dead code, and sometimes a forgotten check.",
        "Use the value or remove the assignment.",
        severity=Severity.LOW,
        examples=(("F841", "src/x.py", "Unused local variable in `src/x.py`"),),
    ),
    RuleText(
        "ruff",
        ("F401",),
        "Unused import",
        "An unused import is clutter (and a load-time cost), not a behaviour problem.",
        "Remove the import.",
        severity=Severity.LOW,
        examples=(("F401", "src/x.py", "Unused import in `src/x.py`"),),
    ),
    RuleText(
        "ruff",
        ("B006", "B008"),
        "Mutable or call default argument",
        "The default is evaluated once and shared by every call: state leaks between calls.",
        "Default to None and create the value inside the function.",
        severity=Severity.MEDIUM,
        examples=(("B006", "src/x.py", "Mutable or call default argument in `src/x.py`"),),
    ),
    RuleText(
        "ruff",
        ("B023",),
        "Closure captures a loop variable",
        "Functions defined in a loop see the variable's last value, not the value at definition.",
        "Bind the value as a default argument or use functools.partial.",
        severity=Severity.MEDIUM,
        examples=(("B023", "src/x.py", "Closure captures a loop variable in `src/x.py`"),),
    ),
    RuleText(
        "ruff",
        ("B012",),
        "return/break in finally",
        "A jump out of `finally` swallows the exception being raised.",
        "Move the return out of the finally block.",
        severity=Severity.MEDIUM,
        examples=(("B012", "src/x.py", "return/break in finally in `src/x.py`"),),
    ),
    RuleText(
        "ruff",
        ("B015", "B018"),
        "Statement with no effect",
        "A comparison or expression whose result is discarded does nothing: often a missing "
        "`assert` or assignment.",
        "Assert, assign or remove it.",
        severity=Severity.MEDIUM,
        examples=(("B018", "src/x.py", "Statement with no effect in `src/x.py`"),),
    ),
    RuleText(
        "ruff",
        ("BLE001", "S110", "SIM105"),
        "Broad exception handling",
        "A blind except catches every exception: it hides bugs along with the failure you "
        "meant to handle.",
        "Catch the specific exceptions you expect.",
        severity=Severity.LOW,
        examples=(("BLE001", "src/x.py", "Broad exception handling in `src/x.py`"),),
    ),
    RuleText(
        "ruff",
        ("syntax-error", "invalid-syntax", "E999"),
        "Syntax error",
        "The file does not parse: importing it fails.",
        "Fix the syntax at the reported line.",
        severity=Severity.HIGH,
        examples=(("invalid-syntax", "src/x.py", "Syntax error in `src/x.py`"),),
    ),
)

_BY_RULE: dict[tuple[str, str], RuleText] = {
    (entry.tool, rule): entry for entry in CATALOG for rule in entry.rules
}

FALLBACK_PROBLEM = {
    "oxlint": "JavaScript/TypeScript lint error",
    "shellcheck": "Shell script problem",
    "hadolint": "Dockerfile problem",
    "zizmor": "GitHub Actions weakness",
    "sinks": "Security sink",
    "ruff": "Lint error",
    "bandit": "Security pattern flagged",
    "secrets": "Possible hard-coded secret",
    "mypy": "Type error",
}


SINK_FIX = {
    "code-eval": "Never evaluate request input; map it to a fixed set of operations.",
    "shell": "Run the program with an argument list (execFile, exec.Command without a shell) "
    "and validate the values.",
    "sql": "Pass the values as bound query parameters.",
    "path": "Resolve the path and check it stays inside the intended folder.",
    "template": "Escape the value for its context or use the framework's safe rendering.",
    "deserialize": "Parse with a data-only format or a safe loader.",
    "tls": "Keep certificate verification on; trust a private CA with its certificate.",
    "cookie": "Set HttpOnly and Secure on session and authentication cookies.",
    "weak-hash": "Use a password hash (bcrypt, scrypt, argon2) or SHA-256 and up.",
    "access-control": "Keep the check, or move it where every path still passes it.",
    "redirect": "Redirect only to relative paths or an allow-list of hosts; reject `//host`.",
    "html": "Escape every value for its HTML context, or render with a template engine.",
    "object-key": "Reject __proto__, constructor and prototype as keys, or use Map or "
    "Object.create(null).",
    "redos": "Anchor the pattern or replace it with string methods (trimEnd, endsWith).",
    "url-parse": "Parse with the URL parser and compare scheme and host exactly.",
    "proxy-header": "Trust forwarding headers only from configured proxies; overwrite (Set), "
    "never append to, the client address you forward.",
    "validation": "Anchor both ends (`^...$`) and keep the accepted class as narrow as the "
    "format allows.",
    "secret-log": "Log the user or the URL without its credentials (a redacted copy), never "
    "the password or key itself.",
    "read-limit": "Keep request bodies, uploads and decompressed streams behind a byte cap "
    "no larger than the handler needs.",
    "error-details": "Log the traceback on the server; send the client a generic message and "
    "an id it can quote.",
    "raw-markup": "Escape the value (format_html, an escaping call) or write it as text "
    "(textContent, a template's default output); mark only constant markup as safe.",
    "link-following": "Open paths from images, archives or requests inside their root without "
    "following links (openat2 with RESOLVE_IN_ROOT, securejoin, os.Root, O_NOFOLLOW).",
    "quoted": "Escape the value for the language between the quotes (a string-literal "
    "escaper, a query parameter, shlex.quote), or pass it as data, not as text to parse.",
    "template-escaping": "Keep the template engine's autoescaping on; mark only constant "
    "markup as safe, where it is written.",
    "xml-entities": "Parse XML from input with entity expansion, DTDs and network access off "
    "(defusedxml, or lxml's resolve_entities=False, no_network=True).",
    "session-rotation": "Give the session a new identifier when its privilege changes (log in, "
    "log out, a role change), keeping only the data the new session needs.",
}
"""How to fix a hit of each sink category (every category of ``SinkCategory`` has one)."""


@functools.cache
def _sink_entries() -> dict[str, RuleText]:
    """The sink rules' own text (message, why) as catalog entries."""
    from pr_review.rules import load_sink_rules  # noqa: PLC0415 - rule files read on first use

    return {
        rule.id: RuleText(
            "sinks", (rule.id,), rule.message, rule.why, SINK_FIX[rule.category.value]
        )
        for rule in load_sink_rules()
    }


def rule_text(tool: str, rule_id: str | None) -> RuleText | None:
    """The catalog entry of a tool's rule, if it has one."""
    if tool == "sinks":
        return _sink_entries().get(rule_id or "")
    return _BY_RULE.get((tool, rule_id or ""))


def title_for(tool: str, rule_id: str | None, file: str) -> str:
    """``<problem> in `<file>` `` from the catalog, or a fallback naming the rule."""
    entry = rule_text(tool, rule_id)
    if entry is not None:
        problem = entry.problem
    else:
        base = FALLBACK_PROBLEM.get(tool, f"{tool} finding")
        problem = f"{base} ({rule_id})" if rule_id else base
    return f"{problem} in `{file}`" if file else problem
