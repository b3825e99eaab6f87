"""Synthesis + packet time per finding, at 1k, 10k and 100k verifier findings (issue 16).

Run: ``.venv/bin/python bench/bench_findings.py [--sizes 1000,10000,100000] [--reps 3]``

Each size is a synthetic change (50 findings per file, on added lines, a mix of ruff,
bandit and secrets rules, some on the same or neighbouring lines so clustering has work to
do) reviewed in process exactly as ``run_review`` does after the reviewers: verifier
findings become candidates, ``synthesize`` clusters and ranks them, ``compare`` marks them
new, the packet markdown and the SARIF log are rendered. The diff parse and the pack are
built before the clock starts. Prints the median time and the time per finding; the target
is a flat time per finding: the largest size at most 2x the smallest's per-finding time.
Exit 1 when it is missed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PER_FILE = 50
FLAT_TARGET = 2.0
_RULES = (
    ("ruff", "F841", "Local variable `x` is assigned to but never used"),
    ("ruff", "F821", "Undefined name `y`"),
    ("bandit", "B602", "subprocess call with shell=True identified"),
    ("secrets", "secret_keyword", "Possible Secret Keyword added on this line"),
)


def synthetic_diff(files: int) -> str:
    """A diff adding ``PER_FILE * 2`` lines to each of ``files`` new files."""
    out = []
    lines = PER_FILE * 2
    for i in range(files):
        path = f"src/pkg{i % 40}/mod_{i:05d}.py"
        out.append(f"diff --git a/{path} b/{path}\nnew file mode 100644\n--- /dev/null\n")
        out.append(f"+++ b/{path}\n@@ -0,0 +1,{lines} @@\n")
        out.extend(f"+value_{n} = compute({n}, limit={i})\n" for n in range(lines))
    return "".join(out)


def verification_of(files: int) -> object:
    """``PER_FILE`` findings per file: pairs on one line, neighbours, and lone ones."""
    from pr_review.schema.enums import VerifierSeverity, VerifierStatus
    from pr_review.schema.pack import Verification, VerifierFinding, VerifierRun

    by_tool: dict[str, list[VerifierFinding]] = {name: [] for name, _, _ in _RULES}
    for i in range(files):
        path = f"src/pkg{i % 40}/mod_{i:05d}.py"
        for k in range(PER_FILE):
            tool, rule, message = _RULES[k % len(_RULES)]
            line = 1 + (k * 2 if k % 5 else k * 2 - 1 if k else 1)
            severity = VerifierSeverity.ERROR if k % 3 == 0 else VerifierSeverity.WARNING
            by_tool[tool].append(
                VerifierFinding(
                    file=path, line=line, message=message, severity=severity, rule_id=rule
                )
            )
    runs = tuple(
        VerifierRun(name=name, status=VerifierStatus.FAIL, findings=tuple(found))
        for name, found in by_tool.items()
    )
    return Verification(verifiers=runs)


def review_findings(pack: object, diff: object, verification: object) -> int:
    """What ``run_review`` does with the findings after the reviewers; findings out."""
    from tests.packet.fixtures import meta

    from pr_review import __version__
    from pr_review.config import Config
    from pr_review.packet.markdown import render_packet
    from pr_review.packet.model import PacketInput
    from pr_review.packet.sarif import to_sarif
    from pr_review.synthesis.core import synthesize
    from pr_review.synthesis.memory import build_memory, compare
    from pr_review.verifiers.candidates import verifier_candidates

    candidates = verifier_candidates(verification, diff)  # type: ignore[arg-type]
    result = synthesize(
        candidates,
        diff=diff,  # type: ignore[arg-type]
        verification=verification,  # type: ignore[arg-type]
        settings=Config().synthesis,
    )
    findings, memory_diff = compare(None, result.findings)
    memory = build_memory("0" * 40, "bench", findings)
    packet = PacketInput(
        pack=pack,  # type: ignore[arg-type]
        findings=findings,
        meta=meta(ai=False),
        memory_diff=memory_diff,
        state=memory,
    )
    render_packet(packet)
    to_sarif(findings, tool_version=__version__)
    return len(findings)


def _fresh_caches() -> None:
    """Empty the caches that hold finding text, so every repetition costs what one review in a
    fresh process does (a warm cache made small sizes look cheaper than a real run is)."""
    from pr_review.evidence import paths
    from pr_review.synthesis import text
    from pr_review.verifiers import sanitize

    for cached in (sanitize.mask_secrets, text.terms, text.stem, paths.classify, paths.segments):
        cached.cache_clear()


def main(argv: list[str]) -> int:
    """Time each size; print per-finding times; exit 1 when they are not flat."""
    from tests.packet.fixtures import pack as make_pack

    from pr_review.schema.enums import Lane
    from pr_review.sources.diff import parse_diff

    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--sizes", default="1000,10000,100000", help="finding counts")
    parser.add_argument("--reps", type=int, default=3, help="repetitions per size (3)")
    args = parser.parse_args(argv[1:])
    sizes = [int(s) for s in args.sizes.split(",")]
    per_finding: dict[int, float] = {}
    warm = parse_diff(synthetic_diff(2))  # imports and caches warmed outside the clock
    warm_v = verification_of(2)
    review_findings(make_pack(Lane.YELLOW, verification=warm_v), warm, warm_v)
    print(
        f"{'findings':>9} {'out':>8} {'median s':>9} {'us/finding':>11}   (median of {args.reps})"
    )
    for size in sizes:
        files = max(1, size // PER_FILE)
        diff = parse_diff(synthetic_diff(files))
        verification = verification_of(files)
        pack = make_pack(Lane.YELLOW, verification=verification)
        times = []
        out = 0
        for _ in range(args.reps):
            _fresh_caches()
            started = time.perf_counter()
            out = review_findings(pack, diff, verification)
            times.append(time.perf_counter() - started)
        median = statistics.median(times)
        per_finding[size] = median / size
        print(f"{size:9d} {out:8d} {median:9.2f} {per_finding[size] * 1e6:11.1f}", flush=True)
    ratio = per_finding[sizes[-1]] / per_finding[sizes[0]]
    ok = ratio <= FLAT_TARGET
    print(
        f"\nper-finding time, {sizes[-1]} vs {sizes[0]}: {ratio:.2f}x "
        f"(target <= {FLAT_TARGET}x: flat)  {'PASS' if ok else 'FAIL'}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
