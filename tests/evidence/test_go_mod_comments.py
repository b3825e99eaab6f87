"""A go.mod whose directives stay the same once comments are set aside is behaviour-neutral."""

from __future__ import annotations

import pytest

from pr_review.schema.enums import Lane
from tests.evidence.helpers import file_diff, lane_and_factors

_BASE = (
    "module example.com/registry\n\n"
    "// Go 1.23 is the oldest release we test on\n"
    "go 1.23\n\n"
    "require (\n\tgithub.com/a/b v1.2.0 // indirect\n\tgithub.com/c/d v0.4.1\n)\n"
)


@pytest.mark.parametrize(
    ("head", "neutral"),
    [
        (_BASE.replace("// Go 1.23 is the oldest release we test on\n", ""), True),
        (_BASE.replace(" // indirect", ""), True),
        (_BASE.replace("\tgithub.com/c/d v0.4.1\n", "\tgithub.com/c/d   v0.4.1\n\n"), True),
        (_BASE.replace("v0.4.1", "v0.4.2"), False),
        (_BASE.replace(")\n", ")\n\nreplace github.com/c/d => ../d // local\n"), False),
    ],
)
def test_a_go_mod_comment_change_is_neutral(head: str, neutral: bool) -> None:
    lane, factors = lane_and_factors(
        files=[file_diff("go.mod", head.splitlines(), _BASE.splitlines())],
        base={"go.mod": _BASE},
        head={"go.mod": head},
    )
    assert ("dependency-manifest:moderate" in factors) is not neutral
    assert (lane is Lane.GREEN) is neutral
