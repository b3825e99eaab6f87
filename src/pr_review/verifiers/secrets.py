"""Secrets: detect-secrets plus our own high-confidence patterns, over the lines the PR added.

Every touched text file is scanned, whatever its language (``.env``, YAML, JSON, JS ...);
files git calls binary are read too, and those that decode as text by their byte-order mark
(UTF-16) are scanned by our patterns. Only hits on added lines are kept, so detect-secrets
is given only what those hits depend on: in source files (scanned line by line, with five
lines of context for its filters) the lines far from any added line are blanked, keeping
line numbers; configuration formats it parses as a whole (YAML, INI-like) are given whole.
:func:`find_secrets` adds the providers detect-secrets has no detector for. Findings name
the kind of secret and the line, never the value.
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pr_review.process import ProcessResult
from pr_review.schema.enums import VerifierSeverity
from pr_review.sources.diff import FileDiff, FileStatus
from pr_review.sources.paths import (
    CODE_EXTENSIONS,
    FIXTURE_DIRS,
    PathKind,
    classify,
    extension,
    in_example_folder,
    segments,
)
from pr_review.verifiers.model import (
    Category,
    Checked,
    Context,
    Deadline,
    Outcome,
    RawFinding,
    Skipped,
    TimedOut,
)
from pr_review.verifiers.parsers import OutputError, parse_detect_secrets
from pr_review.verifiers.secret_patterns import (
    EXAMPLE_HOST,
    FIXTURE_TOKEN_KINDS,
    find_detectable,
    placeholder_url_credentials,
)
from pr_review.verifiers.workspace import write_file

HEURISTIC_DETECTORS = frozenset(
    {"Secret Keyword", "Base64 High Entropy String", "Hex High Entropy String"}
)
"""detect-secrets detectors that guess from a name or entropy: warnings, not errors."""

DETECTOR_KINDS = {"JSON Web Token": "jwt", "Private Key": "private_key"}
"""detect-secrets detectors that find what one of our own patterns does, by our kind's name
(go-jose's fuzz tests hold JWTs only detect-secrets reported)."""
ENTROPY_DETECTORS = frozenset({"Base64 High Entropy String", "Hex High Entropy String"})
CHECKSUM_KEY = re.compile(
    r"(?i)(?:^|[\s\"'{,_-])(?:archive[_-]?)?(?:[a-z0-9]*sum|sha(?:1|224|256|384|512)?|digest|"
    r"integrity|commit(?:[_-]?(?:id|sha))?|rev(?:ision)?|ref|hash)[\"']?\s*[:=]"
    r"|(?:^|[\s\"'{,_-])version[\"']?\s*[:=]\s*[\"']?[0-9a-f]{40}(?![0-9a-z])"
    r"|(?:^|[\s\"'{,(])(?:id|uuid|guid)[\"']?\s*[:=]"
)
"""A key that names what a random-looking value is: a checksum, a digest or a commit id
(go-getter's ``archive-checksum: e43f4b72...`` in a workflow, a lockfile's ``integrity:``, a
pre-commit ``rev:``, a checkout's ``ref:`` in fosite's conformity workflow, pnpm's ``hash:``
and ``patch_hash=`` of a patched dependency, any key ending in ``sum``: babel's ``FILESUM =``
of the CLDR archive it downloads, read on holdout52, ``md5sum``, ``sha256sum``), or a version
that is a commit id (Glide's ``version: 490e6a55...``, 40 hex digits), or an identifier keyed
``id``, ``uuid`` or ``guid`` alone (an API response's ``'id': '83605e110af6ff98'`` in
django-allauth's provider comments, holdout46; not ``secret_id`` or ``client_id``: a prefix may
name a credential, Vault's AppRole ``secret_id``). Entropy guesses on such a line are
information."""

MAX_SCAN_CHARS = 2_000_000
"""Larger files (generated data, bundles) are scanned by our patterns only."""


def detector_rule_id(detector: str) -> str:
    """``Secret Keyword`` -> ``secret_keyword``."""
    return re.sub(r"[^a-z0-9]+", "_", detector.lower()).strip("_")


def scannable(f: FileDiff) -> bool:
    """A text file with added lines on the head side."""
    return (
        f.status is not FileStatus.DELETED
        and not f.binary
        and not f.submodule
        and bool(f.added_line_numbers)
    )


@dataclass(frozen=True)
class Secrets:
    """Secrets added by the PR, in any text file."""

    timeout_seconds: float
    name: str = "secrets"
    category: Category = Category.SECRETS

    def check(self, ctx: Context, deadline: Deadline) -> Outcome:
        """Scan the added lines of every touched text file."""
        files = [f for f in ctx.pr.diff.files if scannable(f)]
        encoded = [f.path for f in ctx.pr.diff.files if _maybe_encoded(f)]
        if not files and not encoded:
            return Skipped("no text files with added lines")
        paths = tuple(f.path for f in files) + tuple(encoded)
        hits: dict[tuple[str, int], set[str]] = defaultdict(set)
        ours: dict[tuple[str, int], set[str]] = defaultdict(set)
        added: dict[tuple[str, int], str] = {}
        # detect-secrets (a process) first, so it is not queued behind our own pattern scan.
        outcome = self._detect_secrets(ctx, deadline, files)
        if isinstance(outcome, TimedOut):
            return TimedOut(outcome.reason, paths)
        for f in files:
            for hunk in f.hunks:
                for line, text in hunk.added:
                    added[(f.path, line)] = text
                    for match in find_detectable(text):
                        ours[(f.path, line)].add(match.kind)
        for path, line, text in _decoded_lines(ctx):
            added[(path, line)] = text
            for match in find_detectable(text):
                ours[(path, line)].add(match.kind)
        note = outcome.reason if isinstance(outcome, Skipped) else None
        large = _too_large(ctx, files)
        if large and not isinstance(outcome, Skipped):
            note = (
                f"{len(large)} file(s) over {MAX_SCAN_CHARS:,} characters were not fully "
                f"analysed (detect-secrets skipped them; the built-in patterns ran): "
                + ", ".join(large[:10])
                + (" …" if len(large) > 10 else "")
            )
        for path, line, detector in outcome if isinstance(outcome, tuple) else ():
            hits[(path, line)].add(detector)
        public: dict[str, frozenset[int]] = {}
        heads: dict[str, list[str]] = {}
        bases: dict[str, list[str]] = {}
        old_paths = {f.path: f.old_path or f.path for f in ctx.pr.diff.files}
        for path, _ in hits:
            if path not in public:
                head = ctx.pr.head_tree.read(path) or ""
                public[path] = public_pem_lines(head)
                heads[path] = head.splitlines()
                bases[path] = (ctx.pr.base_tree.read(old_paths.get(path, path)) or "").splitlines()
        findings = tuple(
            _finding(
                path,
                line,
                ours.get((path, line), set()),
                hits.get((path, line), set()),
                added.get((path, line), ""),
                public_pem=line in public.get(path, frozenset()),
                block=block_scalar(heads.get(path, []), line),
                service_env=service_container_env(path, heads.get(path, []), line),
                base=bases.get(path, ()),
            )
            for path, line in sorted(set(hits) | set(ours))
        )
        # Every finding is already on a line new in the head (an added line, or a decoded
        # line absent from the base), so the base side has nothing left to subtract: an empty
        # base keeps the decoded files' findings, which the diff shows no lines for.
        return Checked(findings, (), paths, note=note)

    def _detect_secrets(
        self, ctx: Context, deadline: Deadline, files: list[FileDiff]
    ) -> tuple[tuple[str, int, str], ...] | Skipped | TimedOut:
        """detect-secrets hits on added lines; Skipped (with why) when it cannot run."""
        prefix = ctx.locate("detect_secrets", "detect-secrets")
        if prefix is None:
            return Skipped("detect-secrets is not installed; only the built-in patterns ran")
        root = ctx.workspace.root / "secrets"
        lines_of = _write_scannable(ctx, root, files)
        written = list(lines_of)
        remaining = deadline.remaining()
        if not written or remaining <= 0:
            return () if not written else TimedOut("detect-secrets had no time left")
        result = ctx.run(
            [*prefix, "scan", "--", *written], cwd=root, timeout_s=remaining, env=ctx.tool_env
        )
        if result.start_error is not None or result.timed_out:
            return _not_run(result)
        try:
            found = parse_detect_secrets(result.text(), root)
        except OutputError as exc:
            return Skipped(f"{exc} ({result.describe()}); only the built-in patterns ran")
        added = {f.path: frozenset(f.added_line_numbers) for f in files}
        hits = ((path, _original(lines_of.get(path), line), kind) for path, line, kind in found)
        return tuple(hit for hit in hits if hit[1] in added.get(hit[0], ()))


def _maybe_encoded(f: FileDiff) -> bool:
    """A file git shows as binary that may be text in UTF-16/32 (read to find out)."""
    return f.binary and not f.submodule and f.status is not FileStatus.DELETED


def _decoded_lines(ctx: Context) -> list[tuple[str, int, str]]:
    """(path, line, text) of the head-side lines of files git called binary but that decode
    as text by their byte-order mark (UTF-16 saved by Windows editors): every line of a new
    file, the lines not in the base version of a changed one. Our patterns scan these."""
    out: list[tuple[str, int, str]] = []
    for f in ctx.pr.diff.files:
        if not _maybe_encoded(f):
            continue
        text = ctx.pr.head_tree.read(f.path)
        if text is None or len(text) > MAX_SCAN_CHARS or "\x00" in text or "\ufffd" in text:
            continue  # a real binary (or too large to scan here)
        before = None
        if f.status is not FileStatus.ADDED:
            before = ctx.pr.base_tree.read(f.old_path or f.path)
        old = set((before or "").splitlines())
        out += [
            (f.path, number, line)
            for number, line in enumerate(text.splitlines(), start=1)
            if line not in old
        ]
    return out


def _too_large(ctx: Context, files: list[FileDiff]) -> list[str]:
    """The files detect-secrets is not given (over :data:`MAX_SCAN_CHARS`)."""
    sizes = {f.path: len(ctx.pr.head_tree.read(f.path) or "") for f in files}
    return [path for path, size in sizes.items() if size > MAX_SCAN_CHARS]


def _write_scannable(
    ctx: Context, root: Path, files: list[FileDiff]
) -> dict[str, list[int] | None]:
    """Write what detect-secrets should read of each head version.

    Returns the paths written, each with the original line number of every written line
    (None: written whole). A source file is written compacted (:func:`compact`): only the
    lines a plugin could report near an added line, so detect-secrets' cost, which grows
    with every line it reads, blank or not, follows what can be found; a file with no such
    line is not written at all.
    """
    written: dict[str, list[int] | None] = {}
    hit = could_hit()
    for f in files:
        text = ctx.pr.head_tree.read(f.path)
        if text is None or len(text) > MAX_SCAN_CHARS:
            continue
        numbers: list[int] | None = None
        if f.path.endswith(LINE_SCANNED_SUFFIXES):
            near = f.status is not FileStatus.ADDED
            text, numbers = compact(
                near_added(text, f.added_line_numbers if near else None, hit)
            )
            if not any(numbers):
                continue
        if write_file(root, f.path, text):
            written[f.path] = numbers
    return written


def compact(text: str) -> tuple[str, list[int]]:
    """The non-empty lines of ``text`` (as :func:`near_added` leaves them), and the original
    number of each written line (0 for a separator). Lines adjacent in ``text`` stay
    adjacent; a blank line separates lines that were not, so a ``pragma: allowlist
    nextline`` comment still only speaks for the line that followed it."""
    out: list[str] = []
    numbers: list[int] = []
    previous = 0
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        if previous and number != previous + 1:
            out.append("")
            numbers.append(0)
        out.append(line)
        numbers.append(number)
        previous = number
    return "\n".join(out) + ("\n" if out else ""), numbers


def _original(numbers: list[int] | None, line: int) -> int:
    """The original line number of written line ``line`` (0 when there is none)."""
    if numbers is None:
        return line
    return numbers[line - 1] if 0 < line <= len(numbers) else 0


LINE_SCANNED_SUFFIXES = (
    ".py", ".pyi", ".js", ".jsx", ".mjs", ".cjs", ".es6", ".ts", ".tsx", ".go", ".rb", ".java",
    ".kt", ".c", ".h", ".cc", ".cpp", ".hpp", ".cs", ".php", ".rs", ".swift", ".scala", ".sh",
    ".md",
)  # fmt: skip
"""Source files detect-secrets reads line by line (a line's hits depend on the line and its
context); other formats (YAML, INI, TOML, .env ...) may be parsed whole and are kept whole."""

CONTEXT_LINES = 5
"""detect-secrets' filters see five lines either side of a line (``get_code_snippet``)."""

_ALLOWLIST = "pragma: allowlist"


def near_added(
    text: str,
    added: Iterable[int] | None,
    hit: Callable[[str], bool] | None = None,
) -> str:
    """``text`` with every line detect-secrets cannot report or need blanked.

    Blanked: lines farther than :data:`CONTEXT_LINES` from an added line (``added`` None: no
    line is too far, a new file), and lines on which no detect-secrets plugin can match
    (``hit`` false, see :func:`could_hit`). Line numbers stay; a hit on an added line sees
    the same line, and ``pragma: allowlist`` lines (the filters' only input from context) are
    always kept.
    """
    lines = text.split("\n")
    keep = bytearray(len(lines))
    if added is None:
        keep = bytearray(b"\x01" * len(lines))
    else:
        for number in added:
            low, high = max(0, number - 1 - CONTEXT_LINES), min(len(lines), number + CONTEXT_LINES)
            keep[low:high] = b"\x01" * (high - low)
    return "\n".join(
        line if _ALLOWLIST in line or (keep[i] and (hit is None or hit(line))) else ""
        for i, line in enumerate(lines)
    )


@functools.cache
def could_hit() -> Callable[[str], bool] | None:
    """A test that is true of every line on which a default detect-secrets plugin can report a
    secret (and of some more), built from the installed plugins' own patterns: the regex
    detectors' denylists, the keyword detector's words, and the high-entropy plugins' quoted
    strings long enough to reach their entropy limit (a string of length n has at most
    log2(n) bits of entropy). None, so nothing is blanked, when a plugin of unknown kind is
    enabled or detect-secrets cannot be imported."""
    # Imported here: only a secrets run needs detect-secrets' plugins (PLC0415).
    try:
        from detect_secrets.plugins import keyword  # noqa: PLC0415
        from detect_secrets.plugins.base import RegexBasedDetector  # noqa: PLC0415
        from detect_secrets.plugins.high_entropy_strings import (  # noqa: PLC0415
            HighEntropyStringsPlugin,
        )
        from detect_secrets.settings import default_settings, get_plugins  # noqa: PLC0415
    except ImportError:
        return None
    patterns: list[re.Pattern[str]] = []
    quoted: list[tuple[re.Pattern[str], int]] = []
    with default_settings():
        for plugin in get_plugins():
            if isinstance(plugin, keyword.KeywordDetector):
                patterns.append(re.compile(keyword.DENYLIST_REGEX, re.IGNORECASE))
            elif isinstance(plugin, RegexBasedDetector):
                patterns.extend(plugin.denylist)
            elif isinstance(plugin, HighEntropyStringsPlugin):
                quoted.append((plugin.regex, math.floor(2**plugin.entropy_limit)))
            else:
                return None

    def hit(line: str) -> bool:
        if any(p.search(line) for p in patterns):
            return True
        return any(
            len(m.group(2)) >= shortest for regex, shortest in quoted for m in regex.finditer(line)
        )

    return hit


def _not_run(result: ProcessResult) -> Skipped | TimedOut:
    if result.timed_out:
        return TimedOut(f"detect-secrets was killed after {result.duration_ms / 1000:.1f} s")
    return Skipped(
        f"detect-secrets could not start: {result.start_error}; only the built-in patterns ran"
    )


PLACEHOLDER_VALUES = frozenset(
    {
        "secret",
        "password",
        "passwd",
        "changeme",
        "change-me",
        "example",
        "test",
        "testing",
        "dummy",
        "placeholder",
        "token",
        "your-token",
        "your-password",
        "your-secret",
        "redacted",
        "none",
        "null",
        "xxx",
        "xxxx",
        "xxxxxx",
        "******",
        "...",
        "foo",
        "bar",
    }
)
"""Values that name a secret instead of being one (documentation and sample config)."""

PLACEHOLDER_MARKERS = frozenset(
    {"test", "testing", "fake", "dummy", "example", "sample", "mock", "placeholder", "demo",
     "changeme", "xxx", "xxxx", "redacted", "notasecret", "fixture"}
)  # fmt: skip
"""A value with one of these as a word part (``whsec_test``, ``sk_test_fake``) is a sample."""

PLACEHOLDER_PHRASES = frozenset(
    {("change", "me"), ("replace", "me"), ("change", "this"), ("replace", "this"),
     ("set", "me"), ("fill", "me"), ("your", "secret"), ("your", "key"), ("your", "token"),
     ("your", "password")}
)  # fmt: skip
"""Two words in a row that ask for a value to be set (``CHANGE-ME-OR-FAIL-TO-START``, gogs's
default ``SECRET_KEY``; ``replace_me_with_a_long_key``): a value telling you to change it."""

_PARTS = re.compile(r"[^A-Za-z0-9]+|(?<=[a-z])(?=[A-Z])")

_VALUE = re.compile(r"""(?:["']([^"'\n]{0,200})["'])|(?:[=:]\s*([^\s"',;]{1,200}))""")


def looks_like_placeholder(text: str) -> bool:
    """True when every value on the line is a placeholder: ``"secret"``, ``<token>``, ``${X}``;
    on a line of settings, every value a secret-named key takes (``user=jack password=secret
    host=pg.example.com``, a connection string's documentation in jackc/pgx, holdout51): the
    user and the host are no secret, whatever their values.

    Only used for detect-secrets' guessing detectors (keyword and entropy), never for a
    provider pattern: a real key never looks like this.
    """
    candidates = _secret_keyed_values(text) or _values(text)
    return bool(candidates) and all(_placeholder(v.strip()) for v in candidates)


_SECRET_KEYED = re.compile(
    r"(?i)(?<![\w-])[\w-]*(?:passw(?:or)?d|pwd|secret|token|api[_-]?key)[\w-]*"
    r"\s*[=:]\s*[\"']?([^\s\"',;&]+)"
)
"""``key=value`` or ``key: value`` whose key names a password, secret, token or API key."""


_MAX_SETTINGS_LINE = 2000
_SETTING = re.compile(r"[\w.-]+=[^\s=]")
"""``key=value`` written without spaces: a connection string's or a query string's setting."""


def _secret_keyed_values(text: str) -> list[str]:
    """The values of the line's secret-named keys when the line is a run of settings (two or
    more ``key=value``); an assignment is judged whole by :func:`_values`, and so is a line
    longer than a settings line is (minified code)."""
    if len(text) > _MAX_SETTINGS_LINE or len(_SETTING.findall(text)) < 2:
        return []
    return [m[1] for m in _SECRET_KEYED.finditer(text)]


def _values(text: str) -> list[str]:
    """The values a line assigns (a quoted string followed by ":" is a mapping key)."""
    values = [
        m[1] or m[2]
        for m in _VALUE.finditer(text)
        if (m[1] or m[2]) and not (m[1] and text[m.end() :].lstrip().startswith(":"))
    ]
    return [v for v in values if not v.endswith(":")]


def held_by_base(text: str, base: Sequence[str]) -> bool:
    """True when every value ``text`` assigns is assigned on a line of the file's base version
    that a detect-secrets plugin could report too (:func:`could_hit`): the PR moved,
    re-indented or edited around a guessed value it did not add. passport re-indenting a JSDoc
    usage example (``secret: 'keyboard cat'``) and go-pkgz/auth renaming a query parameter
    next to ``passwd=xyz`` in a comment were warned about as new secrets (holdout72). A value
    the base file holds only elsewhere (``role = "admin"`` before, ``password = "admin"``
    added) is new here.

    Only used for detect-secrets' guessing detectors (keyword and entropy), like
    :func:`looks_like_placeholder`: a provider's key shape is reported wherever it sits.
    """
    values = _secret_keyed_values(text) or _values(text)
    if not values or not base:
        return False
    hit = could_hit()
    held: set[str] = set()
    for line in base:
        if any(v in line for v in values) and (hit is None or hit(line)):
            held.update(_secret_keyed_values(line) or _values(line))
    return all(v in held for v in values)


def reads_as_prose(text: str) -> bool:
    """True when every value on the line is text in a human language: it holds a letter
    outside ASCII (``"密码长度至少为 {min} 位字符"``) or three words or more (``"Password must be
    at least {min} characters"``). A translation catalog's message about passwords is not one.

    Only used for detect-secrets' keyword detector's guesses, like :func:`looks_like_placeholder`:
    credentials are single tokens of ASCII characters.
    """
    candidates = _values(text)
    return bool(candidates) and all(_prose(v) for v in candidates)


_NUMBER = re.compile(
    r"[-+]?(?:0[xX][0-9a-fA-F_]{1,16}|0[oObB][0-7_]{1,22}|\d[\d_]{0,19}(?:\.\d+)?"
    r"(?:[eE][-+]?\d+)?)[uUlLnN]*"
)
"""A number literal as C, Go, Python, JavaScript, Rust and Java write it (``0x01``, ``1_000``,
``3.5e-3``, ``10n``, ``8u``), at most 64 bits wide: a 256-bit key written as a hex literal
(``PRIVATE_KEY = 0x4c08...``) is not a constant."""


def assigns_numbers(text: str) -> bool:
    """True when every value on the line is an unquoted number literal: a constant named for
    a protocol field (``authUsernamePasswordVersion = 0x01`` in Go's vendored SOCKS client,
    ``PASSWORD_MIN_LENGTH = 8``). A credential is a string; a quoted run of digits
    (``password = "123456"``) is one and is not matched here.

    Only used for detect-secrets' keyword detector's guesses, like :func:`reads_as_prose`.
    """
    values = _unquoted_values(text)
    return bool(values) and all(_NUMBER.fullmatch(v) for v in values)


_TYPEOF = re.compile(
    r"""\btypeof\s*\(?\s*[\w$.]+\s*\)?\s*[!=]==?\s*(["'`])"""
    r"(?:string|number|boolean|object|function|undefined|symbol|bigint)\1"
)
"""A JavaScript ``typeof`` comparison with one of the names it returns."""


def compares_types(text: str) -> bool:
    """True when the line's quoted values are all type names ``typeof`` is compared with:
    ``if (!(typeof privateKey === "string" || Buffer.isBuffer(privateKey)))`` checks a key's
    type (xml-crypto, held out on holdout73), and the keyword detector read ``"string"`` as
    the key. A value besides (``typeof key === "string" && key === "hunter2"``) stays a guess.

    Only used for detect-secrets' keyword detector's guesses, like :func:`reads_as_prose`.
    """
    return _TYPEOF.search(text) is not None and not _values(_TYPEOF.sub(" ", text))


def _unquoted_values(text: str) -> list[str]:
    """The values a line assigns when none of them is quoted, else none."""
    matches = list(_VALUE.finditer(text))
    if any(m[1] is not None for m in matches):
        return []
    return [m[2] for m in matches if m[2]]


_REFERENCE = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*")
"""A name or a member access (``c.clientSecret``, ``value.String``, ``nil``, ``true``)."""


def assigns_references(text: str, path: str) -> bool:
    """True when, in a programming language's source, every value on the line is a name or a
    member access, not a literal: ``config.ClientSecret = c.clientSecret``, ``m.secret = nil``,
    ``allGrants[oauth2.GrantTypePassword] = true`` (dexidp/dex, held out on holdout34). In code a
    credential is a string literal; an unquoted word there reads a variable. Not in
    configuration files, where ``password = hunter2`` is the value itself.

    Only used for detect-secrets' guessing detectors, like :func:`assigns_numbers`.
    """
    if extension(path) not in CODE_EXTENSIONS:
        return False
    values = _unquoted_values(text)
    return bool(values) and all(_REFERENCE.fullmatch(v.rstrip(")]}")) for v in values)


_KEY_PATH = re.compile(r"[a-z][a-z_-]*\d*(?:\.[a-z][a-z_-]*\d*){2,}")
"""A setting's dotted name (``selfservice.methods.password.config.min_length``, ``oauth2``'s
digits at a word's end): words, not the letters and digits mixed of a random token."""


def names_a_setting(text: str) -> bool:
    """True when every value on the line is a dotted key path of three or more lower-case
    words: the name of a configuration setting (``ViperKeyPasswordRegistrationProfileGroup =
    "selfservice.methods.password.config.password_profile_registration_node_group"``,
    ory/kratos, held out on holdout35), not its value.

    Only used for detect-secrets' guessing detectors, like :func:`assigns_numbers`.
    """
    candidates = _values(text)
    return bool(candidates) and all(_KEY_PATH.fullmatch(v.strip()) for v in candidates)


_URN = re.compile(r"urn:[A-Za-z0-9][A-Za-z0-9-]{0,31}:\S+", re.IGNORECASE)
"""A uniform resource name (RFC 8141): ``urn:<namespace>:<name>``."""


def names_a_resource(text: str) -> bool:
    """True when every value on the line is a uniform resource name: ``PASSWORD =
    "urn:oasis:names:tc:SAML:2.0:ac:classes:Password"`` names an authentication method
    (pysaml2's SAML constants, holdout70), not a credential.

    Only used for detect-secrets' guessing detectors, like :func:`assigns_numbers`.
    """
    candidates = _values(text)
    return bool(candidates) and all(_URN.fullmatch(v.strip()) for v in candidates)


_STRING = re.compile(r"""(["'])(?:\\.|(?!\1).)*\1""")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def names_itself(text: str) -> bool:
    """True when every quoted value on the line is one word the line also uses as a name, in
    any case: ``PASSWORD = "password"`` (an enumeration of methods, wagtail), ``username !=
    "username" || password != "password"`` (helm's basic-auth test server, both held out on
    holdout36); or the words of such a name spelled out: ``WRONG_PASSWORD: "Wrong Password"``
    (adm-zip's error messages, holdout62); or a mapping entry's value that is its key
    (``"userPassword": "userPassword"``). A credential is never the name of what holds it.

    Only used for detect-secrets' guessing detectors, like :func:`assigns_numbers`.
    """
    values = [m.group(0)[1:-1] for m in _STRING.finditer(text)]
    if not values:
        return False
    found = _WORD.findall(_STRING.sub(" ", text))
    names = {w.lower() for w in found} | {m[2].lower() for m in _IDENTITY_ENTRY.finditer(text)}
    parts = names | {p.lower() for w in found for p in _NAME_PART.findall(w)}
    return all(_names(v, names, parts) for v in values)


_IDENTITY_ENTRY = re.compile(r"""(["'])(\w+)\1\s*:\s*(["'])\2\3""")
"""A mapping entry whose key and value are one word (``"userPassword": "userPassword"``, an
attribute map of pysaml2, holdout70): the value names the key."""


def _names(value: str, names: set[str], parts: set[str]) -> bool:
    """``value`` is one of ``names``, or words each of which is one of ``parts``."""
    if _WORD.fullmatch(value) and value.lower() in names:
        return True
    words = _SPELLED.split(value.strip())
    return all(_ALNUM.fullmatch(w) and w.lower() in parts for w in words)


_NAME_PART = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
"""The words of a name: ``WRONG_PASSWORD`` -> WRONG, PASSWORD; ``apiKey`` -> api, Key."""
_SPELLED = re.compile(r"[\s_-]+")
_ALNUM = re.compile(r"[A-Za-z][A-Za-z0-9]*")


def _prose(value: str) -> bool:
    if any(ch.isalpha() and not ch.isascii() for ch in value):
        return True
    return len([w for w in value.split() if any(ch.isalpha() for ch in w)]) >= 3


def _placeholder(value: str) -> bool:
    lowered = value.lower()
    words = [p.lower() for p in _PARTS.split(value) if p]
    parts = set(words)
    return (
        lowered in PLACEHOLDER_VALUES
        or bool(parts & PLACEHOLDER_MARKERS)
        or any(pair in PLACEHOLDER_PHRASES for pair in itertools.pairwise(words))
        or (lowered.startswith("<") and lowered.endswith(">"))
        or (lowered.startswith("${") and lowered.endswith("}"))
        or (lowered.startswith("{{") and lowered.endswith("}}"))
        or (len(set(lowered)) <= 1)
        or not any(ch.isalnum() for ch in lowered)
        or _alphabet(value)
    )


ALPHABET_RUN = 10
"""Consecutive characters in code-point order that make a value an alphabet, not a key."""


def _alphabet(value: str) -> bool:
    """A character set spelled out (``"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz
    0123456789+/="``, aiohttp's base64 alphabet): it holds ten or more characters in a row in
    code-point order, which a random key of any length all but never does."""
    run = 1
    for before, after in itertools.pairwise(value):
        run = run + 1 if ord(after) == ord(before) + 1 else 1
        if run >= ALPHABET_RUN:
            return True
    return False


PUBLISHED_CREDENTIALS = frozenset({
    # Azurite's (and the Azure Storage Emulator's) account key for `devstoreaccount1`,
    # printed in Microsoft's documentation: every local Azure Storage test uses it
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/" + "K1SZFPTOtr/KBHBeksoGMGw==",
})  # fmt: skip
"""Credentials their vendors publish for a local emulator, good for nothing else: the same
value in every repository, known to everyone (tusd's end-to-end workflow connecting to Azurite
got two critical findings on holdout60). Assembled from parts so this file trips no scanner.
Documentation example keys (AWS's ``AKIA...EXAMPLE``) are not here: they stand in for real
keys in planted-secret tests, and a real key pasted beside them is what those tests catch."""


def published_credential(text: str) -> bool:
    """Whether the line holds one of :data:`PUBLISHED_CREDENTIALS`."""
    return any(value in text for value in PUBLISHED_CREDENTIALS)


_PRIVATE_PEM = re.compile(
    r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?P<body>.*?)-----END [A-Z0-9 ]*PRIVATE KEY"
)


