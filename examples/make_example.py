"""Turn ``examples/shop-api`` into a real git repository with a base and a PR branch.

    python examples/make_example.py DEST

``DEST`` gets a repository whose ``main`` holds ``base/`` and whose PR branch (checked out)
applies ``pr/`` in the commits listed in ``pr.json``. Run ``pr-review review --repo DEST
--base main`` on it for an offline review of the example PR.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent / "shop-api"
GIT_ENV = {
    "GIT_AUTHOR_NAME": "Example Dev",
    "GIT_AUTHOR_EMAIL": "dev@shop-api.example",
    "GIT_COMMITTER_NAME": "Example Dev",
    "GIT_COMMITTER_EMAIL": "dev@shop-api.example",
    "GIT_AUTHOR_DATE": "2026-01-05T10:00:00Z",
    "GIT_COMMITTER_DATE": "2026-01-05T10:00:00Z",
}


def git(repo: Path, *args: str) -> None:
    """Run one git command in ``repo`` with a fixed identity and date."""
    env = {**os.environ, **GIT_ENV}
    subprocess.run(["git", "-C", str(repo), *args], check=True, env=env, capture_output=True)


def build(dest: Path) -> Path:
    """Create the example repository at ``dest`` (replacing it) and return it."""
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(HERE / "base", dest)
    git(dest, "-c", "init.defaultBranch=main", "init", "-q")
    git(dest, "add", "-A")
    git(dest, "commit", "-q", "-m", "Initial order service")
    meta = json.loads((HERE / "pr.json").read_text(encoding="utf-8"))
    git(dest, "checkout", "-q", "-b", meta["branch"])
    for commit in meta["commits"]:
        for rel in commit["paths"]:
            target = dest / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(HERE / "pr" / rel, target)
            git(dest, "add", rel)
        git(dest, "commit", "-q", "-m", commit["message"])
    return dest


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python examples/make_example.py DEST")
    repo = build(Path(sys.argv[1]))
    meta = json.loads((HERE / "pr.json").read_text(encoding="utf-8"))
    body_file = repo.with_name(repo.name + ".body.md")
    body_file.write_text(meta["body"] + "\n", encoding="utf-8")
    print(f"example PR ready in {repo} (branch {meta['branch']}, base main; body in {body_file})")
