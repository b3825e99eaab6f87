"""Syntax-aware risk: security-relevant scopes, CI trust, code-only keywords, language-first
classification. The negative examples are synthetic snippets shaped like real false alarms."""

from __future__ import annotations

import difflib
import re

import pytest

from pr_review.evidence import grammars
from pr_review.evidence.ci import CI_RULES, CiRule, actions_used, ci_factor, is_ci
from pr_review.evidence.guards import is_access_denial
from pr_review.evidence.lexing import strip_comments, strip_strings
from pr_review.evidence.scopes import module_name, scoped_lines, words
from pr_review.evidence.security_scope import SCOPE_RULES, ScopeRule
from pr_review.schema.enums import FactorSeverity, Lane, VerifierSeverity
from pr_review.sources.diff import FileStatus, parse_diff
from pr_review.sources.paths import PathKind, classify
from pr_review.verifiers.secrets import _finding
from tests.evidence.helpers import file_diff
from tests.evidence.helpers import lane_and_factors as _risk

# -- rules as data: every example runs ------------------------------------------------------


@pytest.mark.parametrize("rule", SCOPE_RULES, ids=lambda r: sorted(r.words)[0])
def test_scope_rule_examples(rule: ScopeRule) -> None:
    assert rule.matches
    for name in rule.matches:
        assert rule.hit(name), name
    for name in rule.misses:
        assert rule.hit(name) is None, name


@pytest.mark.parametrize("rule", CI_RULES, ids=lambda r: r.why[:30])
def test_ci_rule_examples(rule: CiRule) -> None:
    assert rule.matches
    for line in rule.matches:
        assert re.search(rule.pattern, line), line
    for line in rule.misses:
        assert not re.search(rule.pattern, re.sub(r"(?:^|\s)#.*$", "", line)), line


# -- scopes ----------------------------------------------------------------------------------


def test_words_split_identifiers_into_whole_words() -> None:
    assert words("get_netrc_auth") == ("get", "netrc", "auth")
    assert words("SecureCookieSession") == ("secure", "cookie", "session")
    assert words("HTTPAdapter") == ("http", "adapter")
    assert module_name("src/flask/sessions.py") == "sessions"
    assert module_name("pkg/auth/__init__.py") == "auth"
    assert module_name("src/middleware/csrf/index.ts") == "csrf"
    assert module_name("src/tls/mod.rs") == "tls"
    assert module_name("index.js") == "index"
    assert module_name("site/index.py") == "index"
    assert module_name("lib/index.d.ts") == "lib"


@pytest.mark.parametrize(("path", "source", "name"), grammars.BINDING_EXAMPLES)
def test_anonymous_functions_are_named_by_what_binds_them(
    path: str, source: str, name: str | None
) -> None:
    tree = grammars.parse(path, source)
    assert tree is not None
    names, level = [], tree.scopes
    while level:  # the innermost scope's name (a class field's function sits in its class)
        names.append(level[0].name)
        level = level[0].children
    assert names[-1:] == ([name] if name else [])


def test_scoped_lines_name_the_enclosing_class_and_function_and_skip_comments() -> None:
    source = (
        "import x\n"
        "class Store:\n"
        "    @cached\n"
        "    def load(self):\n"
        "        # a comment\n"
        "        return 1\n"
    )
    lines = scoped_lines("pkg/store.py", source, [1, 3, 5, 6])
    assert [(s.line, s.chain) for s in lines] == [
        (1, ("store",)),
        (3, ("store", "Store", "load")),
        (6, ("store", "Store", "load")),
    ]
    assert all(s.parsed for s in lines)


# -- security-relevant scopes ----------------------------------------------------------------

_BASE = (
    "def get_netrc_auth(url):\n"
    "    host = url.split(':')[0]\n"
    "    return lookup(host)\n"
    "\n"
    "def total(items):\n"
    "    return sum(items)\n"
)


def test_a_changed_call_inside_an_auth_function_is_red_and_says_which() -> None:
    head = _BASE.replace("    host = url.split(':')[0]", "    host = parse(url).hostname")
    lane, factors = _risk(
        files=[
            file_diff(
                "lib/utils.py",
                ["    host = parse(url).hostname"],
                ["    host = url.split(':')[0]"],
                start=2,
            )
        ],
        base={"lib/utils.py": _BASE},
        head={"lib/utils.py": head},
    )
    assert lane is Lane.RED
    why = factors["security-scope:moderate"].why
    assert "utils:get_netrc_auth" in why
    assert "line 2" in why
    check = factors["security-check-changed:red"].why
    assert "utils:get_netrc_auth" in check
    assert "call to `parse` added" in check


def test_a_typing_only_change_inside_an_auth_function_is_not_red() -> None:
    head = _BASE.replace("def get_netrc_auth(url):", "def get_netrc_auth(url: str) -> str:")
    lane, factors = _risk(
        files=[
            file_diff(
                "lib/utils.py",
                ["def get_netrc_auth(url: str) -> str:"],
                ["def get_netrc_auth(url):"],
                start=1,
            )
        ],
        base={"lib/utils.py": _BASE},
        head={"lib/utils.py": head},
    )
    assert lane is Lane.YELLOW
    assert "security-scope:moderate" in factors
    assert "security-check-changed:red" not in factors


