"""Locations as text and as links to the reviewed commit."""

from __future__ import annotations

from urllib.parse import quote

from pr_review.packet.neutralize import code


def span(line_start: int | None, line_end: int | None) -> str:
    """``34`` or ``34-36`` (empty when there is no line)."""
    if line_start is None:
        return ""
    if line_end is None or line_end == line_start:
        return str(line_start)
    return f"{line_start}-{line_end}"


def where(
    path: str, line_start: int | None, line_end: int | None, web: str | None, sha: str
) -> str:
    """``file:line`` in code style, linked to the line on the head commit when possible."""
    if not path:
        return "(no file cited)"
    lines = span(line_start, line_end)
    label = code(f"{path}:{lines}" if lines else path)
    if not web or not sha or not web.startswith(("https://", "http://")):
        return label
    url = f"{web.rstrip('/')}/blob/{quote(sha, safe='')}/{quote(path, safe='/')}"
    if line_start is not None:
        end = line_end if line_end is not None else line_start
        url += f"#L{line_start}-L{end}"
    return f"[{label}]({url})"
