"""Build output known by its text: the source map's comment a bundler ends its file with."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import pytest

from pr_review.evidence.generated import detect
from pr_review.schema.enums import NotReviewedReason, VerifierSeverity
from pr_review.sources.built import BUNDLE_EXAMPLES, bundle_mark, counts_as_bundle
from pr_review.sources.diff import FileStatus
from pr_review.verifiers.model import RawFinding
from pr_review.verifiers.outcome import _outside_bundles
from pr_review.verifiers.stage import Materialized
from tests.evidence.helpers import file_diff

BUNDLE = "(function () {\n  'use strict';\n  return 1;\n}());\n//# sourceMappingURL=purify.js.map\n"
SOURCE = "export function sanitize(dirty: string): string {\n  return dirty;\n}\n"


@pytest.mark.parametrize(("lines", "marked"), BUNDLE_EXAMPLES)
def test_each_bundle_example(lines: tuple[str, ...], marked: bool) -> None:
    assert bundle_mark(lines) is marked


def test_a_mark_the_pr_appends_to_a_hand_written_file_does_not_count() -> None:
    head = tuple(BUNDLE.splitlines())
    assert counts_as_bundle(head, None, added=True)
    assert counts_as_bundle(head, head, added=False)
    assert not counts_as_bundle(head, tuple(SOURCE.splitlines()), added=False)
    assert not counts_as_bundle(head, None, added=False)  # a base nobody could read
    assert not counts_as_bundle(tuple(SOURCE.splitlines()), head, added=False)


def test_a_rebuilt_bundle_is_generated_by_content_a_source_is_not() -> None:
    bundle = file_diff("dist/purify.js", ["  return 1;"])
    source = file_diff("src/purify.ts", ["  return dirty;"])
    texts = {"dist/purify.js": BUNDLE, "src/purify.ts": SOURCE}
    found = detect([bundle, source], gitattributes=None, exclude=(), head_text=texts.get,
                   base_text=texts.get)  # fmt: skip
    assert set(found) == {"dist/purify.js"}
    assert found["dist/purify.js"].reason is NotReviewedReason.GENERATED
    assert found["dist/purify.js"].by_content
    assert "source map" in found["dist/purify.js"].detail
    # the PR appended the comment to a hand-written file: still reviewed
    hidden = detect([bundle], gitattributes=None, exclude=(), head_text=texts.get,
                    base_text=lambda _: SOURCE)  # fmt: skip
    assert hidden == {}
    new = file_diff("lib/index.cjs", BUNDLE.splitlines(), status=FileStatus.ADDED)
    assert set(detect([new], gitattributes=None, exclude=())) == {"lib/index.cjs"}


def _finding(path: str) -> RawFinding:
    return RawFinding(path, 3, None, "unicorn/no-instanceof-builtins", "m", VerifierSeverity.ERROR)


def test_lint_in_build_output_is_left_out_security_tools_keep_it() -> None:
    # DOMPurify 3.4 (read on every half): one oxlint hit in src/purify.ts and its three bundles
    bundle_lines = tuple(BUNDLE.splitlines())
    files = [file_diff("src/purify.ts", ["x"]), file_diff("dist/purify.js", ["x"]),
             file_diff("dist/purify.es.mjs", ["x"], status=FileStatus.ADDED),
             file_diff("dist/tampered.js", ["x"])]  # fmt: skip
    staged = Materialized(
        head_files=(), base_files=(),
        head_lines={"src/purify.ts": tuple(SOURCE.splitlines()), "dist/purify.js": bundle_lines,
                    "dist/purify.es.mjs": bundle_lines, "dist/tampered.js": bundle_lines},
        base_lines={"src/purify.ts": tuple(SOURCE.splitlines()), "dist/purify.js": bundle_lines,
                    "dist/tampered.js": ("var a = 1;",)},
        checkout_ready=False,
    )  # fmt: skip
    ctx = cast(Any, SimpleNamespace(pr=SimpleNamespace(diff=SimpleNamespace(files=files))))
    found = tuple(_finding(f.path) for f in files)
    kept, left_out = _outside_bundles("oxlint", found, ctx, staged)
    assert [f.path for f in kept] == ["src/purify.ts", "dist/tampered.js"]
    assert left_out == 2
    assert _outside_bundles("sinks", found, ctx, staged) == (found, 0)
