"""Log messages that quote a value with ``repr``, switched on or off by a PR (Python).

A value interpolated into a log line with ``%s`` (or ``{}``) is written as it is: a request path
or header holding a CR/LF or a terminal escape forges log entries or rewrites the operator's
terminal. With ``%r`` (``{!r}``, ``{value!r}``) it is written through ``repr``, which escapes
line breaks and control characters. Switching an existing log message's placeholder from one
to the other is therefore how log injection is fixed (flask-cors CVE-2024-1681: ``'%s'`` ->
``'%r'`` for ``request.path``; litestar GHSA-674p-xv2x-rf3g: ``path=%s`` -> ``path=%r`` in
its uncaught-exception log) and how it is reopened, in every Python project.

What is compared: the format strings of log calls (a ``debug``/``info``/``warning``/``error``/
``exception``/``critical``/``log`` call on a receiver named for logging: ``logger``, ``log``,
``LOG``, ``logging``, ``self._log``) in the PR's code files, on both sides, as ``%``-formats,
``str.format`` templates or f-strings. Factor ``log-quoting-changed`` (red): a message present
on both sides, up to its placeholders' conversions, quotes more or fewer values with ``repr``
after the PR. A log message added or removed, or reworded, is no change: only the quoting of
a message that stays is read.

Examples (run by the test suite, ``LOG_QUOTING_EXAMPLES``): (path, base, head, changed?).
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from pr_review.evidence.lexing import shorten
from pr_review.evidence.pyast import parse_python
from pr_review.evidence.scopes import PYTHON_EXTENSIONS
from pr_review.evidence.sides import code_sides
from pr_review.schema.enums import FactorSeverity
from pr_review.schema.pack import RiskFactor
from pr_review.sources.diff import FileDiff
from pr_review.sources.model import RepoTree

FACTOR = "log-quoting-changed"
_METHODS = frozenset({"debug", "info", "warning", "warn", "error", "exception", "critical", "log"})
_LOGGER = re.compile(r"(?i)(?:^|[._])_?(?:log|logger|logging)$")
_REPR = re.compile(r"%r|!r\}")


@dataclass(frozen=True)
class LogFormat:
    """The format of one log call: its text with conversions, and the text without them."""

    line: int
    text: str
    plain: str
    quoted: int
    """How many placeholders write their value through ``repr``."""


def _receiver(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_receiver(node.value)}.{node.attr}"
    return ""


def _template(node: ast.expr) -> str | None:
    """A log call's message as text: a constant (``%`` or ``{}`` placeholders kept), a
    ``"...".format(...)`` template, or an f-string with ``{}``/``{!r}`` for its values."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
        and node.func.attr == "format" and isinstance(node.func.value, ast.Constant)
        and isinstance(node.func.value.value, str)
    ):  # fmt: skip
        return node.func.value.value
    if isinstance(node, ast.JoinedStr):
        parts = []
        for value in node.values:
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                parts.append(value.value.replace("{", "{{").replace("}", "}}"))
            elif isinstance(value, ast.FormattedValue):
                parts.append("{!r}" if value.conversion == ord("r") else "{}")
        return "".join(parts)
    return None


def log_formats(path: str, source: str | None) -> list[LogFormat] | None:
    """The log call formats of a Python source; None when it is not read (another language,
    or it does not parse)."""
    if source is None or not path.endswith(PYTHON_EXTENSIONS):
        return None
    tree = parse_python(source)
    if tree is None:
        return None
    out: list[LogFormat] = []
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in _METHODS and _LOGGER.search(_receiver(node.func.value))
        ):  # fmt: skip
            continue
        args = node.args[1:] if node.func.attr == "log" else node.args
        text = _template(args[0]) if args else None
        if text is None:
            continue
        plain = text.replace("%r", "%s").replace("!r}", "}")
        out.append(LogFormat(node.lineno, text, plain, len(_REPR.findall(text))))
    return out


def log_quoting_factors(
    files: Sequence[FileDiff], base: RepoTree, head: RepoTree
) -> list[RiskFactor]:
    """One red factor when a log message present on both sides of the PR's code files quotes
    more or fewer values through ``repr``, at the first file where it does."""
    sides = code_sides(files, base, head, log_formats)
    quoted_before: Counter[str] = Counter()
    quoted_after: Counter[str] = Counter()
    for s in sides:
        for f in s.old:
            quoted_before[f.plain] += f.quoted
        for f in s.new:
            quoted_after[f.plain] += f.quoted
    changed = {
        plain for plain in quoted_before.keys() & quoted_after.keys()
        if quoted_before[plain] != quoted_after[plain]
    }
    for s in sides:
        for f in s.new:
            if f.plain in changed:
                more = quoted_after[f.plain] > quoted_before[f.plain]
                verb = "now quotes" if more else "no longer quotes"
                return [RiskFactor(
                    factor=FACTOR, files=(s.path,), severity=FactorSeverity.RED,
                    why=f"a log message {verb} a value with repr (line {f.line}: "
                    f"`{shorten(f.text, 80)}`): repr escapes line breaks and control "
                    "characters, so whether a request value can forge log entries changed (log "
                    "injection is fixed, or reopened, this way)",
                )]
    return []


LOG_QUOTING_EXAMPLES: tuple[tuple[str, str, str, bool], ...] = (
    (  # flask-cors: a request path logged through repr
        "flask_cors/extension.py",
        "def f(request):\n    LOG.debug(\"Request to '%s' matches\", request.path)\n",
        "def f(request):\n    LOG.debug(\"Request to '%r' matches\", request.path)\n",
        True,
    ),
    (  # litestar: the uncaught-exception log, through logger.exception
        "litestar/logging/config.py",
        "def h(logger, scope):\n    logger.exception('Uncaught (path=%s):', scope['path'])\n",
        "def h(logger, scope):\n    logger.exception('Uncaught (path=%r):', scope['path'])\n",
        True,
    ),
    (  # an f-string message losing its !r (the regression)
        "app/server.py",
        "def f(log, path):\n    log.info(f'GET {path!r}')\n",
        "def f(log, path):\n    log.info(f'GET {path}')\n",
        True,
    ),
    (  # a new log line with %r, and one reworded: no message kept with other quoting
        "app/server.py",
        "def f(logger, x):\n    logger.info('start %s', x)\n",
        "def f(logger, x):\n    logger.info('starting %s', x)\n    logger.debug('raw %r', x)\n",
        False,
    ),
    (  # not a log call: an exception's message
        "app/server.py",
        "def f(x):\n    raise ValueError('bad %s' % x)\n",
        "def f(x):\n    raise ValueError('bad %r' % x)\n",
        False,
    ),
)
