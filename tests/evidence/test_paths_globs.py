"""Path roles, globs, subsystems."""

from __future__ import annotations

import pytest

from pr_review.config import parse_config
from pr_review.errors import ConfigError
from pr_review.evidence.codeowners import parse_codeowners
from pr_review.evidence.globs import GlobError, compile_glob
from pr_review.evidence.subsystems import code_subsystems, compile_subsystems, subsystem_of
from pr_review.sources.paths import PathKind, classify


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("docs/API_GUIDE.md", PathKind.DOCS),
        ("README.md", PathKind.DOCS),
        ("MAINTAINERS", PathKind.DOCS),  # coreos/go-oidc's list of maintainers
        ("src/maintainers.py", PathKind.CODE),
        ("tests/test_refunds.py", PathKind.TEST),
        ("allauth/socialaccount/providers/google/tests.py", PathKind.TEST),
        ("app/testsuite.py", PathKind.CODE),
        ("web/src/api/client.test.ts", PathKind.TEST),
        ("svc/store_test.go", PathKind.TEST),
        ("testutils/assert/equal.go", PathKind.TEST),
        ("internal/testutil/server.go", PathKind.TEST),
        ("end-to-end/fixture/helpers.js", PathKind.TEST),  # express-openid-connect (holdout75)
        ("src/end_to_end.js", PathKind.CODE),
        ("jwt/testdata/token.json", PathKind.TEST),
        ("openpgp/test_data/pqc/v4-eddsa-sample-sk.asc", PathKind.TEST),  # go-crypto (holdout62)
        ("openpgp/read_write_test_data.go", PathKind.TEST),  # its test vectors
        ("openpgp/read_write.go", PathKind.CODE),
        ("selfservice/flow/registration/.snapshots/TestSortNodes-case=1.json.json", PathKind.TEST),
        ("internal/util/server.go", PathKind.CODE),
        ("src/utils/settle.py", PathKind.CODE),
        ("src/utils/clock.py", PathKind.CODE),
        ("requirements.txt", PathKind.MANIFEST),
        ("go.mod", PathKind.MANIFEST),
        ("infra/main.tf", PathKind.INFRA),
        ("Dockerfile", PathKind.INFRA),
        (".devcontainer/Dockerfile", PathKind.CODE),  # a contributor's workstation
        (".devcontainer/devcontainer.json", PathKind.CONFIG),
        ("deploy/.devcontainer.md", PathKind.DOCS),
        (".github/workflows/ci.yml", PathKind.INFRA),
        ("config/app.yaml", PathKind.CONFIG),
        ("deploy/app.yaml", PathKind.INFRA),
        ("docs/deployment/docker.md", PathKind.DOCS),  # a page about deploying
        ("deployment/README.md", PathKind.DOCS),
        ("mkdocs.yml", PathKind.DOCS),
        (".readthedocs.yaml", PathKind.DOCS),
        ("CITATION.cff", PathKind.DOCS),
        (".github/FUNDING.yml", PathKind.DOCS),
        ("config/funding.yml", PathKind.CONFIG),  # only GitHub's sponsor file is docs
    ],
)
def test_classify(path: str, kind: PathKind) -> None:
    assert classify(path) is kind


@pytest.mark.parametrize(
    ("pattern", "path", "expected"),
    [
        ("src/payments/**", "src/payments/a/b.py", True),
        ("src/payments/**", "src/paymentsx/a.py", False),
        ("*.sql", "src/db/migrations/001.sql", True),
        ("src/*.py", "src/a/b.py", False),
        ("**/migrations/", "db/migrations/001.sql", True),
    ],
)
def test_glob(pattern: str, path: str, expected: bool) -> None:
    assert compile_glob(pattern).matches(path) is expected


@pytest.mark.parametrize("pattern", ["", "src/[abc.py", "   "])
def test_invalid_glob_raises(pattern: str) -> None:
    with pytest.raises(GlobError):
        compile_glob(pattern)


def test_invalid_override_glob_is_a_config_error_naming_the_key() -> None:
    text = "risk:\n  overrides:\n    - paths: ['src/[x']\n      lane: red\n"
    with pytest.raises(ConfigError, match=r"risk\.overrides\[0\]\.paths\[0\]"):
        parse_config(text, source="cfg.yml")


def test_invalid_subsystem_glob_is_skipped_and_reported() -> None:
    mapping = compile_subsystems({"billing": ["src/[bad", "src/billing/**"]})
    assert mapping.errors
    assert "subsystems.billing" in mapping.errors[0]
    owners = parse_codeowners("")
    assert subsystem_of("src/billing/x.py", mapping, owners) == "billing"


def test_subsystem_fallbacks() -> None:
    none = compile_subsystems({})
    owners = parse_codeowners("/src/payments/ @pay\n*.md @docs\n")
    assert subsystem_of("src/payments/refunds.py", none, owners) == "payments"
    assert subsystem_of("src/api/routes.py", none, owners) == "api"
    assert subsystem_of("internal/store/x.go", none, owners) == "store"
    assert subsystem_of("tests/test_x.py", none, owners) == "tests"
    assert subsystem_of("setup.py", none, owners) == "root"
    assert code_subsystems(["api", "tests", "docs", "root", "payments"]) == ("api", "payments")
