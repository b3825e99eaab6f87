"""Regexes that backtrack super-linearly, read on their syntax trees, removed or added by a PR."""

from __future__ import annotations

import ast

import pytest

from pr_review.evidence.backtracking import (
    ADDED,
    BACKTRACKING_EXAMPLES,
    REMOVED,
    AppliedRegexes,
    backtracking_factors,
    python_regexes,
    shapes,
)
from pr_review.evidence.regex_trees import (
    REGEX_EXAMPLES,
    SEARCH_EXAMPLES,
    ambiguities,
    from_javascript,
)
from pr_review.schema.enums import FactorSeverity, Lane
from pr_review.sources.diff import FileStatus
from pr_review.sources.model import MemoryTree
from tests.evidence.helpers import file_diff, lane_and_factors


@pytest.mark.parametrize(("pattern", "kinds"), REGEX_EXAMPLES, ids=range(len(REGEX_EXAMPLES)))
def test_regex_examples(pattern: str, kinds: tuple[str, ...]) -> None:
    found = ambiguities(pattern)
    assert found is not None, "the example must parse"
    assert {a.kind for a in found} == set(kinds), [a.shape for a in found]


@pytest.mark.parametrize(
    ("path", "base", "head", "factor"), BACKTRACKING_EXAMPLES, ids=range(len(BACKTRACKING_EXAMPLES))
)
def test_backtracking_examples(path: str, base: str, head: str, factor: str | None) -> None:
    diff = file_diff(path, head.splitlines(), base.splitlines())
    found = backtracking_factors([diff], MemoryTree({path: base}), MemoryTree({path: head}))
    assert [f.factor for f in found] == ([] if factor is None else [factor]), found


@pytest.mark.parametrize(("pattern", "leading"), SEARCH_EXAMPLES, ids=range(len(SEARCH_EXAMPLES)))
def test_search_examples(pattern: str, leading: tuple[str, ...]) -> None:
    found = ambiguities(pattern, searched=True)
    assert found is not None, "the example must parse"
    assert tuple(a.shape for a in found if a.kind == "searched") == leading


def test_a_match_anchored_at_the_start_has_no_leading_shape() -> None:
    assert ambiguities(r" *, *") == ()
    match = "import re\nR = re.compile(r'\\s+$')\ndef f(v):\n    return R.match(v)\n"
    search = match.replace("R.match(v)", "R.sub('', v)")
    assert shapes("m.py", match) == []
    assert [s.ambiguity.kind for s in shapes("m.py", search) or []] == ["searched"]
    assert shapes("m.js", "const r = /\\s+$/y\n") == []
    assert [s.ambiguity.kind for s in shapes("m.js", "v.split(/ *, */)\n") or []] == ["searched"]


def test_a_name_bound_to_a_patterns_method_is_anchored_by_that_method() -> None:
    match = "import re\nis_end = re.compile(r'\\s+$').match\ndef f(v):\n    return is_end(v)\n"
    search = match.replace(").match", ").search")
    assert [(r.binding, r.method) for r in python_regexes(ast.parse(match))] == [
        ("is_end", "match")
    ]
    assert shapes("m.py", match) == []
    assert [s.ambiguity.kind for s in shapes("m.py", search) or []] == ["searched"]


def test_applied_regexes_read_a_name_bound_to_a_patterns_method() -> None:
    tree = ast.parse("import re\nhas_cr = re.compile(r'[\\r\\n]').search\nif has_cr(v): pass\n")
    regexes = AppliedRegexes.of(tree)
    called = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and n.args)
    assert isinstance(called.func, ast.Name)
    assert regexes.pattern(called.func) == "[\\r\\n]"
    assert regexes.pattern(ast.Name("other")) is None


def test_a_pattern_python_cannot_parse_is_not_analysed() -> None:
    assert ambiguities(r"\p{L}+\p{L}+x") is None
    assert ambiguities("(unclosed") is None


def test_javascript_spellings_are_translated() -> None:
    assert from_javascript(r"(?<year>\d+)-\k<year>") == r"(?P<year>\d+)-(?P=year)"
    assert from_javascript(r"(?<=a)b(?<!c)") == r"(?<=a)b(?<!c)"
    assert from_javascript("[^]*x[]") == r"[\s\S]*x(?!)"


def test_possessive_repeats_and_atomic_groups_do_not_backtrack() -> None:
    assert ambiguities(r"^(?>a+)+x") == ()
    assert ambiguities(r"^\s*+,\s*x") == ()


def test_shapes_name_the_line_of_a_python_pattern_built_from_module_constants() -> None:
    source = (
        "import re\n\nWS = r'\\s*'\n"
        "TOKEN = re.compile(\n    WS + ',' + '?' + WS + 'x'\n)\nsplit = TOKEN.split\n"
    )
    found = shapes("m.py", source)
    assert found is not None
    assert [(s.line, s.ambiguity.shape) for s in found] == [(4, r"\s*"), (4, r"\s* then \s*")]


