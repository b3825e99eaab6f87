"""Behaviour-neutral by construction: Python trees compared with docstrings dropped."""

from __future__ import annotations

import difflib

import pytest

from pr_review.config import Config
from pr_review.evidence.build import build_pack
from pr_review.evidence.neutral import (
    CODE_PROSE_EXAMPLES,
    PROSE_EXAMPLES,
    _python_tree_equal,
    code_prose_equal,
    data_prose_equal,
)
from pr_review.evidence.pyast import same_behaviour, shape_key
from pr_review.schema.enums import Lane
from pr_review.schema.pack import EvidencePack
from pr_review.sources.diff import FileStatus, parse_diff
from pr_review.sources.model import MemoryTree
from tests.evidence.helpers import file_diff, lane_and_factors, pull_request

SAME = [
    # docstring reworded, wrapped over several lines
    (
        'def f(x):\n    """Add one."""\n    return x + 1\n',
        (
            'def f(x):\n    """Return ``x`` plus one.\n\n    Used by the parser.\n    """\n'
            "    return x + 1\n"
        ),
    ),
    # module and class docstrings, comments, quoting and line wrapping
    (
        '"""Mod."""\nclass A:\n    "Doc."\n    n = "a"  # c\n',
        "class A:\n    n = 'a'\n",
    ),
    # a docstring-only body stays a body
    ('def f():\n    """Doc."""\n', "def f():\n    pass\n"),
    ("call(a,\n     b)\n", "call(a, b)  # joined\n"),
    # an attribute docstring (a string standing alone after an assignment, read by Sphinx):
    # Python evaluates it to nothing (scrapy's release-notes PR documenting `Crawler.logformatter`)
    ('class C:\n    x = 1\n', 'class C:\n    x = 1\n    """What x is."""\n'),
    ('def f():\n    x = 1\n    "s"\n', 'def f():\n    x = 1\n    "t"\n'),
]
DIFFERENT = [
    ("def f(x):\n    return x + 1\n", "def f(x):\n    return x + 2\n"),
    # a string that is not a statement of its own is data; an f-string statement runs its
    # expressions
    ('def f():\n    x = "s"\n', 'def f():\n    x = "t"\n'),
    ('def f():\n    f"{g()}"\n', 'def f():\n    f"{h()}"\n'),
    ('MSG = "payment required"\n', 'MSG = "payment needed"\n'),
    ("def f():\n    try:\n        g()\n    except E:\n        h()\n", "def f():\n    g()\n"),
    # unparsable on one side: never neutral
    ("x = 1\n", "x = (\n"),
]


@pytest.mark.parametrize(("old", "new"), SAME)
def test_docstrings_comments_and_layout_do_not_change_behaviour(old: str, new: str) -> None:
    assert same_behaviour(old, new)


@pytest.mark.parametrize(("old", "new"), DIFFERENT)
def test_code_and_data_changes_change_behaviour(old: str, new: str) -> None:
    assert not same_behaviour(old, new)


def test_docstring_rewording_is_green_in_the_pack() -> None:
    old, new = SAME[0]
    pr = pull_request(
        [
            file_diff(
                "src/pricing.py",
                ['    """Return ``x`` plus one.', "", "    Used by the parser.", '    """'],
                ['    """Add one."""'],
                start=2,
            )
        ],
        base={"src/pricing.py": old},
        head={"src/pricing.py": new},
    )
    pack = build_pack(pr, Config())
    assert pack.risk.lane is Lane.GREEN
    assert {f.factor for f in pack.risk.factors} == set()


def test_moved_python_module_is_not_neutral_by_tree() -> None:
    text = "def f(x):\n    return x\n"
    moved = file_diff("src/b.py", status=FileStatus.RENAMED, old_path="src/a.py")
    base, head = MemoryTree({"src/a.py": text}), MemoryTree({"src/b.py": text})
    assert not _python_tree_equal(moved, base, head)


# -- data files: prose under description/comment keys --------------------------------------


@pytest.mark.parametrize(("path", "old", "new", "neutral"), PROSE_EXAMPLES)
def test_prose_keys_of_data_files_examples(path: str, old: str, new: str, neutral: bool) -> None:
    assert data_prose_equal(path, old, new) is neutral


def test_unloadable_data_is_never_neutral() -> None:
    assert not data_prose_equal("a.yml", "description: x\n", "description: [x\n")
    assert not data_prose_equal("a.json", '{"description": "x"}', '{"description": "y"')


