"""The subprocess choke point, against real tiny commands."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from pr_review.process import run


def test_success_returns_output() -> None:
    result = run([sys.executable, "-c", "print('hi')"], timeout_s=30)
    assert result.ok
    assert result.text() == "hi\n"
    assert result.duration_ms >= 0


def test_failure_is_a_value_not_an_exception() -> None:
    result = run([sys.executable, "-c", "import sys; sys.exit('boom')"], timeout_s=30)
    assert not result.ok
    assert result.returncode == 1
    assert "boom" in result.describe()


def test_missing_executable_reports_start_error() -> None:
    result = run(["definitely-not-a-command-xyz"], timeout_s=5)
    assert result.returncode is None
    assert result.start_error is not None
    assert "could not start" in result.describe()


def test_timeout_kills_the_process_group(tmp_path: Path) -> None:
    marker = tmp_path / "child.pid"
    script = (
        "import subprocess, sys, time\n"
        f"child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
        f"open({str(marker)!r}, 'w').write(str(child.pid))\n"
        "time.sleep(60)\n"
    )
    started = time.monotonic()
    result = run([sys.executable, "-c", script], timeout_s=1.5)
    assert result.timed_out
    assert time.monotonic() - started < 20
    child_pid = int(marker.read_text())
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and Path(f"/proc/{child_pid}").exists():
        status = (
            Path(f"/proc/{child_pid}/status").read_text()
            if Path(f"/proc/{child_pid}/status").exists()
            else ""
        )
        if "State:\tZ" in status:
            break
        time.sleep(0.05)
    status_file = Path(f"/proc/{child_pid}/status")
    assert not status_file.exists() or "State:\tZ" in status_file.read_text()


def test_env_replaces_environment() -> None:
    result = run(
        [sys.executable, "-c", "import os; print(sorted(os.environ))"],
        timeout_s=30,
        env={"ONLY_THIS": "1"},
    )
    assert "ONLY_THIS" in result.text()
    assert "HOME" not in result.text()


def test_a_sink_gets_the_output_while_the_command_still_runs(tmp_path: Path) -> None:
    """The command waits for a file the sink creates on the first piece: without streaming it
    would wait until its timeout."""
    go = tmp_path / "go"
    script = (
        "import os, sys, time\n"
        "sys.stdout.write('first\\n'); sys.stdout.flush()\n"
        f"while not os.path.exists({str(go)!r}): time.sleep(0.01)\n"
        "sys.stdout.write('second\\n'); sys.stderr.write('done\\n')\n"
    )
    pieces: list[bytes] = []

    def sink(piece: bytes) -> None:
        pieces.append(piece)
        go.touch()

    result = run([sys.executable, "-c", script], timeout_s=20, stdout_sink=sink)
    assert result.ok
    assert not result.timed_out
    assert b"".join(pieces) == b"first\nsecond\n"
    assert result.stdout == b""
    assert result.error_text() == "done\n"


def test_streaming_large_outputs_on_both_pipes_does_not_block() -> None:
    script = (
        "import sys\n"
        "for i in range(20000):\n"
        "    sys.stdout.write(f'{i:08d} out\\n'); sys.stderr.write(f'{i:08d} err\\n')\n"
    )
    pieces: list[bytes] = []
    result = run([sys.executable, "-c", script], timeout_s=60, stdout_sink=pieces.append)
    assert result.ok
    lines = b"".join(pieces).decode().splitlines()
    assert lines == [f"{i:08d} out" for i in range(20000)]
    assert result.error_text().count(" err\n") == 20000


def test_streaming_feeds_stdin() -> None:
    pieces: list[bytes] = []
    result = run(
        [sys.executable, "-c", "import sys; sys.stdout.write(sys.stdin.read().upper())"],
        timeout_s=30,
        stdin=b"x" * 300_000,
        stdout_sink=pieces.append,
    )
    assert result.ok
    assert b"".join(pieces) == b"X" * 300_000


def test_streaming_times_out_and_keeps_what_arrived() -> None:
    script = "import sys, time; print('early', flush=True); time.sleep(60)"
    pieces: list[bytes] = []
    started = time.monotonic()
    result = run([sys.executable, "-c", script], timeout_s=1.5, stdout_sink=pieces.append)
    assert result.timed_out
    assert result.returncode is None
    assert b"".join(pieces) == b"early\n"
    assert time.monotonic() - started < 20


def test_a_failing_sink_stops_the_command_and_raises() -> None:
    script = "import time\nwhile True: print('x' * 100, flush=True); time.sleep(0.001)"

    def sink(_: bytes) -> None:
        raise ValueError("cannot use this output")

    started = time.monotonic()
    with pytest.raises(ValueError, match="cannot use"):
        run([sys.executable, "-c", script], timeout_s=60, stdout_sink=sink)
    assert time.monotonic() - started < 20


def test_streaming_a_missing_executable_reports_start_error() -> None:
    result = run(["definitely-not-a-command-xyz"], timeout_s=5, stdout_sink=lambda _: None)
    assert result.start_error is not None
