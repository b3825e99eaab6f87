"""What the command line and its handlers share: exit codes, progress lines, output files.

Kept apart from :mod:`pr_review.cli` (the parser and the error boundary) and
:mod:`pr_review.commands` (the handlers) so that neither imports the other back.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from pr_review.errors import UserError
from pr_review.timings import StageTimings

Progress = Callable[[str], None]

EXIT_OK = 0
EXIT_USER_ERROR = 1
EXIT_USAGE = 2
EXIT_LANE = 3
EXIT_INTERRUPTED = 130


def progress(message: str) -> None:
    """Progress of long work, on stderr so stdout stays the result."""
    print(f"pr-review: {message}", file=sys.stderr, flush=True)


class PrintedTimings(StageTimings):
    """Stage timings that print themselves on stderr (``--timings``)."""

    def print(self) -> None:
        """The ``pr-review: timing: ...`` lines, on stderr."""
        for line in self.lines():
            progress(line)


def timed_progress(enabled: bool) -> tuple[Progress, PrintedTimings | None]:
    """The progress sink of a command, and with ``--timings`` the recorder it feeds."""
    if not enabled:
        return progress, None
    timings = PrintedTimings()

    def report(message: str) -> None:
        timings.mark(message)
        progress(message)

    return report, timings


def write_text(text: str, out: Path | None, *, stdout: TextIO | None = None) -> None:
    """Write ``text`` to ``out`` (creating parents) or to stdout."""
    if out is None:
        (stdout or sys.stdout).write(text)
        return
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UserError(f"cannot write {out}: {exc.strerror}. Choose a writable path.") from exc
