"""``--timings``: where a ``pack``/``review`` run spent its time, stage by stage, on stderr.

Stages are delimited by the run's progress messages (each message starts a stage that lasts
until the next one), so the pipeline needs no timing code of its own. Start-up (imports,
argument parsing, configuration) is the time from this module's import to the first message.
The verifiers run in parallel inside their stage; each one's own duration comes from the
pack (``verification.verifiers[].duration_ms``) and is printed below the stages.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # only the type: this module is imported first, before anything heavy
    from pr_review.schema.pack import Verification

Clock = Callable[[], float]

_STARTED = time.perf_counter()
"""When the command line began (this module is imported by ``cli`` first thing)."""

VERIFIER_DONE = "verifier "
"""Prefix of a verifier's completion message: a milestone inside the verifier stage."""


@dataclass
class StageTimings:
    """Records stage boundaries from progress messages; renders them as ``timing:`` lines."""

    clock: Clock = time.perf_counter
    started: float = _STARTED
    stages: list[tuple[str, float]] = field(default_factory=list)
    details: list[tuple[str, float]] = field(default_factory=list)
    _current: str = "start-up (imports, arguments)"
    _since: float | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def mark(self, message: str) -> None:
        """A progress message: it ends the current stage and names the next one."""
        if message.startswith(VERIFIER_DONE):  # a verifier finishing, inside its stage
            return
        now = self.clock()
        with self._lock:
            since = self.started if self._since is None else self._since
            self.stages.append((self._current, now - since))
            self._current, self._since = message, now

    def verifiers(self, verification: Verification) -> None:
        """Each verifier's own wall time (they overlap: their sum can exceed the stage)."""
        for run in verification.verifiers:
            label = f"verifier {run.name} ({run.status.value})"
            self.details.append((label, run.duration_ms / 1000))

    def lines(self) -> list[str]:
        """The ``timing:`` lines; the stage in progress is closed now."""
        now = self.clock()
        since = self.started if self._since is None else self._since
        stages = [*self.stages, (self._current, now - since)]
        out = [_line(name, seconds) for name, seconds in stages]
        out.extend(_line(f"  {name}", seconds) for name, seconds in self.details)
        out.append(_line("total", now - self.started))
        return out


def _line(name: str, seconds: float) -> str:
    return f"timing: {name:<50} {seconds:8.3f} s"