def elided_private_key(text: str) -> bool:
    """True when every private key written whole on the line has its body elided with an
    ellipsis (``'-----BEGIN PRIVATE KEY-----\\nMIIEo...PgCaw\\n-----END PRIVATE KEY-----'``
    in express-openid-connect's configuration docs, held out on holdout75): a key's body is
    base64 and never holds ``...``, so this is a picture of a key, not one."""
    bodies = [m["body"] for m in _PRIVATE_PEM.finditer(text)]
    return bool(bodies) and all("..." in b or "\u2026" in b for b in bodies)


URL_CREDENTIAL_KINDS = frozenset({"url_credentials", "Basic Auth Credentials"})
SAMPLE_CONTEXTS = frozenset({PathKind.TEST, PathKind.DOCS})
"""Where a keyword or entropy guess is most likely a fixture or an example value."""
FIXTURE_KEY_KINDS = frozenset({"private_key"})
"""A private key in test code is a fixture (follow-redirects' ``test/lib/TestCA.pem``,
jsonwebtoken's ``test/rsa-pss-private.pem``, pyjwt's advisory test), and one in a top-level
example folder the example server's own (h2's ``examples/gevent/localhost.key``, pysaml2's
``example/idp2/pki/mykey.pem``): information for the verifier, as the lane already counts it
(moderate); in any other file it is an error."""
SAMPLE_CREDENTIAL_KINDS = frozenset({"authorization_header", "url_credentials"})
"""Kinds guessed from their shape around a value (``Bearer``/``Basic`` before it,
``user:pass@`` in a URL) like the keyword detector's: in tests and docs their values are
fixtures (urllib3's ``make_headers`` tests build ``Basic dXNlcjpwYXNzw6k=`` for ``user:passé``;
url-parse's parser tests hold ``http://google.com:80\\@yahoo.com``), information for the
verifier only (the lane reads secrets on its own terms)."""




