"""Untrusted input reaching a decoder: flows read on syntax trees, compared across the PR."""

from __future__ import annotations

import pytest

from pr_review.config import Config
from pr_review.evidence.build import build_pack
from pr_review.evidence.input_flows import EXAMPLES, FACTOR, flows
from pr_review.schema.enums import Lane
from pr_review.schema.pack import RiskFactor
from pr_review.sources.diff import FileDiff, FileStatus
from tests.evidence.helpers import file_diff, pull_request


@pytest.mark.parametrize(("source", "holds"), EXAMPLES, ids=range(len(EXAMPLES)))
def test_examples(source: str, holds: bool) -> None:
    found = flows(source)
    assert found is not None
    assert bool(found) is holds, found


def test_unparsable_source_has_no_flows_to_compare() -> None:
    assert flows("def (:\n") is None


def test_assigning_to_an_attribute_taints_nothing_but_the_assigned_name() -> None:
    # ``self.cached = rv`` must not make every later ``self.…`` peer-controlled.
    source = (
        "def get(self):\n"
        "    rv = self.headers.get('x')\n"
        "    self.cached = rv\n"
        "    data = self.read_body()\n"
        "    return json.loads(data)\n"
    )
    assert flows(source) == []


def test_taint_follows_assignments_in_any_order_and_tuple_unpacking() -> None:
    source = (
        "def f(request):\n"
        "    for _ in range(2):\n"
        "        out = codecs.decode(raw, enc)\n"
        "    enc, raw = request.args.get('e'), b''\n"
        "    return out\n"
    )
    found = flows(source) or []
    assert {(f.sink, f.slot, f.source) for f in found} == {
        ("decode", "argument 2", "request.args"),
        ("decode", "argument 1", "request.args"),
    }


_GET_JSON = (
    "class JSONMixin:\n"
    "    def get_json(self, force=False):\n"
    "        charset = self.mimetype_params.get('charset')\n"
    "        data = self._get_data_for_json()\n"
    "        return json.loads(data, encoding=charset)\n"
)
_GET_JSON_FIXED = (
    "class JSONMixin:\n"
    "    def get_json(self, force=False):\n"
    "        data = self._get_data_for_json()\n"
    "        return json.loads(data)\n"
)


def _lane(
    base: dict[str, str], head: dict[str, str], files: list[FileDiff]
) -> tuple[Lane, list[RiskFactor]]:
    pack = build_pack(pull_request(files, base=base, head=head), Config())
    return pack.risk.lane, [f for f in pack.risk.factors if f.factor == FACTOR]


def test_no_longer_honouring_a_client_supplied_charset_is_red() -> None:
    # Shape of a real CVE fix: the peer chose the codec of the request body.
    lane, found = _lane(
        {"pkg/wrappers.py": _GET_JSON},
        {"pkg/wrappers.py": _GET_JSON_FIXED},
        [
            file_diff(
                "pkg/wrappers.py",
                ["        return json.loads(data)"],
                [
                    "        charset = self.mimetype_params.get('charset')",
                    "        data = self._get_data_for_json()",
                    "        return json.loads(data, encoding=charset)",
                ],
                start=3,
            )
        ],
    )
    assert lane is Lane.RED
    assert len(found) == 1
    why = found[0].why
    assert "JSONMixin.get_json" in why
    assert "mimetype_params" in why
    assert "no longer" in why


def test_a_new_flow_is_red_and_says_now() -> None:
    base = "def view(request):\n    return request.args.get('q')\n"
    head = "def view(request):\n    return pickle.loads(request.data)\n"
    lane, found = _lane(
        {"app/views.py": base},
        {"app/views.py": head},
        [
            file_diff(
                "app/views.py",
                ["    return pickle.loads(request.data)"],
                ["    return request.args.get('q')"],
                start=2,
            )
        ],
    )
    assert lane is Lane.RED
    assert "now reaches" in found[0].why


def test_a_flow_moved_to_another_function_or_file_is_not_a_change() -> None:
    helper = (
        "def _charset(self):\n"
        "    return json.loads(self.body, encoding=self.mimetype_params['c'])\n"
    )
    moved = _GET_JSON.replace(
        "        return json.loads(data, encoding=charset)\n", "        return _charset(self)\n"
    )
    _, found = _lane(
        {"pkg/wrappers.py": _GET_JSON},
        {"pkg/wrappers.py": moved, "pkg/helpers.py": helper},
        [
            file_diff(
                "pkg/wrappers.py",
                ["        return _charset(self)"],
                ["        return json.loads(data, encoding=charset)"],
                start=5,
            ),
            file_diff("pkg/helpers.py", helper.splitlines(), status=FileStatus.ADDED),
        ],
    )
    assert found == []


def test_a_flow_in_test_code_does_not_raise_the_lane() -> None:
    base = "def test_json(client):\n    pass\n"
    head = "def test_json(client):\n    client.input_stream.read().decode()\n"
    lane, found = _lane(
        {"tests/test_json.py": base},
        {"tests/test_json.py": head},
        [
            file_diff(
                "tests/test_json.py",
                ["    client.input_stream.read().decode()"],
                ["    pass"],
                start=2,
            )
        ],
    )
    assert found == []
    assert lane is Lane.GREEN
