"""The subprocess choke point, against real tiny commands."""

from __future__ import annotations

import sys
import time
from pathlib import Path

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
