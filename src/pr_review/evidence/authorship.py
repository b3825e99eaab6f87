"""AI-assisted authorship from commit trailers, footers and bot authors.

Names are matched as whole tool names in the places tools write them (a ``Co-authored-by``
trailer's name or e-mail, a "Generated with" footer, a bot account), never as substrings of a
human name: "Claudette Smith" or "Cody Jones" is not an assistant.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from pr_review.schema.pack import Authorship, AuthorshipSignal
from pr_review.sources.model import Commit


@dataclass(frozen=True)
class Tool:
    """A known assistant: how its trailer identity and footers look."""

    name: str
    identity: re.Pattern[str]
    """Matches the whole ``Name <email>`` of a trailer or commit author."""


def _tool(name: str, identity: str) -> Tool:
    return Tool(name, re.compile(identity, re.IGNORECASE))


TOOLS: tuple[Tool, ...] = (
    _tool(
        "Claude",
        r"^(?:claude(?: code| opus| sonnet| haiku)?(?: [\d.]+)?)\s*<[^>]*(?:anthropic\.com)>$"
        r"|<noreply@anthropic\.com>",
    ),
    _tool(
        "GitHub Copilot",
        r"^(?:github )?copilot\b[^<]*<[^>]*>$|<[^>]*copilot[^>]*@(?:users\.noreply\.)?github\.com>",
    ),
    _tool(
        "Cursor", r"^cursor(?: agent)?\s*<[^>]*(?:cursor\.(?:sh|com))>$|<[^>]*@cursor\.(?:sh|com)>"
    ),
    _tool("Aider", r"^aider(?: \([^)]*\))?\s*<[^>]*>$|<[^>]*@aider\.chat>"),
    _tool("Codex", r"^(?:openai )?codex\s*<[^>]*(?:openai\.com)>$|<[^>]*codex[^>]*@openai\.com>"),
    _tool(
        "Devin",
        r"^devin(?:-ai-integration)?(?:\[bot\])?\s*<[^>]*>$|<[^>]*devin[^>]*@(?:cognition|users\.noreply)[^>]*>",
    ),
    _tool("Gemini", r"^gemini(?: code assist)?\s*<[^>]*google\.com>$"),
    _tool("Amazon Q", r"^amazon q(?: developer)?\s*<[^>]*amazon\.com>$"),
    _tool("Sourcegraph Cody", r"^(?:sourcegraph )?cody\s*<[^>]*sourcegraph\.com>$"),
    _tool("Windsurf", r"^(?:windsurf|codeium)\s*<[^>]*(?:codeium\.com|windsurf\.com)>$"),
)
_FOOTER = re.compile(
    r"(?im)^\W*(?:generated|created|written|co-?authored|authored)\s+(?:with|by|using)\s+\[?"
    r"(?P<tool>claude(?: code)?|github copilot|copilot|cursor|aider|codex|devin|gemini|chatgpt"
    r"|amazon q|windsurf|cody)\b"
)
_FOOTER_NAMES = {
    "claude": "Claude",
    "claude code": "Claude",
    "github copilot": "GitHub Copilot",
    "copilot": "GitHub Copilot",
    "cursor": "Cursor",
    "aider": "Aider",
    "codex": "Codex",
    "devin": "Devin",
    "gemini": "Gemini",
    "chatgpt": "ChatGPT",
    "amazon q": "Amazon Q",
    "windsurf": "Windsurf",
    "cody": "Sourcegraph Cody",
}
_BOT_LOGIN = re.compile(r"^(?P<name>[\w-]+)\[bot\]$", re.IGNORECASE)
_AI_BOTS = {
    "copilot": "GitHub Copilot",
    "copilot-swe-agent": "GitHub Copilot",
    "devin-ai-integration": "Devin",
    "claude": "Claude",
    "cursor": "Cursor",
    "codex": "Codex",
    "google-labs-jules": "Jules",
    "sweep-ai": "Sweep",
    "openhands-agent": "OpenHands",
}
_COAUTHOR = re.compile(r"(?im)^co-authored-by:\s*(?P<who>.+?)\s*$")


def authorship(commits: Sequence[Commit]) -> Authorship:
    """AI assistance detected over the PR's commits."""
    signals: list[AuthorshipSignal] = []
    assisted: set[str] = set()
    for commit in commits:
        found = _signals(commit)
        if found:
            assisted.add(commit.sha)
            signals += found
    tools = tuple(sorted({s.tool for s in signals}))
    total = len(commits)
    return Authorship(
        ai_assisted=bool(signals),
        ai_tools=tools,
        ai_commit_ratio=round(len(assisted) / total, 3) if total else 0.0,
        total_commits=total,
        signals=tuple(signals),
    )


def _signals(commit: Commit) -> list[AuthorshipSignal]:
    out: list[AuthorshipSignal] = []
    identities = [v for k, v in commit.trailers if k.lower() == "co-authored-by"]
    identities += [m.group("who") for m in _COAUTHOR.finditer(commit.message)]
    for who in dict.fromkeys(identities):
        tool = _identify(who)
        if tool:
            out.append(
                AuthorshipSignal(commit=commit.sha, tool=tool, evidence=f"Co-authored-by: {who}")
            )
    out.extend(
        AuthorshipSignal(
            commit=commit.sha,
            tool=_FOOTER_NAMES[match.group("tool").lower()],
            evidence=match.group(0).strip(),
        )
        for match in _FOOTER.finditer(commit.message)
    )
    author = f"{commit.author_name} <{commit.author_email}>"
    tool = _identify(author) or _bot(commit.author_login or commit.author_name)
    if tool:
        out.append(AuthorshipSignal(commit=commit.sha, tool=tool, evidence=f"author: {author}"))
    return out


def _identify(who: str) -> str | None:
    text = who.strip()
    for tool in TOOLS:
        if tool.identity.search(text):
            return tool.name
    return None


def _bot(login: str) -> str | None:
    match = _BOT_LOGIN.match(login.strip())
    if not match:
        return None
    return _AI_BOTS.get(match.group("name").lower())
