"""Running one built-in tool on one side (head or base) of the PR and reading its output."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

from pr_review.verifiers.model import Context, Deadline, RawFinding, Skipped, TimedOut
from pr_review.verifiers.parsers import OutputError

# The built-in tools exit 0 (clean) or 1 (findings); anything else means the tool itself
# failed (bad configuration, crash), which says nothing about the PR.
_NORMAL_EXITS = (0, 1)


@dataclass(frozen=True)
class Side:
    """The files of one revision, where they are, and where the tool writes its report."""

    root: Path
    files: tuple[str, ...]
    label: str
    """``head`` or ``base``."""
    shard: int = 0
    """Which part of the side's files (0 when the side is run whole)."""

    def output_for(self, tool: str, tmp: Path) -> Path:
        """The report file of ``tool`` on this side."""
        part = f"-{self.shard}" if self.shard else ""
        return tmp / f"{tool}-{self.label}{part}.out"


WholeReport = Callable[[str, Path], tuple[RawFinding, ...]]
"""A parser of a tool's whole report text (and the root the tool ran in)."""


@dataclass(frozen=True)
class ByLine:
    """A parser of a report holding one JSON value per line (ruff's ``json-lines``).

    It is handed the open report and reads it line by line, so neither the report's text
    nor every parsed value is held at once.
    """

    parse: Callable[[Iterable[str], Path], tuple[RawFinding, ...]]


Parse = WholeReport | ByLine
"""How a tool's report is read."""


SHARD_MIN_BYTES = 1_000_000
"""A side is split only into parts of at least this much source: below it, a second process's
start-up (bandit imports for ~0.5 s) costs more than it saves."""


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity, not the machine's count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not Linux
        return max(1, os.cpu_count() or 1)


def shards_for(side: Side, limit: int) -> list[Side]:
    """``side`` split into at most ``limit`` parts of similar size (bytes on disk).

    Files go, largest first, to the part with the fewest bytes so far; each part keeps the
    side's order. One part (the side itself) when the files are too few or too small.
    """
    sizes = {}
    for path in side.files:
        try:
            sizes[path] = (side.root / path).stat().st_size
        except OSError:
            sizes[path] = 0
    count = min(limit, len(side.files), max(1, sum(sizes.values()) // SHARD_MIN_BYTES))
    if count <= 1:
        return [side]
    loads = [0] * count
    owner: dict[str, int] = {}
    for path in sorted(side.files, key=lambda p: -sizes[p]):
        part = loads.index(min(loads))
        owner[path] = part
        loads[part] += sizes[path]
    return [
        replace(side, files=tuple(p for p in side.files if owner[p] == part), shard=part + 1)
        for part in range(count)
    ]


def run_sharded(
    ctx: Context,
    deadline: Deadline,
    tool: str,
    *,
    side: Side,
    argv_for: Callable[[Side, Path], Sequence[str]],
    parse: Parse,
    limit: int,
) -> tuple[RawFinding, ...] | Skipped | TimedOut:
    """:func:`run_tool` on parts of ``side`` at once, for a tool whose findings for a file
    depend on that file alone (bandit: one interpreter, one core). The findings of every
    part, in the side's order; the first part's failure when any part fails (nothing is
    reported from a partial run)."""
    parts = shards_for(side, limit)
    if len(parts) == 1:
        return run_tool(
            ctx, deadline, tool, side=side, argv_for=lambda out: argv_for(side, out), parse=parse
        )

    def one(part: Side) -> tuple[RawFinding, ...] | Skipped | TimedOut:
        return run_tool(
            ctx, deadline, tool, side=part, argv_for=lambda out: argv_for(part, out), parse=parse
        )

    with ThreadPoolExecutor(max_workers=len(parts)) as pool:
        results = list(pool.map(one, parts))
    found: list[RawFinding] = []
    for result in results:
        if not isinstance(result, tuple):
            return result
        found.extend(result)
    order = {path: i for i, path in enumerate(side.files)}
    return tuple(sorted(found, key=lambda f: order.get(f.path, len(order))))


def run_tool(
    ctx: Context,
    deadline: Deadline,
    tool: str,
    *,
    side: Side,
    argv_for: Callable[[Path], Sequence[str]],
    parse: Parse,
) -> tuple[RawFinding, ...] | Skipped | TimedOut:
    """Run the tool with what time is left; its findings, or why there are none.

    ``argv_for`` gets the path the tool should write its report to (tools that print to
    stdout ignore it); the report file is read when it exists, stdout otherwise. A
    :class:`ByLine` parser reads the report file as a stream of lines.
    """
    remaining = deadline.remaining()
    if remaining <= 0:
        return TimedOut(f"{tool} had no time left for the {side.label} files")
    output = side.output_for(tool, ctx.workspace.tmp)
    output.unlink(missing_ok=True)
    result = ctx.run(argv_for(output), cwd=side.root, timeout_s=remaining, env=ctx.tool_env)
    if result.start_error is not None:
        return Skipped(f"{tool} could not start: {result.start_error}")
    if result.timed_out:
        return TimedOut(
            f"{tool} was killed after {result.duration_ms / 1000:.1f} s on the {side.label} files"
        )
    if result.returncode not in _NORMAL_EXITS:
        return Skipped(f"{tool} failed on the {side.label} files: {result.describe()}")
    try:
        return _read_report(parse, output, result.text, side.root)
    except OutputError as exc:
        return Skipped(f"{tool} output could not be read ({side.label} files): {exc}")


def _read_report(
    parse: Parse, output: Path, stdout: Callable[[], str], root: Path
) -> tuple[RawFinding, ...]:
    """The findings of the report file when the tool wrote one, of its stdout otherwise."""
    if isinstance(parse, ByLine):
        if not output.exists():
            return parse.parse(stdout().splitlines(), root)
        with output.open(encoding="utf-8", errors="replace") as report:
            return parse.parse(report, root)
    text = output.read_text(encoding="utf-8", errors="replace") if output.exists() else stdout()
    return parse(text, root)
