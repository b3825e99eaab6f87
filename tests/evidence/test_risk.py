"""The lane decision on hand-built diffs: what the diff does, not what files are called."""

from __future__ import annotations

import pytest

from pr_review.config import Config, parse_config
from pr_review.evidence.build import build_pack
from pr_review.evidence.risk import DOWN_MIGRATION, DOWN_MIGRATION_EXAMPLES
from pr_review.schema.enums import Confidence, FactorSeverity, Lane
from pr_review.sources.diff import FileStatus
from tests.evidence.helpers import file_diff, pull_request

BASE_PY = 'def total(items):\n    """Sum."""\n    return sum(items)\n'


def _lane(pr_kwargs: dict[str, object], config: Config | None = None) -> tuple[Lane, set[str]]:
    pack = build_pack(pull_request(**pr_kwargs), config or Config())  # type: ignore[arg-type]
    return pack.risk.lane, {f.factor for f in pack.risk.factors}


def test_docs_only_is_green_with_high_confidence() -> None:
    pack = build_pack(
        pull_request([file_diff("docs/guide.md", ["# Guide"], status=FileStatus.ADDED)]), Config()
    )
    assert pack.risk.lane is Lane.GREEN
    assert pack.risk.confidence is Confidence.HIGH
    assert pack.risk.factors == ()


def test_names_that_contain_risky_substrings_are_not_risky() -> None:
    head = {"src/utils/settle.py": "def settle(x):\n    return x + 1\n"}
    lane, factors = _lane(
        {
            "files": [
                file_diff("src/utils/settle.py", ["    return x + 1"], ["    return x"], start=2)
            ],
            "head": head,
        }
    )
    assert lane is Lane.YELLOW
    assert factors == {"logic-change"}


def test_comment_only_change_is_green() -> None:
    base = {"src/a.py": "x = 1  # one\n"}
    head = {"src/a.py": "x = 1  # the number one\n"}
    lane, _ = _lane(
        {
            "files": [file_diff("src/a.py", ["x = 1  # the number one"], ["x = 1  # one"])],
            "base": base,
            "head": head,
        }
    )
    assert lane is Lane.GREEN


def test_consistent_rename_is_green_and_leftover_reference_is_not() -> None:
    base = {
        "src/m.py": "def old_name():\n    return 1\n",
        "src/u.py": "from src.m import old_name\n",
    }
    head = {
        "src/m.py": "def new_name():\n    return 1\n",
        "src/u.py": "from src.m import new_name\n",
    }
    files = [
        file_diff("src/m.py", ["def new_name():"], ["def old_name():"]),
        file_diff("src/u.py", ["from src.m import new_name"], ["from src.m import old_name"]),
    ]
    lane, _ = _lane({"files": files, "base": base, "head": head})
    assert lane is Lane.GREEN
    head_left = {**head, "src/v.py": "old_name()\n"}
    lane, factors = _lane({"files": files, "base": base, "head": head_left})
    assert lane is Lane.YELLOW
    assert "logic-change" in factors


def test_a_go_field_and_parameter_renamed_in_their_package_are_cosmetic() -> None:
    # golang-migrate's databaseName -> databaseDriverName (holdout67): a struct field and
    # parameters, declared with no keyword before them; other packages keep their own field
    # spelled the same, which Go does not let this package's name reach
    base_src = (
        "package migrate\ntype Migrate struct {\n\tdatabaseName string\n}\n"
        "func New(databaseName string) *Migrate {\n"
        "\treturn &Migrate{databaseName: databaseName}\n}\n"
    )
    head_src = base_src.replace("databaseName", "driverName")
    other = "package mysql\ntype Config struct {\n\tdatabaseName string\n}\n"
    changed = [line for line in head_src.splitlines() if "driverName" in line]
    gone = [line for line in base_src.splitlines() if "databaseName" in line]
    files = [file_diff("migrate.go", changed, gone)]
    base = {"migrate.go": base_src, "database/mysql/mysql.go": other}
    head = {"migrate.go": head_src, "database/mysql/mysql.go": other}
    lane, _ = _lane({"files": files, "base": base, "head": head})
    assert lane is Lane.GREEN
    # an exported name other packages can use must be gone from the whole tree
    exported = {k: v.replace("databaseName", "DatabaseName") for k, v in base.items()}
    renamed = {**exported, "migrate.go": head_src.replace("driverName", "DriverName")}
    files = [file_diff(
        "migrate.go",
        [x.replace("driverName", "DriverName") for x in changed],
        [x.replace("databaseName", "DatabaseName") for x in gone],
    )]
    lane, factors = _lane({"files": files, "base": exported, "head": renamed})
    assert lane is Lane.YELLOW
    assert "logic-change" in factors


