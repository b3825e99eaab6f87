"""Content rules as data: hotspot categories and the risk they carry.

Each rule has a category, a regular expression, a ``why`` in words and its own examples
(``matches`` must each match, ``misses`` must not); the test suite runs every example. A
category's ``policy`` says what its hits mean for the risk lane when they sit on changed
code lines: the severity when hits are only on added lines, only on removed lines, or on both
sides (the check was changed, not introduced or dropped). ``None`` means the category is a
hotspot only. Security categories (SQL, secrets, crypto, permission) are kept narrow: they
must fire on at most 2% of real bug-introducing diffs (``bench/bench_hotspot_false_alarms.py``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pr_review.evidence.scan import word_part
from pr_review.schema.enums import FactorSeverity
from pr_review.verifiers.secret_patterns import RULES as SECRET_RULES

RED = FactorSeverity.RED
MODERATE = FactorSeverity.MODERATE


@dataclass(frozen=True)
class Rule:
    """One pattern of a category, with the examples that pin it."""

    pattern: str
    why: str
    matches: tuple[str, ...]
    misses: tuple[str, ...] = ()
    cap: FactorSeverity | None = None
    """The most this rule's hits alone can weigh (a use of a TTL is not a new TTL)."""


@dataclass(frozen=True)
class Policy:
    """What a category's hits on changed code mean for the lane."""

    added: FactorSeverity | None
    removed: FactorSeverity | None
    both: FactorSeverity | None
    factor: str
    """The risk factor's name."""
    hotspot: bool = True
    """False for risk-only signals that are not hotspot categories."""
    any_file: bool = False
    """Scan docs and tests too (secrets leak from anywhere)."""
    code_only: bool = False
    """Only code counts: hits in string literals, comments and docstrings are ignored, and
    only source-code files are scanned (``uses: actions/checkout@v4`` in a workflow is not
    money; ``"'max_age' is deprecated"`` is not a cache lifetime)."""


@dataclass(frozen=True)
class Category:
    """A named set of rules, its risk policy and its triggers.

    ``triggers`` are lower-case substrings one of which every match contains: lines without
    any are never handed to the (slower) regular expressions.
    """

    name: str
    policy: Policy
    rules: tuple[Rule, ...]
    triggers: tuple[str, ...]


# Variable names that hold credentials; not secrets themselves.
_CRED_NAME = (
    r"(?i:[\w-]*(?:secret|passw(?:or)?d|passwd|api_?key|apikey|access_?key|private_?key|"
    r"auth_?token|access_?token|api_?token|signing_?key|client_?secret|credentials?)[\w-]*)"
)
_CRED_VALUE = (
    r"(?=[^\"'\s]*\d)(?=[^\"'\s]*[A-Za-z])"
    # a uniform resource name (RFC 8141) names something: SAML's Password authn context
    r"(?!urn:[A-Za-z0-9][A-Za-z0-9-]{0,31}:)"
    r"(?![^\"'\s]*(?:xxxx|\$\{|<|example|changeme|placeholder|dummy|your[_-]))[^\"'\s]{16,}"
)
_ERR = r"(?:e|ex|exc|err|error|exception)"
# DDL names its object next (or `IF [NOT] EXISTS`, `ON`); prose goes on in words
_DDL_NOT_PROSE = (
    r"(?!\s+(?:for|of|from|to|with|that|is|was|were|the|a|an|and|or|when|because|but|failed)\b)"
)
_TTL_WORD = word_part("ttl", "ttls", "expiry", "expires", "expire", "expiration")

