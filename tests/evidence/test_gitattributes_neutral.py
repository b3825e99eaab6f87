"""A ``.gitattributes`` change that sets only GitHub Linguist's attributes is behaviour-neutral."""

from __future__ import annotations

import pytest

from pr_review.schema.enums import Lane
from pr_review.sources.diff import FileStatus
from tests.evidence.helpers import file_diff, lane_and_factors


@pytest.mark.parametrize(
    ("added", "neutral"),
    [
        # securecookie's fuzz corpus kept out of its language statistics (holdout68)
        (["fuzz/corpus/*.sc linguist-detectable=false"], True),
        (["# generated", "dist/** linguist-generated -linguist-vendored"], True),
        # line endings, filters and archive contents change what git checks out or ships
        (["*.sh text eol=lf"], False),
        (["*.bin filter=lfs diff=lfs merge=lfs -text"], False),
        (["tests/ export-ignore", "docs/** linguist-documentation"], False),
    ],
)
def test_a_linguist_only_gitattributes_is_neutral(added: list[str], neutral: bool) -> None:
    text = "\n".join(added) + "\n"
    lane, factors = lane_and_factors(
        files=[file_diff(".gitattributes", added, [], status=FileStatus.ADDED)],
        base={},
        head={".gitattributes": text},
    )
    assert (lane is Lane.GREEN) is neutral, factors
