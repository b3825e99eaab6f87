"""Hand-built review outputs and a tiny corpus in tmp, for the eval tests."""

from __future__ import annotations

import json
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pr_review.evaluation.review import ReviewJob
from pr_review.schema.enums import (
    Action,
    Confidence,
    EvidenceType,
    FactorSeverity,
    FindingSource,
    Lane,
    Severity,
    VerifierSeverity,
    VerifierStatus,
)
from pr_review.schema.finding import Evidence, SynthesizedFinding
from pr_review.schema.pack import (
    Authorship,
    Diff,
    DiffStats,
    EvidencePack,
    PullRequestInfo,
    Risk,
    RiskFactor,
    TouchedFile,
    Verification,
    VerifierFinding,
    VerifierRun,
)
from pr_review.schema.run import ModelCall, ReviewerRun, ReviewerStatus, ReviewMeta
from pr_review.schema.verdicts import VerdictFile

MARKER = "<!-- pr-review-guardrails:packet -->"


@dataclass(frozen=True)
class Outcome:
    """Satisfies ``ReviewOutput`` like ``pipeline.ReviewOutcome`` does."""

    pack: EvidencePack
    findings: tuple[SynthesizedFinding, ...] = ()
    verdicts: VerdictFile | None = None
    meta: ReviewMeta = field(default_factory=ReviewMeta)
    packet_markdown: str = MARKER + "\nA review aid, not an approval.\n"


def pack(
    *,
    lane: Lane = Lane.GREEN,
    files: tuple[str, ...] = ("app.py",),
    factors: tuple[RiskFactor, ...] = (),
    ai: bool = False,
    verifiers: tuple[VerifierRun, ...] = (),
    raw_diff: str = "",
) -> EvidencePack:
    """An evidence pack with the parts the eval reads."""
    return EvidencePack(
        generated_at="2024-01-01T00:00:00Z",
        wall_clock_ms=1,
        pr=PullRequestInfo(number=0, title="t", description="d", url=""),
        authorship=Authorship(ai_assisted=ai, ai_tools=("copilot",) if ai else (),
                              total_commits=1),
        diff=Diff(
            stats=DiffStats(files_changed=len(files), insertions=1, deletions=0),
            touched_files=tuple(
                TouchedFile(path=f, change_type="modified", subsystem="app", insertions=1,
                            deletions=0)
                for f in files
            ),
            raw_diff=raw_diff,
        ),
        risk=Risk(lane=lane, factors=factors),
        verification=Verification(verifiers=verifiers),
    )


def finding(
    *,
    file: str = "app.py",
    line: int | None = 3,
    severity: Severity = Severity.HIGH,
    suppressed: bool = False,
    reason: str | None = None,
    category: str | None = None,
) -> SynthesizedFinding:
    """A surfaced (or suppressed) finding."""
    return SynthesizedFinding(
        finding_id=f"f-{file}-{line}-{severity.value}",
        source=FindingSource.FRESH_EYES,
        title=f"{severity.value} issue",
        file=file,
        line_start=line,
        line_end=line,
        why_it_matters="it breaks things",
        evidence=Evidence(type=EvidenceType.HUNK_LEVEL_CODE, detail="line"),
        confidence=Confidence.HIGH,
        severity=severity,
        action=Action.FIX,
        merged_confidence=Confidence.HIGH,
        suppressed=suppressed,
        suppression_reason=reason,
        category=category,
    )


def secrets_run(file: str, line: int) -> VerifierRun:
    """A secrets verifier run with one finding."""
    return VerifierRun(
        name="secrets",
        status=VerifierStatus.FAIL,
        findings=(VerifierFinding(file=file, line=line, message="AWS key",
                                  severity=VerifierSeverity.ERROR),),
    )