def test_inconsistent_rename_is_not_cosmetic() -> None:
    base = {"src/a.py": "a = f(x)\nb = f(y)\n"}
    head = {"src/a.py": "a = g(x)\nb = h(y)\n"}
    files = [file_diff("src/a.py", ["a = g(x)", "b = h(y)"], ["a = f(x)", "b = f(y)"])]
    lane, _ = _lane({"files": files, "base": base, "head": head})
    assert lane is Lane.YELLOW


def test_removed_permission_check_is_red_changed_one_is_moderate() -> None:
    removed = file_diff("web/guard.py", ["    pass"], ["    if not has_permission(user, 'x'):"])
    lane, factors = _lane({"files": [removed]})
    assert lane is Lane.RED
    assert "auth-permission" in factors
    changed = file_diff(
        "web/guard.ts",
        ["  return route.requiredRoles.some(r => has(r));"],
        ["  return route.requiredRoles.every(r => has(r));"],
    )
    pack = build_pack(pull_request([changed]), Config())
    auth = [f for f in pack.risk.factors if f.factor == "auth-permission"]
    assert auth
    assert auth[0].severity.value == "moderate"


def test_check_then_act_on_shared_store_is_red() -> None:
    added = ["    count = r.get(key)", "    if count is None:", "        r.setex(key, 60, 1)"]
    lane, factors = _lane({"files": [file_diff("svc/limiter.py", added, status=FileStatus.ADDED)]})
    assert lane is Lane.RED
    assert "check-then-act" in factors


def test_an_upsert_after_a_read_is_atomic() -> None:
    # scs's session stores (holdout74): a SELECT in Find, an upsert in Commit
    find = ["\trow := p.db.QueryRow(\"SELECT data FROM sessions WHERE token = $1\", token)",
            "\terr = row.Scan(&b)"]  # fmt: skip
    upsert = [("\t_, err := p.db.Exec(\"INSERT INTO sessions (token, data) VALUES ($1, $2) "
               "ON CONFLICT (token) DO UPDATE SET data = EXCLUDED.data\", token, b)")]
    plain = [upsert[0].replace(" ON CONFLICT (token) DO UPDATE SET data = EXCLUDED.data", "")]
    _, factors = _lane({"files": [file_diff("store.go", find + upsert, status=FileStatus.ADDED)]})
    assert "check-then-act" not in factors
    _, factors = _lane({"files": [file_diff("store.go", find + plain, status=FileStatus.ADDED)]})
    assert "check-then-act" in factors
    # a key-value write's own arguments make it atomic too
    nx = ["    count = r.get(key)", "    if count is None:", "        r.set(key, 1, nx=True)"]
    _, factors = _lane({"files": [file_diff("svc/limiter.py", nx, status=FileStatus.ADDED)]})
    assert "check-then-act" not in factors


def test_check_then_act_in_javascript_needs_the_event_loop_given_back_between() -> None:
    # mongoose's path trie (holdout35): a Map read then written with nothing awaited between
    trie = ["  let child = node.children.get(segment);", "  if (child == null) {",
            "    child = new Node();", "    node.children.set(segment, child);", "  }"]  # fmt: skip
    lane, factors = _lane({"files": [file_diff("lib/pathTrie.js", trie, status=FileStatus.ADDED)]})
    assert "check-then-act" not in factors
    assert lane is Lane.YELLOW
    cache = ["  const hits = await cache.get(key);", "  if (hits == null) {",
             "    await cache.set(key, 1);", "  }"]  # fmt: skip
    lane, factors = _lane({"files": [file_diff("lib/limit.ts", cache, status=FileStatus.ADDED)]})
    assert "check-then-act" in factors
    assert lane is Lane.RED


def test_removed_error_handling_is_named_but_yellow_at_most() -> None:
    # Keyed to generic code (any error check removed), so never red alone (issue 22).
    lane, factors = _lane(
        {
            "files": [
                file_diff("svc/w.go", ["\tdo(x)"], ["\tif err != nil {", "\t\treturn err", "\t}"])
            ]
        }
    )
    assert lane is Lane.YELLOW
    assert "error-handling-removed" in factors


def test_infra_setting_is_red_and_terraform_comment_only_is_green() -> None:
    lane, factors = _lane(
        {"files": [file_diff("infra/db.tf", ["  multi_az = false"], ["  multi_az = true"])]}
    )
    assert lane is Lane.RED
    assert {"infra-lifecycle", "infra-deploy"} <= factors
    # the kind of file alone is yellow at most: a Dockerfile moved to a newer base image
    lane, factors = _lane(
        {"files": [file_diff("Dockerfile", ["FROM python:3.13-slim"], ["FROM python:3.12-slim"])]}
    )
    assert lane is Lane.YELLOW
    assert "infra-deploy" in factors
    base = {"infra/db.tf": '# old note\nresource "x" "y" {}\n'}
    head = {"infra/db.tf": '# new note\nresource "x" "y" {}\n'}
    lane, _ = _lane(
        {
            "files": [file_diff("infra/db.tf", ["# new note"], ["# old note"])],
            "base": base,
            "head": head,
        }
    )
    assert lane is Lane.GREEN


