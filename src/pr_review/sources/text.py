"""File bytes as text: one decoder for every tree reader (git and GitHub).

A byte-order mark says how a file is encoded: UTF-16 (either order) and UTF-32 files are
decoded as such, so the secrets scanner reads an AWS key saved from a Windows editor as it
reads any other line. Everything else is UTF-8, undecodable bytes replaced.
"""

from __future__ import annotations

import codecs

_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF32_LE, "utf-32"),  # before UTF-16 LE, whose BOM is its prefix
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def decode_blob(raw: bytes) -> str:
    """``raw`` as text: by its byte-order mark when it has one, else UTF-8 (replacing errors)."""
    for bom, encoding in _BOMS:
        if raw.startswith(bom):
            return raw.decode(encoding, errors="replace")
    return raw.decode("utf-8", errors="replace")


def has_bom(raw: bytes) -> bool:
    """Whether ``raw`` starts with a UTF-16/32 byte-order mark (git calls such files binary)."""
    return any(raw.startswith(bom) for bom, enc in _BOMS if enc != "utf-8-sig")