def meta(*, tokens: tuple[int, int] = (0, 0), cost: float | None = 0.0) -> ReviewMeta:
    """Reviewer metadata with one call when tokens are given."""
    calls = (ModelCall(reviewer="fresh_eyes", model="m", input_tokens=tokens[0],
                       output_tokens=tokens[1], cost_usd=cost),) if any(tokens) else ()
    status = ReviewerStatus.RAN if calls else ReviewerStatus.SKIPPED
    return ReviewMeta(reviewers=(ReviewerRun(name="fresh_eyes", status=status, calls=calls),))


# ---------------------------------------------------------------------- a tiny corpus

BASE_FILES = {
    "README.md": "# shop\n",
    "app/config.py": "TIMEOUT = 5\n",
}


def _diff(path: str, old: str | None, new: str) -> str:
    if old is None:
        lines = new.splitlines()
        body = "".join(f"+{line}\n" for line in lines)
        return (f"diff --git a/{path} b/{path}\nnew file mode 100644\n--- /dev/null\n"
                f"+++ b/{path}\n@@ -0,0 +1,{len(lines)} @@\n{body}")
    old_lines, new_lines = old.splitlines(), new.splitlines()
    body = "".join(f"-{x}\n" for x in old_lines) + "".join(f"+{x}\n" for x in new_lines)
    return (f"diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n"
            f"@@ -1,{len(old_lines)} +1,{len(new_lines)} @@\n{body}")


def write_case(root: Path, case: dict[str, Any], diff: str) -> Path:
    """Write ``cases/<id>/{case.json,pr.diff}``."""
    case_dir = root / "cases" / case["id"]
    case_dir.mkdir(parents=True)
    (case_dir / "case.json").write_text(json.dumps(case, indent=2), encoding="utf-8")
    (case_dir / "pr.diff").write_text(diff, encoding="utf-8")
    return case_dir


def tiny_corpus(root: Path) -> Path:
    """Three cases: a clean docs PR, an AI-assisted PR with a secret, a config change."""
    base = root / "repos" / "shop" / "base"
    for rel, text in BASE_FILES.items():
        (base / rel).parent.mkdir(parents=True, exist_ok=True)
        (base / rel).write_text(text, encoding="utf-8")
    commit = {"message": "change", "author": "Dev <dev@example.invalid>"}
    write_case(root, {
        "id": "docs", "repo": "shop", "title": "Docs", "body": "Adds a guide.",
        "commits": [commit],
        "expected": {"lane_any_of": ["green"], "no_high_findings": True},
        "criteria": [
            {"name": "Risk classified green", "description": "docs only", "max_score": 10},
            {"name": "No false positive findings",
             "description": "No high or critical findings are raised", "max_score": 10},
            {"name": "Minimal review overhead", "description": "brief", "max_score": 5},
        ],
    }, _diff("docs/guide.md", None, "# Guide\nUse it.\n"))
    write_case(root, {
        "id": "secret", "repo": "shop", "title": "Retry", "body": "Retries.",
        "commits": [{"message": "fix: retry\n\nCo-Authored-By: GitHub Copilot <c@github.com>",
                     "author": "Dev <dev@example.invalid>"}],
        "expected": {"lane_any_of": ["red"], "secrets": True, "ai_assisted": True},
        "criteria": [
            {"name": "Catches hardcoded secrets", "description": "keys", "max_score": 15},
            {"name": "Detects AI authorship", "description": "trailers", "max_score": 5},
            {"name": "Risk classified red", "description": "secrets", "max_score": 10},
        ],
        "expected_lines": [{"path": "app/config.py", "start": 2, "end": 2}],
    }, _diff("app/config.py", "TIMEOUT = 5", "TIMEOUT = 5\nPASSWORD = 'hunter2'"))
    write_case(root, {
        "id": "timeout", "repo": "shop", "title": "Timeout", "body": "",
        "commits": [commit],
        "expected": {"lane_any_of": ["yellow", "red"]},
        "criteria": [
            {"name": "Catches zero timeout", "description": "TIMEOUT=0 hangs", "max_score": 15},
            {"name": "Risk classified yellow or higher", "description": "", "max_score": 10},
        ],
    }, _diff("app/config.py", "TIMEOUT = 5", "TIMEOUT = 0"))
    return root