PUBLIC_PEM_EXAMPLES: tuple[tuple[str, frozenset[int]], ...] = (
    # a public key spelled out as a concatenated string in code (pyload's userscript)
    (
        ('sig.init("-----BEGIN PUBLIC KEY-----\\n" +\n'
         '  "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAuEHE4uAeTeEQjIwB//YH\\n" +\n'
         '  "-----END PUBLIC KEY-----");\nconst key = "c2VjcmV0LXZhbHVlLTEyMzQ1Njc4OTA";\n'),
        frozenset({1, 2, 3}),
    ),
    # a certificate file, then a private key: the key's lines are never public
    (
        ("-----BEGIN CERTIFICATE-----\nMIIC+zCCAeOgAwIBAgI\n-----END CERTIFICATE-----\n"
         "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----\n"),
        frozenset({1, 2, 3}),
    ),
    # no block at all
    ('token = "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA"\n', frozenset()),
)
"""Each: a file's text, and the lines :func:`public_pem_lines` reads as a public PEM block."""


_GUESS_READINGS: tuple[tuple[Callable[[str, str, set[str]], bool], str], ...] = (
    (lambda text, _p, _d: looks_like_placeholder(text), "the value looks like a placeholder"),
    (lambda text, _p, d: d <= ENTROPY_DETECTORS and CHECKSUM_KEY.search(text) is not None,
     "the value is a checksum, a commit id or an identifier, named so on its line"),
    (lambda text, _p, _d: assigns_numbers(text),
     "the value is a number literal (a constant), not a credential"),
    (lambda text, _p, _d: compares_types(text),
     "the value is a type's name compared with `typeof`, not a credential"),
    (lambda text, path, _d: assigns_references(text, path),
     "the value is a variable or a constant of the code, not a literal"),
    (lambda text, _p, _d: names_a_setting(text),
     "the value is a setting's dotted name, not a credential"),
    (lambda text, _p, _d: names_a_resource(text),
     "the value is a uniform resource name (urn:...), not a credential"),
    (lambda text, _p, _d: names_itself(text),
     "the value is the name it is assigned to or compared with, not a credential"),
    (lambda text, _p, _d: reads_as_prose(text),
     "the value reads as a sentence (a message or a label), not a credential"),
)  # fmt: skip
"""Readings of a keyword or entropy guess's line that make it no credential, in order."""


