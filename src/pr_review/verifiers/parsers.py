"""One parser per tool output format, each turning text into :class:`RawFinding` values.

Tool output is validated with pydantic (it is a trust boundary: a tool run on hostile code
can print anything). A parser raises :class:`OutputError` when the output is not what the
tool documents; the caller reports that as a skipped run with the reason, never a crash.
Exit codes are not used as signals: findings decide.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from functools import lru_cache
from pathlib import Path, PurePosixPath
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from pr_review.schema.enums import VerifierSeverity
from pr_review.verifiers.model import RawFinding


class OutputError(ValueError):
    """The tool's output could not be parsed."""


class _Loose(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")


def repo_path(name: str, root: Path) -> str:
    """A tool's file name as a ``/``-separated path relative to ``root`` (where it ran)."""
    if name.startswith("file://"):
        name = name.removeprefix("file://")
    p = Path(name)
    if p.is_absolute():
        for base in (root, _resolved(root)):
            if p.is_relative_to(base):
                return p.relative_to(base).as_posix()
        return p.as_posix()
    return PurePosixPath(name.replace("\\", "/")).as_posix().removeprefix("./")


@lru_cache(maxsize=64)
def _resolved(root: Path) -> Path:
    """``root.resolve()`` once per root, not once per finding (a syscall walk each time)."""
    return root.resolve()


def _load_json(text: str, tool: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise OutputError(f"{tool} output is not JSON ({exc.msg} at char {exc.pos})") from exc


M = TypeVar("M")


def _validate(adapter: TypeAdapter[M], data: Any, tool: str) -> M:
    try:
        return adapter.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise OutputError(f"{tool} output has an unexpected shape: {first['msg']}") from exc


# ruff ----------------------------------------------------------------------------------


_RUFF_ERROR_CODE = re.compile(r"^(?:F|E9|PLE)\d")
"""Rules whose hits are defects rather than style: pyflakes (``F821``), syntax and runtime
errors (``E999``, ``PLE0101``). A prefix followed by a digit: ``FA100``
(flake8-future-annotations), ``FBT``, ``FURB`` and ``FIX`` are other families, not pyflakes."""


def _ruff_shape(problem: str) -> OutputError:
    return OutputError(f"ruff output has an unexpected shape: {problem}")


def _ruff_row(location: object, field: str) -> int | None:
    """``location.row`` of a ruff item (``None`` when the location is absent)."""
    if location is None:
        return None
    row = location.get("row") if isinstance(location, dict) else None
    if type(row) is not int:
        raise _ruff_shape(f"{field}.row is not an integer")
    return row


def parse_ruff(lines: Iterable[str], root: Path) -> tuple[RawFinding, ...]:
    """``ruff check --output-format json-lines``: one diagnostic object per line.

    Read line by line (the caller passes the open report), so neither the report's text
    nor all of its parsed objects are held at once: only the findings. Checked field by
    field rather than through a pydantic model per item (tens of thousands of items on a
    release-sized PR): an object with a string ``message`` and ``filename``, an optional
    string ``code`` and optional ``location``/``end_location`` with integer rows.
    """
    sources = _Sources(root)
    return tuple(_ruff_finding(item, root, sources) for _, item in json_lines(lines, "ruff"))


def json_lines(lines: Iterable[str], tool: str) -> Iterator[tuple[int, Any]]:
    """``(line number, value)`` of each non-blank line of a JSON-lines report, read lazily."""
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            yield number, json.loads(line)
        except json.JSONDecodeError as exc:
            raise OutputError(f"{tool} output line {number} is not JSON ({exc.msg})") from exc


def _ruff_finding(item: object, root: Path, sources: _Sources) -> RawFinding:
    if not isinstance(item, dict):
        raise _ruff_shape("an item is not an object")
    code, message, filename = item.get("code"), item.get("message"), item.get("filename")
    if not isinstance(message, str) or not isinstance(filename, str):
        raise _ruff_shape("an item has no message or filename")
    if code is not None and not isinstance(code, str):
        raise _ruff_shape("an item's code is not a string")
    # A syntax error is the most certain error there is (no code in older ruff).
    is_error = code is None or code == "invalid-syntax" or _RUFF_ERROR_CODE.match(code) is not None
    path = repo_path(filename, root)
    line = _ruff_row(item.get("location"), "location")
    return RawFinding(
        path=path,
        line=line,
        end_line=_ruff_row(item.get("end_location"), "end_location"),
        rule_id=code or "syntax-error",
        message=message,
        severity=VerifierSeverity.ERROR if is_error else VerifierSeverity.WARNING,
        replacement=_safe_fix(item.get("fix"), sources, path, line),
    )


Span = tuple[int, int, int, int, str]
"""An edit: start row and column, end row and column (1-based), the new content."""


def _spans(fix: object) -> list[Span] | None:
    """The edits of a fix ruff calls safe; None for any other fix or an unreadable one."""
    if not isinstance(fix, dict) or fix.get("applicability") != "safe":
        return None
    spans = []
    for edit in fix.get("edits") or []:
        try:
            start, end = edit["location"], edit["end_location"]
            spans.append((int(start["row"]), int(start["column"]), int(end["row"]),
                          int(end["column"]), str(edit["content"])))  # fmt: skip
        except (KeyError, TypeError, ValueError):
            return None
    return spans or None


def _safe_fix(fix: object, sources: _Sources, path: str, line: int | None) -> str | None:
    """Ruff's own safe fix as the new text of the finding's line, when every edit lies on
    that line (or the one edit deletes exactly that line: ``""``); None otherwise."""
    spans = _spans(fix)
    if spans is None or line is None:
        return None
    if len(spans) == 1 and spans[0] == (line, 1, line + 1, 1, ""):
        return ""  # the whole line goes
    text = sources.line(path, line)
    if text is None or any(row != line or end != line for row, _, end, _, _ in spans):
        return None
    for _, col, _, end_col, content in sorted(spans, key=lambda span: -span[1]):
        text = text[: col - 1] + content + text[end_col - 1 :]
    return None if "\n" in text else text


class _Sources:
    """Lines of the files a tool ran on, read once per file, only when a fix needs them."""

    def __init__(self, root: Path) -> None:
        self._root = root
        self._files: dict[str, tuple[str, ...]] = {}

    def line(self, path: str, number: int) -> str | None:
        """Line ``number`` of ``path`` (None when unknown or unreadable)."""
        if path not in self._files:
            rel = PurePosixPath(path)
            try:
                unsafe = rel.is_absolute() or ".." in rel.parts
                text = "" if unsafe else self._root.joinpath(*rel.parts).read_text("utf-8")
            except (OSError, UnicodeDecodeError):
                text = ""
            self._files[path] = tuple(text.splitlines())
        lines = self._files[path]
        return lines[number - 1] if 0 < number <= len(lines) else None


# bandit --------------------------------------------------------------------------------


class _BanditItem(_Loose):
    filename: str
    line_number: int
    line_range: tuple[int, ...] = ()
    test_id: str
    test_name: str = ""
    issue_text: str
    issue_severity: str
    issue_confidence: str


class _BanditError(_Loose):
    filename: str
    reason: str


class _BanditReport(_Loose):
    results: tuple[_BanditItem, ...] = ()
    errors: tuple[_BanditError, ...] = ()


_BANDIT = TypeAdapter(_BanditReport)
_BANDIT_SEVERITY = {
    "HIGH": VerifierSeverity.ERROR,
    "MEDIUM": VerifierSeverity.WARNING,
    "LOW": VerifierSeverity.INFO,
}


def parse_bandit(text: str, root: Path) -> tuple[tuple[RawFinding, ...], tuple[str, ...]]:
    """``bandit -f json``: findings, and the files bandit could not parse (with why)."""
    report = _validate(_BANDIT, _load_json(text, "bandit"), "bandit")
    findings = tuple(
        RawFinding(
            path=repo_path(r.filename, root),
            line=r.line_number,
            end_line=max(r.line_range) if r.line_range else None,
            rule_id=r.test_id,
            message=f"{r.issue_text} ({r.test_name}; severity {r.issue_severity.lower()}, "
            f"confidence {r.issue_confidence.lower()})",
            severity=_BANDIT_SEVERITY.get(r.issue_severity.upper(), VerifierSeverity.WARNING),
        )
        for r in report.results
    )
    errors = tuple(f"{repo_path(e.filename, root)}: {e.reason}" for e in report.errors)
    return findings, errors


# mypy ----------------------------------------------------------------------------------


class _MypyItem(_Loose):
    file: str
    line: int
    end_line: int | None = None
    message: str
    code: str | None = None
    severity: str


_MYPY = TypeAdapter(_MypyItem)


def parse_mypy(text: str, root: Path) -> tuple[RawFinding, ...]:
    """``mypy -O json``: one JSON object per line; notes are dropped (they annotate errors)."""
    out = []
    for raw in text.splitlines():
        if not raw.strip().startswith("{"):
            continue
        item = _validate(_MYPY, _load_json(raw, "mypy"), "mypy")
        if item.severity != "error":
            continue
        out.append(
            RawFinding(
                path=repo_path(item.file, root),
                line=item.line if item.line > 0 else None,
                end_line=item.end_line if item.end_line and item.end_line > 0 else None,
                rule_id=item.code or "misc",
                message=item.message,
                severity=VerifierSeverity.ERROR,
            )
        )
    return tuple(out)


# detect-secrets ------------------------------------------------------------------------


class _SecretHit(_Loose):
    type: str
    filename: str
    line_number: int


class _SecretsReport(_Loose):
    results: dict[str, tuple[_SecretHit, ...]] = Field(default_factory=dict)


_SECRETS = TypeAdapter(_SecretsReport)


def parse_detect_secrets(text: str, root: Path) -> tuple[tuple[str, int, str], ...]:
    """``detect-secrets scan``: ``(path, line, detector type)``; values are never kept."""
    report = _validate(_SECRETS, _load_json(text, "detect-secrets"), "detect-secrets")
    return tuple(
        (repo_path(hit.filename, root), hit.line_number, hit.type)
        for hits in report.results.values()
        for hit in hits
    )


# generic `file:line[:col]: message` ----------------------------------------------------

_GENERIC = re.compile(
    r"^(?P<file>[^\s:][^:\n]*?):(?P<line>\d+)(?::(?P<col>\d+))?(?::\d+(?::\d+)?)?:\s*(?P<msg>\S.*)$"
)
_LEVEL = re.compile(r"^(?P<level>error|warning|warn|note|info)\s*:\s*", re.IGNORECASE)
_CODE_FIRST = re.compile(r"^(?P<code>[A-Z][A-Z0-9]*[-_]?\d+)\b\s*")
_CODE_LAST = re.compile(r"\s*\[(?P<code>[A-Za-z][\w.-]*)\]$")

_LEVELS = {
    "error": VerifierSeverity.ERROR,
    "warning": VerifierSeverity.WARNING,
    "warn": VerifierSeverity.WARNING,
    "note": VerifierSeverity.INFO,
    "info": VerifierSeverity.INFO,
}


def parse_generic(
    text: str, root: Path, default: VerifierSeverity = VerifierSeverity.ERROR
) -> tuple[RawFinding, ...]:
    """Lines like ``file:line[:col]: [error|warning:] [CODE] message [code]``; others ignored."""
    out = []
    for raw in text.splitlines():
        m = _GENERIC.match(raw.strip())
        if m is None:
            continue
        msg = m["msg"].strip()
        severity = default
        if (lm := _LEVEL.match(msg)) is not None:
            severity = _LEVELS[lm["level"].lower()]
            msg = msg[lm.end() :]
        code = None
        if (cm := _CODE_LAST.search(msg)) is not None:
            code, msg = cm["code"], msg[: cm.start()]
        elif (cm := _CODE_FIRST.match(msg)) is not None:
            code, msg = cm["code"], msg[cm.end() :]
        out.append(
            RawFinding(repo_path(m["file"], root), int(m["line"]), None, code, msg, severity)
        )
    return tuple(out)


# SARIF 2.1.0 ---------------------------------------------------------------------------


class _Region(_Loose):
    startLine: int | None = None  # noqa: N815 - SARIF's own field names
    endLine: int | None = None  # noqa: N815 - idem


class _ArtifactLocation(_Loose):
    uri: str = ""


class _Physical(_Loose):
    artifactLocation: _ArtifactLocation = Field(default_factory=_ArtifactLocation)  # noqa: N815 - SARIF
    region: _Region = Field(default_factory=_Region)


class _Location(_Loose):
    physicalLocation: _Physical | None = None  # noqa: N815 - SARIF


class _Message(_Loose):
    text: str = ""


class _Result(_Loose):
    ruleId: str | None = None  # noqa: N815 - SARIF
    level: str = "warning"
    message: _Message = Field(default_factory=_Message)
    locations: tuple[_Location, ...] = ()


class _Run(_Loose):
    results: tuple[_Result, ...] = ()


class _Sarif(_Loose):
    runs: tuple[_Run, ...] = ()


_SARIF = TypeAdapter(_Sarif)
_SARIF_LEVELS = {
    "error": VerifierSeverity.ERROR,
    "warning": VerifierSeverity.WARNING,
    "note": VerifierSeverity.INFO,
    "none": VerifierSeverity.INFO,
}


def parse_sarif(text: str, root: Path) -> tuple[RawFinding, ...]:
    """SARIF 2.1.0: every result with a physical location becomes a finding."""
    log = _validate(_SARIF, _load_json(text, "SARIF"), "SARIF")
    out = []
    for run in log.runs:
        for result in run.results:
            physical = next(
                (
                    loc.physicalLocation
                    for loc in result.locations
                    if loc.physicalLocation is not None
                ),
                None,
            )
            if physical is None or not physical.artifactLocation.uri:
                continue
            out.append(
                RawFinding(
                    path=repo_path(physical.artifactLocation.uri, root),
                    line=physical.region.startLine,
                    end_line=physical.region.endLine,
                    rule_id=result.ruleId,
                    message=result.message.text,
                    severity=_SARIF_LEVELS.get(result.level, VerifierSeverity.WARNING),
                )
            )
    return tuple(out)


# oxlint, shellcheck, hadolint, zizmor, the sink rules ------------------------------------

_TOOL_LEVELS = {
    "error": VerifierSeverity.ERROR,
    "warning": VerifierSeverity.WARNING,
    "info": VerifierSeverity.INFO,
    "style": VerifierSeverity.INFO,
    "advice": VerifierSeverity.INFO,
}


def _level(value: object) -> VerifierSeverity:
    return _TOOL_LEVELS.get(str(value).lower(), VerifierSeverity.WARNING)


class _OxSpan(_Loose):
    line: int


class _OxLabel(_Loose):
    span: _OxSpan


class _OxDiagnostic(_Loose):
    message: str
    code: str | None = None
    severity: str = "warning"
    filename: str
    labels: tuple[_OxLabel, ...] = ()


class _OxReport(_Loose):
    diagnostics: tuple[_OxDiagnostic, ...]


def parse_oxlint(text: str, root: Path) -> tuple[RawFinding, ...]:
    """``oxlint --format json``: ``{"diagnostics": [...]}``; the first label's line is the
    finding's line; ``eslint(no-eval)`` becomes the rule id ``eslint/no-eval``."""
    report = _validate(TypeAdapter(_OxReport), _load_json(text, "oxlint"), "oxlint")
    out = []
    for d in report.diagnostics:
        lines = [label.span.line for label in d.labels]
        rule = re.sub(r"^([\w-]+)\(([\w/-]+)\)$", r"\1/\2", d.code) if d.code else None
        out.append(
            RawFinding(
                path=repo_path(d.filename, root),
                line=lines[0] if lines else None,
                end_line=lines[0] if lines else None,
                rule_id=rule,
                message=d.message,
                severity=_level(d.severity),
            )
        )
    return tuple(out)


class _ShellcheckComment(_Loose):
    file: str
    line: int
    endLine: int | None = None  # noqa: N815 - shellcheck's field name
    level: str
    code: int
    message: str


class _ShellcheckReport(_Loose):
    comments: tuple[_ShellcheckComment, ...]


def parse_shellcheck(text: str, root: Path) -> tuple[RawFinding, ...]:
    """``shellcheck -f json1``: ``{"comments": [...]}``, rule ids ``SC2115``."""
    report = _validate(TypeAdapter(_ShellcheckReport), _load_json(text, "shellcheck"),
                       "shellcheck")  # fmt: skip
    return tuple(
        RawFinding(
            path=repo_path(c.file, root),
            line=c.line,
            end_line=c.endLine or c.line,
            rule_id=f"SC{c.code}",
            message=c.message,
            severity=_level(c.level),
        )
        for c in report.comments
    )


class _HadolintItem(_Loose):
    code: str
    file: str
    level: str
    line: int
    message: str


def parse_hadolint(text: str, root: Path) -> tuple[RawFinding, ...]:
    """``hadolint -f json``: a list of ``{code, file, level, line, message}``."""
    items = _validate(TypeAdapter(tuple[_HadolintItem, ...]), _load_json(text, "hadolint"),
                      "hadolint")  # fmt: skip
    return tuple(
        RawFinding(
            path=repo_path(i.file, root),
            line=i.line,
            end_line=i.line,
            rule_id=i.code,
            message=i.message,
            severity=_level(i.level),
        )
        for i in items
    )


class _ZizPoint(_Loose):
    row: int


class _ZizSpan(_Loose):
    start_point: _ZizPoint
    end_point: _ZizPoint


class _ZizConcrete(_Loose):
    location: _ZizSpan


class _ZizSymbolic(_Loose):
    key: dict[str, dict[str, str]]
    annotation: str = ""
    kind: str


class _ZizLocation(_Loose):
    symbolic: _ZizSymbolic
    concrete: _ZizConcrete


class _ZizDeterminations(_Loose):
    confidence: str
    severity: str


class _ZizFinding(_Loose):
    ident: str
    desc: str = ""
    determinations: _ZizDeterminations
    locations: tuple[_ZizLocation, ...]


ZIZMOR_SEVERITY = {
    "high": VerifierSeverity.ERROR,
    "medium": VerifierSeverity.WARNING,
    "low": VerifierSeverity.INFO,
    "informational": VerifierSeverity.INFO,
    "unknown": VerifierSeverity.INFO,
}


def parse_zizmor(text: str, root: Path) -> tuple[RawFinding, ...]:
    """``zizmor --format json``: findings with symbolic and concrete locations; the primary
    location (0-based rows) gives the file and lines; the message names the audit, what it
    found and zizmor's confidence (Low-confidence findings are dropped: too often wrong)."""
    items = _validate(TypeAdapter(tuple[_ZizFinding, ...]), _load_json(text, "zizmor"),
                      "zizmor")  # fmt: skip
    out = []
    for item in items:
        if item.determinations.confidence.lower() == "low":
            continue
        primary = next((loc for loc in item.locations if loc.symbolic.kind == "Primary"), None)
        if primary is None:
            continue
        local = primary.symbolic.key.get("Local", {})
        path = local.get("verbatim_path") or local.get("given_path")
        if not path:
            continue
        where = primary.concrete.location
        note = f": {primary.symbolic.annotation}" if primary.symbolic.annotation else ""
        out.append(
            RawFinding(
                path=repo_path(path, root),
                line=where.start_point.row + 1,
                end_line=where.end_point.row + 1,
                rule_id=item.ident,
                message=f"{item.desc or item.ident}{note}",
                severity=ZIZMOR_SEVERITY.get(
                    item.determinations.severity.lower(), VerifierSeverity.INFO
                ),
            )
        )
    return tuple(out)


def parse_sinks(lines: Iterable[str], root: Path) -> tuple[RawFinding, ...]:
    """``python -m pr_review.rules``: one hit per line, with the rule's own severity."""
    out = []
    for number, item in json_lines(lines, "sink rule"):
        try:
            out.append(
                RawFinding(
                    path=repo_path(str(item["path"]), root),
                    line=int(item["line"]),
                    end_line=int(item["end_line"]),
                    rule_id=str(item["rule"]),
                    message=str(item["message"]),
                    severity=_level(item["severity"]),
                )
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise OutputError(f"sink rule output line {number} is not a hit ({exc})") from exc
    return tuple(out)
