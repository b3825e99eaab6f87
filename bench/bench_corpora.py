"""The risk lane on real merged PRs, per repository and per half, as published and neutral.

Run: ``.venv/bin/python bench/bench_corpora.py [--half tune report ... shared] [--titles both]
[--concurrency 2] [--no-cases] [--lanes-only] [--corpora DIR]``

Corpora (bundle form, read by ``pr-review eval``): ``bench/corpora/<half>`` for every half
``bench/corpora/split.json`` lists (tune, report, holdout to holdout24; built by
``bench/build_corpora.py``; a half built outside the budget is read from ``--corpora DIR``)
and ``../shared/corpus/real`` (requests + flask, half ``shared``). Each is measured twice:
with the PRs' real titles, descriptions and commit messages, and with all of them replaced by
a neutral "Update code" (the bundle's commits are re-made with the same trees, authors and
dates), so security fixes must be caught by what the code does.

Per repository and per half it prints: ordinary PRs (cases that do not accept red) and the false
reds among them, security fixes (cases that accept only red) red and green, behaviour-neutral PRs
(cases that accept only green) kept green. The reds of every repository above 3% false reds are
listed, unless ``--no-cases`` (used to write a report half's figures before reading any of its
individual failures). Progress goes to stderr. Exit 0 (a measurement, not a gate).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from build_corpora import CORPORA, ROOT, halves  # this script's folder is on sys.path

HALVES = {
    **{half: CORPORA / half for half in halves()},
    "shared": ROOT.parent / "shared" / "corpus" / "real",
}
NEUTRAL = "Update code"
FALSE_RED_LIMIT = 0.03


@dataclass
class Figures:
    """Counts for one repository (or a total)."""

    ordinary: int = 0
    false_reds: list[str] = field(default_factory=list)
    security: int = 0
    security_red: int = 0
    security_green: list[str] = field(default_factory=list)
    neutral: int = 0
    neutral_green: int = 0
    errors: list[str] = field(default_factory=list)

    def add(self, other: Figures) -> None:
        """Fold another repository's counts in."""
        self.ordinary += other.ordinary
        self.false_reds += other.false_reds
        self.security += other.security
        self.security_red += other.security_red
        self.security_green += other.security_green
        self.neutral += other.neutral
        self.neutral_green += other.neutral_green
        self.errors += other.errors


def _git(cwd: Path, *args: str, env: dict[str, str] | None = None) -> str:
    import os
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False,
                          env={**os.environ, **(env or {})}, timeout=600)
    if done.returncode:
        raise RuntimeError(f"git {args[0]}: {done.stderr.decode(errors='replace').strip()}")
    return done.stdout.decode("utf-8", errors="replace")


def neutral_copy(corpus: Path, dest: Path) -> Path:
    """A copy of ``corpus`` whose titles, bodies and commit messages say only "Update code"."""
    (dest / "repos").mkdir(parents=True)
    cases = sorted((corpus / "cases").glob("*/case.json"))
    by_repo: dict[str, list[tuple[Path, dict[str, object]]]] = defaultdict(list)
    for path in cases:
        spec = json.loads(path.read_text())
        by_repo[str(spec["repo"])].append((path, spec))
    for repo, specs in by_repo.items():
        git_dir = dest / "work" / f"{repo}.git"
        git_dir.mkdir(parents=True)
        _git(git_dir, "init", "-q", "--bare")
        _git(git_dir, "fetch", "-q", str((corpus / "repos" / f"{repo}.bundle").resolve()),
             "+refs/*:refs/*")
        for _path, spec in specs:
            base, head = str(spec["base"]), str(spec["head"])
            shas = _git(git_dir, "rev-list", "--reverse", "--topo-order",
                        f"{base}..{head}").split()
            parent = base
            for sha in shas:
                fmt = "%an%x00%ae%x00%ad%x00%cn%x00%ce%x00%cd"
                an, ae, ad, cn, ce, cd = _git(git_dir, "log", "-1", "--date=raw",
                                              f"--format={fmt}", sha).split("\x00")
                env = {"GIT_AUTHOR_NAME": an, "GIT_AUTHOR_EMAIL": ae, "GIT_AUTHOR_DATE": ad,
                       "GIT_COMMITTER_NAME": cn, "GIT_COMMITTER_EMAIL": ce,
                       "GIT_COMMITTER_DATE": cd.strip()}
                parent = _git(git_dir, "commit-tree", f"{sha}^{{tree}}", "-p", parent,
                              "-m", NEUTRAL, env=env).strip()
            case_id = str(spec["id"])
            _git(git_dir, "update-ref", f"refs/neutral/{case_id}/base", base)
            _git(git_dir, "update-ref", f"refs/neutral/{case_id}/head", parent)
            commits = spec.get("commits") or []
            new = {**spec, "head": parent, "title": NEUTRAL, "body": "",
                   "commits": [{**c, "message": NEUTRAL} for c in commits]}  # type: ignore[union-attr]
            out = dest / "cases" / case_id
            out.mkdir(parents=True)
            (out / "case.json").write_text(json.dumps(new, indent=2) + "\n")
        _git(git_dir, "bundle", "create", "-q", str((dest / "repos" / f"{repo}.bundle").resolve()),
             "--all")
        shutil.rmtree(git_dir)
    return dest


