"""The image test's reading of the Dockerfile and `.dockerignore` (no root needed): it must
execute exactly what Docker would, and refuse what it does not understand."""

from __future__ import annotations

from pathlib import Path

import pytest
from image.dockerfile import (
    Copy,
    DockerfileError,
    Run,
    SetEnv,
    context_files,
    expand,
    ignore_rules,
    ignored,
    parse,
)

ROOT = Path(__file__).resolve().parents[2]


def test_the_projects_dockerfile_is_understood_whole() -> None:
    image = parse((ROOT / "Dockerfile").read_text(encoding="utf-8"))
    assert image.base == "debian:bookworm-slim"
    assert image.entrypoint == ("pr-review", "action")
    runs = [s for s in image.steps if isinstance(s, Run)]
    assert any("install-runtime" in " ".join(r.argv) for r in runs)
    env = dict(image.env)
    assert env["PATH"].startswith("/opt/pr-review/bin:")


def test_continuations_comments_and_env_expansion() -> None:
    image = parse(
        "# comment\nFROM debian:bookworm-slim\n"
        "ENV A=1 B=two\nENV PATH=/x/bin:$PATH C=${A}z\n"
        "RUN echo one \\\n  # a comment line inside a continuation\n  && echo two\n"
        "COPY . /app\n"
        'ENTRYPOINT ["tool", "go"]\n'
    )
    env = dict(image.env)
    assert env["PATH"].startswith("/x/bin:/usr/local/sbin")
    assert env["C"] == "1z"
    run = next(s for s in image.steps if isinstance(s, Run))
    assert run.argv == ("/bin/sh", "-c", "echo one && echo two")
    assert run.line == 5
    assert any(isinstance(s, Copy) and s.dest == "/app" for s in image.steps)
    assert next(s for s in image.steps if isinstance(s, SetEnv)).values == (
        ("A", "1"),
        ("B", "two"),
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('FROM a\nWORKDIR /x\nENTRYPOINT ["x"]\n', "WORKDIR is not understood"),
        ('FROM a\nADD x /x\nENTRYPOINT ["x"]\n', "ADD is not understood"),
        ('FROM a\nUSER app\nENTRYPOINT ["x"]\n', "USER is not understood"),
        ('FROM a AS b\nENTRYPOINT ["x"]\n', "FROM takes an image name only"),
        ('FROM a\nFROM b\nENTRYPOINT ["x"]\n', "one FROM only"),
        ('FROM a\nCOPY --from=b /x /y\nENTRYPOINT ["x"]\n', "COPY takes plain"),
        ('FROM a\nCOPY ../x /y\nENTRYPOINT ["x"]\n', "leaves the context"),
        ('FROM a\nCOPY x y\nENTRYPOINT ["x"]\n', "must be absolute"),
        ('FROM a\nRUN --mount=type=cache x\nENTRYPOINT ["x"]\n', "RUN flags"),
        ("FROM a\nENTRYPOINT pr-review action\n", "JSON exec form"),
        ('FROM a\nENTRYPOINT ["x"]\nRUN y\n', "must be the last"),
        ("RUN x\n", "before FROM"),
        ("FROM a\nRUN x\n", "no ENTRYPOINT"),
        ("FROM a\nRUN x \\\n", "ends inside a continuation"),
    ],
)
def test_anything_else_is_refused_with_the_line(text: str, message: str) -> None:
    with pytest.raises(DockerfileError, match=message):
        parse(text)


def test_expand_leaves_unset_variables_empty() -> None:
    assert expand("$A-${B}-$C", {"A": "1", "B": "2"}) == "1-2-"


def test_dockerignore_semantics(tmp_path: Path) -> None:
    rules = ignore_rules("# c\n.git\n**/__pycache__\ntests\n*.md\n!README.md\n/build\n")
    assert ignored(".git/config", rules)
    assert ignored("src/pkg/__pycache__/m.pyc", rules)
    assert ignored("tests/test_x.py", rules)
    assert not ignored("src/tests_helper.py", rules)
    assert ignored("CHANGES.md", rules)
    assert not ignored("README.md", rules)
    assert not ignored("docs/guide.md", rules)  # `*.md` matches the top level only
    assert ignored("build/x", rules)
    for rel in ("src/a.py", "tests/t.py", "CHANGES.md", "README.md", "src/__pycache__/a.pyc"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x", encoding="utf-8")
    assert list(context_files(tmp_path, rules)) == ["README.md", "src/a.py"]


def test_the_projects_build_context_holds_no_tests_benches_or_corpora() -> None:
    rules = ignore_rules((ROOT / ".dockerignore").read_text(encoding="utf-8"))
    for rel in (
        "tests/conftest.py",
        "bench/bench_real.py",
        "bench/corpora/x.bundle",
        ".venv/bin/python",
        "src/pr_review/__pycache__/cli.cpython-311.pyc",
        ".pytest_cache/README.md",
        "image/__main__.py",
    ):
        assert ignored(rel, rules), rel
    for rel in (
        "src/pr_review/cli.py",
        "pyproject.toml",
        "README.md",
        ".ci/install-runtime",
        ".ci/trim_image.py",
    ):
        assert not ignored(rel, rules), rel
