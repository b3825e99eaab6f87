"""Secret redaction: nothing that looks like a secret leaves for the model.

Secrets come from two places: the pattern rules of :mod:`pr_review.verifiers.secret_patterns`
(run over every text we send) and the secrets verifier's findings in the evidence pack, which
give a file and a line but not the value (the value on that line is taken from the diff).
Each distinct value gets a typed placeholder such as ``[REDACTED:aws_access_key_id#1]``; the
same value always gets the same placeholder. The mapping lives only in this process: it is
never serialized, logged or sent.

Every value is registered in each form it can be quoted or escaped in (raw, without its
quotes, JSON-escaped once and twice, URL-encoded, HTML-escaped, backslash-escaped), so a copy
inside a JSON document or a URL is replaced too. :meth:`Redactor.redact_payload` is the last
step before bytes leave (the model gateway applies it to the whole request).

A secret spanning lines (a PEM block inside a diff) is replaced line by line, keeping each
line's diff marker, so line numbers in the diff do not move.
"""

from __future__ import annotations

import html
import json
import re
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TypeVar, cast
from urllib.parse import quote, quote_plus

from pr_review.schema.pack import EvidencePack
from pr_review.sources.diff import Diff
from pr_review.verifiers.secret_patterns import find_redactable, flagged_values

_DIFF_MARKERS = "+- "
_KIND = re.compile(r"[^a-z0-9]+")
_REMEMBERED_CHARS = 4096
"""Texts at least this long are remembered once scanned and once redacted."""


@dataclass(frozen=True)
class Redaction:
    """One redacted value, without the value."""

    kind: str
    placeholder: str


@dataclass
class Redactor:
    """Replaces known secret values and pattern matches with typed placeholders.

    Built once per run before any request is made, then shared by the run's threads (a lock
    guards the mapping; values first seen later are numbered in call order).
    """

    _values: dict[str, Redaction] = field(default_factory=dict)
    _counts: dict[str, int] = field(default_factory=dict)
    _lock: threading.RLock = field(default_factory=threading.RLock, repr=False)
    _learned: set[str] = field(default_factory=set, repr=False)
    """Large texts already scanned: a PR reviewed in units sends the same evidence prefix with
    every request, and scanning it again each time made a review quadratic in its size."""
    _replaced: dict[str, tuple[int, str]] = field(default_factory=dict, repr=False)
    """Large text -> (values known when it was redacted, its redacted form)."""
    _order: list[tuple[str, str]] | None = field(default=None, repr=False)
    """Known values longest first with their placeholders; rebuilt when a value is added."""

    @property
    def redactions(self) -> tuple[Redaction, ...]:
        """What was redacted (kinds and placeholders only)."""
        return tuple(dict.fromkeys(self._values.values()))

    def add(self, value: str, kind: str) -> str:
        """Register a secret value; returns its placeholder."""
        with self._lock:
            return self._add(value, kind)

    def _add(self, value: str, kind: str) -> str:
        value = _unquoted(value)
        if value in self._values:
            return self._values[value].placeholder
        redaction = self._fresh(_KIND.sub("_", kind.lower()).strip("_") or "secret")
        for form in _forms(value):
            self._values.setdefault(form, redaction)
        return redaction.placeholder

    def absorb(self, other: Redactor) -> None:
        """Know every value ``other`` knows too (a run's registry given to a longer-lived
        boundary); values known already keep their placeholders."""
        with other._lock:
            theirs = dict(other._values)
        with self._lock:
            mine: dict[Redaction, Redaction] = {}  # one placeholder per value, every form
            for form, redaction in theirs.items():
                if form not in self._values:
                    if redaction not in mine:
                        mine[redaction] = self._fresh(redaction.kind)
                    self._values[form] = mine[redaction]

    def _fresh(self, kind: str) -> Redaction:
        self._counts[kind] = self._counts.get(kind, 0) + 1
        return Redaction(kind=kind, placeholder=f"[REDACTED:{kind}#{self._counts[kind]}]")

    def learn(self, text: str) -> None:
        """Register every pattern match in ``text`` (without replacing anything)."""
        with self._lock:
            if text in self._learned:
                return  # scanning it again would register nothing new
            for match in find_redactable(text):
                self._add(text[match.start : match.end], match.kind)
            if len(text) >= _REMEMBERED_CHARS:
                self._learned.add(text)

    def redact(self, text: str) -> str:
        """``text`` with every known value and every pattern match replaced."""
        self.learn(text)
        return self._replace_known(text)

    def _replace_known(self, text: str) -> str:
        with self._lock:
            known = len(self._values)
            if self._order is None or len(self._order) != known:
                # Longest first, so a value containing another is replaced whole.
                ordered = sorted(self._values, key=len, reverse=True)
                self._order = [(v, self._values[v].placeholder) for v in ordered]
            order = self._order
            remembered = self._replaced.get(text)
        if remembered is not None and remembered[0] == known:
            return remembered[1]  # values are only ever added: same count, same mapping
        original = text
        for value, placeholder in order:
            if value in text:
                text = _replace_keeping_lines(text, value, placeholder)
        if len(original) >= _REMEMBERED_CHARS:
            with self._lock:
                self._replaced[original] = (known, text)
        return text

    def redact_payload(self, payload: _Payload) -> _Payload:
        """A copy of a JSON-like ``payload`` with every string redacted.

        Two passes: every string is scanned first, so a value found in one part of a request
        is replaced in every other part too (and in every form).
        """
        for text in _strings(payload):
            self.learn(text)
        return _map_strings(payload, self._replace_known)