def measure(
    corpus: Path, out_dir: Path, concurrency: int, config: Path | None = None,
    details: list[dict[str, object]] | None = None,
) -> dict[str, Figures]:
    """Review every case of ``corpus``; figures per repository."""
    from pr_review.evaluation.api import run_eval
    from pr_review.evaluation.results import CaseStatus
    from pr_review.evaluation.runner import RunSettings

    specs = {}
    for path in (corpus / "cases").glob("*/case.json"):
        spec = json.loads(path.read_text())
        specs[spec["id"]] = spec
    report = run_eval(corpus, config_path=config, settings=RunSettings(
        out_dir=out_dir, concurrency=concurrency, grade=False,
    ))
    per_repo: dict[str, Figures] = defaultdict(Figures)
    for m in report.summary.cases:
        spec = specs[m.case_id]
        fig = per_repo[spec["repo"]]
        accepted = set(spec["expected"].get("lane_any_of") or ())
        lane = m.lane.actual.value if m.lane.actual else None
        factors = ", ".join(f"{f.factor}[{f.severity}]" for f in m.factors if f.severity == "red")
        factors = factors or ", ".join(f.factor for f in m.factors)
        if details is not None:
            pack = out_dir / "cases" / m.case_id / "review" / "evidence-pack.json"
            risk = json.loads(pack.read_text())["risk"] if pack.is_file() else {}
            details.append({
                "case": m.case_id, "repo": spec["repo"], "accepted": sorted(accepted),
                "lane": lane, "title": spec.get("title"), "factors": risk.get("factors", []),
            })
        if m.status is CaseStatus.ERROR or lane is None:
            fig.errors.append(f"{m.case_id}: {m.error}")
            continue
        if accepted == {"red"}:
            fig.security += 1
            fig.security_red += lane == "red"
            if lane == "green":
                fig.security_green.append(m.case_id)
        elif "red" not in accepted:
            fig.ordinary += 1
            if lane == "red":
                fig.false_reds.append(f"{m.case_id} ({spec['title'][:60]!r}): {factors}")
        if accepted == {"green"}:
            fig.neutral += 1
            fig.neutral_green += lane == "green"
    return per_repo


def _pct(n: int, d: int) -> str:
    return f"{n}/{d} ({100 * n / d:.0f}%)" if d else "-"


def render(title: str, per_repo: dict[str, Figures], show_cases: bool) -> None:
    """The table for one half and one title mode."""
    print(f"\n## {title}")
    head = (f"{'repository':14} {'ordinary false reds':22} {'security red':16} "
            f"{'sec green':9} {'neutral green':15}")
    print(head)
    print("-" * len(head))
    total = Figures()
    for repo in sorted(per_repo):
        f = per_repo[repo]
        total.add(f)
        over = f.ordinary and len(f.false_reds) / f.ordinary > FALSE_RED_LIMIT
        print(f"{repo:14} {_pct(len(f.false_reds), f.ordinary):22} "
              f"{_pct(f.security_red, f.security):16} {len(f.security_green):<9} "
              f"{_pct(f.neutral_green, f.neutral):15}"
              + ("  > 3%" if over else "") + (f"  errors {len(f.errors)}" if f.errors else ""))
    print(f"{'TOTAL':14} {_pct(len(total.false_reds), total.ordinary):22} "
          f"{_pct(total.security_red, total.security):16} {len(total.security_green):<9} "
          f"{_pct(total.neutral_green, total.neutral):15}")
    if not show_cases:
        print("(individual cases hidden: --no-cases)")
        return
    for repo in sorted(per_repo):
        f = per_repo[repo]
        if f.ordinary and len(f.false_reds) / f.ordinary > FALSE_RED_LIMIT:
            print(f"  {repo} reds among ordinary PRs:")
            for line in f.false_reds:
                print(f"    {line}")
        for case in f.security_green:
            print(f"  {repo} security fix GREEN: {case}")
        for err in f.errors:
            print(f"  {repo} error: {err}")