def test_a_typo_fixed_in_a_generator_comment_is_green_in_the_pack() -> None:
    old = "options:\n  - ident: WithTruncation\n    comment: |\n      speficies the amount\n"
    new = old.replace("speficies", "specifies")
    lane, _ = lane_and_factors(
        files=[file_diff("jwt/options.yaml", ["      specifies the amount"],
                         ["      speficies the amount"], start=4)],
        base={"jwt/options.yaml": old},
        head={"jwt/options.yaml": new},
    )
    assert lane is Lane.GREEN


def test_prose_in_a_workflow_is_still_a_ci_change() -> None:
    old = "on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: make\n"
    old = "name: ci\ndescription: builds\n" + old
    new = old.replace("builds", "builds and tests")
    lane, _ = lane_and_factors(
        files=[file_diff(".github/workflows/ci.yml", ["description: builds and tests"],
                         ["description: builds"], start=2)],
        base={".github/workflows/ci.yml": old},
        head={".github/workflows/ci.yml": new},
    )
    assert lane is not Lane.GREEN


def test_python_code_moved_into_a_try_block_is_not_cosmetic() -> None:
    # bottle's CVE-2022-31799: the same lines, indented into the `try:`, change what is handled
    old = (
        "def handle(environ):\n    path = environ['PATH_INFO']\n    try:\n"
        "        bind(environ)\n    except Exception:\n        return error()\n"
    )
    new = (
        "def handle(environ):\n    try:\n        path = environ['PATH_INFO']\n"
        "        bind(environ)\n    except Exception:\n        return error()\n"
    )
    patch = "".join(
        difflib.unified_diff(
            old.splitlines(keepends=True), new.splitlines(keepends=True), "a/app.py", "b/app.py"
        )
    )
    pr = pull_request(
        list(parse_diff("diff --git a/app.py b/app.py\n" + patch).files),
        base={"app.py": old},
        head={"app.py": new},
    )
    pack = build_pack(pr, Config())
    assert pack.risk.lane is Lane.YELLOW
    assert "logic-change" in {f.factor for f in pack.risk.factors}


def test_shape_keys_ignore_names_and_docstrings_but_not_blocks() -> None:
    renamed = shape_key("def f(a):\n    '''Doc.'''\n    return a.b\n")
    assert renamed == shape_key("def g(x):\n    return x.c\n")
    assert shape_key("if a:\n    b()\nc()\n") != shape_key("if a:\n    b()\n    c()\n")
    assert shape_key("x = 'a'\n") != shape_key("x = 'b'\n")
    assert shape_key("def f(:\n") is None



def _pack_of(path: str, old: str, new: str) -> EvidencePack:
    patch = "".join(
        difflib.unified_diff(
            old.splitlines(keepends=True), new.splitlines(keepends=True), f"a/{path}", f"b/{path}"
        )
    )
    pr = pull_request(
        list(parse_diff(f"diff --git a/{path} b/{path}\n" + patch).files),
        base={path: old},
        head={path: new},
    )
    return build_pack(pr, Config())


_CHECKS = "\tif err := compareSigs(body, sig); err != nil {\n\t\treturn false, err\n\t}\n"
_EARLY = (
    "\tif co.TrustedMaterial != nil {\n\t\tlogID, err := decode(co.LogID)\n"
    "\t\tif err != nil {\n\t\t\treturn false, err\n\t\t}\n"
    "\t\tif err := verifySET(logID, co); err != nil {\n\t\t\treturn false, err\n\t\t}\n"
    "\t\treturn true, nil\n\t}\n"
)
_HELPER = "func compareSigs(body string, sig Signature) error {\n\treturn nil\n}\n"
_TAIL = "\n\treturn x > 0, nil\n}\n\n" + _HELPER
_HEAD = "package cosign\n\nfunc VerifyBundle(sig Signature, co *CheckOpts) (bool, error) {\n"


def test_go_code_moved_above_an_early_return_is_not_cosmetic() -> None:
    # cosign's GHSA-whqx-f9j3-ch6m (holdout37): the same lines, moved above the early return
    # (the diff removes the checks below the return and adds them above: the same lines)
    old = _HEAD + "\tx := 1\n\n" + _EARLY + "\n" + _CHECKS + _TAIL
    new = _HEAD + "\tx := 1\n\n" + _CHECKS + "\n" + _EARLY + _TAIL
    pack = _pack_of("pkg/cosign/verify.go", old, new)
    assert "logic-change" in {f.factor for f in pack.risk.factors}
    assert pack.risk.lane is not Lane.GREEN


def test_go_code_renamed_in_place_is_still_cosmetic() -> None:
    old = _HEAD + "\tx := 1\n\n" + _EARLY + "\n" + _CHECKS + _TAIL
    new = old.replace("compareSigs", "compareSignatures")
    assert _pack_of("pkg/cosign/verify.go", old, new).risk.lane is Lane.GREEN


