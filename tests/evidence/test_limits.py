"""Bounds on input: a limit added, removed or changed, read on syntax trees in any language."""

from __future__ import annotations

import pytest

from pr_review.evidence.limits import (
    FACTOR,
    LIMIT_EXAMPLES,
    REFUSAL_EXAMPLES,
    checks,
    is_bound,
    refusing_if_lines,
)
from pr_review.schema.enums import Lane
from pr_review.sources.diff import FileStatus
from tests.evidence.helpers import file_diff, lane_and_factors


@pytest.mark.parametrize(
    ("path", "source", "lines"), REFUSAL_EXAMPLES, ids=range(len(REFUSAL_EXAMPLES))
)
def test_one_refusal_rule_on_both_readers(path: str, source: str, lines: tuple[int, ...]) -> None:
    found = refusing_if_lines(path, source)
    assert found is not None
    assert tuple(found) == lines


@pytest.mark.parametrize(
    ("path", "source", "holds"), LIMIT_EXAMPLES, ids=range(len(LIMIT_EXAMPLES))
)
def test_examples(path: str, source: str, holds: bool) -> None:
    found = checks(path, source)
    assert found is not None, "the example must parse"
    assert bool(found) is holds, found


@pytest.mark.parametrize(
    ("name", "bound"),
    [
        ("maxParams", True),
        ("MAX_HEADER_SIZE", True),
        ("max_form_memory_size", True),
        ("bodyLimit", True),
        ("parameterLimit", True),
        ("maximize", False),
        ("climit", False),
        ("size", False),
        ("Maxwell", False),
    ],
)
def test_a_bound_is_named_by_its_words(name: str, bound: bool) -> None:
    assert is_bound(name) is bound


def test_unreadable_sources_give_none_not_an_empty_list() -> None:
    assert checks("a.py", "def (:\n") is None
    assert checks("a.go", "package p\nfunc f( {\n") is None
    assert checks("notes.txt", "if n > max: raise") is None


_PARSE = (
    "package p\n\nfunc parseRoute(pattern string) routeParser {\n"
    "\tparser := routeParser{}\n"
    "{check}"
    "\treturn parser\n}\n"
)
_CHECK = (
    "\tif len(parser.params) > maxParams {\n"
    "\t\tpanic(fmt.Sprintf(\"too many parameters\"))\n\t}\n"
)


def test_a_parameter_count_limit_added_to_a_go_parser_is_red_and_says_where() -> None:
    # Shape of a real fix (a route with more parameters than a fixed array holds).
    base, head = _PARSE.replace("{check}", ""), _PARSE.replace("{check}", _CHECK)
    lane, factors = lane_and_factors(
        files=[file_diff("path.go", _CHECK.splitlines(), start=5)],
        base={"path.go": base},
        head={"path.go": head},
    )
    assert lane is Lane.RED
    why = factors[f"{FACTOR}:red"].why
    assert "newly enforced: `maxParams` (line 5" in why


def test_a_limit_removed_from_a_python_parser_is_red() -> None:
    head = "def on_data(self, data):\n    self.buf += data\n"
    base = (
        "def on_data(self, data):\n"
        "    if len(self.buf) + len(data) > self.max_part_size:\n"
        "        raise MultiPartException('Part exceeded maximum size')\n"
        "    self.buf += data\n"
    )
    lane, factors = lane_and_factors(
        files=[file_diff("pkg/forms.py", [], base.splitlines()[1:3], start=2)],
        base={"pkg/forms.py": base},
        head={"pkg/forms.py": head},
    )
    assert lane is Lane.RED
    assert "no longer enforced: `max_part_size` (line 2 of the base file" in (
        factors[f"{FACTOR}:red"].why
    )


def test_an_off_by_one_change_of_an_enforced_bound_is_no_change() -> None:
    base = "def retry(self):\n    if self.count > self.max_retries:\n        raise self.error\n"
    head = base.replace(">", ">=")
    _, factors = lane_and_factors(
        files=[file_diff("pkg/retry.py", [head.splitlines()[1]], [base.splitlines()[1]], start=2)],
        base={"pkg/retry.py": base},
        head={"pkg/retry.py": head},
    )
    assert f"{FACTOR}:red" not in factors


def test_a_limit_moved_to_another_file_or_rewritten_is_no_change() -> None:
    body = "  if (size > opts.bodyLimit) { throw new PayloadTooLargeError() }\n"
    base = "export function read(size, opts) {\n" + body + "  return size\n}\n"
    moved = "export function read(size, opts) {\n  check(size, opts)\n  return size\n}\n"
    helper = "export function check(total, opts) {\n" + body.replace("size", "total") + "}\n"
    lane, factors = lane_and_factors(
        files=[
            file_diff("src/read.js", ["  check(size, opts)"], [body.rstrip()], start=2),
            file_diff("src/check.js", helper.splitlines(), status=FileStatus.ADDED),
        ],
        base={"src/read.js": base},
        head={"src/read.js": moved, "src/check.js": helper},
    )
    assert f"{FACTOR}:red" not in factors
    assert lane is Lane.YELLOW


def test_a_limit_in_test_code_does_not_raise_the_lane() -> None:
    head = "def test_big(client):\n    if len(body) > MAX_BODY:\n        raise AssertionError\n"
    lane, factors = lane_and_factors(
        files=[file_diff("tests/test_big.py", head.splitlines(), status=FileStatus.ADDED)],
        head={"tests/test_big.py": head},
    )
    assert f"{FACTOR}:red" not in factors
    assert lane is Lane.GREEN
