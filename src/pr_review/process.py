"""The one place that runs subprocesses.

Every external command (git, verifier tools, repository-declared commands) goes through
:func:`run`: argv lists only (never a shell), always a timeout, and the result is a value.
A command that is missing, cannot start, or times out is reported in the result rather than
raised, so callers decide what a failure means. On timeout the whole process group is
killed, so a tool's children die with it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class ProcessResult:
    """What happened when a command ran."""

    argv: tuple[str, ...]
    returncode: int | None
    """Exit status; ``None`` when the command never started or was killed at its timeout."""
    stdout: bytes
    stderr: bytes
    duration_ms: int
    timed_out: bool = False
    start_error: str | None = None
    """Why the command could not start (executable missing, permission denied), if it did not."""

    @property
    def ok(self) -> bool:
        """True when the command ran to completion with exit status 0."""
        return self.returncode == 0

    def text(self) -> str:
        """Standard output decoded as UTF-8, undecodable bytes replaced."""
        return self.stdout.decode("utf-8", errors="replace")

    def error_text(self) -> str:
        """Standard error decoded as UTF-8, undecodable bytes replaced."""
        return self.stderr.decode("utf-8", errors="replace")

    def describe(self) -> str:
        """One line saying how the command ended, for messages and logs."""
        cmd = " ".join(self.argv)
        if self.start_error is not None:
            return f"`{cmd}` could not start: {self.start_error}"
        if self.timed_out:
            return f"`{cmd}` timed out after {self.duration_ms} ms and was killed"
        tail = self.error_text().strip().splitlines()
        detail = f": {tail[-1]}" if tail else ""
        return f"`{cmd}` exited with {self.returncode}{detail}"


def run(
    argv: Sequence[str],
    *,
    cwd: Path | None = None,
    timeout_s: float,
    env: Mapping[str, str] | None = None,
    stdin: bytes | None = None,
) -> ProcessResult:
    """Run ``argv`` and return what happened; never raises for the command's own failure.

    ``env`` replaces the environment entirely when given (callers that run untrusted-repo
    tools pass a stripped one). The process gets its own session so that, on timeout, the
    whole group (the tool and anything it spawned) is killed.
    """
    args = tuple(str(a) for a in argv)
    started = time.monotonic()
    try:
        proc = subprocess.Popen(
            args,
            cwd=cwd,
            env=dict(env) if env is not None else None,
            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
    except OSError as exc:
        return ProcessResult(
            argv=args,
            returncode=None,
            stdout=b"",
            stderr=b"",
            duration_ms=_elapsed_ms(started),
            start_error=exc.strerror or str(exc),
        )
    try:
        out, err = proc.communicate(input=stdin, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        out, err = proc.communicate()
        return ProcessResult(
            argv=args,
            returncode=None,
            stdout=out,
            stderr=err,
            duration_ms=_elapsed_ms(started),
            timed_out=True,
        )
    return ProcessResult(
        argv=args,
        returncode=proc.returncode,
        stdout=out,
        stderr=err,
        duration_ms=_elapsed_ms(started),
    )


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    """Kill the process and every process in its session."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.kill()


def _elapsed_ms(started: float) -> int:
    return int((time.monotonic() - started) * 1000)