_OVERLOADED = """import typing
import html
import re
import os


@typing.overload
def escape(value: None) -> None:
    pass


@typing.overload
def escape(value: str) -> str:
    pass


def escape(value):
    if value is None:
        return None
    return html.escape(value)
"""


def test_of_overloads_the_same_rank_is_compared_whatever_the_lines_moved() -> None:
    # a pyupgrade-style PR: imports dropped above, the implementation's annotation changed; the
    # implementation's new line numbers fall on a stub in the base file
    head = _OVERLOADED.replace("import re\nimport os\n", "").replace(
        "def escape(value):", "def escape(value: str | None) -> str | None:"
    )
    patch = "".join(difflib.unified_diff(
        _OVERLOADED.splitlines(keepends=True), head.splitlines(keepends=True),
        "a/lib/text.py", "b/lib/text.py", n=0,
    ))
    files = list(parse_diff("diff --git a/lib/text.py b/lib/text.py\n" + patch).files)
    assert [n for h in files[0].hunks for n, _ in h.added] == [15]  # a blank line in the base
    lane, factors = _risk(files=files, base={"lib/text.py": _OVERLOADED},
                          head={"lib/text.py": head})
    assert "security-check-changed:red" not in factors
    assert lane is not Lane.RED


_ESCAPE_TO_STRING = (
    "exports.escapeHtml.toString = function () {\n"
    "  return Function.prototype.toString.call(this) + ';';\n"
    "};\n"
)


@pytest.mark.parametrize(
    ("guard", "red"), [("", False), ("  if (!this) { throw new Error('unbound'); }\n", True)]
)
def test_a_security_function_renamed_in_its_file_is_red_only_if_it_decides_otherwise(
    guard: str, red: bool
) -> None:
    """ejs's ``escapeXML.toString = function`` became ``function escapeXMLToString`` bound
    with ``defineProperty``: the same decisions under a new name are no change."""
    head = (
        "function escapeHtmlToString() {\n" + guard
        + "  return Function.prototype.toString.call(this) + ';';\n"
        "}\nexports.escapeHtml.toString = escapeHtmlToString;\n"
    )
    lane, factors = _risk(
        files=[file_diff("lib/utils.js", head.splitlines(), _ESCAPE_TO_STRING.splitlines())],
        base={"lib/utils.js": _ESCAPE_TO_STRING},
        head={"lib/utils.js": head},
    )
    assert ("security-check-changed:red" in factors) is red
    assert (lane is Lane.RED) is red


def test_change_in_an_ordinary_function_of_the_same_module_is_not_a_security_scope() -> None:
    head = _BASE.replace("    return sum(items)", "    return sum(items, 0)")
    lane, factors = _risk(
        files=[
            file_diff(
                "lib/utils.py", ["    return sum(items, 0)"], ["    return sum(items)"], start=6
            )
        ],
        base={"lib/utils.py": _BASE},
        head={"lib/utils.py": head},
    )
    assert lane is Lane.YELLOW
    assert not any(k.startswith("security-scope") for k in factors)


def test_docstring_only_change_in_a_security_function_stays_green() -> None:
    base = 'def check_password(pw):\n    """Check."""\n    return pw == 1\n'
    head = 'def check_password(pw):\n    """Check the password."""\n    return pw == 1\n'
    lane, _ = _risk(
        files=[
            file_diff(
                "app/users.py", ['    """Check the password."""'], ['    """Check."""'], start=2
            )
        ],
        base={"app/users.py": base},
        head={"app/users.py": head},
    )
    assert lane is Lane.GREEN


def test_deleting_a_whole_security_helper_is_moderate_not_red() -> None:
    # Shape of a "remove deprecated code" PR: a deprecated safe_* wrapper deleted outright.
    base = "def safe_join(a, b):\n    return _join(a, b)\n\ndef other():\n    return 1\n"
    head = "def other():\n    return 1\n"
    lane, factors = _risk(
        files=[
            file_diff("pkg/helpers.py", [], ["def safe_join(a, b):", "    return _join(a, b)", ""])
        ],
        base={"pkg/helpers.py": base},
        head={"pkg/helpers.py": head},
    )
    assert "security-scope:moderate" in factors
    assert "security-scope:red" not in factors
    assert lane is Lane.YELLOW


_SIGNER = (
    "import hmac\n\n"
    "def verify_signature(key, body, sig):\n"
    "    if not sig:\n"
    "        raise ValueError('no signature')\n"
    "    mac = hmac.new(key, body, 'sha256').hexdigest()\n"
    "    return hmac.compare_digest(mac, sig)\n"
)


