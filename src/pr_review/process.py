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
import queue
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO


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
    stdout_sink: Callable[[bytes], None] | None = None,
) -> ProcessResult:
    """Run ``argv`` and return what happened; never raises for the command's own failure.

    ``env`` replaces the environment entirely when given (callers that run untrusted-repo
    tools pass a stripped one). The process gets its own session so that, on timeout, the
    whole group (the tool and anything it spawned) is killed.

    With ``stdout_sink``, standard output is handed to it piece by piece as the command
    writes it (the result's ``stdout`` is then empty): the caller works on the first pieces
    while the command produces the rest, and never holds the whole output as bytes. An
    exception from the sink kills the command and propagates.
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
    if stdout_sink is not None:
        return _streamed(proc, args, started, timeout_s, stdin=stdin, sink=stdout_sink)
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


_PIECE_BYTES = 1 << 16


def _streamed(
    proc: subprocess.Popen[bytes],
    args: tuple[str, ...],
    started: float,
    timeout_s: float,
    *,
    stdin: bytes | None,
    sink: Callable[[bytes], None],
) -> ProcessResult:
    """:func:`run` with standard output handed to ``sink`` as it arrives.

    Reader threads drain both pipes at once (so the command never blocks on a full pipe
    while the sink works, nor on a full stderr while we wait for stdout); the sink runs in
    the calling thread, fed from a queue, under the same deadline as the command.
    """
    pieces: queue.Queue[bytes] = queue.Queue()
    errors: list[bytes] = []
    threads = [
        threading.Thread(target=_drain, args=(proc.stdout, pieces.put), daemon=True),
        threading.Thread(target=_drain, args=(proc.stderr, errors.append), daemon=True),
    ]
    if stdin is not None:
        threads.append(threading.Thread(target=_feed, args=(proc.stdin, stdin), daemon=True))
    for thread in threads:
        thread.start()
    deadline = started + timeout_s
    timed_out = False
    try:
        while True:
            try:
                piece = pieces.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                timed_out = True
                break
            if not piece:  # the end of standard output
                break
            sink(piece)
        if not timed_out:
            try:
                proc.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                timed_out = True
    except BaseException:
        _kill_group(proc)
        proc.wait()
        raise
    finally:
        if timed_out:
            _kill_group(proc)
            proc.wait()
        for thread in threads:
            thread.join()
    return ProcessResult(
        argv=args,
        returncode=None if timed_out else proc.returncode,
        stdout=b"",
        stderr=b"".join(errors),
        duration_ms=_elapsed_ms(started),
        timed_out=timed_out,
    )


def _drain(pipe: IO[bytes] | None, put: Callable[[bytes], None]) -> None:
    """Read ``pipe`` to its end, handing each piece to ``put``, then an empty piece."""
    if pipe is None:
        return
    with pipe:
        while piece := os.read(pipe.fileno(), _PIECE_BYTES):
            put(piece)
    put(b"")


def _feed(pipe: IO[bytes] | None, data: bytes) -> None:
    """Write ``data`` to the command's standard input and close it."""
    if pipe is None:
        return
    with contextlib.suppress(BrokenPipeError), pipe:
        pipe.write(data)


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    """Kill the process and every process in its session."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.kill()


def _elapsed_ms(started: float) -> int:
    return int((time.monotonic() - started) * 1000)
