"""A real git repository in a temp dir, for tests: deterministic identity, dates and config.

Usage (via the ``git_repo`` / ``make_git_repo`` fixtures in ``tests/conftest.py``)::

    repo.write("app/x.py", "print(1)\\n")
    base = repo.commit("base")
    repo.branch("feature")            # create and switch
    repo.write("app/x.py", b"print(2)\\r\\n")
    head = repo.commit("change")
    repo.numstat("main", "feature")   # what git says, to compare with our parse

Files are written as bytes (``str`` is UTF-8 encoded, newlines untranslated), so CRLF and
non-UTF-8 content reach git exactly as given.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping
from pathlib import Path

IDENTITY: Mapping[str, str] = {
    "GIT_AUTHOR_NAME": "Ada Author",
    "GIT_AUTHOR_EMAIL": "ada@example.invalid",
    "GIT_COMMITTER_NAME": "Cy Committer",
    "GIT_COMMITTER_EMAIL": "cy@example.invalid",
    "GIT_AUTHOR_DATE": "2024-01-02T03:04:05+00:00",
    "GIT_COMMITTER_DATE": "2024-01-02T03:04:05+00:00",
    # Ignore the machine's git config so every test sees the same git.
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
}

# The flags the local source uses, so comparisons are like for like.
DIFF_FLAGS = ("--no-ext-diff", "--no-textconv", "--no-color", "-M", "--submodule=short")


def git_env() -> dict[str, str]:
    """The environment every test git command runs with."""
    return {**os.environ, **IDENTITY}


class GitRepo:
    """A working tree with helpers that run real git."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def init(cls, path: Path, *, branch: str = "main") -> GitRepo:
        """Create an empty repository at ``path`` whose first branch is ``branch``."""
        path.mkdir(parents=True, exist_ok=True)
        repo = cls(path)
        repo.run("-c", f"init.defaultBranch={branch}", "init", "-q")
        repo.run("config", "commit.gpgsign", "false")
        repo.run("config", "core.autocrlf", "false")
        return repo

    def run_bytes(
        self, *args: str, check: bool = True, input_bytes: bytes | None = None
    ) -> subprocess.CompletedProcess[bytes]:
        """Run ``git args`` in the repository; raise with stderr when it fails and ``check``."""
        proc = subprocess.run(
            ["git", "-c", "core.quotePath=false", *args],
            cwd=self.path,
            env=git_env(),
            input=input_bytes,
            capture_output=True,
            check=False,
        )
        if check and proc.returncode != 0:
            raise AssertionError(
                f"git {' '.join(args)} failed ({proc.returncode}): {proc.stderr.decode()}"
            )
        return proc

    def run(self, *args: str) -> str:
        """Run ``git args`` and return stdout as text."""
        return self.run_bytes(*args).stdout.decode("utf-8", errors="replace")

    def write(self, path: str, content: str | bytes) -> Path:
        """Write a file (creating directories); ``str`` is encoded as UTF-8."""
        target = self.path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        data = content.encode("utf-8") if isinstance(content, str) else content
        target.write_bytes(data)
        return target

    def read(self, path: str) -> bytes:
        """The working-tree bytes of ``path``."""
        return (self.path / path).read_bytes()

    def rm(self, path: str) -> None:
        """Remove a file from the tree and the index."""
        self.run("rm", "-q", "--", path)

    def mv(self, old: str, new: str) -> None:
        """Move a file (creating the target directory)."""
        (self.path / new).parent.mkdir(parents=True, exist_ok=True)
        self.run("mv", "--", old, new)

    def chmod(self, path: str, *, executable: bool = True) -> None:
        """Set or clear the executable bit (git records 100755 / 100644)."""
        target = self.path / path
        mode = target.stat().st_mode
        target.chmod(mode | 0o111 if executable else mode & ~0o111)

    def set_gitlink(self, path: str, sha: str) -> None:
        """Point a submodule entry (mode 160000) at ``sha`` without cloning anything."""
        self.run("update-index", "--add", "--cacheinfo", f"160000,{sha},{path}")

    def commit(self, message: str = "change", *, add_all: bool = True) -> str:
        """Commit (everything in the tree, by default) and return the new sha."""
        if add_all:
            self.run("add", "-A")
        self.run("commit", "-q", "--allow-empty", "--no-verify", "-m", message)
        return self.sha()

    def sha(self, ref: str = "HEAD") -> str:
        """The full sha of ``ref``."""
        return self.run("rev-parse", "--verify", f"{ref}^{{commit}}").strip()

    def branch(self, name: str, start: str | None = None) -> None:
        """Create branch ``name`` (at ``start`` or HEAD) and switch to it."""
        self.run("checkout", "-q", "-b", name, *([start] if start else []))

    def checkout(self, ref: str) -> None:
        """Switch to ``ref``."""
        self.run("checkout", "-q", ref)

    def diff(self, base: str, head: str = "HEAD", *extra: str) -> bytes:
        """``git diff base...head`` with the local source's flags, as bytes."""
        return self.run_bytes("diff", *DIFF_FLAGS, *extra, f"{base}...{head}").stdout

    def numstat(
        self, base: str, head: str = "HEAD", *extra: str
    ) -> dict[str, tuple[int | None, int | None]]:
        """``git diff --numstat base...head``: path -> (insertions, deletions), None if binary."""
        out = self.run_bytes("diff", *DIFF_FLAGS, *extra, "--numstat", "-z", f"{base}...{head}")
        fields = out.stdout.decode("utf-8", errors="replace").split("\0")
        result: dict[str, tuple[int | None, int | None]] = {}
        i = 0
        while i < len(fields) - 1:
            ins, dels, path = fields[i].split("\t", 2)
            if path == "":  # rename or copy: old and new path follow as their own fields
                path = fields[i + 2]
                i += 3
            else:
                i += 1
            result[path] = (None if ins == "-" else int(ins), None if dels == "-" else int(dels))
        return result

    def name_status(self, base: str, head: str = "HEAD", *extra: str) -> dict[str, str]:
        """``git diff --name-status base...head``: new path -> status letter (A M D R C T)."""
        out = self.run_bytes("diff", *DIFF_FLAGS, *extra, "--name-status", "-z", f"{base}...{head}")
        fields = out.stdout.decode("utf-8", errors="replace").split("\0")
        result: dict[str, str] = {}
        i = 0
        while i < len(fields) - 1:
            status = fields[i]
            if status[0] in "RC":
                result[fields[i + 2]] = status[0]
                i += 3
            else:
                result[fields[i + 1]] = status[0]
                i += 2
        return result
