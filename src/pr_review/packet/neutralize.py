"""Make untrusted text (PR text, model output, tool output, file names) inert in GitHub Markdown.

The one escaping module for every Markdown surface: the packet comment, inline review
comments, the check run's title/summary/text and the job summary. Whatever a finding, a PR
or a file name says can neither forge our hidden markers, nor open an HTML comment or tag,
nor ping someone, nor add links or images, nor start a heading, quote or list, nor break
the layout: it is put on one line (a newline in a path included), HTML-escaped, with ``@``
defused by a zero-width space, brackets escaped, bare URLs defused and a leading block
marker escaped. Anything the secret rules recognize (a token in a file name, a password a
tool quoted) is masked as ``[REDACTED:kind]`` first, on every surface. Pure functions;
workflow commands have their own escaping (:mod:`pr_review.publish.workflow`).
"""

from __future__ import annotations

import re

from pr_review.verifiers.sanitize import mask_secrets

_MENTION = re.compile(r"@(?=[A-Za-z0-9_-])")
_AUTOLINK = re.compile(r"(?i)(?<=[a-z])(://)|\b(www)(\.)")
_BLOCK_START = re.compile(r"^([#>+*=|~-])|^(\d+)([.)])")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u0080-\u009f\u202a-\u202e\u2066-\u2069]")


def clip(text: str, limit: int | None) -> str:
    """Mask secrets, collapse whitespace to one line, shorten to ``limit`` chars with an ellipsis.

    The cut falls at the last sentence end, else the last word boundary, in the kept part
    (never mid-word, unless one word fills it all); trailing punctuation is dropped before
    the ellipsis, so nothing reads ``,…`` or ``..…``.
    """
    line = " ".join(_CONTROL.sub(" ", mask_secrets(text)).split())
    if limit is None or len(line) <= limit:
        return line
    room = max(limit - 1, 0)
    head = line[:room]
    sentence = max(line.rfind(". ", 0, limit), line.rfind("? ", 0, limit),
                   line.rfind("! ", 0, limit))  # fmt: skip
    if sentence >= room // 2:
        return line[: sentence + 1]
    if line[room] != " ":
        space = head.rfind(" ")
        if space > 0:
            head = head[:space]
    return head.rstrip(" ,;:.-–—") + "…"


def end_sentence(text: str) -> str:
    """``text`` ending with exactly one terminal punctuation mark (no ``..``, no ``?.``)."""
    text = text.rstrip()
    if text.endswith("…"):
        return text
    return text if text[-1:] in (".", "?", "!") else f"{text}."


def inline(text: str, limit: int | None = None) -> str:
    """Untrusted text for a Markdown line: escaped, mention-free, link-free."""
    out = clip(text, limit)
    out = out.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    out = _MENTION.sub("@\u200b", out)
    out = _AUTOLINK.sub(_defuse_link, out)
    out = _BLOCK_START.sub(_escape_block, out)
    return out.replace("[", "\\[").replace("]", "\\]")


def paragraphs(text: str, limit: int | None = None) -> str:
    """Untrusted multi-line text: each non-blank line escaped as :func:`inline`, blank lines kept.

    ``limit`` bounds the whole text (in characters, before escaping).
    """
    if limit is not None and len(text) > limit:
        text = text[: max(limit - 1, 0)] + "…"
    lines = [inline(line) for line in text.splitlines()]
    return "\n".join(lines).strip("\n")


def _defuse_link(m: re.Match[str]) -> str:
    if m.group(1):
        return ":\u200b//"
    return f"{m.group(2)}\u200b{m.group(3)}"


def _escape_block(m: re.Match[str]) -> str:
    if m.group(1):
        return "\\" + m.group(1)
    return f"{m.group(2)}\\{m.group(3)}"


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
