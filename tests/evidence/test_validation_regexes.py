"""Regexes applied in checks that refuse input, added, removed or rewritten by a PR."""

from __future__ import annotations

import pytest

from pr_review.evidence.validation_regexes import (
    FACTOR,
    VALIDATION_REGEX_EXAMPLES,
    checks,
    validation_regex_factors,
)
from pr_review.schema.enums import FactorSeverity, Lane
from pr_review.sources.diff import FileStatus
from pr_review.sources.model import MemoryTree
from tests.evidence.helpers import file_diff, lane_and_factors


@pytest.mark.parametrize(
    ("path", "base", "head", "changed"),
    VALIDATION_REGEX_EXAMPLES,
    ids=range(len(VALIDATION_REGEX_EXAMPLES)),
)
def test_examples(path: str, base: str, head: str, changed: bool) -> None:
    diff = file_diff(path, head.splitlines(), base.splitlines())
    found = validation_regex_factors([diff], MemoryTree({path: base}), MemoryTree({path: head}))
    assert bool(found) is changed, found


def test_a_rewritten_pattern_is_red_and_names_both_patterns() -> None:
    base = (
        "import re\nBAD = re.compile(r'[\\0\\r\\n]')\n"
        "def check(v):\n    if BAD.search(v):\n        raise InvalidHeader(v)\n"
    )
    head = base.replace("[\\0\\r\\n]", "[\\x00-\\x1f\\x7f]")
    diff = file_diff("src/message.py", head.splitlines()[1:2], base.splitlines()[1:2], start=2)
    lane, factors = lane_and_factors(
        files=[diff],
        base={"src/message.py": base},
        head={"src/message.py": head},
    )
    assert lane is Lane.RED
    why = factors[f"{FACTOR}:red"].why
    assert why.startswith(
        "a regex check refusing input rewritten (line 4: `if BAD.search(v)`: "
        "`[\\0\\r\\n]` -> `[\\x00-\\x1f\\x7f]`)"
    ), why


def test_each_language_finds_inline_and_bound_patterns() -> None:
    python = (
        "import re\nTOKEN = re.compile('[a-z]+')\ndef f(v, w):\n"
        "    if not TOKEN.fullmatch(v):\n        raise ValueError(v)\n"
        "    if re.search(r'\\s', w):\n        abort(400)\n"
        "    if re.match('x', w):\n        return w\n"
    )
    assert [(c.line, c.pattern) for c in checks("a.py", python) or []] == [
        (4, "[a-z]+"),
        (6, "\\s"),
    ]
    javascript = (
        "export const NAME = new RegExp('^[a-z]+$', 'i')\n"
        "function f(v) {\n  if (!NAME.test(v)) throw new TypeError('name')\n"
        "  if (/\\d/.test(v)) { return reject(new Error('digit')) }\n"
        "  if (/x/.test(v)) { return v }\n}\n"
    )
    assert [(c.line, c.pattern) for c in checks("a.js", javascript) or []] == [
        (3, "/^[a-z]+$/i"),
        (4, "/\\d/"),
    ]
    go = (
        "package p\nvar (\n\tnameRE = regexp.MustCompile(`^[a-z]+$`)\n)\n"
        "func f(v string) error {\n\tif ok, _ := regexp.MatchString(\"^y$\", v); !ok {\n"
        "\t\treturn errBad\n\t}\n\tif !nameRE.MatchString(v) {\n\t\tpanic(v)\n\t}\n"
        "\treturn nil\n}\n"
    )
    assert [(c.line, c.pattern) for c in checks("a.go", go) or []] == [
        (6, "^y$"),
        (9, "^[a-z]+$"),
    ]


def test_unreadable_sources_give_none_and_test_code_is_not_read() -> None:
    assert checks("a.py", "def (:\n") is None
    assert checks("a.go", "package p\nfunc (\n") is None
    assert checks("notes.txt", "if (/x/.test(v)) throw e") is None
    head = "import re\ndef f(v):\n    if re.match('a', v):\n        raise ValueError(v)\n"
    path = "tests/test_names.py"
    diff = file_diff(path, head.splitlines(), [])
    assert validation_regex_factors([diff], MemoryTree({path: ""}), MemoryTree({path: head})) == []