def test_a_file_of_security_checks_deleted_whole_is_not_red() -> None:
    # Shape of cosign's "Remove unused signing code": the whole file goes, checks and all;
    # what used it changes in lines of its own, read where they are.
    lane, factors = _risk(
        files=[file_diff("pkg/signer.py", [], _SIGNER.splitlines(), status=FileStatus.DELETED)],
        base={"pkg/signer.py": _SIGNER},
        head={},
    )
    assert "security-check-changed:red" not in factors
    assert "crypto:red" not in factors
    assert "the PR deletes the file whole" in factors["crypto:moderate"].why
    assert "(the whole scope is deleted)" in factors["security-scope:moderate"].why
    assert lane is Lane.YELLOW


def test_the_same_checks_removed_from_a_file_the_pr_keeps_are_red() -> None:
    head = "import hmac\n\ndef verify_signature(key, body, sig):\n    return True\n"
    _, factors = _risk(
        files=[file_diff("pkg/signer.py", ["    return True"], _SIGNER.splitlines()[3:], start=4)],
        base={"pkg/signer.py": _SIGNER},
        head={"pkg/signer.py": head},
    )
    assert "security-check-changed:red" in factors
    assert "crypto:red" in factors


def test_session_module_alone_is_moderate() -> None:
    base = "class Session:\n    def request(self, url):\n        return send(url)\n"
    head = "class Session:\n    def request(self, url):\n        return send(url, retries=1)\n"
    lane, factors = _risk(
        files=[
            file_diff(
                "lib/sessions.py",
                ["        return send(url, retries=1)"],
                ["        return send(url)"],
                start=3,
            )
        ],
        base={"lib/sessions.py": base},
        head={"lib/sessions.py": head},
    )
    assert "security-scope:moderate" in factors
    assert lane is Lane.YELLOW


# -- classification starts from the language --------------------------------------------------


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("src/werkzeug/security.py", PathKind.CODE),
        ("src/__snapshots__/parse.spec.ts.snap", PathKind.TEST),
        ("cypress/support/commands.js", PathKind.TEST),  # hydra's login helper (holdout45)
        ("src/stringify.bench.ts", PathKind.TEST),
        ("@types/index.test-d.ts", PathKind.TEST),  # tsd's type tests (node-fetch)
        ("benchmarks/run.js", PathKind.TEST),
        ("src/bench.ts", PathKind.CODE),
        # a test runner's own configuration runs the tests; an app's build configuration ships
        ("vitest.config.e2e.ts", PathKind.TEST),  # vite's end-to-end runner (holdout42)
        ("jest.config.js", PathKind.TEST),
        ("packages/app/playwright.config.ts", PathKind.TEST),
        ("vite.config.ts", PathKind.CODE),
        ("src/jest.ts", PathKind.CODE),
        ("pkg/license.py", PathKind.CODE),
        ("SECURITY.md", PathKind.DOCS),
        ("LICENSE", PathKind.DOCS),
        ("NEWS", PathKind.DOCS),
        ("THANKS", PathKind.DOCS),
        ("src/news.py", PathKind.CODE),
        ("artwork/logo-full.svg", PathKind.DOCS),
        ("static/icon.png", PathKind.DOCS),
        ("requirements/docs.in", PathKind.DOCS),
        ("requirements/docs.txt", PathKind.DOCS),
        ("requirements-docs.txt", PathKind.DOCS),
        ("docs/requirements.txt", PathKind.DOCS),
        ("requirements/tests.in", PathKind.DOCS),
        ("requirements/dev.txt", PathKind.DOCS),
        ("requirements-dev.txt", PathKind.DOCS),
        ("requirements/base.in", PathKind.MANIFEST),
        ("requirements/prod.txt", PathKind.MANIFEST),
        ("requirements.txt", PathKind.MANIFEST),
        ("docs/package.json", PathKind.DOCS),
        ("web/package.json", PathKind.MANIFEST),
        ("tests/testdata/unicode.dist/setup.py", PathKind.TEST),  # a fixture package
        ("test/tscc/package.json", PathKind.TEST),
        ("tests/requirements.txt", PathKind.TEST),
        ("src/testing_tools/go.mod", PathKind.MANIFEST),  # a folder name, not a test folder
        ("extras/man/http.1", PathKind.DOCS),
        ("man/git-config.5", PathKind.DOCS),
        ("lib/version.1", PathKind.CODE),
        ("lib/man/page.js", PathKind.CODE),
    ],
)
def test_language_first_classification(path: str, kind: PathKind) -> None:
    assert classify(path) is kind


# -- code-only keyword categories -------------------------------------------------------------


def test_strings_are_blanked_but_quotes_and_lines_kept() -> None:
    assert strip_strings("x = \"payment\" + f'max_age {y}'") == "x = \"       \" + f'           '"
    assert strip_strings('"""a\nb"""').count("\n") == 1


def test_ttl_word_in_a_deprecation_message_is_not_a_cache_lifetime() -> None:
    base = "def send(**kw):\n    warn(\"'cache_timeout' is renamed 'max_age'. Removed in 2.1.\")\n"
    head = "def send(**kw):\n    warn(\"'cache_timeout' is renamed 'max_age'. Removed in 2.2.\")\n"
    lane, factors = _risk(
        files=[
            file_diff(
                "pkg/helpers.py",
                ["    warn(\"'cache_timeout' is renamed 'max_age'. Removed in 2.2.\")"],
                ["    warn(\"'cache_timeout' is renamed 'max_age'. Removed in 2.1.\")"],
                start=2,
            )
        ],
        base={"pkg/helpers.py": base},
        head={"pkg/helpers.py": head},
    )
    assert lane is Lane.YELLOW
    assert not any(k.startswith("cache-ttl") for k in factors)


