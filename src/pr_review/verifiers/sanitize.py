"""Verifier messages without secret values: applied when a tool's finding is parsed.

Some tools quote the value they flag (bandit B105/B106/B107: ``Possible hardcoded password:
'<value>'``). A message is data that reaches finding titles, evidence text, SARIF, the packet,
the check run, the job summary and annotations, so the value is removed before the finding
exists: a quoted value after a hard-coded-credential claim is withheld, and anything the
secret rules recognize is replaced by a typed placeholder. Names (``assigned to: "PASSWORD"``)
are kept: they say where the problem is without being the secret.
"""

from __future__ import annotations

import re
from functools import lru_cache

from pr_review.verifiers.secret_patterns import find_redactable

WITHHELD = "[REDACTED:flagged_value]"

_CLAIMED_VALUE = re.compile(
    r"(?i)(\bhard-?coded\s+(?:password|passwd|secret|token|credential|key|api[_ ]?key)s?"
    r"(?:\s+string)?\s*:\s*)(['\"`])(.*?)\2"
)


def sanitize_message(message: str) -> str:
    """``message`` with every quoted flagged value and every recognizable secret removed."""
    return mask_secrets(_CLAIMED_VALUE.sub(lambda m: m.group(1) + WITHHELD, message))


@lru_cache(maxsize=32_768)
def mask_secrets(text: str) -> str:
    """``text`` with every span the secret rules recognize replaced by ``[REDACTED:kind]``.

    Used for code a finding cites (a flagged line holds the value) and for every text a
    published surface shows; lines are kept (a multi-line key becomes one placeholder per line).
    Cached: a packet shows the same rule texts thousands of times, and fitting it to
    GitHub's size limit renders findings more than once.
    """
    for match in reversed(find_redactable(text)):
        span = text[match.start : match.end]
        placeholder = "\n".join(f"[REDACTED:{match.kind}]" for _ in span.split("\n"))
        text = text[: match.start] + placeholder + text[match.end :]
    return text