def test_a_check_moved_to_another_file_of_the_pr_is_no_change() -> None:
    check = (
        "import re\ndef f(v):\n    if not re.fullmatch('[0-9]+', v):\n"
        "        raise ValueError(v)\n"
    )
    rest = "def g():\n    return 1\n"
    old = file_diff("a.py", rest.splitlines(), check.splitlines())
    new = file_diff("b.py", check.splitlines(), [], status=FileStatus.ADDED)
    found = validation_regex_factors(
        [old, new], MemoryTree({"a.py": check}), MemoryTree({"a.py": rest, "b.py": check})
    )
    assert found == []


def test_only_top_level_declarations_bind_a_pattern() -> None:
    source = (
        "const handler = function (v) {\n  const RE = /a/\n  return v\n}\n"
        "const TOP = /^b$/\nfunction f(v) {\n  if (!RE.test(v)) throw new Error('x')\n"
        "  if (!TOP.test(v)) throw new Error('y')\n}\n"
    )
    assert [(c.line, c.pattern) for c in checks("a.js", source) or []] == [(8, "/^b$/")]


_CHART = (
    'package chart\n\nimport "regexp"\n\nvar aliasFormat = regexp.MustCompile("^[a-zA-Z0-9_-]+$")\n'
)
_ALIAS_CHECK = (
    "package chart\n\nfunc validateDependency(d *Dependency) error {\n"
    "\tif len(d.Alias) > 0 && !aliasFormat.MatchString(d.Alias) {\n"
    '\t\treturn ValidationErrorf("dependency %q has disallowed characters", d.Name)\n'
    "\t}\n\treturn nil\n}\n"
)


def test_a_go_check_reads_a_pattern_another_file_of_its_package_compiled() -> None:
    # helm GHSA-9vp5-m38w-j776 (holdout36): the pattern in chart.go, the check in metadata.go
    before = "package chart\n\nfunc validateDependency(d *Dependency) error {\n\treturn nil\n}\n"
    chart = file_diff("pkg/chart/chart.go", _CHART.splitlines(), [])
    metadata = file_diff("pkg/chart/metadata.go", _ALIAS_CHECK.splitlines(), before.splitlines())
    found = validation_regex_factors(
        [chart, metadata],
        MemoryTree({"pkg/chart/chart.go": "package chart\n", "pkg/chart/metadata.go": before}),
        MemoryTree({"pkg/chart/chart.go": _CHART, "pkg/chart/metadata.go": _ALIAS_CHECK}),
    )
    assert [f.severity for f in found] == [FactorSeverity.RED]
    assert "^[a-zA-Z0-9_-]+$" in found[0].why


def test_a_package_is_its_folder_and_its_test_files_bind_nothing() -> None:
    before = "package chart\n\nfunc validateDependency(d *Dependency) error {\n\treturn nil\n}\n"
    metadata = file_diff("pkg/chart/metadata.go", _ALIAS_CHECK.splitlines(), before.splitlines())
    for where in ("pkg/other/chart.go", "pkg/chart/chart_test.go"):
        tree = {where: _CHART, "pkg/chart/metadata.go": before}
        head = MemoryTree({**tree, "pkg/chart/metadata.go": _ALIAS_CHECK})
        found = validation_regex_factors([metadata], MemoryTree(tree), head)
        assert found == [], where
    # the same package, kept unchanged by the PR: the check is new all the same
    tree = {"pkg/chart/chart.go": _CHART, "pkg/chart/metadata.go": before}
    found = validation_regex_factors(
        [metadata], MemoryTree(tree), MemoryTree({**tree, "pkg/chart/metadata.go": _ALIAS_CHECK})
    )
    assert len(found) == 1


def test_a_check_deleted_with_its_file_is_no_change_but_one_moved_out_of_it_is() -> None:
    # sveltekit (holdout37): the whole `amp` package removed, its stylesheet check with it
    check = (
        "export function transform(html) {\n  if (/rel=('|\")?stylesheet\\1/.test(html)) {\n"
        "    throw new Error('no stylesheets')\n  }\n  return html\n}\n"
    )
    gone = file_diff("packages/amp/index.js", [], check.splitlines(), status=FileStatus.DELETED)
    found = validation_regex_factors([gone], MemoryTree({"packages/amp/index.js": check}),
                                     MemoryTree({}))
    assert found == []
    # a check the PR removes from a file it keeps is still a change
    kept = "export function transform(html) {\n  return html\n}\n"
    edited = file_diff("packages/amp/index.js", kept.splitlines(), check.splitlines())
    found = validation_regex_factors([edited], MemoryTree({"packages/amp/index.js": check}),
                                     MemoryTree({"packages/amp/index.js": kept}))
    assert len(found) == 1
