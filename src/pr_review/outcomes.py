"""``pr-review outcomes``: what became of every finding the Action posted inline.

For each merged PR of a repository (since a date), each inline comment of ours (it carries a
finding's fingerprint and, since this version, who raised it) gets one fate:

- ``fixed``: a later push fixed it (the thread holds our "Fixed in ..." reply);
- ``dismissed``: a person with write access replied ``/review dismiss`` or reacted 👎;
- ``resolved``: a person with write access resolved the thread;
- ``open``: none of these by the time the PR merged.

Acceptance per source, rule and category is the share fixed or resolved; a rule posted at
least :data:`MIN_FOR_ADVICE` times and accepted less than :data:`TURN_OFF_BELOW` of the time
(or dismissed at least half the time) is listed as worth turning off, with the
``synthesis.dismiss`` entry that would do it. Written as ``outcomes.json`` and ``outcomes.md``.
"""

from __future__ import annotations

import json
import logging
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pr_review.backtest.history import parse_since
from pr_review.errors import GitHubError, UserError
from pr_review.publish.dismissals import collect
from pr_review.publish.inline import FINGERPRINT_PATTERN, META_PATTERN
from pr_review.publish.threads import FIXED_REPLY_START
from pr_review.sources.github import DEFAULT_API_URL, GitHubApi, GitHubSettings, connect

FATES = ("fixed", "dismissed", "resolved", "open")
MIN_FOR_ADVICE = 3
TURN_OFF_BELOW = 0.25


@dataclass(frozen=True)
class Outcome:
    """One inline finding and its fate."""

    pr: int
    fingerprint: str
    path: str
    title: str
    source: str
    producer: str
    rule: str | None
    category: str | None
    fate: str
    by: str | None = None


@dataclass
class Tally:
    """Counts of fates for one group (a source, a rule or a category)."""

    counts: Counter[str] = field(default_factory=Counter)

    @property
    def total(self) -> int:
        """Findings in the group."""
        return sum(self.counts.values())

    @property
    def accepted(self) -> float:
        """The share fixed or resolved."""
        return (self.counts["fixed"] + self.counts["resolved"]) / self.total if self.total else 0.0


def _title(body: str) -> str:
    first = body.splitlines()[0] if body else ""
    return first.strip("*").split(": ", 1)[-1].strip("*") if first else ""


def _meta(body: str) -> dict[str, str | None]:
    found = META_PATTERN.findall(body)
    try:
        data = json.loads(found[-1]) if found else {}
    except ValueError:
        data = {}
    return {k: data.get(k) for k in ("source", "producer", "rule", "category")}


def pr_outcomes(api: GitHubApi, number: int, identity: str | None) -> list[Outcome]:
    """The fate of each of our inline findings on PR ``number``."""
    comments = api.review_comments(number)
    found = collect(api, number, identity)
    dismissed = {d.fingerprint: d for d in found.accepted}
    fixed = {c.in_reply_to_id for c in comments if c.body.startswith(FIXED_REPLY_START)}
    out: list[Outcome] = []
    for c in comments:
        login = c.user.login if c.user else ""
        marks = FINGERPRINT_PATTERN.findall(c.body)
        ours = login == identity if identity is not None else login.endswith("[bot]")
        if c.in_reply_to_id is not None or not marks or not ours:
            continue
        mark = marks[-1]
        by = None
        if c.id in fixed:
            fate = "fixed"
        elif mark in dismissed:
            d = dismissed[mark]
            fate, by = ("resolved" if d.how == "resolved thread" else "dismissed"), d.by
        else:
            fate = "open"
        meta = _meta(c.body)
        out.append(Outcome(
            pr=number, fingerprint=mark, path=c.path, title=_title(c.body),
            source=meta["source"] or "unknown", producer=meta["producer"] or "unknown",
            rule=meta["rule"], category=meta["category"], fate=fate, by=by,
        ))  # fmt: skip
    return out


def collect_outcomes(
    api: GitHubApi, since: str | None, identity: str | None, progress: Callable[[str], None]
) -> tuple[int, list[Outcome]]:
    """Merged PRs since ``since`` and the outcomes of their inline findings."""
    pulls = api.merged_pulls(since)
    progress(f"{len(pulls)} merged pull request(s) to read")
    outcomes: list[Outcome] = []
    for index, pull in enumerate(pulls, 1):
        outcomes.extend(pr_outcomes(api, pull.number, identity))
        progress(f"[{index}/{len(pulls)}] #{pull.number}: {len(outcomes)} finding(s) so far")
    return len(pulls), outcomes


def _groups(outcomes: Iterable[Outcome], key: Callable[[Outcome], str]) -> dict[str, Tally]:
    groups: dict[str, Tally] = defaultdict(Tally)
    for o in outcomes:
        groups[key(o)].counts[o.fate] += 1
    return dict(sorted(groups.items()))


def _rule_key(o: Outcome) -> str:
    return f"{o.producer}:{o.rule}" if o.rule else f"{o.producer}:{o.title}"


