"""The sink rule set: one set of syntax-tree rules as data, read by two consumers.

Each rule is a file in ``rules/sinks/`` in ast-grep's own rule format (``id``, ``language``,
``message``, ``severity``, ``rule``, optional ``constraints`` and ``utils``) with our fields
under ``metadata``:

``category``
    what the sink is: code evaluation, a shell, SQL built from strings, a file path, a
    template, a deserializer, TLS verification, cookie flags, a weak hash, access control.
``why``
    one line a maintainer can judge in seconds.
``untrusted``
    true when the rule only matches where request input (query, body, params, headers,
    cookies, form values) reaches the sink inside the matched code.
``lane``
    what a hit new on the PR's changed lines means for the risk lane: ``red`` or ``yellow``.
``on_change``
    optional: what it means for the lane when a hit of the base revision is gone or its
    code changed (``red`` or ``yellow``): the code that guards this sink was rewritten, as a
    security fix does (an open-redirect or ReDoS fix removes or rewrites the matched code).
``report``
    optional, default true: false for a *watched* construct, one that is not a defect by
    itself (a redirect to a computed URL, a ``'__proto__'`` key check) but whose change the
    lane weighs; the verifier never reports it.
``languages``
    the languages the rule applies to (one grammar family: ``javascript``, ``typescript``
    and ``tsx`` share node kinds); defaults to ``[language]``.
``examples``
    ``{bad: [...], good: [...]}``: every bad snippet must match and no good one may; the test
    suite runs them all through the engine both consumers use.

Consumers: the ``sinks`` verifier (findings on changed lines, :mod:`pr_review.verifiers`)
and the risk lane's structural evidence (:mod:`pr_review.evidence.sinks`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from enum import StrEnum
from importlib import resources
from pathlib import PurePosixPath
from typing import Any

from pr_review import yamlfiles
from pr_review.sources.paths import is_type_declaration


class SinkCategory(StrEnum):
    """What a sink rule is about (a closed set: extend only with a reason)."""

    CODE_EVAL = "code-eval"
    SHELL = "shell"
    SQL = "sql"
    PATH = "path"
    TEMPLATE = "template"
    DESERIALIZE = "deserialize"
    TLS = "tls"
    COOKIE = "cookie"
    WEAK_HASH = "weak-hash"
    ACCESS_CONTROL = "access-control"
    REDIRECT = "redirect"
    """Where a response sends the client: open redirects live here."""
    HTML = "html"
    """Markup built by concatenating values: cross-site scripting lives here."""
    OBJECT_KEY = "object-key"
    """Checks of dangerous property names: prototype pollution lives here."""
    REDOS = "redos"
    """Regular expressions that backtrack super-linearly on crafted input."""
    URL_PARSE = "url-parse"
    """Regular expressions that decide a URL's scheme or host: SSRF and redirect bypasses."""
    VALIDATION = "validation"
    """Anchored regular expressions that accept or reject input: validation bypasses."""
    PROXY_HEADER = "proxy-header"
    """Reading or writing X-Forwarded-*/X-Real-IP: who the client is, spoofing lives here."""
    SECRET_LOG = "secret-log"  # noqa: S105 (a category name, not a password)
    """Secrets written to logs, or the placeholders that mask them: leaks live here."""
    READ_LIMIT = "read-limit"
    """A reader capped at N bytes (``io.LimitReader``): resource-exhaustion fixes live here."""
    ERROR_DETAILS = "error-details"
    """A formatted traceback put into a response: exception details exposed (CWE-209)."""
    RAW_MARKUP = "raw-markup"
    """A value output as trusted markup, escaping switched off (``mark_safe(x)``,
    ``dangerouslySetInnerHTML``, ``template.HTML(s)``): cross-site scripting lives here."""
    LINK_FOLLOWING = "link-following"
    """Opening a path without following links out of its root (``securejoin``, ``O_NOFOLLOW``,
    ``openat2`` ``RESOLVE_IN_ROOT``): symlink-escape fixes live here (CWE-59)."""
    QUOTED = "quoted"
    """A value written between quotes of text the code builds (generated code, an SQL literal, a
    quoted argument): injection by closing the quote lives here."""
    TEMPLATE_ESCAPING = "template-escaping"
    """Whether a template engine escapes what it outputs (``autoescape``, ``noEscape``): every
    template's cross-site scripting lives here at once."""
    XML_ENTITIES = "xml-entities"
    """Whether an XML parser expands entities, loads DTDs or reaches the network
    (``resolve_entities=False``, defusedxml): XXE and entity-expansion fixes live here."""
    SESSION_ROTATION = "session-rotation"
    """A session given a new identifier (``req.session.regenerate``, Django's ``cycle_key``):
    session fixation is fixed or reopened here (CWE-384)."""