def test_a_verbose_python_pattern_is_read_with_its_flag() -> None:
    source = (
        "import re\nP = re.compile(r'''\n  \\s*   # lead\n  \\s*   # more\n  x''', re.X)\n"
        "match = P.match\n"
    )
    found = shapes("m.py", source)
    assert found is not None
    assert [s.ambiguity.kind for s in found] == ["quadratic"]


def test_a_pattern_built_at_run_time_is_not_analysed() -> None:
    runtime = "import re\ndef f(p):\n    return re.compile(p + '\\\\s*\\\\s*x')\n"
    assert shapes("m.py", runtime) == []
    assert shapes("m.ts", "const r = new RegExp(`${p}\\\\s*\\\\s*x`)\n") == []


def test_a_redos_fix_is_red_and_names_the_pattern_and_the_shape() -> None:
    base = "const rules = {\n  heading: /^ *(#{1,6}) *([^\\n]+?) *#* *(?:\\n+|$)/,\n}\n"
    head = "const rules = {\n  heading: /^ {0,3}(#{1,6})(?=\\s|$)(.*)(?:\\n+|$)/,\n}\n"
    lane, factors = lane_and_factors(
        files=[file_diff("src/rules.ts", head.splitlines()[1:2], base.splitlines()[1:2], start=2)],
        base={"src/rules.ts": base},
        head={"src/rules.ts": head},
    )
    assert lane is Lane.RED
    why = factors[f"{REMOVED}:red"].why
    assert "line 2 of the base file" in why
    assert "then" in why
    assert "quadratic" in why


def test_a_deleted_file_with_a_slow_regex_is_not_red() -> None:
    base = "import re\nP = re.compile(r'a+a+x')\nmatch = P.match\n"
    diff = file_diff("pkg/old.py", [], base.splitlines(), status=FileStatus.DELETED)
    found = backtracking_factors([diff], MemoryTree({"pkg/old.py": base}), MemoryTree({}))
    assert [(f.factor, f.severity) for f in found] == [(REMOVED, FactorSeverity.MODERATE)]


def test_a_shape_moved_to_another_file_of_the_pr_is_no_change() -> None:
    slow = "import re\nP = re.compile(r'\\s*,?\\s*x')\nmatch = P.match\n"
    files = [
        file_diff("pkg/a.py", [], slow.splitlines()),
        file_diff("pkg/b.py", slow.splitlines(), [], status=FileStatus.ADDED),
    ]
    found = backtracking_factors(
        files, MemoryTree({"pkg/a.py": slow}), MemoryTree({"pkg/a.py": "", "pkg/b.py": slow})
    )
    assert found == []


def test_test_code_is_not_read() -> None:
    base = "const r = /(a+)+x/\n"
    diff = file_diff("test/parse.test.js", ["const r = /a+x/"], ["const r = /(a+)+x/"])
    found = backtracking_factors(
        [diff], MemoryTree({"test/parse.test.js": base}),
        MemoryTree({"test/parse.test.js": "const r = /a+x/\n"}),
    )
    assert found == []


def test_a_new_slow_regex_is_yellow_evidence() -> None:
    head = "export const split = (s: string) => s.split(/\\s*,?\\s*;/)\n"
    lane, factors = lane_and_factors(
        files=[file_diff("src/split.ts", head.splitlines(), [], status=FileStatus.ADDED)],
        base={},
        head={"src/split.ts": head},
    )
    assert f"{ADDED}:moderate" in factors
    assert lane is not Lane.RED


def test_percent_templates_fill_from_a_dict_or_the_module_names() -> None:
    source = (
        "import re\nHEX = '[0-9a-f]'\nPAIR = '%(HEX)s%(HEX)s' % locals()\n"
        "A = re.compile('^%(x)s$' % {'x': PAIR})\n"
        "B = re.compile('^%(HEX)s+$' % globals())\n"
        "def f(v):\n    HEX = 'z'\n    return re.match('%(HEX)s' % locals(), v)\n"
    )
    patterns = [r.pattern for r in python_regexes(ast.parse(source))]
    # locals() inside a function is that function's names: not folded
    assert patterns == ["^[0-9a-f][0-9a-f]$", "^[0-9a-f]+$"]


def test_a_pattern_the_parser_warns_about_is_read_without_a_warning() -> None:
    # `[[` inside a class makes CPython's parser warn "Possible nested set" (a FutureWarning,
    # an error under this suite's filterwarnings): the PR's pattern is read as it is, quietly
    assert ambiguities("[[a]+b") is not None
    assert ambiguities("x[[:alpha:]]*y") is not None