def turn_off(outcomes: list[Outcome]) -> list[dict[str, object]]:
    """Rules worth turning off: posted often enough, rarely acted on or often dismissed."""
    advice = []
    for name, tally in _groups((o for o in outcomes if o.rule), _rule_key).items():
        dismissed = tally.counts["dismissed"] / tally.total
        if tally.total >= MIN_FOR_ADVICE and (tally.accepted < TURN_OFF_BELOW or dismissed >= 0.5):
            rule = name.split(":", 1)[1]
            reason = "rarely acted on (pr-review outcomes)"
            config = {"paths": ["**"], "rule": rule, "reason": reason}
            advice.append({"rule": name, "posted": tally.total,
                           "accepted": round(tally.accepted, 3),
                           "dismissed": round(dismissed, 3), "config": config})  # fmt: skip
    return advice


Report = dict[str, Any]
"""The JSON report (``outcomes.json``)."""


def report(repository: str, since: str | None, pulls: int, outcomes: list[Outcome]) -> Report:
    """The JSON report."""

    def table(key: Callable[[Outcome], str]) -> dict[str, dict[str, object]]:
        return {name: {**{f: t.counts[f] for f in FATES}, "total": t.total,
                       "accepted": round(t.accepted, 3)}
                for name, t in _groups(outcomes, key).items()}  # fmt: skip

    return {
        "repository": repository, "since": since, "merged_prs": pulls,
        "findings": len(outcomes), "fates": {f: sum(o.fate == f for o in outcomes) for f in FATES},
        "by_source": table(lambda o: o.source), "by_rule": table(_rule_key),
        "by_category": table(lambda o: o.category or "none"),
        "turn_off": turn_off(outcomes), "outcomes": [asdict(o) for o in outcomes],
    }  # fmt: skip


def markdown(data: Report) -> str:
    """The Markdown report."""
    fates = data["fates"]
    lines = [
        f"# pr-review outcomes: {data['repository']}",
        "",
        f"{data['findings']} inline finding(s) on {data['merged_prs']} merged PR(s)"
        + (f" since {data['since']}" if data["since"] else "") + ": "
        + ", ".join(f"{fates[f]} {f}" for f in FATES) + ".",
    ]
    for title, key in (("By source", "by_source"), ("By rule", "by_rule"),
                       ("By category", "by_category")):  # fmt: skip
        lines += ["", f"## {title}", "", _HEADER, "|---|---|---|---|---|---|---|"]
        for name, row in data[key].items():
            lines.append(f"| {name.replace('|', '/')} | {row['total']} | {row['fixed']} | "
                         f"{row['dismissed']} | {row['resolved']} | {row['open']} | "
                         f"{row['accepted']:.0%} |")  # fmt: skip
    advice = data["turn_off"]
    lines += ["", "## Rules worth turning off", ""]
    if not advice:
        lines.append("None: no rule was posted at least 3 times and rarely acted on.")
    for item in advice:
        config = item["config"]
        lines.append(f"- `{item['rule']}`: posted {item['posted']}, accepted "
                     f"{item['accepted']:.0%}, dismissed {item['dismissed']:.0%}. To turn it off:"
                     f" `synthesis.dismiss: [{json.dumps(config)}]`")  # fmt: skip
    return "\n".join(lines) + "\n"


_HEADER = "| | posted | fixed | dismissed | resolved | open | accepted |"


def write(data: Report, out_dir: Path) -> tuple[Path, Path]:
    """Write ``outcomes.json`` and ``outcomes.md`` into ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    as_json, as_md = out_dir / "outcomes.json", out_dir / "outcomes.md"
    as_json.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    as_md.write_text(markdown(data), encoding="utf-8")
    return as_json, as_md


def run_outcomes_command(
    repository: str,
    since: str | None,
    out_dir: Path,
    *,
    env: dict[str, str],
    progress: Callable[[str], None],
    bot: str | None = None,
) -> tuple[Path, Path]:
    """``pr-review outcomes``: read the repository's merged PRs, write the two reports.

    ``bot`` is the login the Action comments as (default: any ``[bot]`` account, as the
    Action's ``GITHUB_TOKEN`` is). Raises :class:`UserError` with the cause and the fix for a
    bad repository name, a missing or bad token, a repository that does not exist or cannot be
    read."""
    # The GitHub client logs each retried refusal; the one-line error below says what matters.
    logging.getLogger("github").setLevel(logging.ERROR)
    if repository.count("/") != 1 or not all(repository.split("/")):
        raise UserError(f"--repo {repository!r}: give it as OWNER/NAME (e.g. octo/demo).")
    day = parse_since(since).date().isoformat() if since else None
    token = env.get("GITHUB_TOKEN") or env.get("GH_TOKEN")
    if not token:
        raise UserError("no GitHub token: set GITHUB_TOKEN (read access to the repository's "
                        "pull requests is enough).")  # fmt: skip
    api = connect(GitHubSettings(token, env.get("GITHUB_API_URL") or DEFAULT_API_URL), repository)
    try:
        pulls, outcomes = collect_outcomes(api, day, bot, progress)
    except GitHubError as exc:
        hint = {401: "the token is invalid or expired: create a new one",
                403: "the token cannot read this repository's pull requests (or a rate limit "
                     "was hit): check its scopes",
                404: f"no repository {repository} (or the token cannot see it)"}  # fmt: skip
        raise UserError(f"GitHub refused: {hint.get(exc.status or 0, str(exc))}.") from exc
    return write(report(repository, day, pulls, outcomes), out_dir)
