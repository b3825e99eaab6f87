"""A flood: one ruff rule tripped ~200,000 times across 800 files, `pack` vs `review`.

Run: ``.venv/bin/python bench/bench_flood.py [--files 800] [--per-file 260] [--reps 3]
[--src SRC]``

Builds (once, cached in ``bench/.cache``) a repository whose PR adds ``--files`` Python files
of ``--per-file`` lines, each line a use of an undefined name (ruff ``F821``, in the default
set), plus one file holding a credential, so the secrets verifier has something to find.
Then runs ``pr-review pack`` and ``pr-review review`` (no model key) side by side,
``--reps`` times each, and prints medians: wall seconds, the peak RSS of the whole process
tree (the command and every tool it starts, sampled from /proc every 50 ms), the size of
``findings.json``, how many findings it holds, and whether the secrets verifier completed
and found the credential. ``--src`` measures another checkout's ``src`` (before/after).

Targets (issue 23): review <= 1.3x pack; peak RSS <= 1 GB; findings.json < 20 MB; the
secrets verifier completed. Exit 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "bench" / ".cache"
RATIO_TARGET = 1.3
RSS_TARGET = 1024**3
FINDINGS_TARGET = 20 * 1024**2
SECRET = "AKIA" + "Z7Q4" + "XW2M" + "9PLK" + "3RTV"


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def ensure_repo(files: int, per_file: int) -> Path:
    """The cached flood repository (branch ``main``, PR branch ``pr``)."""
    repo = CACHE / f"flood-{files}x{per_file}"
    if (repo / ".git" / "refs" / "heads" / "pr").is_file():
        return repo
    repo.mkdir(parents=True, exist_ok=True)
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "config", "user.email", "bench@example.com")
    _git(repo, "config", "user.name", "bench")
    (repo / "README.md").write_text("# flood\n", encoding="utf-8")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "base")
    _git(repo, "checkout", "-q", "-b", "pr")
    for i in range(files):
        folder = repo / "pkg" / f"part{i // 100:02}"
        folder.mkdir(parents=True, exist_ok=True)
        lines = [f"value_{n} = missing_{n}\n" for n in range(per_file)]
        (folder / f"mod{i:04}.py").write_text("".join(lines), encoding="utf-8")
    (repo / "pkg" / "settings.py").write_text(f'AWS_KEY = "{SECRET}"\n', encoding="utf-8")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "Generated bindings")
    return repo


def _tree_rss(root_pid: int) -> int:
    """Resident bytes of ``root_pid`` and all its descendants, from /proc."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", encoding="ascii", errors="replace") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(entry.name)
        parents[pid] = int(fields[1])
        rss[pid] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
    tree = {root_pid}
    grew = True
    while grew:
        grew = False
        for pid, parent in parents.items():
            if parent in tree and pid not in tree:
                tree.add(pid)
                grew = True
    return sum(rss.get(pid, 0) for pid in tree)


def run_sampled(argv: list[str], env: dict[str, str]) -> tuple[float, int, int]:
    """Wall seconds, peak process-tree RSS and exit code of one command."""
    peak = 0
    start = time.monotonic()
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, _tree_rss(proc.pid))
            time.sleep(0.05)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, err = proc.communicate()
    elapsed = time.monotonic() - start
    done.set()
    sampler.join()
    if proc.returncode not in (0, 1):
        sys.stderr.write(err.decode(errors="replace")[-2000:])
        raise SystemExit(f"{argv[3]} failed with exit {proc.returncode}")
    return elapsed, peak, proc.returncode


def main(argv: list[str]) -> int:
    """Measure and report; 1 when a target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=800)
    parser.add_argument("--per-file", type=int, default=260)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--src", type=Path, help="another checkout's src directory")
    args = parser.parse_args(argv[1:])
    repo = ensure_repo(args.files, args.per_file)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "GITHUB_"))}
    env["PYTHONPATH"] = str(args.src or ROOT / "src")
    base = [sys.executable, "-m", "pr_review"]
    times: dict[str, list[float]] = {"pack": [], "review": []}
    peaks: dict[str, list[int]] = {"pack": [], "review": []}
    size = count = 0
    secrets_status = secrets_found = None
    with tempfile.TemporaryDirectory(prefix="bench-flood-") as tmp:
        out = Path(tmp)
        for rep in range(args.reps):
            for name in ("pack", "review"):
                cmd = [*base, name, "--repo", str(repo), "--base", "main", "--head", "pr"]
                cmd += ["--out", str(out / "pack.json")] if name == "pack" else [
                    "--out-dir", str(out / "review")]  # fmt: skip
                seconds, peak, _ = run_sampled(cmd, env)
                times[name].append(seconds)
                peaks[name].append(peak)
                print(f"rep {rep + 1}: {name:6} {seconds:7.1f} s {peak / 2**20:7.0f} MiB",
                      file=sys.stderr)  # fmt: skip
        findings = out / "review" / "findings.json"
        size = findings.stat().st_size
        count = len(json.loads(findings.read_text(encoding="utf-8")))
        pack = json.loads((out / "review" / "evidence-pack.json").read_text(encoding="utf-8"))
        for run in pack["verification"]["verifiers"]:
            if run["name"] == "secrets":
                secrets_status = run["status"]
                secrets_found = any(f["file"] == "pkg/settings.py" for f in run["findings"])
    pack_s, review_s = statistics.median(times["pack"]), statistics.median(times["review"])
    peak = max(statistics.median(peaks["pack"]), statistics.median(peaks["review"]))
    # Each rep runs pack then review back to back: their ratio is measured side by side, so
    # the median of the per-rep ratios is the figure least moved by a noisy machine.
    ratio = statistics.median(r / p for r, p in zip(times["review"], times["pack"], strict=True))
    hits = args.files * args.per_file
    print(f"src: {args.src or ROOT / 'src'}")
    print(f"flood: {hits:,} hits of F821 in {args.files} files (+1 file with a credential)")
    print(f"pack   median {pack_s:7.1f} s, peak tree RSS {statistics.median(peaks['pack']) / 2**20:6.0f} MiB")  # noqa: E501
    print(f"review median {review_s:7.1f} s, peak tree RSS {statistics.median(peaks['review']) / 2**20:6.0f} MiB")  # noqa: E501
    print(f"review / pack {ratio:.2f}x, median of the per-rep ratios (target {RATIO_TARGET}x)")
    print(f"peak RSS {peak / 2**20:.0f} MiB (target {RSS_TARGET / 2**20:.0f} MiB)")
    print(f"findings.json {size / 2**20:.2f} MiB, {count} findings (target < 20 MiB)")
    print(f"secrets verifier: {secrets_status}, credential found: {secrets_found}")
    secrets_ok = secrets_status not in (None, "timeout", "skipped") and bool(secrets_found)
    ok = ratio <= RATIO_TARGET and peak <= RSS_TARGET and size < FINDINGS_TARGET and secrets_ok
    print("targets met" if ok else "TARGET MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
