"""Log messages quoting a value through repr, switched on or off by a PR (Python)."""

from __future__ import annotations

import pytest

from pr_review.evidence.log_quoting import (
    FACTOR,
    LOG_QUOTING_EXAMPLES,
    log_formats,
    log_quoting_factors,
)
from pr_review.schema.enums import Lane
from pr_review.sources.model import MemoryTree
from tests.evidence.helpers import file_diff, lane_and_factors


@pytest.mark.parametrize(
    ("path", "base", "head", "changed"), LOG_QUOTING_EXAMPLES, ids=range(len(LOG_QUOTING_EXAMPLES))
)
def test_examples(path: str, base: str, head: str, changed: bool) -> None:
    diff = file_diff(path, head.splitlines(), base.splitlines())
    found = log_quoting_factors([diff], MemoryTree({path: base}), MemoryTree({path: head}))
    assert [f.factor for f in found] == ([FACTOR] if changed else [])


def test_formats_are_read_from_every_message_form_and_only_from_log_calls() -> None:
    source = (
        "def f(self, logger, x):\n"
        "    logger.info('a %r', x)\n"
        "    self._log.warning('b {!r}'.format(x))\n"
        "    logging.log(10, f'c {x!r} {x}')\n"
        "    print('d %r' % x)\n"
        "    cache.get('e %r')\n"
    )
    found = log_formats("m.py", source)
    assert found is not None
    assert [(f.text, f.plain, f.quoted) for f in found] == [
        ("a %r", "a %s", 1),
        ("b {!r}", "b {}", 1),
        ("c {!r} {}", "c {} {}", 1),
    ]
    assert log_formats("m.js", "log.info('a')") is None
    assert log_formats("m.py", "def (:") is None


def test_a_log_injection_fix_is_red_and_says_where() -> None:
    path, base, head, _ = LOG_QUOTING_EXAMPLES[0]
    lane, factors = lane_and_factors(
        files=[file_diff(path, head.splitlines(), base.splitlines())],
        base={path: base},
        head={path: head},
    )
    assert lane is Lane.RED
    assert factors[f"{FACTOR}:red"].why.startswith(
        "a log message now quotes a value with repr (line 2: `Request to '%r' matches`)"
    )