@pytest.mark.parametrize(
    ("path", "old", "new"),
    [
        (  # goimports moving an import within its block (gomarkdown's "Run gofmt", holdout19)
            "html/renderer.go",
            (
                'package html\n\nimport (\n\t"fmt"\n\t"github.com/x/valid"\n\t"io"\n)\n\n'
                "func f(w io.Writer) {\n\tfmt.Fprint(w, valid.X)\n}\n"
            ),
            (
                'package html\n\nimport (\n\t"fmt"\n\t"io"\n\n\t"github.com/x/valid"\n)\n\n'
                "func f(w io.Writer) {\n\tfmt.Fprint(w, valid.X)\n}\n"
            ),
        ),
        (  # an import-order lint rule in JavaScript
            "src/index.js",
            "import b from 'b'\nimport a from 'a'\n\nexport const f = () => a(b)\n",
            "import a from 'a'\nimport b from 'b'\n\nexport const f = () => a(b)\n",
        ),
    ],
)
def test_imports_sorted_within_their_run_are_cosmetic(path: str, old: str, new: str) -> None:
    assert _pack_of(path, old, new).risk.lane is Lane.GREEN


def test_a_statement_moved_past_an_import_run_is_not_cosmetic() -> None:
    old = "import a from 'a'\nimport b from 'b'\n\nsetup()\nexport const f = () => a(b)\n"
    new = "setup()\nimport a from 'a'\nimport b from 'b'\n\nexport const f = () => a(b)\n"
    assert _pack_of("src/index.js", old, new).risk.lane is not Lane.GREEN


_PLUGINS = "log:log\nacl:acl\nany:any\ncache:cache\nrewrite:rewrite\n"


@pytest.mark.parametrize(
    ("new", "cosmetic"),
    [
        # coredns's GHSA-c9v3-4pv7-87pr (holdout51): the ACL moved after the rewrite, the fix
        ("log:log\nany:any\ncache:cache\nrewrite:rewrite\nacl:acl\n", False),
        # a cyclic shift of existing names is no rename
        (_PLUGINS.replace("acl:acl\nany:any", "any:any\nacl:acl"), False),
        ("# the chain runs top down\n" + _PLUGINS, True),  # a comment added
        (_PLUGINS.replace("any:any\n", "any:any\n\n"), True),  # a blank line added
    ],
)
def test_lines_moved_in_a_file_no_grammar_reads(new: str, cosmetic: bool) -> None:
    lane = _pack_of("plugin.cfg", _PLUGINS, new).risk.lane
    assert (lane is Lane.GREEN) is cosmetic


# -- code: text for people under help/usage/description/example names --------------------


@pytest.mark.parametrize(("path", "old", "new", "neutral"), CODE_PROSE_EXAMPLES)
def test_prose_names_of_code_examples(path: str, old: str, new: str, neutral: bool) -> None:
    assert code_prose_equal(path, old, new) is neutral


def test_unparsable_code_is_never_prose_equal() -> None:
    assert not code_prose_equal("a.py", 'p(help="x")\n', 'p(help="y"\n')
    assert not code_prose_equal("a.go", "package a\nvar u = `x`\n", "package a\nvar u = `y\n")
    assert not code_prose_equal("a.txt", "usage = 1\n", "usage = 2\n")


def test_a_help_text_only_change_is_green_in_the_pack() -> None:
    old = (
        "package cmd\n\nvar create = &cobra.Command{\n\tUse: \"create\",\n"
        "\tExample: `app create -n \"my app\"`,\n\tRunE: run,\n}\n"
    )
    new = old.replace("-n", "--name")
    assert new != old
    lane, _ = lane_and_factors(
        files=[file_diff("cmd/create.go", ['\tExample: `app create --name "my app"`,'],
                         ['\tExample: `app create -n "my app"`,'], start=5)],
        base={"cmd/create.go": old},
        head={"cmd/create.go": new},
    )
    assert lane is Lane.GREEN


def test_a_flag_default_changed_beside_its_help_is_not_green() -> None:
    old = 'parser.add_argument("--retries", help="how often", default=3)\n'
    new = 'parser.add_argument("--retries", help="how often to try", default=5)\n'
    lane, _ = lane_and_factors(
        files=[file_diff("src/app/cli.py", [new.rstrip()], [old.rstrip()], start=1)],
        base={"src/app/cli.py": old},
        head={"src/app/cli.py": new},
    )
    assert lane is not Lane.GREEN