def test_route_example_in_a_docstring_is_not_public_api() -> None:
    base = 'def jsonify(*a):\n    """Serialize.\n    """\n    return dumps(a)\n'
    head = (
        'def jsonify(*a):\n    """Serialize.\n\n    @app.route("/users/me")\n    """\n'
        "    return dumps(a)\n"
    )
    lane, factors = _risk(
        files=[file_diff("pkg/json.py", ["", '    @app.route("/users/me")'], [], start=3)],
        base={"pkg/json.py": base},
        head={"pkg/json.py": head},
    )
    assert not any(k.startswith("public-api") for k in factors)
    assert lane is Lane.GREEN


def test_money_word_in_a_workflow_is_not_money() -> None:
    _, factors = _risk(
        files=[
            file_diff(
                ".github/workflows/ci.yml",
                ["      - uses: actions/checkout@v4", "      - uses: actions/checkout@v4"],
                ["      - uses: actions/checkout@v3", "      - uses: actions/checkout@v3"],
            )
        ],
        base={".github/workflows/ci.yml": "jobs:\n  - uses: actions/checkout@v3\n"},
    )
    assert not any(k.startswith("money") for k in factors)


def test_a_typo_fixed_in_a_bazelrc_comment_is_no_money_and_no_behaviour() -> None:
    base = "# fail. This makes the log noiser in exchange for speed\ntest --test_output=errors\n"
    head = "# fail. This makes the log noisier in exchange for speed\ntest --test_output=errors\n"
    lane, factors = _risk(
        files=[
            file_diff(
                ".aspect/bazelrc/convenience.bazelrc",
                ["# fail. This makes the log noisier in exchange for speed"],
                ["# fail. This makes the log noiser in exchange for speed"],
            )
        ],
        base={".aspect/bazelrc/convenience.bazelrc": base},
        head={".aspect/bazelrc/convenience.bazelrc": head},
    )
    assert not any(k.startswith("money") for k in factors)
    assert lane is Lane.GREEN


@pytest.mark.parametrize(
    ("path", "commented"),
    [(".npmrc", True), ("tools/BUILD", True), ("defs.bzl", True), ("x.bazelrc", True),
     ("src/build.go", False)],
)  # fmt: skip
def test_rc_and_bazel_files_have_hash_comments(path: str, commented: bool) -> None:
    stripped = strip_comments("# exchange rate\n", path)
    assert ("exchange" not in stripped) is commented


# -- secrets ---------------------------------------------------------------------------------


def test_loopback_url_credentials_in_a_test_are_not_secrets() -> None:
    lane, factors = _risk(
        files=[
            file_diff(
                "tests/test_proxy.py",
                ["    proxies = {'http': 'http://user:pass@localhost:8080'}"],
                status=FileStatus.ADDED,
            )
        ]
    )
    assert "secrets:red" not in factors
    assert lane is Lane.GREEN


def test_real_url_credentials_are_still_secrets() -> None:
    _, factors = _risk(
        files=[
            file_diff(
                "app/settings.py",
                ['DB = "postgres://admin:s3cr3tP4ss9@db.internal:5432/app"'],
                status=FileStatus.ADDED,
            )
        ]
    )
    assert "secrets:red" in factors


def test_an_example_key_moved_in_the_docs_is_not_a_new_secret() -> None:
    lane, factors = _risk(
        files=[
            file_diff(
                "docs/config.rst",
                ['   $ export SECRET_KEY="5f352379324c22463451387a0aec5d2f"'],
                ["    $ export SECRET_KEY='5f352379324c22463451387a0aec5d2f'"],
            )
        ]
    )
    assert "secrets:red" not in factors
    assert lane is Lane.GREEN


_CONFIG_TEST = (
    'const validConfig = `\nclient_secret="b2F1dGgyLXByb3h5LWNsaWVudC1zZWNyZXQK"\n`\n'
)


@pytest.mark.parametrize(
    ("value", "red"),
    [
        ("b2F1dGgyLXByb3h5LWNsaWVudC1zZWNyZXQK", False),  # the file's own, repeated
        ("c2Vjb25kLWNsaWVudC1zZWNyZXQtdmFsdWUK", True),  # new to the file
    ],
)
def test_a_secret_the_base_file_already_holds_is_not_new(value: str, red: bool) -> None:
    # oauth2-proxy (holdout71): a config test adding a case with its other cases' secrets
    line = f'client_secret="{value}"'
    head = _CONFIG_TEST + f"const otherConfig = `\n{line}\n`\n"
    _, factors = _risk(
        files=[file_diff("config/load.go", [line], start=4)],
        base={"config/load.go": _CONFIG_TEST},
        head={"config/load.go": head},
    )
    assert ("secrets:red" in factors) is red