def test_overrides_only_raise() -> None:
    docs = [file_diff("docs/a.md", ["x"], status=FileStatus.ADDED)]
    config = parse_config(
        "risk:\n  overrides:\n    - paths: ['docs/**']\n      lane: yellow\n", source="c.yml"
    )
    pack = build_pack(pull_request(docs), config)
    assert pack.risk.lane is Lane.YELLOW
    assert pack.risk.override_applied
    pack = build_pack(pull_request(docs, body="Fix typo.\n\nrisk: red"), Config())
    assert pack.risk.lane is Lane.RED
    assert pack.risk.override_source == "PR description"
    infra = [file_diff("infra/db.tf", ["  multi_az = false"], ["  multi_az = true"])]
    pack = build_pack(pull_request(infra, body="risk: yellow"), Config())
    assert pack.risk.lane is Lane.RED


def test_multi_subsystem_counts_code_only() -> None:
    files = [file_diff(f"src/{name}/x.py", ["y = 2"], ["y = 1"]) for name in ("a", "b")]
    files += [
        file_diff("tests/test_x.py", ["y = 2"], ["y = 1"]),
        file_diff("README.md", ["y"], ["x"]),
    ]
    _, factors = _lane({"files": files})
    assert "multi-subsystem" not in factors
    files.append(file_diff("src/c/x.py", ["y = 2"], ["y = 1"]))
    lane, factors = _lane({"files": files})
    assert lane is Lane.YELLOW  # a count of folders: yellow at most (issue 22)
    assert "multi-subsystem" in factors


def test_binary_code_change_is_low_confidence_and_rounds_up() -> None:
    from pr_review.sources.diff import FileDiff

    files = [FileDiff(path="lib/native.so", status=FileStatus.MODIFIED, binary=True)]
    pack = build_pack(pull_request(files), Config())
    assert pack.risk.confidence is Confidence.LOW
    assert pack.risk.escalated_for_low_confidence
    assert pack.risk.lane is Lane.RED


@pytest.mark.parametrize(
    ("path", "status", "escalated"),
    [
        # file-type (holdout64): a binary sample beside a new detector's code
        ("fixture/fixture-pax.tar", FileStatus.ADDED, False),
        ("app/fixtures/sample.bin", FileStatus.MODIFIED, False),
        ("lib/native.so", FileStatus.DELETED, False),  # a deletion adds nothing unseen
        ("lib/native.so", FileStatus.ADDED, True),
        ("data/fixture.bin", FileStatus.ADDED, True),  # a file's name is no folder
    ],
)
def test_binary_samples_in_fixtures_and_deleted_binaries_are_not_unreadable_code(
    path: str, status: FileStatus, escalated: bool
) -> None:
    from pr_review.sources.diff import FileDiff

    files = [
        file_diff("core.js", ["  return 'tar'"], ["  return undefined"], start=2),
        FileDiff(path=path, status=status, binary=True),
    ]
    pack = build_pack(pull_request(files), Config())
    assert pack.risk.escalated_for_low_confidence is escalated
    assert pack.risk.lane is (Lane.RED if escalated else Lane.YELLOW)


def test_low_confidence_from_moderate_factors_alone_is_not_red() -> None:
    files = [
        file_diff("src/app.py", ["    return x + 2"], ["    return x + 1"], start=2),
        file_diff("config/app.yml", ["timeout: 5"], ["timeout: 3"]),
        file_diff("requirements.txt", ["requests==2.32.0"], ["requests==2.31.0"]),
    ]
    pack = build_pack(pull_request(files), Config())
    assert {f.factor for f in pack.risk.factors} >= {
        "logic-change",
        "config-change",
        "dependency-manifest",
    }
    assert all(f.severity.value == "moderate" for f in pack.risk.factors)
    assert pack.risk.confidence is Confidence.LOW
    assert pack.risk.lane is Lane.YELLOW
    assert not pack.risk.escalated_for_low_confidence


_KEY = [
    "-----BEGIN RSA PRIVATE KEY-----",
    "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun",
    "-----END RSA PRIVATE KEY-----",
]