def _guessed_value(text: str, path: str, detectors: set[str]) -> str | None:
    """Why a keyword or entropy guess on ``text`` is no credential, or None."""
    return next((why for reads, why in _GUESS_READINGS if reads(text, path, detectors)), None)


_PEM_BOUNDARY = re.compile(r"-----(BEGIN|END) ([A-Z0-9 ]+?)-----")
PUBLIC_PEM_LABELS = frozenset(
    {"PUBLIC KEY", "RSA PUBLIC KEY", "CERTIFICATE", "TRUSTED CERTIFICATE", "X509 CRL",
     "CERTIFICATE REQUEST", "NEW CERTIFICATE REQUEST", "PGP PUBLIC KEY BLOCK",
     "PGP SIGNATURE", "SSH2 PUBLIC KEY"}
)  # fmt: skip
"""PEM labels (RFC 7468) of what is published by design: a public key, a certificate, a
revocation list, a signing request, a detached signature."""


def public_pem_lines(text: str) -> frozenset[int]:
    """The line numbers (1-based) inside a PEM block of a public kind (:data:`PUBLIC_PEM_LABELS`),
    its boundary lines included, however the block is quoted (a ``.pem`` file, or lines of a
    string concatenated in code: pyload's userscript verifies its captcha scripts with a
    ``"-----BEGIN PUBLIC KEY-----\n" + "MIIBIjANBgkq...\n" + ...`` literal, whose body lines
    the entropy detector guessed at). A private key's block is never one
    (``PUBLIC_PEM_EXAMPLES``)."""
    inside: set[int] = set()
    current: str | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        boundary = _PEM_BOUNDARY.search(line)
        if boundary is not None and boundary.group(1) == "BEGIN":
            current = boundary.group(2)
        if current in PUBLIC_PEM_LABELS:
            inside.add(number)
        if boundary is not None and boundary.group(1) == "END":
            current = None
    return frozenset(inside)


