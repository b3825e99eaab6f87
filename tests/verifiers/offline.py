"""``pr-review review`` of a local repository, offline (no model key), as a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def review_offline(repo: Path, out_dir: Path, base: str = "main") -> None:
    """Review ``base``...HEAD of ``repo`` into ``out_dir`` with no model key; fail the test
    when the command fails (exit 1, a blocking lane, is a normal outcome)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "GITHUB_"))}
    done = subprocess.run(
        [sys.executable, "-m", "pr_review", "review", "--repo", str(repo), "--base", base,
         "--out-dir", str(out_dir)],
        capture_output=True, text=True, timeout=300, check=False, env=env,
    )  # fmt: skip
    assert done.returncode in (0, 1), done.stderr