CATEGORIES: tuple[Category, ...] = (
    Category(
        "permission-authorization",
        Policy(RED, RED, MODERATE, "auth-permission"),
        (
            Rule(
                r"@(?:login_required|require_auth\w*|requires_auth\w*|auth_required|jwt_required|"
                r"permission_required|roles?_required|admin_required|requires?_(?:role|permission|scope)s?"
                r"|PreAuthorize|Secured|RolesAllowed|UseGuards)\b",
                "access-control decorator",
                ("@require_auth", "@login_required", '@PreAuthorize("x")'),
                ("@required_field", "@authored_by"),
            ),
            Rule(
                r"\b(?:has_permission|check_permission|has_perm|has_role|require_role|is_authori[sz]ed|"
                r"can_access|check_access|user_passes_test|authorize_request|ensure_admin|"
                r"hasPermission|hasRole|isAuthorized|canAccess|checkPermission)\s*\(",
                "permission check",
                ("if not has_permission(user, 'refund'):", "hasRole('admin')"),
                ("permissions = []", "def can_accept(x):"),
            ),
            Rule(
                r"(?<!def )\b(?:can|may|user_can)_(?:view|see|read|edit|write|update|modify|delete|"
                r"remove|create|manage|access|approve|refund|administer)(?:_\w+)?\s*\(|"
                r"\b(?:is_owner|is_admin|is_staff|is_superuser|owns_resource)\s*\(",
                "access predicate",
                (
                    "if row is None or not can_view_order(user, row[1]):",
                    "if not is_owner(user, doc):",
                    "return user_can_edit(page)",
                ),
                ("def can_view_order(user, customer):", "if can_retry(job):", "can_read = True"),
            ),
            Rule(
                r"\b(?:required|allowed)Roles\b|\broles\.(?:every|some|includes)\(|\brole\s*(?:==|!=|===|!==)\s*[\"']",
                "role check — verify call-site semantics",
                ("route.requiredRoles.every(r => user.roles.includes(r))", "if role == 'admin':"),
                ("roles = load_roles()",),
            ),
            Rule(
                r"\b(?:abort|HTTPException|status\.HTTP)\(?\s*(?:status_code\s*=\s*)?_?40[13]\b|"
                r"\bHTTP_40[13]_\w+|\bhttp\.Status(?:Unauthorized|Forbidden)\b|\.status\(\s*40[13]\s*\)|"
                r"\.(?:writeHead|sendStatus|throw)\(\s*40[13]\b|"
                # a status set to 401/403 (assigned or passed), not one compared
                r"\bstatus(?:Code|_code)?\s*=(?!=)\s*40[13]\b|"
                r"\bPermissionDenied\b|\bForbiddenError\b",
                "access-denied response",
                (
                    "abort(403)",
                    "res.status(403);",
                    "w.WriteHeader(http.StatusForbidden)",
                    "raise PermissionDenied",
                    # webpack-dev-server's CVE-2025-30359, vite's GHSA-859w-5945-r5v3 (holdout45)
                    "res.statusCode = 403;",
                    "return HttpResponse('no', status=403)",
                    "ctx.throw(401, 'login first')",
                ),
                (
                    "timeout = 403.5",
                    "abort(404)",
                    # a status compared is a denial received (a client telling its user), not
                    # one given: gradio's save-to-Space toast (holdout44)
                    "if (error.response.status === 401) {",
                    "e?.message?.includes('403') || e?.statusCode === 403",
                ),
            ),
            Rule(
                r"\b(?:localStorage|sessionStorage)\.setItem\(\s*[\"'`][^\"'`]*(?i:token|jwt|auth|session)",
                "credential kept in web storage readable by any script",
                ("localStorage.setItem('access_token', t)",),
                ("localStorage.setItem('theme', t)",),
            ),
            Rule(
                r"(?i:(?<![a-z])http_?only(?![a-z]))\s*[:=]\s*(?i:false)|(?i:\bsamesite\b)\s*[:=]\s*[\"']?none",
                "session cookie protection weakened",
                ("httpOnly: false", "SESSION_COOKIE_HTTPONLY = False"),
                ("httpOnly: true",),
            ),
        ),
        (
            "@",
            "perm",
            "role",
            "can_",
            "may_",
            "is_owner",
            "is_staff",
            "is_superuser",
            "owns_",
            "authori",
            "access",
            "user_passes",
            "admin",
            "40",
            "forbidden",
            "unauthorized",
            "storage",
            "http",
            "samesite",
        ),
    ),
    Category(
        "secrets",
        Policy(RED, None, RED, "secrets", any_file=True),
        (
            Rule(
                # Anchored at the name's start: the same leftmost matches, without retrying
                # the name from every character inside every identifier (5x faster).
                r"(?<![\w-])"
                + _CRED_NAME
                + r"[\"']?\s*(?::\s*[\w\[\]|. ]+)?\s*[:=]\s*[rbf]?[\"']"
                + _CRED_VALUE
                + r"[\"']",
                "credential-like literal assigned to a secret-named variable",
                (
                    'STRIPE_FALLBACK_API_KEY = "sk-live-payments-4f8a2b9c7d3e6f1a0b5c8d2e9f4a7b3c"',
                    'password: "Hunter2Hunter2Hunter2"',
                    "const apiKey = 'a8f5f167f44f4964e6c998dee827110c'",
                ),
                (
                    'password = os.environ["DB_PASSWORD"]',
                    'api_key = "your-api-key-here-please"',
                    'token_type = "bearer"',
                    'SECRET_KEY = "${SECRET_KEY_FROM_ENV_1}"',
                    'PASSWORD = "urn:oasis:names:tc:SAML:2.0:ac:classes:Password"',
                ),
            ),
            *(
                Rule(
                    # Named groups become plain ones: a category's rules are joined into one
                    # expression. A rule's own check (an example host, base64 of user:password)
                    # is applied to its hits by evidence.content (secret_rule_checks).
                    re.sub(r"\(\?P<\w+>", "(?:", r.pattern.pattern),
                    f"hard-coded {r.kind.replace('_', ' ')}",
                    r.matches,
                    # Misses its check rejects are the check's to prove (tests/verifiers).
                    tuple(m for m in r.does_not_match if not r.pattern.search(m)),
                )
                for r in SECRET_RULES
            ),
        ),
        (
            "secret",
            "passw",
            "key",
            "token",
            "credential",
            '"auth"',
            "-----begin",
            "akia",
            "asia",
            "agpa",
            "aida",
            "aroa",
            "anpa",
            "anva",
            "aipa",
            "gh",
            "xox",
            "_live_",
            "aiza",
            "sk-",
            "eyj",
            "://",
            "sg.",
            "npm_",
            "pypi-",
            "glpat-",
            "hooks.slack",
            "shp",
            "hvs.",
            "hvb.",
            "hvr.",
            "_v1_",
            ":aa",
            "gldt-",
            "glrt-",
            "glptt-",
            "glcbt-",
            "gloas-",
        ),
    ),
    Category(
        "crypto-operation",
        Policy(RED, RED, RED, "crypto"),
        (
            Rule(
                r"\bhmac\.(?:new|compare_digest|digest|HMAC)\b|\bcompare_digest\(|\bhashlib\.(?:sha\d+|md5|new|blake2\w|pbkdf2_hmac|scrypt)\(",
                "hashing or MAC",
                ("hmac.new(secret, body, hashlib.sha256)", "hashlib.sha256(payload)"),
                ("hashable = True", "hash(x)"),
            ),
            Rule(
                r"\b(?:bcrypt|argon2|scrypt|pbkdf2\w*|Fernet|AESGCM|ChaCha20\w*)\b\.?\w*\(|\bCipher\(|"
                r"\bcreate(?:Hmac|Hash|Cipheriv|Decipheriv|Sign|Verify)\(|\bcrypto\.subtle\b|\btimingSafeEqual\(",
                "cryptographic primitive",
                ("bcrypt.hashpw(pw, salt)", "crypto.createHmac('sha256', k)"),
                ("encrypted = False",),
            ),
            Rule(
                r"\bjwt\.(?:encode|decode|sign|verify|Parse\w*)\(|\b(?:verify|validate)_?[sS]ignature\w*\(|"
                r"\b(?:encrypt|decrypt)(?:_\w+)?\(|\bsigning_key\b|\bprivate_key\b|\"crypto/(?:hmac|sha256|aes|rsa|ecdsa|subtle|cipher)\"|"
                # signature checking switched off by a keyword or an option (PyJWT's
                # `options={"verify_signature": False}`; django-allauth's Google ID-token fix,
                # read on holdout46: no other PR of any half sets one outside tests)
                r"\bverify_?[sS]ignature[\"']?\s*[=:]\s*(?:False|false)\b",
                "token signing, signature verification or encryption",
                (
                    "jwt.decode(token, key, algorithms=['HS256'])",
                    "if not verify_signature(payload, sig):",
                    "return _verify_and_decode(app, id_token, verify_signature=False)",
                    'jwt.decode(token, options={"verify_signature": False})',
                ),
                ("decrypted_label = 'x'", "signature = inspect.signature(fn)",
                 "verify_signature = not fetched"),
            ),
            Rule(
                r"\b(?:cert_reqs|ca_certs|ca_cert_dir|CERT_NONE|CERT_OPTIONAL|check_hostname|verify_mode|"
                r"assert_hostname|assert_fingerprint|ssl_version|minimum_version|set_ciphers|"
                r"load_verify_locations|InsecureRequestWarning)\b|"
                r"\bverify\s*(?:=|==|is|!=|is not)\s*False\b|\brejectUnauthorized\s*:\s*false\b|"
                r"\bInsecureSkipVerify\b|"
                # a TLS configuration built: which settings it starts from (dex's
                # GHSA-gr79-9v6v-gc9r served a fresh `&tls.Config{}` instead of the
                # configured one; read on every half: 3 fixes, 3 ordinary PRs all labelled
                # yellow or red, none else)
                r"\btls\.Config\s*\{|\bssl\.(?:create_default_context|SSLContext)\(|"
                r"\btls\.createSecureContext\(",
                "TLS certificate or hostname verification setting",
                (
                    'cert_reqs = "CERT_NONE"',
                    "if verify is False:",
                    "ctx.check_hostname = False",
                    'pool_kwargs["ca_certs"] = verify',
                    "conf := &tls.Config{}",
                    "ctx = ssl.create_default_context(cafile=certifi.where())",
                    "const ctx = tls.createSecureContext({ ca })",
                ),
                (
                    "verify_email(user)",
                    "certify(doc)",
                    "verified = True",
                    "def send(self, verify=None):",
                    "tlsConfig := cfg.TLSConfig",
                    "ssl_context = None",
                ),
            ),
            Rule(
                "(?:"
                + word_part(
                    "iterations",
                    "keysize",
                    "dklen",
                    "digestmod",
                    "workfactor",
                )
                + r"|\b(?:key_size|key_length|salt_length|salt_size|digest_method|hash_method|"
                r"hash_name|time_cost|memory_cost|work_factor))\s*[:=]|\bgensalt\(|"
                r"\b(?:pbkdf2|scrypt|hashpw|generate_password_hash)\w*\(",
                "cryptographic parameter (iterations, key size, digest, salt)",
                (
                    "iterations=600000",
                    "DEFAULT_PBKDF2_ITERATIONS = 260000",
                    "digestmod=hashlib.sha1,",
                    'generate_password_hash(pw, "scrypt")',
                ),
                ("iterations_done += 1", "rounded = round(x)", "n_rounds_played = 3"),
            ),
        ),
        (
            "hmac",
            "compare_digest",
            "hashlib",
            "bcrypt",
            "argon2",
            "scrypt",
            "pbkdf2",
            "fernet",
            "aesgcm",
            "chacha20",
            "cipher",
            "create",
            "crypto",
            "timingsafeequal",
            "jwt",
            "signature",
            "crypt",
            "signing_key",
            "private_key",
            "cert",
            "check_hostname",
            "verify",
            "assert_",
            "ssl_version",
            "minimum_version",
            "set_ciphers",
            "insecure",
            "rejectunauthorized",
            "tls.config",
            "create_default_context",
            "sslcontext",
            "iterations",
            "key_size",
            "keysize",
            "key_length",
            "dklen",
            "salt",
            "digest",
            "hash_",
            "_cost",
            "work_factor",
            "workfactor",
            "gensalt",
            "hashpw",
            "generate_password_hash",
        ),
    ),
    Category(
        "sql-query-construction",
        Policy(RED, MODERATE, RED, "sql-construction"),
        (
            Rule(
                r"\bf[\"'](?:[^\"'\n]*\s)?"
                r"(?:SELECT|INSERT INTO|UPDATE|DELETE FROM|ORDER BY|WHERE|GROUP BY)\s[^\"'\n]*\{",
                "SQL built with an f-string",
                (
                    'sql = f"SELECT * FROM users WHERE id = {uid}"',
                    'order = f"ORDER BY {col} {direction}"',
                ),
                ('msg = f"Select one of {opts}"', 'sql = "SELECT 1"'),
            ),
            Rule(
                r"[\"'`](?:[^\"'`\n]*\s)?(?:SELECT|INSERT INTO|UPDATE|DELETE FROM|ORDER BY|WHERE)\s"
                r"[^\"'`\n]*[\"'`]\s*(?:%\s*[\w(]|\+\s*\w|\.format\()",
                "SQL built by concatenation or formatting",
                (
                    'cur.execute("SELECT * FROM t WHERE id = %s" % uid)',
                    "q = 'DELETE FROM t WHERE id=' + id",
                ),
                ('cur.execute("SELECT * FROM t WHERE id = %s", (uid,))',),
            ),
            Rule(
                r"`[^`]*\b(?:SELECT|INSERT INTO|UPDATE|DELETE FROM|WHERE|ORDER BY)\s[^`]*\$\{|"
                r"\bSprintf\(\s*\"(?:SELECT|INSERT|UPDATE|DELETE)\b|\.(?:raw|extra|execute)\(\s*f[\"']|\btext\(\s*f[\"']",
                "SQL assembled from interpolated values",
                (
                    "db.query(`SELECT * FROM u WHERE id = ${id}`)",
                    'fmt.Sprintf("SELECT * FROM t WHERE a=%s", a)',
                ),
                ("db.query('SELECT * FROM u WHERE id = $1', [id])",),
            ),
        ),
        (
            "select",
            "insert into",
            "update",
            "delete from",
            "order by",
            "where",
            "group by",
            "sprintf",
            ".raw(",
            ".extra(",
            ".execute(",
            "text(f",
        ),
    ),
    Category(
        "data-migration",
        Policy(RED, RED, RED, "migration"),
        (
            # Destructive first: at one position the first rule wins (`ALTER COLUMN x TYPE`
            # is a type change, not an added column). Only destructive DDL is red: what it
            # drops, truncates, renames or converts is gone for the code still running.
            Rule(
                r"(?i:\b(?:drop\s+(?:table|index|unique\s+index|column|schema|view|type|database|"
                r"constraint|foreign\s+key)|rename\s+(?:table|column))\b"
                + _DDL_NOT_PROSE
                + r"|"
                r"\btruncate\s+table\b|\balter\s+table\s+\S+\s+rename\b|"
                r"\balter\s+column\s+\S+\s+(?:set\s+data\s+)?type\b|\bmodify\s+column\b)",
                "destructive schema change (DDL: drop, truncate, rename, column type)",
                ("DROP TABLE discount_codes;", "ALTER TABLE users DROP COLUMN x",
                 "ALTER TABLE users RENAME TO accounts", "TRUNCATE TABLE sessions",
                 "ALTER TABLE t ALTER COLUMN amount TYPE bigint"),
                ("# drop a table of results", "table.drop(rows)",
                 '"failed to drop table for the cache"', "CREATE TABLE users (id int)"),
            ),
            Rule(
                r"\bop\.(?:drop_column|drop_table|drop_index|drop_constraint|alter_column|execute)\(|"
                r"\bmigrations\.(?:RemoveField|DeleteModel|RenameField|RenameModel|RunSQL|RunPython)\b|"
                r"\b(?:remove_column|drop_table|rename_column|rename_table|change_column)\b|"
                r"\b(?:backfill|migrate_data)\w*\(",
                "destructive or data migration operation",
                ("op.drop_column('users', 'x')", "migrations.RemoveField(",
                 "migrations.RunPython(drop_events)", "remove_column :users, :email"),
                ("migration_name = 'x'", "migrations.AddField("),
            ),
            Rule(
                r"(?i:\b(?:create|alter)\s+(?:table|index|unique\s+index|column|schema|view|type|database|"
                r"constraint)\b"
                + _DDL_NOT_PROSE
                + r"|"
                r"\badd\s+column\b)",
                "additive schema change (DDL: a table, column, index or view added)",
                ("CREATE TABLE discount_codes (", "ALTER TABLE users ADD COLUMN x int",
                 "create table if not exists users (", "CREATE INDEX ON events (ts)"),
                ("# create a table of results", "table.create(rows)",
                 'logger.info(f"Cannot create schema for type {t}: {e}")',
                 '"failed to create table for the cache"'),
                cap=MODERATE,
            ),
            Rule(
                r"\bop\.(?:add_column|create_table|create_index)\(|"
                r"\bmigrations\.(?:AddField|AlterField|CreateModel|AddIndex|AddConstraint)\b",
                "additive migration operation (AlterField: options such as a longer max_length)",
                ("op.add_column('users', sa.Column('x'))", "migrations.AddField(",
                 "migrations.AlterField("),
                ("migration_name = 'x'",),
                cap=MODERATE,
            ),
        ),
        (
            "create",
            "alter",
            "drop",
            "rename",
            "add",
            "truncate",
            "modify",
            "remove_column",
            "change_column",
            "op.",
            "migrations.",
            "backfill",
            "migrate_data",
        ),
    ),
    Category(
        "cache-invalidation",
        Policy(RED, RED, RED, "cache-ttl-invalidation", code_only=True),
        (
            Rule(
                "(?:" + _TTL_WORD + r")(?:\s*:\s*[\w\[\]|. ]+)?\s*[:=]\s*"
                r"(?:[-\d]|timedelta\(|[\w.]*(?:seconds|minutes|hours|days)\b)"
                r"|\bsetex\(|\bmax[_-]?age\s*[:=]\s*\d|\bCache-Control\b",
                "cache lifetime (TTL/expiry) value",
                (
                    "DEFAULT_TTL = 300",
                    "cacheTtl: 60",
                    "r.setex(key, ttl, v)",
                    "expires = timedelta(days=1)",
                ),
                (
                    "settle(batch)",
                    "expired_count = 0 if x else 1",
                    "max_age = int(app.permanent_session_lifetime.total_seconds())",
                ),
            ),
            Rule(
                _TTL_WORD + r"|\bmax[_-]?age\b",
                "code using a cache lifetime (TTL/expiry)",
                ("if max_age is None:", "ttl = self.ttl", "session_data_ttl"),
                ("settle(batch)", "expired_count = 0 if x else 1"),
                cap=MODERATE,
            ),
            Rule(
                r"\b(?:cache|redis|memcache\w*|client|r)\.(?:delete|clear|invalidate\w*|evict|flush\w*|expire|unlink|del)\(|"
                r"\b(?:invalidate|evict)\w*\(",
                "cache invalidation",
                ("cache.delete(key)", "invalidate(prefix, user_id)"),
                ("os.remove(path)",),
            ),
        ),
        (
            "ttl",
            "expir",
            "setex",
            "age",
            "cache-control",
            "delete",
            "clear",
            "invalidat",
            "evict",
            "flush",
            "expire",
            "unlink",
            "del(",
        ),
    ),
    Category(
        "feature-flag",
        Policy(RED, RED, RED, "rollout-feature-flag", code_only=True),
        (
            Rule(
                r"(?i:\bfeature[_-]?(?:flag|toggle)s?\b|\bkill[_-]?switch\b|\brollout[_-]?(?:percent\w*|ratio)\b|"
                r"\bcanary\b)|\b(?:is_enabled|isEnabled|isFeatureEnabled|get_flag|getFlag|is_feature_enabled)\(",
                "feature flag or rollout control",
                ("if feature_flags.is_enabled('new_checkout'):", "ROLLOUT_PERCENT = 10"),
                ("flags = re.IGNORECASE",),
            ),
        ),
        (
            "feature",
            "kill",
            "rollout",
            "canary",
            "enabled",
            "flag",
        ),
    ),
    Category(
        "shared-resource-contention",
        Policy(RED, RED, RED, "concurrency"),
        (
            Rule(
                r"\bthreading\.(?:Lock|RLock|Thread|Semaphore|Condition|Event)\b|\basyncio\.(?:Lock|gather|create_task|Semaphore)\b|"
                r"\b(?:Thread|Process)PoolExecutor\b|\bmultiprocessing\.\w+|\bsync\.(?:Mutex|RWMutex|WaitGroup|Once|Map)\b|"
                r"\batomic\.(?:Add|Load|Store|Compare)\w*\(|^\s*go\s+(?:func\b|\w+\()|\bmake\(\s*chan\b|\bPromise\.all\(|"
                r"\bselect_for_update\(|\bFOR UPDATE\b|\bwith_for_update\(",
                "concurrency primitive",
                ("lock = threading.Lock()", "go func() {", "var mu sync.Mutex"),
                ("go_home()", "threads = 4"),
            ),
            Rule(
                r"^[A-Za-z_]\w*(?:_seen|_processed|seen|processed|_dedup\w*|_inflight|_in_flight)\w*\s*(?::[^=\n]+)?=\s*(?:set\(\)|\{\}|dict\(\)|\[\])",
                "in-process shared state (not shared across workers)",
                ("_processed_events: set[str] = set()",),
                ("    seen = set()",),
            ),
            Rule(
                r"\b(?:pool|conn_pool|db_pool)\.(?:acquire|get_?conn\w*|getConnection)\(|\bgetConnection\("
                r"|[\"'`]/(?:health|healthz|readyz|livez)\b|\bSELECT 1\b",
                "connection pool or health check",
                ("conn = pool.acquire()", "@app.get('/healthz')"),
                ("pooled = 1",),
            ),
        ),
        (
            "thread",
            "asyncio",
            "pool",
            "multiprocessing",
            "sync.",
            "atomic.",
            "go ",
            "chan",
            "promise.all",
            "for_update",
            "for update",
            "seen",
            "processed",
            "dedup",
            "inflight",
            "in_flight",
            "getconnection",
            "health",
            "readyz",
            "livez",
            "select 1",
        ),
    ),
    Category(
        "public-api-route",
        Policy(RED, RED, MODERATE, "public-api"),
        (
            Rule(
                r"@\w+\.(?:route|get|post|put|patch|delete|api_route|websocket)\(\s*[\"']/|"
                r"\b(?:app|router|api|server|r|e|g|mux|http|\w+_bp|\w+Router)\.(?:get|post|put|patch|delete|route|all|"
                r"HandleFunc|Handle|GET|POST|PUT|PATCH|DELETE)\(\s*[\"'`]/|\badd_url_rule\(|"
                r"@(?:Get|Post|Put|Delete|Patch|Request)Mapping\b|^\s*rpc\s+\w+\s*\(|^\s*(?:/[\w{}/-]*|paths):\s*$",
                "public API route",
                (
                    '@payments_bp.route("/charge", methods=["POST"])',
                    "router.get('/users/:id', h)",
                    'http.HandleFunc("/refund", h)',
                    "  rpc Charge(ChargeRequest) returns (X);",
                ),
                ("requests.get(url)", "routes = []"),
            ),
        ),
        (
            "@",
            "route",
            ".get(",
            ".post(",
            ".put(",
            ".patch(",
            ".delete(",
            ".all(",
            "handle",
            "add_url_rule",
            "mapping",
            "rpc",
            "/",
        ),
    ),
    Category(
        "error-handling",
        Policy(None, RED, None, "error-handling-removed", code_only=True),
        (
            Rule(
                r"^\s*(?:except\b|try:|finally:)|\bcatch\s*\(|\.catch\(|\bif\s+err\s*!=\s*nil\b|\bPromise\.reject\(|"
                r"^\s*raise\b|\bthrow\b|\brecover\(\)",
                "error handling",
                ("except PaymentError as e:", "if err != nil {", "} catch (e) {"),
                ("exceptional = 1",),
            ),
        ),
        (
            "except",
            "try:",
            "finally:",
            "catch",
            "err",
            "promise.reject",
            "raise",
            "throw",
            "recover()",
        ),
    ),
    Category(
        "error-exposure",
        Policy(RED, None, RED, "error-details-exposed", hotspot=False),
        (
            Rule(
                r"[\"'](?:detail|details|error|message|msg|debug|trace|exception|reason|internal\w*)[\"']\s*:\s*"
                r"(?:str|repr)\(\s*"
                + _ERR
                + r"\s*\)|\btraceback\.format_exc\(|\b"
                + _ERR
                + r"\.(?:stack|__dict__)\b|"
                r"\bexc_info\b\s*[\"']?\s*:|[\"']\w*(?:stack|trace|internal|raw_response|processor_\w+)\w*[\"']\s*:",
                "exception details returned to the caller",
                (
                    'return jsonify({"error": str(e)}), 500',
                    "res.json({ stack: err.stack })",
                    '"processor_response": e.raw_response,',
                ),
                ('logger.error("failed: %s", e)',),
            ),
        ),
        (
            "str(",
            "repr(",
            "traceback",
            "stack",
            "__dict__",
            "exc_info",
            "trace",
            "internal",
            "raw_response",
            "processor_",
        ),
    ),
    Category(
        "retry-timeout",
        Policy(None, None, None, "retry-timeout", code_only=True),
        (
            Rule(
                word_part("retry", "retries", "backoff", "timeout", "deadline")
                + r"|\bWith(?:Timeout|Deadline)\(",
                "retry or timeout",
                (
                    "max_retries = 3",
                    "ctx, cancel := context.WithTimeout(ctx, d)",
                    "const reconnectBackoff = 2 ** attempt",
                ),
                ("retrieve(x)",),
            ),
        ),
        (
            "retr",
            "backoff",
            "timeout",
            "deadline",
        ),
    ),
    Category(
        "serialization-boundary",
        Policy(None, None, None, "serialization"),
        (
            Rule(
                r"\b(?:json|simplejson|orjson|yaml|pickle|marshal|msgpack)\.(?:loads?|dumps?|safe_load)\(|\bJSON\.(?:parse|stringify)\(|"
                r"\bjson\.(?:Marshal|Unmarshal|NewDecoder|NewEncoder)\b|\b(?:to|from)_(?:dict|json)\(|\bget_json\(|\breq\.body\b|"
                r"\brequest\.(?:json|form|data|args)\b",
                "data crossing a serialization boundary",
                ("data = json.loads(raw)", "JSON.parse(localStorage.x)"),
                ("jsonify_name = 1",),
            ),
        ),
        (
            "json",
            "yaml",
            "pickle",
            "marshal",
            "msgpack",
            "_dict(",
            "req.body",
            "request.",
        ),
    ),
    Category(
        "external-service",
        Policy(None, None, None, "external-service"),
        (
            Rule(
                r"\b(?:requests|httpx|session|aiohttp)\.(?:get|post|put|patch|delete|request)\(|\bfetch\(|\baxios\b|"
                r"\burlopen\(|\bhttp\.(?:Get|Post|NewRequest\w*)\(|\bboto3\.|\bgrpc\.|\bstripe\.\w+|"
                r"\.(?:publish|send_message|enqueue|produce)\(|\bnew WebSocket\("
                r"|\bos\.(?:environ|getenv)\b|\bprocess\.env\.|\bos\.Getenv\(",
                "call to an external service or environment-selected configuration",
                (
                    "resp = requests.post(url, json=body)",
                    'PROVIDER = os.environ.get("PAYMENT_PROVIDER", "x")',
                ),
                ("fetcher = None",),
            ),
        ),
        (
            "requests.",
            "httpx.",
            "session.",
            "aiohttp.",
            "fetch(",
            "axios",
            "urlopen",
            "http.",
            "boto3",
            "grpc",
            "stripe.",
            "publish(",
            "send_message(",
            "enqueue(",
            "produce(",
            "websocket(",
            "environ",
            "getenv",
            "process.env",
        ),
    ),
    Category(
        "output-encoding",
        Policy(None, None, None, "output-encoding"),
        (
            Rule(
                r"\bcsv\.(?:writer|DictWriter)\b|\bwriterows?\(|\bto_csv\(|text/csv|Content-Disposition|\bcreateObjectURL\(|"
                r"\bnew Blob\(|\binnerHTML\b|dangerouslySetInnerHTML|\bmark_safe\("
                r"|\|\s*safe\b|\bMarkup\(",
                "output written in a format another program interprets",
                ("writer = csv.writer(buf)", "el.innerHTML = msg"),
                ("write(x)",),
            ),
        ),
        (
            "csv",
            "writerow",
            "content-disposition",
            "createobjecturl",
            "blob(",
            "innerhtml",
            "mark_safe",
            "safe",
            "markup(",
        ),
    ),
    Category(
        "infrastructure-lifecycle",
        Policy(RED, RED, RED, "infra-lifecycle"),
        (
            Rule(
                r"\b(?:lifecycle_rule|prevent_destroy|deletion_protection|skip_final_snapshot|final_snapshot_identifier|"
                r"backup_retention_period|retention_in_days|storage_class|multi_az|availability_zones?|replicate_source_db|"
                r"force_destroy|publicly_accessible|cidr_blocks)\b|\b(?:GLACIER|DEEP_ARCHIVE)\b|0\.0\.0\.0/0|"
                r"^\s*(?:replicas|memory|cpu):\s*\S",
                "infrastructure lifecycle, exposure or capacity setting",
                (
                    "  skip_final_snapshot = true",
                    'cidr_blocks = ["0.0.0.0/0"]',
                    "    memory: 256Mi",
                ),
                ("memory_usage = 3",),
            ),
        ),
        (
            "lifecycle_rule",
            "prevent_destroy",
            "deletion_protection",
            "skip_final_snapshot",
            "final_snapshot_identifier",
            "backup_retention_period",
            "retention_in_days",
            "storage_class",
            "multi_az",
            "availability_zone",
            "replicate_source_db",
            "force_destroy",
            "publicly_accessible",
            "cidr_blocks",
            "glacier",
            "deep_archive",
            "0.0.0.0/0",
            "replicas",
            "memory",
            "cpu",
        ),
    ),
    Category(
        "money",
        Policy(RED, RED, RED, "money-movement", hotspot=False, code_only=True),
        (
            Rule(
                word_part(
                    "payment",
                    "payments",
                    "refund",
                    "refunds",
                    "refunded",
                    "currency",
                    "invoice",
                    "invoices",
                    "billing",
                    "payout",
                    "payouts",
                    "price",
                    "prices",
                    "pricing",
                    "discount",
                    "discounts",
                ),
                # Not "checkout": a VCS operation as often as a purchase (go-getter's
                # `git checkout` fixes read as payment logic); a shop's checkout changes
                # prices, amounts or payments as well. Not "exchange": an OAuth code or token
                # exchange, a key exchange or a message broker's exchange as often as money
                # (dex's `grants.ExchangeAuthCode` refactors were red as payment logic); a
                # currency exchange names currencies, rates and amounts as well.
                "money or payment-processing logic",
                (
                    "amount_cents = max(0, amount_cents - discount)",
                    "const totalPrice = 1",
                    "process_refund(p)",
                ),
                ("settle(batch)", "recharger = 1", "amounts_of_work = 1",
                 'exec.Command("git", "checkout", ref)',
                 "auth, err := grants.ExchangeAuthCode(ctx, storage, authCode)",
                 "resp = client.token_exchange(subject_token)",
                 "sameServiceAmount := opts.WaitIndex == meta.LastIndex"),
            ),
            Rule(
                word_part(
                    "charge",
                    "charges",
                    "amount",
                    "ledger",
                    "balance",
                    "settlement",
                    "subscription",
                    "subscriptions",
                ),
                # Words that name money in a shop and something else elsewhere: an amount of
                # services (traefik's `sameServiceAmount`), a live query's or a protocol's
                # subscriptions (parse-server, an MCP server), a battery charge, a load
                # balance. Alone in a file they are yellow at most; beside a payment, refund,
                # price or currency word they are money again.
                "money or payment-processing logic",
                ("charge(card, amount)", "ledger.append(entry)", "sub = create_subscription(plan)"),
                ("recharger = 1", "amounts_of_work = 1", "loadBalancer.Next()"),
                cap=MODERATE,
            ),
        ),
        (
            "payment",
            "refund",
            "charge",
            "amount",
            "currency",
            "invoice",
            "billing",
            "payout",
            "ledger",
            "balance",
            "price",
            "pricing",
            "discount",
            "settlement",
            "subscription",
        ),
    ),
)