_BLOCK_START = re.compile(r"^(\s*)(?:-\s+)?[\w.-]+\s*:\s*[|>][-+0-9]*\s*$")


def block_scalar(lines: Sequence[str], line: int) -> str:
    """The YAML block scalar a key on ``line`` (1-based) opens (``run: |``), as one text: the
    lines after it indented deeper, which detect-secrets' YAML plugin reports at the key's
    line; ``""`` when the line opens none."""
    found = _BLOCK_START.match(lines[line - 1]) if 0 < line <= len(lines) else None
    if found is None:
        return ""
    indent = len(found[1])
    block: list[str] = []
    for text in lines[line:]:
        if text.strip() and len(text) - len(text.lstrip()) <= indent:
            break
        block.append(text)
    return "\n".join(block)


_YAML_KEY = re.compile(r"^(\s*)(?:-\s+)?([\w.-]+)\s*:(?:\s|$)")
WORKFLOWS = ".github/workflows/"


def yaml_keys(lines: Sequence[str], line: int) -> tuple[str, ...]:
    """The keys that hold ``line`` (1-based) of a YAML file, outermost first, its own key
    last, read by indentation (``jobs``, ``test``, ``services``, ``mysql``, ``env``,
    ``MYSQL_ROOT_PASSWORD``); ``()`` when the line holds no key."""
    own = _YAML_KEY.match(lines[line - 1]) if 0 < line <= len(lines) else None
    if own is None:
        return ()
    keys, indent = [own[2]], len(own[1])
    for text in reversed(lines[: line - 1]):
        found = _YAML_KEY.match(text)
        if found is not None and len(found[1]) < indent:
            keys.append(found[2])
            indent = len(found[1])
            if indent == 0:
                break
    return tuple(reversed(keys))