class SinkLane(StrEnum):
    """What a new hit means for the lane."""

    RED = "red"
    YELLOW = "yellow"


@dataclass(frozen=True)
class SinkRule:
    """One rule of the set, as loaded from its file."""

    id: str
    languages: tuple[str, ...]
    category: SinkCategory
    why: str
    untrusted: bool
    lane: SinkLane
    message: str
    severity: str
    """ast-grep's own ``severity`` (``error`` or ``warning``): how sure and how serious a
    finding on the line is, apart from what it means for the lane."""
    config: dict[str, Any]
    """The ast-grep rule object: ``rule`` plus optional ``constraints`` and ``utils``."""
    bad: tuple[str, ...]
    good: tuple[str, ...]
    on_change: SinkLane | None = None
    report: bool = True


@dataclass(frozen=True)
class SinkHit:
    """A rule matched at a place in a source text (lines 1-based)."""

    rule_id: str
    category: SinkCategory
    lane: SinkLane
    untrusted: bool
    why: str
    message: str
    severity: str
    line: int
    end_line: int
    snippet: str
    code: str = ""
    """The whole matched code without whitespace (what the lane compares across sides)."""
    on_change: SinkLane | None = None
    report: bool = True


LANGUAGE_BY_SUFFIX = {
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".es6": "javascript",
    ".jsx": "javascript",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
    ".go": "go",
    ".java": "java",
    ".rb": "ruby",
    ".php": "php",
    ".py": "python",
}
"""File suffix to the grammar the rules are run with."""


def language_of(path: str) -> str | None:
    """The grammar of ``path`` by its suffix; None when no sink rule reads that language.

    Type declarations (``.d.ts``) hold no code that runs: they have no language here.
    """
    if is_type_declaration(path):
        return None
    return LANGUAGE_BY_SUFFIX.get(PurePosixPath(path.lower()).suffix)


class RuleFileError(ValueError):
    """A rule file that does not follow the format (a defect of this package, not the PR)."""


def _rule_from(name: str, data: Any) -> SinkRule:
    if not isinstance(data, dict):
        raise RuleFileError(f"{name}: a rule file holds one mapping")
    meta = data.get("metadata")
    if not isinstance(meta, dict):
        raise RuleFileError(f"{name}: metadata (category, why, untrusted, lane, examples) missing")
    examples = meta.get("examples") or {}
    languages = tuple(meta.get("languages") or (data["language"],))
    config = {k: data[k] for k in ("rule", "constraints", "utils") if k in data}
    try:
        return SinkRule(
            id=str(data["id"]),
            languages=tuple(str(lang).lower() for lang in languages),
            category=SinkCategory(meta["category"]),
            why=str(meta["why"]),
            untrusted=bool(meta["untrusted"]),
            lane=SinkLane(meta["lane"]),
            message=str(data["message"]),
            severity=str(data.get("severity", "warning")),
            config=config,
            bad=tuple(str(x) for x in examples.get("bad", ())),
            good=tuple(str(x) for x in examples.get("good", ())),
            on_change=SinkLane(meta["on_change"]) if meta.get("on_change") else None,
            report=bool(meta.get("report", True)),
        )
    except (KeyError, ValueError) as exc:
        raise RuleFileError(f"{name}: {exc}") from exc


@functools.cache
def load_sink_rules() -> tuple[SinkRule, ...]:
    """Every rule of ``rules/sinks/``, in file-name order."""
    folder = resources.files(__package__).joinpath("sinks")
    rules = [
        _rule_from(entry.name, yamlfiles.load(entry.read_text("utf-8")))
        for entry in sorted(folder.iterdir(), key=lambda e: e.name)
        if entry.name.endswith((".yml", ".yaml"))
    ]
    ids = [r.id for r in rules]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise RuleFileError(f"duplicate sink rule ids: {', '.join(dupes)}")
    return tuple(rules)


def rules_for(language: str, rules: tuple[SinkRule, ...] | None = None) -> tuple[SinkRule, ...]:
    """The rules that read ``language``."""
    return tuple(r for r in (rules or load_sink_rules()) if language in r.languages)
