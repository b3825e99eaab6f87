"""``--timings``: stages delimited by progress messages; ``pack`` never loads the model SDK."""

from __future__ import annotations

import re
import subprocess
import sys

from pr_review.schema.enums import VerifierStatus
from pr_review.schema.pack import Verification, VerifierRun
from pr_review.timings import StageTimings


class Ticks:
    """A clock that advances by the given steps, one per reading."""

    def __init__(self, *times: float) -> None:
        self.times = list(times)

    def __call__(self) -> float:
        return self.times.pop(0)


def test_each_message_starts_a_stage_that_lasts_until_the_next() -> None:
    timings = StageTimings(clock=Ticks(1.0, 3.5, 3.75, 10.0), started=0.0)
    timings.mark("reading git")
    timings.mark("verifier ruff: pass")  # a milestone inside a stage, not a stage
    timings.mark("running verifiers")
    timings.mark("building the evidence pack")
    verification = Verification(
        verifiers=(VerifierRun(name="ruff", status=VerifierStatus.PASS, duration_ms=2250),)
    )
    timings.verifiers(verification)
    rows = [
        (name.strip(), float(seconds))
        for name, seconds in (
            re.fullmatch(r"timing: (.+?)\s+([0-9.]+) s", line).groups()  # type: ignore[union-attr]
            for line in timings.lines()
        )
    ]
    assert rows == [
        ("start-up (imports, arguments)", 1.0),
        ("reading git", 2.5),
        ("running verifiers", 0.25),
        ("building the evidence pack", 6.25),  # still running when the lines are made
        ("verifier ruff (pass)", 2.25),
        ("total", 10.0),
    ]


def _python(code: str) -> str:
    """What a fresh interpreter running ``code`` prints (stripped): imports start empty."""
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    return out.stdout.strip()


def test_pack_imports_neither_the_model_sdk_nor_the_later_stages() -> None:
    code = (
        "import sys\n"
        "from pr_review import cli, commands\n"
        "from pr_review.evidence.stage import build_evidence\n"
        "from pr_review.evidence.build import build_pack\n"
        "from pr_review.verifiers.run import run_verifiers\n"
        "later = ('pr_review.pipeline', 'pr_review.reviewers.run', 'pr_review.synthesis.core',\n"
        "         'pr_review.packet.markdown')\n"
        "heavy = sorted(m for m in ('anthropic', 'github', 'httpx', *later) if m in sys.modules)\n"
        "print(','.join(heavy))\n"
    )
    assert _python(code) == ""


def test_review_without_credentials_does_not_import_the_model_sdk() -> None:
    code = (
        "import sys\n"
        "from pr_review.config import Config\n"
        "from pr_review.pipeline import model_from_env\n"
        "model, why = model_from_env(Config(), {})\n"
        "print(model, why, 'anthropic' in sys.modules)\n"
    )
    assert _python(code) == "None no ANTHROPIC_API_KEY: AI reviewers did not run False"
