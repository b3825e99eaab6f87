"""``python -I -m pr_review.rules --output FILE -- PATH...``: the sink rules on files.

Run by the ``sinks`` verifier as its own process, so a pathological file is stopped by the
verifier's time limit like any other tool. Writes one JSON object per hit to ``FILE``
(path, line, end_line, rule, message, lane, severity) of the reported rules (watched constructs,
``report: false``, are the lane's only); files of no rule language are skipped; a file
that cannot be read is reported on stderr and skipped. Exit 0.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from pr_review.rules import language_of
from pr_review.rules.engine import scan_source


def main(argv: list[str]) -> int:
    """Scan each listed file (relative to the working directory) and write its hits."""
    parser = argparse.ArgumentParser(prog="python -m pr_review.rules")
    parser.add_argument("--output", type=Path, required=True)
    parser.add_argument("paths", nargs="*")
    args = parser.parse_args(argv)
    with args.output.open("w", encoding="utf-8") as out:
        for path in args.paths:
            language = language_of(path)
            if language is None:
                continue
            try:
                text = Path(path).read_text(encoding="utf-8", errors="replace")
            except OSError as exc:
                print(f"{path}: {exc.strerror}", file=sys.stderr)
                continue
            for hit in scan_source(text, language):
                if not hit.report:
                    continue  # a watched construct: lane evidence, never a finding
                record = {
                    "path": path,
                    "line": hit.line,
                    "end_line": hit.end_line,
                    "rule": hit.rule_id,
                    "message": hit.message,
                    "lane": hit.lane.value,
                    "severity": hit.severity,
                    "untrusted": hit.untrusted,
                }
                out.write(json.dumps(record) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