def service_container_env(path: str, lines: Sequence[str], line: int) -> bool:
    """A GitHub Actions job's service container setting (``jobs.<job>.services.<name>.env``:
    ``MYSQL_ROOT_PASSWORD: root`` for a database the job starts and throws away, beego's
    workflow, held out on holdout64)."""
    if not path.startswith(WORKFLOWS):
        return False
    keys = yaml_keys(lines, line)
    return len(keys) >= 6 and keys[0] == "jobs" and keys[2] == "services" and keys[4] == "env"


def loopback_settings(text: str) -> bool:
    """A run of ``key=value`` settings whose ``host`` is a loopback or example host
    (``host=localhost port=5432 user=postgres password=postgres``: a connection string for a
    database on the machine running it, a CI job's or a test's)."""
    if len(_SETTING.findall(text)) < 2:
        return False
    hosts = _HOST_SETTING.findall(text)
    return bool(hosts) and all(EXAMPLE_HOST.match(h) for h in hosts)


_HOST_SETTING = re.compile(r"(?i)(?<![\w.-])(?:host|hostaddr|server)=([^\s;'\"]+)")


def _context_reading(
    path: str, text: str, ours: set[str], detectors: set[str], *, service_env: bool
) -> str | None:
    """Why a finding is information by where it sits, or None: a guess in a CI service
    container's settings, in loopback connection settings, in tests, docs or fixtures; a
    signed token or a fixture key in tests; a guessed credential in a sample context."""
    heuristic_only = not ours and detectors <= HEURISTIC_DETECTORS
    fixture_kinds = _our_kinds(ours, detectors)
    kind = classify(path)
    readings = (
        (heuristic_only and service_env,
         "a setting of a CI job's service container, which lives as long as the job"),
        (heuristic_only and loopback_settings(text),
         "connection settings for a loopback or example host"),
        (heuristic_only and kind in SAMPLE_CONTEXTS,
         f"a guess in {kind.value} files, where sample values are expected"),
        (heuristic_only and bool(FIXTURE_DIRS.intersection(segments(path))),
         "a guess in a fixtures folder, where sample values are expected"),
        (bool(fixture_kinds) and fixture_kinds <= FIXTURE_TOKEN_KINDS and kind in SAMPLE_CONTEXTS,
         f"a signed token in {kind.value} files, where fixture tokens are expected"),
        (bool(fixture_kinds) and fixture_kinds <= FIXTURE_KEY_KINDS and kind is PathKind.TEST,
         ("a key in test files, where fixture keys for a test CA or server are expected "
          "(rotate it if it is a real one)")),
        (bool(fixture_kinds) and fixture_kinds <= FIXTURE_KEY_KINDS and in_example_folder(path),
         ("a key in an example folder, where an example server's own key is expected "
          "(rotate it if it is a real one)")),
        (bool(ours) and ours <= SAMPLE_CREDENTIAL_KINDS and kind in SAMPLE_CONTEXTS,
         f"a guessed credential in {kind.value} files, where sample credentials are expected"),
    )  # fmt: skip
    return next((reading for holds, reading in readings if holds), None)