_MIGRATION = (
    "from django.db import migrations\n\n\ndef dedupe(apps, schema_editor):\n    pass\n\n\n"
    "class Migration(migrations.Migration):\n    operations = [\n{op}    ]\n"
)


@pytest.mark.parametrize(
    ("before", "after", "red"),
    [
        # django-axes (holdout71): made reversible, the forward operation the same
        ("        migrations.RunPython(dedupe),\n",
         ("        migrations.RunPython(\n"
          "            dedupe, reverse_code=migrations.RunPython.noop\n        ),\n"), False),
        ("        migrations.RunSQL('DELETE FROM t'),\n",
         "        migrations.RunSQL('DELETE FROM t', 'SELECT 1'),\n", False),
        # what runs forward changed
        ("        migrations.RunPython(migrations.RunPython.noop),\n",
         "        migrations.RunPython(dedupe, reverse_code=noop),\n", True),
        ("    migrations.RunSQL('SELECT 1'),\n", "    migrations.RunSQL('DELETE FROM t'),\n", True),
    ],
)  # fmt: skip
def test_a_migration_changed_only_in_how_it_is_undone_is_no_data_migration_change(
    before: str, after: str, red: bool
) -> None:
    path = "app/migrations/0007_dedupe.py"
    old, new = _MIGRATION.format(op=before), _MIGRATION.format(op=after)
    _, factors = _risk(
        files=[file_diff(path, after.splitlines(), before.splitlines(), start=11)],
        base={path: old},
        head={path: new},
    )
    assert ("migration:red" in factors) is red, factors


# -- TLS and crypto parameters ---------------------------------------------------------------


def test_tls_verification_setting_is_red() -> None:
    lane, factors = _risk(
        files=[
            file_diff(
                "lib/adapters.py",
                ['    cert_reqs = "CERT_REQUIRED"', "    if verify is False:"],
                status=FileStatus.ADDED,
            )
        ],
    )
    assert lane is Lane.RED
    assert "crypto:red" in factors


def test_hash_iterations_change_is_red() -> None:
    lane, factors = _risk(
        files=[
            file_diff(
                "lib/hashing.py",
                ["DEFAULT_PBKDF2_ITERATIONS = 600000"],
                ["DEFAULT_PBKDF2_ITERATIONS = 260000"],
            )
        ],
    )
    assert lane is Lane.RED
    assert "crypto:red" in factors


# -- CI: trust vs routine --------------------------------------------------------------------

_WF = ".github/workflows/tests.yml"
_WF_BASE = "jobs:\n  t:\n    steps:\n      - uses: actions/setup-python@v4\n"


def test_version_bump_of_an_action_already_used_is_ci_change() -> None:
    lane, factors = _risk(
        files=[
            file_diff(
                _WF,
                ["      - uses: actions/setup-python@v5  # v5.1.0"],
                ["      - uses: actions/setup-python@v4"],
                start=4,
            )
        ],
        base={_WF: _WF_BASE},
    )
    assert "ci-change:moderate" in factors
    assert lane is Lane.YELLOW


def test_matrix_edit_is_ci_change() -> None:
    lane, factors = _risk(
        files=[file_diff(_WF, [], ["          - {python: '3.9', tox: devel}"])],
        base={_WF: _WF_BASE},
    )
    assert set(factors) == {"ci-change:moderate"}
    assert lane is Lane.YELLOW


@pytest.mark.parametrize(
    ("added", "removed", "evidence"),
    [
        (["on: pull_request_target"], ["on: pull_request"], "trigger"),
        (["permissions:", "  contents: write"], [], "permissions"),
        (["      - uses: someone/deploy-action@v1"], [], "someone/deploy-action"),
        ([], ["      - uses: step-security/harden-runner@v2"], "hardening"),
        (["        run: echo ${{ github.event.pull_request.title }}"], [], "PR-controlled"),
        (["          token: ${{ secrets.PYPI_TOKEN }}"], [], "secrets"),
    ],
)
def test_trust_changes_are_ci_trust(added: list[str], removed: list[str], evidence: str) -> None:
    lane, factors = _risk(files=[file_diff(_WF, added, removed)], base={_WF: _WF_BASE})
    assert lane is Lane.RED
    assert evidence in factors["ci-trust:red"].why


def test_ci_helpers() -> None:
    assert is_ci(".github/workflows/a.yaml")
    assert is_ci(".gitlab-ci.yml")
    assert not is_ci("deploy/values.yaml")
    assert actions_used(["- uses: actions/checkout@v4 # pin", "  uses: a/b/sub@x"]) == {
        "actions/checkout",
        "a/b",
    }
    factor = ci_factor(
        file_diff(_WF, ["      - uses: someone/x@v2"], ["      - uses: someone/x@v1"]), None
    )
    assert factor.severity is FactorSeverity.MODERATE


# -- removed guards, whatever their name -------------------------------------------------------

_ENDPOINT = (
    '@bp.post("/invoices/<id>/approve")\n'
    '@require_permission("approve")\n'
    "def approve(id):\n"
    "    if not current_user.active:\n"
    "        abort(401)\n"
    "    return do_approve(id)\n"
)


