"""Random sources swapped between a predictable generator and a cryptographic one."""

from __future__ import annotations

import pytest

from pr_review.evidence.randomness import (
    CRYPTOGRAPHIC,
    FACTOR,
    PREDICTABLE,
    RANDOMNESS_EXAMPLES,
    randomness_factors,
    sources,
)
from pr_review.schema.enums import Lane
from pr_review.sources.model import MemoryTree
from tests.evidence.helpers import file_diff, lane_and_factors


@pytest.mark.parametrize(
    ("path", "base", "head", "red"),
    RANDOMNESS_EXAMPLES,
    ids=[f"example-{i}" for i in range(len(RANDOMNESS_EXAMPLES))],
)
def test_examples(path: str, base: str, head: str, red: bool) -> None:
    diff = file_diff(path, head.splitlines(), base.splitlines())
    found = randomness_factors([diff], MemoryTree({path: base}), MemoryTree({path: head}))
    assert bool(found) is red, found


def test_each_language_reads_its_sources_with_lines() -> None:
    go = sources("a.go", 'package a\nimport (\n\tmr "math/rand"\n\t"crypto/rand"\n)\n')
    assert go is not None
    assert [(s.line, s.kind) for s in go] == [(3, PREDICTABLE), (4, CRYPTOGRAPHIC)]
    py = sources(
        "a.py",
        "import random as r\nimport os\nfrom secrets import token_hex\n"
        "x = r.randint(1, 6)\ny = os.urandom(8)\nz = token_hex(8)\nw = r.SystemRandom()\n",
    )
    assert py is not None
    assert [(s.line, s.kind) for s in py] == [
        (4, PREDICTABLE), (5, CRYPTOGRAPHIC), (6, CRYPTOGRAPHIC), (7, CRYPTOGRAPHIC)
    ]
    js = sources("a.ts", "const a = Math.random()\nconst b = crypto.getRandomValues(u)\n")
    assert js is not None
    assert [(s.line, s.kind) for s in js] == [(1, PREDICTABLE), (2, CRYPTOGRAPHIC)]
    assert sources("a.py", "def (:\n") is None
    assert sources("notes.txt", "Math.random()") is None
    assert sources("a.py", None) is None


def test_a_swap_is_red_and_says_where() -> None:
    base = "import random\ndef token():\n    return random.getrandbits(128)\n"
    head = "import secrets\ndef token():\n    return secrets.randbits(128)\n"
    lane, factors = lane_and_factors(
        files=[file_diff("src/tokens.py", head.splitlines(), base.splitlines())],
        base={"src/tokens.py": base},
        head={"src/tokens.py": head},
    )
    assert lane is Lane.RED
    why = factors[f"{FACTOR}:red"].why
    assert why.startswith(
        "a predictable random source replaced by a cryptographic one (line 3: "
        "`secrets.randbits(128)`; line 3 of the base file: `random.getrandbits(128)`)"
    )


def test_a_swap_in_test_code_or_across_files_is_not_read() -> None:
    base, head = "const n = Math.random()\n", "const n = crypto.randomInt(10)\n"
    in_tests = file_diff("test/ids.test.js", head.splitlines(), base.splitlines())
    found = randomness_factors(
        [in_tests], MemoryTree({"test/ids.test.js": base}), MemoryTree({"test/ids.test.js": head})
    )
    assert found == []
    gone = file_diff("src/a.js", [], base.splitlines())
    added = file_diff("src/b.js", head.splitlines(), [])
    found = randomness_factors(
        [gone, added],
        MemoryTree({"src/a.js": base, "src/b.js": ""}),
        MemoryTree({"src/a.js": "", "src/b.js": head}),
    )
    assert found == []
