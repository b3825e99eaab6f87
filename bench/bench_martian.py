"""Replay other tools' review comments (Martian code-review benchmark) through synthesis.

Every tool's extracted comments for a PR become candidate findings (one origin per tool, no
location, text as title and why, severity and confidence unknown: the neutral default is
medium/medium with contextual-reasoning evidence, which no rule suppresses by itself). The
synthesizer clusters them and surfaces the clusters at least ``k`` independent tools raised
(``SynthesisSettings.min_origins``). The surfaced set is scored against the golden comments
with the benchmark's own judgements:

* a surfaced cluster is a true positive for golden comment G when any member is, by text,
  the candidate the judge matched to G in that member's tool evaluation;
* a surfaced cluster matching no golden comment is a false positive; a golden comment no
  surfaced cluster matches is a false negative; all micro-averaged over PRs (the README's
  rule). ``strict`` also counts a second cluster for an already-found golden comment as a
  false positive, as the benchmark does for a tool that repeats itself.

Each single tool is scored the same way with each of its comments as its own cluster (this
reproduces the benchmark's published table). Run::

    .venv/bin/python bench/bench_martian.py [--corpus ../shared/corpus/martian] [--judge all]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pr_review.schema.enums import Action, Confidence, EvidenceType, FindingSource, Severity
from pr_review.schema.finding import CandidateFinding, Evidence
from pr_review.synthesis import SynthesisSettings, synthesize

JUDGES = {
    "opus": "anthropic_claude-opus-4-5-20251101",
    "sonnet": "anthropic_claude-sonnet-4-5-20250929",
    "gpt": "openai_gpt-5.2",
}
CHOSEN_K = 2
"""Chosen before measuring: a finding needs one independent confirmation (the tile's own
notion of corroboration: two sources). The sweep over k is printed for transparency only."""


@dataclass
class Score:
    """Micro-averaged counts."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    strict_fp: int = 0

    def add(self, other: Score) -> None:
        """Accumulate another PR's counts."""
        self.tp += other.tp
        self.fp += other.fp
        self.fn += other.fn
        self.strict_fp += other.strict_fp

    def prf(self, *, strict: bool = False) -> tuple[float, float, float]:
        """Precision, recall and F1 in percent."""
        fp = self.strict_fp if strict else self.fp
        p = self.tp / (self.tp + fp) if self.tp + fp else 0.0
        r = self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0
        f = 2 * p * r / (p + r) if p + r else 0.0
        return 100 * p, 100 * r, 100 * f


def load(corpus: Path, judge: str) -> tuple[dict[str, object], dict[str, object]]:
    """candidates.json and evaluations.json of one judge."""
    base = corpus / "offline" / "results" / judge
    cands = json.loads((base / "candidates.json").read_text(encoding="utf-8"))
    evals = json.loads((base / "evaluations.json").read_text(encoding="utf-8"))
    return cands, evals


def goldens_of(
    pr_evals: dict[str, dict[str, object]],
) -> tuple[set[str], dict[tuple[str, str], set[str]]]:
    """The PR's golden comments, and (tool, candidate text) → golden comments it matched."""
    golden: set[str] = set()
    matched: dict[tuple[str, str], set[str]] = defaultdict(set)
    for tool, ev in pr_evals.items():
        for tp in ev.get("true_positives", []):  # type: ignore[union-attr]
            golden.add(tp["golden_comment"])
            matched[(tool, tp["matched_candidate"])].add(tp["golden_comment"])
        for fn in ev.get("false_negatives", []):  # type: ignore[union-attr]
            golden.add(fn["golden_comment"])
    return golden, matched


def candidates_of(pr: int, tools: dict[str, list[dict[str, object]]]) -> list[CandidateFinding]:
    """One candidate per distinct (tool, text); the benchmark keys candidates by text."""
    out = []
    for tool, items in sorted(tools.items()):
        texts = sorted({str(i["text"]) for i in items})
        for n, text in enumerate(texts):
            out.append(
                CandidateFinding(
                    finding_id=f"pr{pr}-{tool}-{n:03d}",
                    source=FindingSource.FRESH_EYES,
                    origin=tool,
                    title=text,
                    file="",
                    line_start=None,
                    line_end=None,
                    why_it_matters=text,
                    evidence=Evidence(type=EvidenceType.CONTEXTUAL_REASONING, detail=""),
                    confidence=Confidence.MEDIUM,
                    severity=Severity.MEDIUM,
                    action=Action.VERIFY,
                )
            )
    return out


