"""Running one built-in tool on one side (head or base) of the PR and reading its output."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
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

    def output_for(self, tool: str, tmp: Path) -> Path:
        """The report file of ``tool`` on this side."""
        return tmp / f"{tool}-{self.label}.out"


def run_tool(
    ctx: Context,
    deadline: Deadline,
    tool: str,
    *,
    side: Side,
    argv_for: Callable[[Path], Sequence[str]],
    parse: Callable[[str, Path], tuple[RawFinding, ...]],
) -> tuple[RawFinding, ...] | Skipped | TimedOut:
    """Run the tool with what time is left; its findings, or why there are none.

    ``argv_for`` gets the path the tool should write its report to (tools that print to
    stdout ignore it); the report file is read when it exists, stdout otherwise.
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
            f"{tool} was killed after {result.duration_ms / 1000:.1f} s "
            f"on the {side.label} files"
        )
    if result.returncode not in _NORMAL_EXITS:
        return Skipped(f"{tool} failed on the {side.label} files: {result.describe()}")
    text = output.read_text(encoding="utf-8", errors="replace") if output.exists() else (
        result.text()
    )
    try:
        return parse(text, side.root)
    except OutputError as exc:
        return Skipped(f"{tool} output could not be read ({side.label} files): {exc}")