def test_removed_decorator_guard_is_red_whatever_its_name() -> None:
    head = _ENDPOINT.replace('@require_permission("approve")\n', "")
    lane, factors = _risk(
        files=[file_diff("app/views.py", [], ['@require_permission("approve")'], start=2)],
        base={"app/views.py": _ENDPOINT},
        head={"app/views.py": head},
    )
    assert lane is Lane.RED
    why = factors["access-control-removed:red"].why
    assert "approve" in why
    assert "require_permission" in why


def test_removed_early_refusal_is_red() -> None:
    head = _ENDPOINT.replace("    if not current_user.active:\n        abort(401)\n", "")
    lane, factors = _risk(
        files=[
            file_diff(
                "app/views.py",
                [],
                ["    if not current_user.active:", "        abort(401)"],
                start=4,
            )
        ],
        base={"app/views.py": _ENDPOINT},
        head={"app/views.py": head},
    )
    assert lane is Lane.RED  # refuses with 401: an access check, whatever its name
    assert "if not current_user.active: abort(401)" in factors["access-control-removed:red"].why


def test_guard_moved_into_another_file_is_not_lost() -> None:
    # Shape of an "add a provider interface" refactor: the args/kwargs check moves to the
    # new provider module.
    check = (
        "    if args and kwargs:\n        raise TypeError('x')\n    return make(args or kwargs)\n"
    )
    base = "def jsonify(*args, **kwargs):\n" + check
    head = "def jsonify(*args, **kwargs):\n    return provider.response(*args, **kwargs)\n"
    provider = "def response(*args, **kwargs):\n" + check.replace("'x'", "'y'")
    _, factors = _risk(
        files=[
            file_diff(
                "pkg/json.py",
                ["    return provider.response(*args, **kwargs)"],
                base.splitlines()[1:],
                start=2,
            ),
            file_diff("pkg/provider.py", provider.splitlines(), status=FileStatus.ADDED),
        ],
        base={"pkg/json.py": base},
        head={"pkg/json.py": head, "pkg/provider.py": provider},
    )
    assert "guard-removed:red" not in factors


def test_a_dropped_assert_is_not_a_guard() -> None:
    # Shape of "convert a helper into a class": an argument assert rewritten elsewhere.
    base = "def build(app, **kw):\n    assert 'data' not in kw\n    return make(app, **kw)\n"
    head = "def build(app, **kw):\n    return make(app, **kw)\n"
    _, factors = _risk(
        files=[file_diff("pkg/testing.py", [], ["    assert 'data' not in kw"], start=2)],
        base={"pkg/testing.py": base},
        head={"pkg/testing.py": head},
    )
    assert "guard-removed:red" not in factors


def test_a_dispatch_return_is_not_a_guard() -> None:
    base = (
        "def default(o):\n    if isinstance(o, date):\n        return http_date(o)\n"
        "    return str(o)\n"
    )
    head = "def default(o):\n    return str(o)\n"
    _, factors = _risk(
        files=[
            file_diff(
                "pkg/enc.py",
                [],
                ["    if isinstance(o, date):", "        return http_date(o)"],
                start=2,
            )
        ],
        base={"pkg/enc.py": base},
        head={"pkg/enc.py": head},
    )
    assert "guard-removed:red" not in factors


_STATIC = (
    "class Static:\n"
    "    async def handle(self, request):\n"
    "        name = request.match_info['filename']\n"
    "        return self.serve(self.root.joinpath(name))\n"
)
_REFUSAL = ["        if Path(name).anchor:", "            raise HTTPForbidden()"]


def test_an_access_refusal_added_to_a_handler_is_red_and_names_it() -> None:
    # Shape of a real traversal fix: an absolute name now refused with 403.
    head = _STATIC.replace(
        "        return self.serve", "\n".join(_REFUSAL) + "\n        return self.serve"
    )
    lane, factors = _risk(
        files=[file_diff("pkg/static.py", _REFUSAL, start=4)],
        base={"pkg/static.py": _STATIC},
        head={"pkg/static.py": head},
    )
    assert lane is Lane.RED
    why = factors["access-control-added:red"].why
    assert "Static.handle" in why
    assert "raise HTTPForbidden()" in why


def test_a_refusal_that_only_gains_a_description_is_the_same_access_check() -> None:
    base = (
        "def update(client):\n    if not client:\n"
        "        raise InvalidClientError(status_code=401)\n    return save(client)\n"
    )
    head = base.replace("status_code=401)", "status_code=401, description='No client.')")
    lane, factors = _risk(
        files=[
            file_diff(
                "oauth/endpoint.py",
                ["        raise InvalidClientError(status_code=401, description='No client.')"],
                ["        raise InvalidClientError(status_code=401)"],
                start=3,
            )
        ],
        base={"oauth/endpoint.py": base},
        head={"oauth/endpoint.py": head},
    )
    assert "access-control-added:red" not in factors
    assert "access-control-removed:red" not in factors
    assert lane is not Lane.RED


