"""Progress of a backtest on stderr: a bar on a terminal, one line per PR in a log.

On a terminal the bar is redrawn in place (``\\r``); when stderr is a file or a CI log, where
carriage returns pile up into one unreadable line, each finished PR gets its own line.
"""

from __future__ import annotations

import threading
import time
from typing import TextIO

from pr_review.packet import neutralize

BAR_WIDTH = 24


class Progress:
    """Thread-safe counter of finished reviews."""

    def __init__(self, total: int, stream: TextIO, *, tty: bool | None = None) -> None:
        self._total = total
        self._stream = stream
        self._tty = stream.isatty() if tty is None else tty
        self._done = 0
        self._lanes: dict[str, int] = {}
        self._lock = threading.Lock()
        self._started = time.monotonic()

    def finished(self, label: str, lane: str) -> None:
        """One PR reviewed (``lane`` is ``error`` when its review failed)."""
        with self._lock:
            self._done += 1
            self._lanes[lane] = self._lanes.get(lane, 0) + 1
            if self._tty:
                self._stream.write("\r" + self._bar())
            else:
                # The label holds a commit title (PR data): no control characters or escapes.
                shown = neutralize.terminal(label, 120)
                self._stream.write(f"pr-review: [{self._done}/{self._total}] {shown}: {lane}\n")
            self._stream.flush()

    def close(self) -> None:
        """End the bar's line (a terminal only)."""
        with self._lock:
            if self._tty and self._done:
                self._stream.write("\n")
                self._stream.flush()

    def _bar(self) -> str:
        filled = BAR_WIDTH * self._done // max(1, self._total)
        lanes = " ".join(f"{k} {v}" for k, v in sorted(self._lanes.items()))
        elapsed = time.monotonic() - self._started
        return (
            f"pr-review: [{'#' * filled}{'.' * (BAR_WIDTH - filled)}] "
            f"{self._done}/{self._total}  {lanes}  {elapsed:.0f} s"
        )