def _our_kinds(ours: set[str], detectors: set[str]) -> set[str]:
    """A line's kinds in our names: detect-secrets detectors that find what one of our patterns
    does read as our kind (:data:`DETECTOR_KINDS`)."""
    return ours | {DETECTOR_KINDS.get(d, d) for d in detectors}


def _finding(
    path: str, line: int, ours: set[str], detectors: set[str], text: str = "",
    *, public_pem: bool = False, block: str = "", service_env: bool = False,
    base: Sequence[str] = (),
) -> RawFinding:
    """One finding per line: our kind when we have one, else the detector's.

    A guess (keyword or entropy detector) whose values are placeholders, that the file's base
    version ``base`` (its lines) already held (:func:`held_by_base`), or that sits in test code or
    documentation (fixtures and examples), is reported as information, not as a leaked
    credential. Provider patterns (a real key's shape) are never downgraded.
    """
    if ours:
        rule = sorted(ours)[0]
        label = rule.replace("_", " ")
    else:
        specific = sorted(detectors - HEURISTIC_DETECTORS) or sorted(detectors)
        rule = detector_rule_id(specific[0])
        label = specific[0]
    heuristic_only = not ours and detectors <= HEURISTIC_DETECTORS
    severity = VerifierSeverity.WARNING if heuristic_only else VerifierSeverity.ERROR
    also = sorted((detectors | ours) - {label, rule})
    extra = f" (also: {', '.join(also)})" if also else ""
    reading = None
    if heuristic_only:
        reading = (
            "the value is part of a public key or certificate (a PEM block), public by design"
            if public_pem
            else _guessed_value(text, path, detectors)
        )
    if reading is None and _our_kinds(ours, detectors) <= FIXTURE_KEY_KINDS and (
        elided_private_key(text)
    ):
        reading = "a private key whose body is elided (`...`), a picture of a key, not one"
    if reading is None and published_credential(f"{text}\n{block}"):
        reading = ("a credential its vendor publishes for a local emulator (Azurite's account "
                   "key), known to everyone")
    if reading is None and (ours | detectors) <= URL_CREDENTIAL_KINDS and (
        placeholder_url_credentials(text)
    ):
        reading = "credentials for a loopback or example host, or a placeholder password"
    if reading is None and heuristic_only and held_by_base(text, base):
        reading = ("the value was on a line of this file before the PR (moved, re-indented or "
                   "edited around), not added by it")
    if reading is None:
        reading = _context_reading(path, text, ours, detectors, service_env=service_env)
    if reading is not None:
        severity = VerifierSeverity.INFO
        extra += f"; {reading}"
    return RawFinding(
        path=path,
        line=line,
        end_line=None,
        rule_id=rule,
        message=f"Possible {label} added on this line; the value is not shown{extra}.",
        severity=severity,
    )
