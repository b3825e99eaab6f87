"""Make untrusted text (PR text, model output, tool output) inert in the packet.

Whatever a finding or a PR says can neither forge our hidden markers, nor open an HTML
comment or tag, nor ping someone, nor add links or images, nor break the layout: it is put
on one line, HTML-escaped, with ``@`` defused by a zero-width space and brackets escaped.
"""

from __future__ import annotations

import re

_MENTION = re.compile(r"@(?=[A-Za-z0-9_-])")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u0080-\u009f\u202a-\u202e\u2066-\u2069]")


def clip(text: str, limit: int | None) -> str:
    """Collapse whitespace to one line and cut to ``limit`` characters with an ellipsis."""
    line = " ".join(_CONTROL.sub(" ", text).split())
    if limit is not None and len(line) > limit:
        return line[: max(limit - 1, 0)] + "…"
    return line


def inline(text: str, limit: int | None = None) -> str:
    """Untrusted text for a Markdown line: escaped, mention-free, link-free."""
    out = clip(text, limit)
    out = out.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    out = _MENTION.sub("@\u200b", out)
    return out.replace("[", "\\[").replace("]", "\\]")


def cell(text: str, limit: int | None = None) -> str:
    """Untrusted text for a table cell (pipes escaped too)."""
    return inline(text, limit).replace("|", "\\|")


def code(text: str, limit: int | None = 200) -> str:
    """Untrusted text as an inline code span (e.g. a path): no backticks, no ``<``."""
    inner = clip(text, limit).replace("`", "'").replace("<", "‹").replace(">", "›")
    return f"`{inner}`" if inner else "`(none)`"


def terminal(text: str, limit: int | None = None) -> str:
    """Untrusted text for a terminal: no escape sequences or control characters."""
    return clip(text, limit)