def test_an_access_check_moved_from_another_file_or_a_plain_guard_added_is_not_added() -> None:
    check = "    if not user.is_admin:\n        abort(403)\n"
    base_views = "def edit(user):\n    return save(user)\n"
    base_old = "def legacy(user):\n" + check + "    return save(user)\n"
    head_views = "def edit(user):\n" + check + "    if not items:\n        return None\n"
    head_views += "    return save(user)\n"
    _, factors = _risk(
        files=[
            file_diff("app/views.py", head_views.splitlines()[1:5], start=2),
            file_diff("app/old.py", [], base_old.splitlines(), status=FileStatus.DELETED),
        ],
        base={"app/views.py": base_views, "app/old.py": base_old},
        head={"app/views.py": head_views},
    )
    assert "access-control-added:red" not in factors


# -- other languages on tree-sitter trees ------------------------------------------------------

_JS = (
    "// sessions\n"
    "class Auth {\n"
    "  check(user) {\n"
    "    if (!user) { throw new Error('no') }\n"
    "    return 'ok'\n"
    "  }\n"
    "}\n"
    "function total(a, b) { return a + b }\n"
)


def test_js_comment_only_change_is_green_by_its_syntax_tree() -> None:
    head = _JS.replace("// sessions", "// user sessions, see RFC 6265")
    lane, _ = _risk(
        files=[file_diff("web/a.js", ["// user sessions, see RFC 6265"], ["// sessions"])],
        base={"web/a.js": _JS},
        head={"web/a.js": head},
    )
    assert lane is Lane.GREEN


def test_js_change_inside_an_auth_class_is_a_security_scope() -> None:
    head = _JS.replace("if (!user)", "if (user === null)")
    lane, factors = _risk(
        files=[
            file_diff(
                "web/a.js",
                ["    if (user === null) { throw new Error('no') }"],
                ["    if (!user) { throw new Error('no') }"],
                start=4,
            )
        ],
        base={"web/a.js": _JS},
        head={"web/a.js": head},
    )
    assert lane is Lane.RED
    assert "a:Auth.check" in factors["security-scope:moderate"].why
    check = factors["security-check-changed:red"].why
    assert "check `(user===null)` added" in check
    assert "check `(!user)` removed" in check


_VERIFY_JS = (
    "const jws = require('jws');\n"
    "module.exports = function (jwtString, secret, options) {\n"
    "  const header = jws.decode(jwtString).header;\n"
    "  return jws.verify(jwtString, header.alg, secret);\n"
    "};\n"
)


def test_a_module_exported_verify_function_that_decides_more_is_red() -> None:
    line = "  if (header.alg === 'none') { throw new Error('unsigned token') }"
    head = _VERIFY_JS.replace("  return jws", f"{line}\n  return jws")
    lane, factors = _risk(
        files=[file_diff("lib/verify.js", [line], [], start=4)],
        base={"lib/verify.js": _VERIFY_JS},
        head={"lib/verify.js": head},
    )
    assert lane is Lane.RED
    why = factors["security-check-changed:red"].why
    assert "`verify:verify`" in why
    assert "check `(header.alg==='none')` added" in why


def test_a_reworded_error_in_a_module_exported_verify_function_is_not_red() -> None:
    base = _VERIFY_JS.replace(
        "  return jws", "  if (!header) { throw new Error('bad') }\n  return jws"
    )
    head = base.replace("'bad'", "'the token has no header'")
    lane, factors = _risk(
        files=[
            file_diff(
                "lib/verify.js",
                ["  if (!header) { throw new Error('the token has no header') }"],
                ["  if (!header) { throw new Error('bad') }"],
                start=4,
            )
        ],
        base={"lib/verify.js": base},
        head={"lib/verify.js": head},
    )
    assert lane is not Lane.RED
    assert "security-check-changed:red" not in factors


def test_language_without_a_grammar_degrades_to_the_module_name() -> None:
    lines = scoped_lines("src/auth.zig", "fn f() void {}\n", [1])
    assert [(s.chain, s.parsed) for s in lines] == [(("auth",), False)]
    assert grammars.parse("src/x.zig", "fn f() void {}\n") is None
    assert grammars.parse("src/x.js", "function (((") is None  # error nodes: not analysed
    assert grammars.parse("src/x.js", None) is None


def test_a_config_file_named_for_auth_is_not_a_security_scope() -> None:
    _, factors = _risk(
        files=[file_diff("conf/auth.yml", ["timeout: 5"], ["timeout: 3"])],
        base={"conf/auth.yml": "timeout: 3\n"},
        head={"conf/auth.yml": "timeout: 5\n"},
    )
    assert not any(k.startswith("security-scope") for k in factors)


def test_secrets_verifier_reports_loopback_url_credentials_as_information() -> None:
    line = "    'http': 'http://test:pass@localhost:8080',"
    placeholder = _finding("tests/t.py", 3, {"url_credentials"}, {"Basic Auth Credentials"}, line)
    assert placeholder.severity is VerifierSeverity.INFO
    real = 'DB = "postgres://admin:s3cr3tP4ss9@db.internal:5432/app"'
    leaked = _finding("app/s.py", 1, {"url_credentials"}, {"Basic Auth Credentials"}, real)
    assert leaked.severity is VerifierSeverity.ERROR