def _config_file(given: Path | None, lanes_only: bool, tmp: Path) -> Path | None:
    """``--config`` as given, with the verifiers turned off under ``--lanes-only``."""
    if given is None and not lanes_only:
        return None
    from pr_review import yamlfiles

    data = (yamlfiles.load(given.read_text(encoding="utf-8")) if given is not None else None) or {}
    if lanes_only:
        data.setdefault("verifiers", {})["enabled"] = False
    path = tmp / "config.yml"
    path.write_text(json.dumps(data), encoding="utf-8")  # JSON is YAML
    return path


def main(argv: list[str]) -> int:
    """Measure the chosen halves in the chosen title modes and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--half", nargs="+", choices=sorted(HALVES), default=list(HALVES),
                        help="halves to measure (default: every half of split.json and shared)")
    parser.add_argument("--titles", choices=["published", "neutral", "both"], default="both")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--no-cases", action="store_true",
                        help="print figures only, no individual cases")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--details", type=Path,
                        help="write every case's lane and factors here (JSON lines per half and "
                             "title mode; the file is emptied first): for reading a tune half; "
                             "never before a report half's figures are written")
    parser.add_argument("--corpora", type=Path,
                        help="also look here for a half's <half>/cases and <half>/repos (a half "
                             "built outside bench/corpora's budget: build_corpora.py build --out)")
    parser.add_argument("--lanes-only", action="store_true",
                        help="verifiers off (the lane does not read them): a faster run")
    parser.add_argument("--config", type=Path,
                        help="review every case with this .pr-review/config.yml (a repository's "
                             "caps, overrides); --lanes-only still turns the verifiers off")
    args = parser.parse_args(argv[1:])
    modes = ["published", "neutral"] if args.titles == "both" else [args.titles]
    results: dict[str, object] = {}
    if args.details:
        args.details.write_text("", encoding="utf-8")  # this run's rows only (each half appends)
    for half in args.half:
        corpus = HALVES[half]
        if args.corpora is not None and (args.corpora / half / "cases").is_dir():
            corpus = args.corpora / half
        if not (corpus / "cases").is_dir():
            print(f"bench_corpora: {half}: skipped, no corpus at {corpus}")
            continue
        for mode in modes:
            started = time.perf_counter()
            print(f"[{half} / {mode}] reviewing ...", file=sys.stderr, flush=True)
            with tempfile.TemporaryDirectory(prefix="bench-corpora-") as tmp:
                source = corpus if mode == "published" else neutral_copy(corpus, Path(tmp) / "c")
                config = _config_file(args.config, args.lanes_only, Path(tmp))
                details: list[dict[str, object]] | None = [] if args.details else None
                per_repo = measure(source, Path(tmp) / "out", args.concurrency, config, details)
                if args.details and details is not None:
                    with args.details.open("a", encoding="utf-8") as out:
                        for row in details:
                            out.write(json.dumps({"half": half, "titles": mode, **row}) + "\n")
            wall = time.perf_counter() - started
            render(f"{half} half, titles {mode} ({wall:.0f} s)", per_repo, not args.no_cases)
            results[f"{half}/{mode}"] = {
                repo: {"ordinary": f.ordinary, "false_reds": len(f.false_reds),
                       "security": f.security, "security_red": f.security_red,
                       "security_green": len(f.security_green), "neutral": f.neutral,
                       "neutral_green": f.neutral_green, "errors": len(f.errors)}
                for repo, f in per_repo.items()}
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
