"""The hidden state block: what this review remembers for the next one.

``<!-- pr-review-guardrails:state {json} -->`` as the packet's last line. The JSON has
``<``, ``>``, ``&`` and ``@`` as ``\\u`` escapes, so the block can never contain ``-->`` and close
early, and nothing in it looks like markup. It is capped: past the cap the lowest-ranked
entries are left out and ``truncated`` is set.
"""

from __future__ import annotations

import json
import re

from pydantic import ValidationError

from pr_review.synthesis.memory import ReviewMemory
from pr_review.verifiers.sanitize import mask_secrets

STATE_MARKER = "<!-- pr-review-guardrails:state "
STATE_BUDGET = 12_000
_STATE = re.compile(r"^<!-- pr-review-guardrails:state (\{.*\}) -->$", re.MULTILINE)


_OPTIONAL = {
    "base_sha": "",
    "carried": [],
    "carried_complete": True,
    "unreviewed": [],
    "dismissed": [],
    "ignored_dismissals": [],
}
"""Incremental re-review fields, left out at their defaults (older blocks stay byte-equal)."""


def _masked(value: object) -> object:
    """Every string with credentials masked: the block is published like the packet (a
    title a model wrote may quote a value it saw)."""
    if isinstance(value, str):
        return mask_secrets(value)
    if isinstance(value, dict):
        return {key: _masked(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_masked(item) for item in value]
    return value


def _encode(memory: ReviewMemory) -> str:
    data = memory.model_dump(mode="json")
    for key, default in _OPTIONAL.items():
        if data.get(key) == default:
            data.pop(key, None)
    raw = json.dumps(_masked(data), separators=(",", ":"), ensure_ascii=True)
    for char, escape in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("@", "\\u0040")):
        raw = raw.replace(char, escape)
    return raw


def _block(memory: ReviewMemory) -> str:
    return f"{STATE_MARKER}{_encode(memory)} -->"


def render_state(memory: ReviewMemory, budget: int = STATE_BUDGET) -> str:
    """The state block, at most ``budget`` characters.

    Past the budget the carried model findings go first (from the end; the next review is
    then a full one), then the lowest-ranked entries.
    """
    block = _block(memory)
    if len(block) <= budget:
        return block
    if memory.unreviewed:  # the next review cannot know what to send again: a full one
        memory = memory.model_copy(
            update={"unreviewed": (), "carried": (), "carried_complete": False}
        )
        block = _block(memory)
        if len(block) <= budget:
            return block
    if memory.carried:
        low, high = 0, len(memory.carried)
        while low < high:  # the most carried findings that fit
            mid = (low + high + 1) // 2
            trial = memory.model_copy(
                update={"carried": memory.carried[:mid], "carried_complete": False}
            )
            if len(_block(trial)) <= budget:
                low = mid
            else:
                high = mid - 1
        memory = memory.model_copy(
            update={"carried": memory.carried[:low], "carried_complete": False}
        )
        block = _block(memory)
        if len(block) <= budget:
            return block
    entries = memory.findings
    low, high = 0, len(entries)
    while low < high:  # the largest prefix of entries that fits
        mid = (low + high + 1) // 2
        trial = memory.model_copy(update={"findings": entries[:mid], "truncated": True})
        if len(f"{STATE_MARKER}{_encode(trial)} -->") <= budget:
            low = mid
        else:
            high = mid - 1
    current = memory.model_copy(update={"findings": entries[:low], "truncated": True})
    return f"{STATE_MARKER}{_encode(current)} -->"


def parse_state(comment_body: str) -> ReviewMemory | None:
    """The memory in a packet comment's state block; None when absent or unreadable."""
    found = _STATE.findall(comment_body)
    if not found:
        return None
    try:
        return ReviewMemory.model_validate(json.loads(found[-1]))
    except (ValueError, ValidationError):
        return None