_Payload = TypeVar("_Payload")


def _strings(payload: object) -> Iterator[str]:
    if isinstance(payload, str):
        yield payload
    elif isinstance(payload, Mapping):
        for item in payload.values():
            yield from _strings(item)
    elif isinstance(payload, list | tuple):
        for item in payload:
            yield from _strings(item)


def _map_strings(payload: _Payload, fn: Callable[[str], str]) -> _Payload:
    result: object
    if isinstance(payload, str):
        result = fn(payload)
    elif isinstance(payload, Mapping):
        result = {key: _map_strings(item, fn) for key, item in payload.items()}
    elif isinstance(payload, list | tuple):
        result = type(payload)(_map_strings(item, fn) for item in payload)
    else:
        result = payload
    return cast("_Payload", result)


_MIN_FORM = 4


def _unquoted(value: str) -> str:
    """A value without surrounding whitespace, a trailing separator or its quotes."""
    value = value.strip().rstrip(",;")
    while len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"`":
        value = value[1:-1]
    return value


def _forms(value: str) -> tuple[str, ...]:
    """``value`` in every quoting and escaping form a copy of it may take in a text."""
    json_once = json.dumps(value)[1:-1]
    forms = [
        value,
        json_once,
        json.dumps(json_once)[1:-1],
        json.dumps(value, ensure_ascii=False)[1:-1],
        quote(value, safe=""),
        quote_plus(value, safe=""),
        quote(value),
        html.escape(value),
        value.replace("\\", "\\\\").replace("'", "\\'"),
    ]
    return tuple(dict.fromkeys(f for f in forms if len(f) >= _MIN_FORM))


def build_redactor(pack: EvidencePack, diff: Diff) -> Redactor:
    """A redactor primed with the secrets verifier's findings and the diff's pattern matches.

    A flagged line gives the values on it that a rule recognises or that have a credential's
    shape (:func:`~pr_review.verifiers.secret_patterns.flagged_values`): ``TOKEN_TTL = 3600``,
    ``SECRET_KEY = "development"``, a placeholder (``changeme``, ``<token>``, ``${VAR}``) or
    credentials on an example host give none, and the model sees them as written."""
    redactor = Redactor()
    for run in pack.verification.verifiers:
        if "secret" not in run.name.lower():
            continue
        for finding in run.findings:
            line = _added_line(diff, finding.file, finding.line)
            for value in flagged_values(line or ""):
                redactor.add(value, finding.rule_id or "secret")
    redactor.learn(diff.raw)
    return redactor


def _added_line(diff: Diff, path: str, line: int | None) -> str | None:
    """The text of added line ``line`` of ``path``."""
    file = diff.file(path)
    if file is None or line is None:
        return None
    for hunk in file.hunks:
        for number, text in hunk.added:
            if number == line:
                return text
    return None


def _is_word(char: str) -> bool:
    return char.isalnum() or char == "_"


def _replace_whole(text: str, value: str, replacement: str) -> str:
    """``value`` replaced where it stands as a whole token: a copy inside a longer word or
    number (``4096`` in ``40961``, ``code`` in ``encode``) is left alone."""
    starts_word, ends_word = _is_word(value[0]), _is_word(value[-1])
    out: list[str] = []
    i = 0
    while (j := text.find(value, i)) >= 0:
        end = j + len(value)
        before = not starts_word or j == 0 or not _is_word(text[j - 1])
        after = not ends_word or end == len(text) or not _is_word(text[end])
        if before and after:
            out += [text[i:j], replacement]
            i = end
        else:
            out.append(text[i : j + 1])
            i = j + 1
    out.append(text[i:])
    return "".join(out)


def _replace_keeping_lines(text: str, value: str, placeholder: str) -> str:
    """Replace ``value`` as a whole token; a multi-line value becomes one placeholder per
    line, diff markers kept."""
    if "\n" not in value:
        return _replace_whole(text, value, placeholder)
    pieces = value.split("\n")
    lines = [placeholder]
    for piece in pieces[1:]:
        marker = piece[:1] if piece[:1] in _DIFF_MARKERS else ""
        lines.append(marker + placeholder)
    return _replace_whole(text, value, "\n".join(lines))