def score_clusters(
    clusters: Sequence[Iterable[tuple[str, str]]],
    golden: set[str],
    matched: dict[tuple[str, str], set[str]],
) -> Score:
    """Score surfaced clusters (in rank order) of (tool, text) members against the goldens."""
    found: set[str] = set()
    s = Score()
    for members in clusters:
        hits = set().union(*(matched.get(m, set()) for m in members))
        if not hits:
            s.fp += 1
            s.strict_fp += 1
        elif hits <= found:
            s.strict_fp += 1
        found |= hits
    s.tp = len(found & golden)
    s.fn = len(golden - found)
    return s


def run_judge(corpus: Path, judge: str, ks: Sequence[int]) -> dict[str, object]:
    """Per-tool and synthesized scores for one judge, with diagnostics."""
    cands, evals = load(corpus, judge)
    tools = sorted({t for pr in evals.values() for t in pr})  # type: ignore[attr-defined]
    per_tool = {t: Score() for t in tools}
    synth = {k: Score() for k in ks}
    multi_gold = dict.fromkeys(ks, 0)
    sizes = {k: [0, 0] for k in ks}
    started = time.perf_counter()
    for n, pr_url in enumerate(sorted(evals)):
        golden, matched = goldens_of(evals[pr_url])  # type: ignore[arg-type]
        pr_cands = cands.get(pr_url, {})  # type: ignore[attr-defined]
        for t in tools:
            texts = sorted({str(i["text"]) for i in pr_cands.get(t, [])})
            per_tool[t].add(score_clusters([[(t, x)] for x in texts], golden, matched))
        findings = candidates_of(n, pr_cands)
        key = {f.finding_id: (f.producer, f.title) for f in findings}
        for k in ks:
            result = synthesize(
                findings,
                diff=None,
                verification=None,
                settings=SynthesisSettings(min_origins=k),
            )
            clusters = [[key[i] for i in (f.finding_id, *f.merged_ids)] for f in result.surfaced]
            synth[k].add(score_clusters(clusters, golden, matched))
            multi_gold[k] += sum(
                1 for c in clusters if len(set().union(*(matched.get(m, set()) for m in c))) > 1
            )
            sizes[k][0] += len(clusters)
            sizes[k][1] += sum(len(c) for c in clusters)
    return {
        "judge": judge,
        "per_tool": per_tool,
        "synth": synth,
        "multi_gold": multi_gold,
        "sizes": sizes,
        "seconds": time.perf_counter() - started,
    }


def print_judge(res: dict[str, object]) -> tuple[float, float]:
    """Print one judge's table; return (best single-tool F1, chosen synthesized F1)."""
    per_tool: dict[str, Score] = res["per_tool"]  # type: ignore[assignment]
    synth: dict[int, Score] = res["synth"]  # type: ignore[assignment]
    print(f"\n## judge {res['judge']}  ({res['seconds']:.1f} s for all k)\n")
    print("| set | TP | FP | FN | precision % | recall % | F1 % | strict P % | strict F1 % |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    rows = [(f"tool {t}", s) for t, s in per_tool.items()]
    rows += [
        (f"synthesized k={k}" + (" (chosen)" if k == CHOSEN_K else ""), s) for k, s in synth.items()
    ]
    for name, s in sorted(rows, key=lambda r: -r[1].prf()[2]):
        p, r, f = s.prf()
        sp, _, sf = s.prf(strict=True)
        print(
            f"| {name} | {s.tp} | {s.fp} | {s.fn} | {p:.1f} | {r:.1f} | {f:.1f} "
            f"| {sp:.1f} | {sf:.1f} |"
        )
    sizes: dict[int, list[int]] = res["sizes"]  # type: ignore[assignment]
    multi: dict[int, int] = res["multi_gold"]  # type: ignore[assignment]
    for k in synth:
        clusters, members = sizes[k]
        print(
            f"- k={k}: {clusters} surfaced clusters, mean size {members / max(clusters, 1):.2f}, "
            f"{multi[k]} matching more than one golden comment (over-merge indicator)"
        )
    best = max(s.prf()[2] for s in per_tool.values())
    return best, synth[CHOSEN_K].prf()[2] if CHOSEN_K in synth else 0.0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the replay for one judge or all, print the tables and the verdict."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=Path("../shared/corpus/martian"))
    parser.add_argument(
        "--judge", default="opus", help="opus, sonnet, gpt, a directory name, or all"
    )
    parser.add_argument("--k", default="1,2,3", help="min_origins values to sweep")
    args = parser.parse_args(argv)
    names = list(JUDGES.values()) if args.judge == "all" else [JUDGES.get(args.judge, args.judge)]
    ks = sorted({int(x) for x in args.k.split(",")} | {CHOSEN_K})
    ok = True
    for judge in names:
        best, chosen = print_judge(run_judge(args.corpus, judge, ks))
        beats = chosen > best
        ok &= beats
        print(
            f"\nchosen k={CHOSEN_K}: F1 {chosen:.1f} vs best single tool {best:.1f} → "
            f"{'beats' if beats else 'does NOT beat'} every single tool"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
