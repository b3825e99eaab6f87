"""Repositories with merged pull requests, built with real git for the backtest tests."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from tests.gitrepo import GitRepo

RED_CONFIG = (
    "risk:\n"
    "  overrides:\n"
    "    - paths: ['billing/**']\n"
    "      lane: red\n"
    "      reason: money moves here\n"
)


@dataclass
class History:
    """A repository on ``main`` and what was merged, oldest first."""

    repo: GitRepo
    merges: list[dict[str, object]] = field(default_factory=list)

    def merge_pr(self, number: int, branch: str, files: dict[str, str], title: str) -> None:
        """A PR branch from ``main``, merged with a GitHub-style merge commit."""
        r = self.repo
        r.branch(branch, "main")
        for path, text in files.items():
            r.write(path, text)
        head = r.commit(f"work on {branch}")
        r.checkout("main")
        r.run("merge", "-q", "--no-ff", "-m",
              f"Merge pull request #{number} from someone/{branch}\n\n{title}", branch)
        self.merges.append({"kind": "merge", "number": number, "title": title, "head": head,
                            "commit": r.sha()})

    def squash_pr(self, number: int, files: dict[str, str], title: str) -> None:
        """A PR squashed onto ``main``: one commit whose subject ends in ``(#N)``."""
        r = self.repo
        base = r.sha()
        for path, text in files.items():
            r.write(path, text)
        sha = r.commit(f"{title} (#{number})\n\n* the PR's commits")
        self.merges.append({"kind": "squash", "number": number, "title": title, "head": sha,
                            "base": base, "commit": sha})

    def push(self, files: dict[str, str], message: str) -> str:
        """A direct push to ``main`` (not a PR)."""
        for path, text in files.items():
            self.repo.write(path, text)
        return self.repo.commit(message)


def build_history(path: Path) -> History:
    """main: base, #1 docs (merge), #2 billing code (squash), a direct push, #3 the config that
    makes billing red (merge), #4 billing again (merge, branched before main moved on)."""
    repo = GitRepo.init(path)
    h = History(repo)
    h.push({"README.md": "# shop\n", "billing/pay.py": "def pay(x):\n    return x\n",
            "app/core.py": "def run():\n    return 1\n"}, "initial")
    h.merge_pr(1, "docs", {"docs/guide.md": "# Guide\n\nHow to use the shop.\n"}, "Add a guide")
    h.squash_pr(2, {"billing/pay.py": "def pay(x):\n    return x * 2\n"}, "Double payments")
    h.push({"app/core.py": "def run():\n    return 2\n"}, "hotfix pushed straight to main")
    repo.branch("later", "main")  # #4 starts here, before #3 lands
    repo.write("billing/pay.py", "def pay(x):\n    return x * 3\n")
    later_head = repo.commit("triple payments")
    repo.checkout("main")
    h.merge_pr(3, "config", {".pr-review/config.yml": RED_CONFIG}, "Billing is red")
    base_of_4 = repo.sha("main")
    repo.run("merge", "-q", "--no-ff", "-m",
             "Merge pull request #4 from someone/later\n\nTriple payments", "later")
    h.merges.append({"kind": "merge", "number": 4, "title": "Triple payments",
                     "head": later_head, "commit": repo.sha(), "first_parent": base_of_4})
    return h
