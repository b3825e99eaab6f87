"""The broad real corpus under bench/corpora: loadable by ``pr-review eval``, split by repository.

Checks the data, not the review: every case loads (schema, bundle present), each repository
lives in exactly one half, and every case's expected lanes are its labels file's written label.
"""

from __future__ import annotations

import json
from pathlib import Path

from pr_review.evaluation.corpus import load_corpus

CORPORA = Path(__file__).resolve().parents[2] / "bench" / "corpora"


def _split() -> dict[str, list[str]]:
    data: dict[str, list[str]] = json.loads((CORPORA / "split.json").read_text())
    return data


def test_halves_are_disjoint_by_repository() -> None:
    split = _split()
    assert set(split["tune"]).isdisjoint(split["report"])
    assert len(split["tune"]) + len(split["report"]) >= 10


def test_every_case_loads_and_sits_in_its_repositorys_half() -> None:
    split = _split()
    for half in ("tune", "report"):
        cases = load_corpus(CORPORA / half)
        assert len(cases) >= 5 * 30
        for case in cases:
            labels = json.loads((CORPORA / "labels" / f"{case.spec.repo}.json").read_text())
            assert labels["repo"] in split[half], case.id
            assert case.id.startswith(f"{case.spec.repo}-"), case.id


def test_expected_lanes_are_the_written_labels() -> None:
    for labels_file in sorted((CORPORA / "labels").glob("*.json")):
        labels = json.loads(labels_file.read_text())
        entries = labels["prs"] + labels["security"]
        assert all(e["reason"] and not e["reason"].startswith("auto:") for e in entries)
        assert all(e["lane"] == ["red"] for e in labels["security"])
        half = "tune" if labels["repo"] in _split()["tune"] else "report"
        for entry in labels["prs"]:
            case_id = f"{labels_file.stem}-ordinary-{entry['upstream'][:10]}"
            case = json.loads((CORPORA / half / "cases" / case_id / "case.json").read_text())
            assert case["expected"]["lane_any_of"] == entry["lane"], case_id