@pytest.mark.parametrize(
    ("guard", "denial"),
    [
        ("if Path(name).anchor: raise HTTPForbidden()", True),
        ("if not user.is_admin: abort(403)", True),
        ("if request.user != order.owner: raise PermissionDenied", True),
        ("@login_required", True),
        ("if field.translate(None, TOKEN_CHARS): raise MultipartParseError(msg)", False),
        ("if not token: raise ValueError('empty')", False),
        ("@functools.cache", False),
    ],
)
def test_a_gained_guard_is_access_control_only_when_it_denies_access(
    guard: str, denial: bool
) -> None:
    assert is_access_denial(guard) is denial


def test_a_receiver_chain_renamed_or_shortened_masks_alike() -> None:
    from pr_review.evidence.lexing import mask_receivers

    same = mask_receivers
    assert same("os.path.sep in piece") == same("os.sep in piece")
    assert same("event.request.method === 'x'") == same("event.req.method === 'x'")
    assert same("h.Header.Add('X-Real-IP', ip)") != same("h.Header.Set('X-Real-IP', ip)")
    assert mask_receivers("a.b.c === 'os.path.sep'") == "_.c === 'os.path.sep'"


_TLS_COLUMN = (
    "export const tls = ({ flow }) => {\n"
    "  return (\n"
    "    <td className={flow.tls_established ? 'col-tls-https' : 'col-tls-http'} />\n"
    "  );\n"
    "};\n"
)


@pytest.mark.parametrize(
    ("head", "red"),
    [
        # mitmproxy's `tls` column: what the flow table shows, not what a server lets through
        (
            (
                "export const tls = ({ flow }) => {\n"
                "  const secure = flow.tls_established;\n"
                "  return (\n"
                "    <td className={secure ? 'col-tls-https' : 'col-tls-http'}\n"
                "        title={secure ? 'TLS encrypted' : 'Plaintext'} />\n"
                "  );\n"
                "};\n"
            ),
            False,
        ),
        # ... but a component that gains a refusal is read as any function (server rendering)
        (
            (
                "export const tls = ({ flow }) => {\n"
                "  if (!flow.tls_established) { throw new Error('plaintext') }\n"
                "  return (\n"
                "    <td className={flow.tls_established ? 'col-tls-https' : 'col-tls-http'} />\n"
                "  );\n"
                "};\n"
            ),
            True,
        ),
        # ... and the same name deciding without markup is the rule's business
        (
            (
                "export const tls = ({ flow }) => {\n"
                "  if (!flow.tls_established) { throw new Error('plaintext') }\n"
                "  return flow.tls_established;\n"
                "};\n"
            ),
            True,
        ),
    ],
)
def test_a_ui_component_named_for_a_security_concern_decides_nothing(head: str, red: bool) -> None:
    lane, factors = _risk(
        files=[file_diff("web/FlowColumns.tsx", head.splitlines(), _TLS_COLUMN.splitlines())],
        base={"web/FlowColumns.tsx": _TLS_COLUMN},
        head={"web/FlowColumns.tsx": head},
    )
    assert ("security-check-changed:red" in factors) is red
    assert (lane is Lane.RED) is red


_HF_AUTH = (
    "export function createHFAuth(getServer) {\n"
    "  let oauthAvailable = $state(false);\n"
    "  async function refresh() {\n"
    "    const s = getServer();\n"
    "    if (!s?.get_oauth_available) return;\n"
    "    oauthAvailable = (await s.get_oauth_available()) === 'true';\n"
    "  }\n"
    "  return { get oauthAvailable() { return oauthAvailable; }, refresh };\n"
    "}\n"
)


@pytest.mark.parametrize(
    ("path", "head", "red"),
    [
        # gradio's sign-in button state (holdout44): a Svelte module's reactive state is UI
        (
            "js/workflow/hf-auth.svelte.ts",
            _HF_AUTH.replace(
                "$state(false);\n", "$state(false);\n  let known = $state(false);\n"
            ),
            False,
        ),
        # ... runes are Svelte's only in its modules: elsewhere `$state` is any function
        (
            "js/workflow/hf-auth.ts",
            _HF_AUTH.replace(
                "$state(false);\n", "$state(false);\n  let known = $state(false);\n"
            ),
            True,
        ),
        # ... and a refusal added to the state module is read as in any function
        (
            "js/workflow/hf-auth.svelte.ts",
            _HF_AUTH.replace(
                "    const s = getServer();\n",
                "    const s = getServer();\n    if (!s) { throw new Error('no server') }\n",
            ),
            True,
        ),
    ],
)
def test_svelte_reactive_state_named_for_a_security_concern_is_ui_code(
    path: str, head: str, red: bool
) -> None:
    lane, factors = _risk(
        files=[file_diff(path, head.splitlines(), _HF_AUTH.splitlines())],
        base={path: _HF_AUTH},
        head={path: head},
    )
    assert ("security-check-changed:red" in factors) is red, factors
    assert (lane is Lane.RED) is red