def git_out(repo: Path, *args: str) -> str:
    """Run git in the case repository."""
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True,
                          check=True).stdout


def fake_review(job: ReviewJob, out_dir: Path) -> Outcome:
    """A stand-in pipeline that reads the real materialized repository.

    Lane: green for docs-only, red when a secret-looking assignment is added, else yellow.
    """
    repo = job.repo
    diff = git_out(repo.repo, "diff", f"{repo.base}...{repo.head}")
    files = tuple(git_out(repo.repo, "diff", "--name-only", f"{repo.base}...{repo.head}").split())
    log = git_out(repo.repo, "log", "--format=%B", f"{repo.base}..{repo.head}")
    secret = re.search(r"^\+(\w*PASSWORD\w*) = ", diff, re.M)
    lane = (Lane.GREEN if all(f.endswith(".md") for f in files)
            else Lane.RED if secret else Lane.YELLOW)
    verifiers = (secrets_run(files[0], 2),) if secret else ()
    findings = (finding(file=files[0], line=2, category="secrets"),) if secret else ()
    calls = (10, 5) if job.model is not None else (0, 0)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "packet.md").write_text(MARKER, encoding="utf-8")
    return Outcome(
        pack=pack(
            lane=lane,
            files=files,
            factors=(RiskFactor(factor="secrets", files=files, severity=FactorSeverity.RED),)
            if secret else (),
            ai="Co-Authored-By: GitHub Copilot" in log,
            verifiers=verifiers,
            raw_diff=diff,
        ),
        findings=findings,
        meta=meta(tokens=calls, cost=0.01 if job.model is not None else 0.0),
        packet_markdown=f"{MARKER}\nLane {lane.value}. A review aid, not an approval.\n",
    )


# ------------------------------------------------------------ a bundle-form corpus


def bundle_corpus(root: Path, work: Path) -> Path:
    """A corpus mixing forms: ``repos/shop.bundle`` with three PRs, plus the diff-form cases.

    Bundle cases: ``b-docs`` (docs only, expects green), ``b-secret`` (a placeholder-looking
    password, but the case says ``secrets: false`` and accepts only red), ``b-code`` (a code
    change that accepts yellow or red). Their commits are real commits in the bundle.
    """
    from tests.gitrepo import GitRepo

    tiny_corpus(root)
    repo = GitRepo.init(work / "shop")
    for rel, text in BASE_FILES.items():
        repo.write(rel, text)
    base = repo.commit("base")
    heads = {}
    for name, path, text in (
        ("docs", "docs/guide.md", "# Guide\n"),
        ("secret", "app/config.py", "TIMEOUT = 5\nPASSWORD = 'hunter2'\n"),
        ("code", "app/config.py", "TIMEOUT = 0\n"),
    ):
        repo.branch(name, base)
        repo.write(path, text)
        heads[name] = repo.commit(f"change {name}\n\nbody of {name}")
    repo.run("bundle", "create", "-q", str(root / "repos" / "shop.bundle"), "--all")
    expected: dict[str, dict[str, Any]] = {
        "docs": {"lane_any_of": ["green"]},
        "secret": {"lane_any_of": ["red"], "secrets": False},
        "code": {"lane_any_of": ["yellow", "red"]},
    }
    for name, head in heads.items():
        case_dir = root / "cases" / f"b-{name}"
        case_dir.mkdir(parents=True)
        case = {"id": f"b-{name}", "repo": "shop", "base": base, "head": head,
                "title": f"Change {name}", "body": "", "labels": [], "commits": [],
                "expected": expected[name], "criteria": [], "source": "built in tests"}
        (case_dir / "case.json").write_text(json.dumps(case, indent=2), encoding="utf-8")
    return root
