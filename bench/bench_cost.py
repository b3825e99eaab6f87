"""What one review would cost with the default models, planned exactly as a review plans it.

Run: ``.venv/bin/python bench/bench_cost.py [--files 800] [--corpus DIR] [--no-release]``.
For the synthetic release PR (``bench/synth_release.py``, 800 files, +170k/-60k lines) and for
every case of ``../shared/corpus/real``, the evidence pack is built as ``pr-review review``
builds it (verifiers included), then ``reviewers.run.plan_review`` plans the review units and
prices every call (fresh-eyes, the challenger where the lane calls for it) with the default
models and the configured prices; nothing is sent anywhere. Prints the release PR's units,
input tokens and estimated USD (target: at most $20), the five costliest units, and the
median, 90th percentile and maximum per PR of the real corpus.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus" / "real"
TARGET_USD = 20.0


def main(argv: list[str]) -> int:
    """Price the release PR and the real corpus; 1 when the release PR misses its target."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=800)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--no-release", action="store_true")
    parser.add_argument("--cache", type=Path, default=ROOT / "bench" / ".cache")
    args = parser.parse_args(argv[1:])
    ok = True
    if not args.no_release:
        from synth_release import ensure_release

        release = ensure_release(args.cache, args.files)
        units, tokens, cost = _price(release.repo, "main", "pr", "Release 2.0")
        usd = "unknown" if cost is None else f"${cost:.2f}"
        print(f"release PR ({args.files} files): {len(units)} unit(s), {tokens:,} input tokens, "
              f"estimated {usd} (target <= ${TARGET_USD:.0f})")  # fmt: skip
        for name, unit_tokens, unit_cost in sorted(units, key=lambda u: -(u[2] or 0))[:5]:
            print(f"    {name or '(whole PR)'}: {unit_tokens:,} tokens, ${unit_cost or 0:.3f}")
        ok = cost is not None and cost <= TARGET_USD
    if (args.corpus / "cases").is_dir():
        _corpus(args.corpus)
    return 0 if ok else 1


Row = tuple[str, int, float | None]


def _price(repo: Path, base: str, head: str, title: str) -> tuple[list[Row], int, float | None]:
    from pr_review.config import Config
    from pr_review.evidence.stage import build_evidence
    from pr_review.reviewers.redact import build_redactor
    from pr_review.reviewers.run import plan_review
    from pr_review.schema.enums import TrustMode
    from pr_review.sources.git import read_local_pr

    config = Config()
    pr = read_local_pr(repo, base, head, title=title, body="")
    pack = build_evidence(pr, config, trust_mode=TrustMode.UNTRUSTED)
    _, units = plan_review(pack, pr.diff, config.reviewers, build_redactor(pack, pr.diff))
    rows = [
        (u.suffix.lstrip(":"), u.estimated_input_tokens, u.estimated_cost_usd)
        for u in units.reviewable
    ]
    return rows, units.estimated_input_tokens, units.estimated_cost_usd


def _corpus(corpus: Path) -> None:
    from pr_review.corpus import clone_bundle
    from pr_review.evaluation.corpus import load_corpus

    costs: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        clones: dict[str, Path] = {}
        for case in load_corpus(corpus):
            spec = case.spec
            if spec.base is None or spec.head is None:
                continue  # the bundle form only
            if spec.repo not in clones:
                bundle = corpus / "repos" / f"{spec.repo}.bundle"
                clones[spec.repo] = clone_bundle(bundle, Path(tmp) / spec.repo)
            _, _, cost = _price(clones[spec.repo], spec.base, spec.head, spec.title)
            if cost is not None:
                costs.append(cost)
    if not costs:
        print("real corpus: no case priced")
        return
    costs.sort()
    p90 = costs[min(len(costs) - 1, int(0.9 * len(costs)))]
    print(f"real corpus ({len(costs)} PRs): median ${statistics.median(costs):.4f}, "
          f"90th percentile ${p90:.4f}, max ${costs[-1]:.4f} per PR")  # fmt: skip


if __name__ == "__main__":
    sys.exit(main(sys.argv))
