"""The one packet comment per pull request, found by its marker **and** our own author.

Peers match by visible header text and no author, so anyone can hijack (or block) their
comment by copying the header. Here a comment is ours only when it starts with the marker and
was written by the token's identity; when GitHub will not say who the token is (installation
tokens such as ``GITHUB_TOKEN``), only ``[bot]`` accounts qualify, which no person can be.

Next to the packet, the comment carries a hidden run record (lane, head, configuration hash,
acknowledgment) so a later run can re-evaluate the gate without reviewing again.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, ValidationError

from pr_review.schema.enums import Lane
from pr_review.sources.github import GitHubApi
from pr_review.sources.github_models import IssueComment

PACKET_MARKER = "<!-- pr-review-guardrails:packet -->"
_RUN_PREFIX = "<!-- pr-review-guardrails:run "
_RUN_BLOCK = re.compile(r"<!-- pr-review-guardrails:run (\{.*?\}) -->")
MAX_COMMENT_CHARS = 65_000
"""GitHub refuses bodies over 65,536 characters; keep headroom for the run record."""


class RunRecord(BaseModel):
    """What the action remembers in its comment between runs."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    head_sha: str
    config_hash: str
    lane: Lane
    findings_count: int = 0
    acknowledged_by: str | None = None
    """Who released a red lane with ``/review ack`` on this head."""


@dataclass(frozen=True)
class OurComment:
    """Our packet comment as found on the PR."""

    id: int
    body: str
    author: str
    html_url: str

    @property
    def record(self) -> RunRecord | None:
        """The run record in the body, if one is there and valid."""
        return parse_record(self.body)


def is_ours(comment: IssueComment, identity: str | None) -> bool:
    """Marker first, and written by us (see module docstring)."""
    body = (comment.body or "").lstrip()
    if not body.startswith(PACKET_MARKER) or comment.user is None:
        return False
    if identity is not None:
        return comment.user.login == identity
    return comment.user.type == "Bot" and comment.user.login.endswith("[bot]")


def find_ours(api: GitHubApi, number: int, identity: str | None) -> OurComment | None:
    """Our packet comment on the PR (the oldest, if a past failure left more than one)."""
    for c in api.comments(number):
        if is_ours(c, identity) and c.user is not None:
            return OurComment(c.id, c.body or "", c.user.login, c.html_url)
    return None


def compose(packet_markdown: str, record: RunRecord) -> str:
    """The comment body: marker first, packet (cut to fit), run record last."""
    body = packet_markdown.strip("\n")
    if not body.startswith(PACKET_MARKER):
        body = f"{PACKET_MARKER}\n{body}"
    if len(body) > MAX_COMMENT_CHARS:
        note = "\n\n_(packet truncated to fit a comment; the full packet is in the job summary)_"
        body = body[: MAX_COMMENT_CHARS - len(note)] + note
    return f"{body}\n\n{format_record(record)}\n"


def format_record(record: RunRecord) -> str:
    """The hidden run record line."""
    data = json.dumps(record.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
    return f"{_RUN_PREFIX}{data} -->"


def parse_record(body: str) -> RunRecord | None:
    """The run record in a comment body, or None."""
    match = _RUN_BLOCK.search(body)
    if match is None:
        return None
    try:
        return RunRecord.model_validate(json.loads(match.group(1)))
    except (ValueError, ValidationError):
        return None


def with_record(body: str, record: RunRecord) -> str:
    """The same comment with its run record replaced."""
    if _RUN_BLOCK.search(body):
        return _RUN_BLOCK.sub(lambda _: format_record(record), body, count=1)
    return f"{body.rstrip()}\n\n{format_record(record)}\n"


def upsert(
    api: GitHubApi, number: int, body: str, *, identity: str | None, existing: OurComment | None
) -> OurComment:
    """Edit our comment, or create it when there is none (never a second one)."""
    if existing is not None:
        edited = api.edit_comment(existing.id, body)
        return OurComment(edited.id, edited.body or body, existing.author, edited.html_url)

    def find() -> OurComment | None:
        return find_ours(api, number, identity)

    def create() -> OurComment:
        made = api.create_comment(number, body)
        author = made.user.login if made.user else (identity or "")
        return OurComment(made.id, made.body or body, author, made.html_url)

    return api.create_once(find, create)
