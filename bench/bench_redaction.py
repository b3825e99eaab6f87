"""What redaction hides from the model on real PRs: every placeholder, and what it stands for.

Run: ``.venv/bin/python bench/bench_redaction.py [--corpus DIR ...] [--src SRC] [--list]``
(default corpora ``../shared/corpus/guardrails`` and ``../shared/corpus/real``). Every case is
reviewed in process with the real model gateway pointed at a loopback Messages API
(``tests/fakes/anthropic_server.py``, answering "no findings"), so every request goes through
the real redaction boundary. Each value the run's redactors register is recorded with its
kind, and each is judged by the project's own rules: a provider pattern (a key of a known
kind), or a credential's shape (:func:`is_secret_shaped`). A value neither is a non-secret
that a placeholder hid from the model.

Prints, per corpus: cases, requests, placeholders in the requests, distinct values hidden and
how many of them are non-secrets; ``--list`` prints every value hidden, with its kind and
the verdict, for a person to read (these are the corpora's committed test values).
``--src`` runs another checkout's ``src`` instead (a before/after in one command:
``--src /tmp/before/src``); the judging rules are always this checkout's. Exit 1 when any
non-secret was hidden.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CORPORA = (
    ROOT.parent / "shared" / "corpus" / "guardrails",
    ROOT.parent / "shared" / "corpus" / "real",
)
_PLACEHOLDER = re.compile(r"\[REDACTED:[a-z0-9_]+#\d+\]")


def main(argv: list[str]) -> int:
    """Measure each corpus (in a child process when ``--src`` names another checkout)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, action="append", dest="corpora")
    parser.add_argument("--src", type=Path, help="another checkout's src directory to measure")
    parser.add_argument("--list", action="store_true", help="print every non-secret hidden")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv[1:])
    corpora = [c for c in (args.corpora or DEFAULT_CORPORA) if (c / "cases").is_dir()]
    if not corpora:
        print("bench_redaction: skipped: no corpus found (put shared/ beside the repository)")
        return 0
    if args.child:
        print(json.dumps([_measure(c) for c in corpora]))
        return 0
    env = dict(os.environ)
    env.pop("ANTHROPIC_API_KEY", None)
    src = args.src or ROOT / "src"
    env["PYTHONPATH"] = os.pathsep.join([str(src), str(ROOT)])
    child = [sys.executable, str(Path(__file__).resolve()), "--child"]
    child += [x for c in corpora for x in ("--corpus", str(c))]
    done = subprocess.run(child, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        print(done.stderr[-3000:], file=sys.stderr)
        return 1
    results = json.loads(done.stdout.strip().splitlines()[-1])
    return _report(results, src, listing=args.list)


def _measure(corpus: Path) -> dict[str, Any]:
    """Review every case of ``corpus`` against the loopback model; what was hidden."""
    from tests.fakes.anthropic_server import RecordedRequest, Reply, anthropic_server, tool_reply

    from pr_review.evaluation.api import run_eval
    from pr_review.evaluation.runner import RunSettings
    from pr_review.reviewers import redact
    from pr_review.reviewers.gateway import AnthropicGateway

    registered: dict[str, str] = {}
    lock = threading.Lock()
    original = redact.Redactor._add

    def recording(self: Any, value: str, kind: str) -> str:
        with lock:
            registered.setdefault(redact._unquoted(value), kind)
        return original(self, value, kind)

    redact.Redactor._add = recording  # type: ignore[method-assign]

    def answer(request: RecordedRequest) -> Reply:
        return tool_reply(request, {"findings": [], "injection_attempts": []})

    with (
        anthropic_server(answer) as server,
        tempfile.TemporaryDirectory() as tmp,
        AnthropicGateway("test-key", base_url=server.base_url, max_retries=0) as gateway,
    ):
        report = run_eval(
            corpus,
            config_path=None,
            settings=RunSettings(out_dir=Path(tmp), model=gateway, grade=False, concurrency=2),
        )
        texts = [r.text for r in server.messages_requests]
    return {
        "corpus": corpus.name,
        "cases": len(report.summary.cases),
        "requests": len(texts),
        "placeholders": sum(len(_PLACEHOLDER.findall(t)) for t in texts),
        "values": sorted(registered.items()),
    }


def _report(results: list[dict[str, Any]], src: Path, *, listing: bool) -> int:
    from pr_review.verifiers.secret_patterns import find_secrets, is_secret_shaped

    print(f"src: {src}")
    print(f"{'corpus':12} {'cases':>5} {'requests':>8} {'placeholders':>12} {'values':>6} "
          f"{'provider':>8} {'shaped':>6} {'non-secret':>10}")  # fmt: skip
    missed = 0
    for r in results:
        values = [(v, k) for v, k in r["values"]]
        provider = [v for v, _ in values if find_secrets(v)]
        shaped = [v for v, _ in values if not find_secrets(v) and is_secret_shaped(v)]
        other = [(v, k) for v, k in values if not find_secrets(v) and not is_secret_shaped(v)]
        missed += len(other)
        print(f"{r['corpus']:12} {r['cases']:5} {r['requests']:8} {r['placeholders']:12} "
              f"{len(values):6} {len(provider):8} {len(shaped):6} {len(other):10}")  # fmt: skip
        if listing:
            for value, kind in values:
                verdict = "provider" if value in provider else "shaped"
                if value not in provider and value not in shaped:
                    verdict = "NON-SECRET"
                preview = value if len(value) <= 60 else value[:57] + "..."
                print(f"    {verdict:10} {kind}: {preview!r} ({len(value)} chars)")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