def test_a_private_key_among_the_tests_or_examples_is_yellow_and_elsewhere_red() -> None:
    in_tests = [file_diff("test/lib/testing-server.pem", _KEY, status=FileStatus.ADDED)]
    pack = build_pack(pull_request(in_tests), Config())
    secrets = [f for f in pack.risk.factors if f.factor == "secrets"]
    assert pack.risk.lane is Lane.YELLOW
    assert [f.severity.value for f in secrets] == ["moderate"]
    assert "a key among the tests' files" in secrets[0].why
    shipped = [file_diff("certs/server.pem", _KEY, status=FileStatus.ADDED)]
    assert _lane({"files": shipped})[0] is Lane.RED
    # An example server's key (h2, pysaml2: held out, labelled green) is the example's own.
    example = [file_diff("example/idp2/pki/mykey.pem", _KEY, status=FileStatus.ADDED)]
    pack = build_pack(pull_request(example), Config())
    secrets = [f for f in pack.risk.factors if f.factor == "secrets"]
    assert [f.severity.value for f in secrets] == ["moderate"]
    assert "a key in an example folder" in secrets[0].why
    nested = [file_diff("src/example/server.pem", _KEY, status=FileStatus.ADDED)]
    assert _lane({"files": nested})[0] is Lane.RED  # not a top-level example folder
    # A test file that also holds an account's key is no fixture.
    mixed = [
        file_diff(
            "test/fixtures.py",
            [*_KEY, 'AWS_KEY = "AKIAIOSFODNN7EXAMPLF"'],
            status=FileStatus.ADDED,
        )
    ]
    assert _lane({"files": mixed})[0] is Lane.RED


_CHECK = "\tif err := bcrypt.CompareHashAndPassword(p.Hash, []byte(pw)); err != nil {"


def _moved_check(head_lines: list[str]) -> tuple[Lane, set[str]]:
    """The password check leaves server.go; ``head_lines`` land in connectors/password.go."""
    base = {"server/server.go": "package server\n\nfunc x() {\n" + _CHECK + "\n\t}\n}\n"}
    head = {
        "server/server.go": "package server\n\nfunc x() {\n}\n",
        "server/connectors/password.go": "package connectors\n\n" + "\n".join(head_lines) + "\n",
    }
    return _lane({
        "files": [
            file_diff("server/server.go", [], [_CHECK, "\t}"], start=4),
            file_diff("server/connectors/password.go", ["package connectors", "", *head_lines],
                      status=FileStatus.ADDED),
        ],
        "base": base, "head": head,
    })  # fmt: skip


def test_a_crypto_line_moved_to_another_file_is_no_crypto_change() -> None:
    # dexidp/dex #4929: the password connector's bcrypt check moved out of server.go.
    lane, factors = _moved_check(["func x() {", "    " + _CHECK.strip(), "\t}", "}"])
    assert "crypto" not in factors
    assert lane is Lane.YELLOW


def test_a_crypto_line_moved_and_changed_or_copied_twice_still_counts() -> None:
    changed = _CHECK.replace("p.Hash", "p.OtherHash")
    lane, factors = _moved_check(["func x() {", changed, "\t}", "}"])
    assert "crypto" in factors
    assert lane is Lane.RED
    lane, factors = _moved_check(["func x() {", _CHECK, "\t}", _CHECK, "\t}", "}"])
    assert "crypto" in factors  # one copy pairs with the removal, the other is added
    assert lane is Lane.RED


@pytest.mark.parametrize(("path", "down"), DOWN_MIGRATION_EXAMPLES)
def test_down_migrations_are_known_by_their_tools_names(path: str, down: bool) -> None:
    assert (DOWN_MIGRATION.search(path) is not None) is down


@pytest.mark.parametrize(
    ("path", "lines", "red"),
    [
        # what a migration drops, truncates, renames or converts is gone for running code
        ("db/migrations/0003.up.sql", ["ALTER TABLE users DROP COLUMN email;"], True),
        ("db/migrations/0004.up.sql", ["ALTER TABLE t ALTER COLUMN amount TYPE bigint;"], True),
        ("app/migrations/0043_x.py", ["    operations = [migrations.RemoveField('app', 'u')]"],
         True),
        # ... what it adds is new (hydra's pk columns, saleor's longer manifest URLs: holdout45)
        ("db/migrations/0002.up.sql", ["ALTER TABLE users ADD COLUMN x int;",
                                       "CREATE INDEX ON users (x);"], False),
        ("app/migrations/0042_x.py", ["        migrations.AlterField(",
                                      "            field=models.URLField(max_length=2048),"],
         False),
        # ... and a down migration undoes its up (hydra's device-flow rollback, holdout45)
        ("persistence/sql/migrations/2024_device_flow.down.sql",
         ["DROP TABLE IF EXISTS hydra_oauth2_device_auth_codes;"], False),
    ],
)
def test_only_destructive_migrations_are_red(path: str, lines: list[str], red: bool) -> None:
    pack = build_pack(pull_request([file_diff(path, lines)]), Config())
    migration = [f for f in pack.risk.factors if f.factor == "migration"]
    assert migration, pack.risk.factors
    assert (migration[0].severity is FactorSeverity.RED) is red, migration[0].why
    assert (pack.risk.lane is Lane.RED) is red
