"""Guessing detectors (keyword, entropy) on placeholder values are information, not leaks."""

from __future__ import annotations

import pytest

from pr_review.schema.enums import VerifierSeverity
from pr_review.verifiers.secrets import (
    PUBLIC_PEM_EXAMPLES,
    _finding,
    assigns_numbers,
    assigns_references,
    block_scalar,
    compares_types,
    elided_private_key,
    held_by_base,
    looks_like_placeholder,
    loopback_settings,
    names_a_resource,
    names_a_setting,
    names_itself,
    public_pem_lines,
    service_container_env,
    yaml_keys,
)


@pytest.mark.parametrize(
    "line",
    [
        """  -d '{"email": "user@example.com", "password": "secret"}'""",
        "API_KEY=${API_KEY}",
        "password: changeme",
        'token = "<your-token>"',
        'api_key: "{{ vault_api_key }}"',
        'PASSWORD="xxxxxx"',
        "SECRET_KEY = CHANGE-ME-OR-FAIL-TO-START",  # gogs's conf/app.ini (holdout32)
        'secret_key = "replace_me_with_a_long_random_key"',
        # a connection string's documentation (jackc/pgx, holdout51): the secret-named key's
        # value is the placeholder; the user, host and database are no secrets
        "//	user=jack password=secret host=pg.example.com port=5432 dbname=mydb",
        "pgx_test = host=127.0.0.1 port=5432 dbname=pgx_test user=pgx_md5 password=secret",
    ],
)
def test_placeholders(line: str) -> None:
    assert looks_like_placeholder(line)


@pytest.mark.parametrize(
    "line",
    [
        'password = "hunter2zzKq9"',
        'secret_key = "8f3kdl20dkXm"',
        "DB_PASSWORD=s3cr3t-Pr0d-2026",
        "no values at all",
        'secret = "meChange42xQ"',  # the words, but not in their order
        "user=jack password=Xk3f9sd2 host=pg.example.com",  # a real-looking keyed value
        "password=secret token=ghp_Xk3f9sd2Lm8q",  # one keyed value is a placeholder, one not
    ],
)
def test_real_looking_values(line: str) -> None:
    assert not looks_like_placeholder(line)


def test_keyword_hit_on_placeholder_is_info() -> None:
    finding = _finding("docs/guide.md", 3, set(), {"Secret Keyword"}, 'password: "secret"')
    assert finding.severity is VerifierSeverity.INFO
    assert "placeholder" in finding.message


def test_keyword_hit_on_real_value_stays_warning() -> None:
    finding = _finding("app.py", 3, set(), {"Secret Keyword"}, 'password = "hunter2zzKq9"')
    assert finding.severity is VerifierSeverity.WARNING


def test_provider_pattern_is_never_downgraded() -> None:
    finding = _finding("app.py", 3, {"aws_access_key_id"}, set(), 'key = "secret"')
    assert finding.severity is VerifierSeverity.ERROR


@pytest.mark.parametrize(
    ("path", "severity"),
    [
        ("tests/test_advisory.py", VerifierSeverity.INFO),
        ("docs/usage.rst", VerifierSeverity.INFO),
        ("jwt/api_jwt.py", VerifierSeverity.ERROR),
    ],
)
def test_a_jwt_is_a_fixture_in_tests_and_docs_only(path: str, severity: VerifierSeverity) -> None:
    finding = _finding(path, 41, {"jwt"}, set(), "token = 'eyJhbGciOi...'")
    assert finding.severity is severity


@pytest.mark.parametrize(
    ("path", "severity"),
    [
        ("test/lib/TestCA.pem", VerifierSeverity.INFO),  # follow-redirects' test CA
        ("tests/test_advisory.py", VerifierSeverity.INFO),
        ("docs/tls.md", VerifierSeverity.ERROR),
        ("deploy/server.pem", VerifierSeverity.ERROR),
        ("examples/gevent/localhost.key", VerifierSeverity.INFO),  # h2's example server
        ("example/idp2/pki/mykey.pem", VerifierSeverity.INFO),  # pysaml2's example IdP
        ("src/example/server.pem", VerifierSeverity.ERROR),  # not a top-level example folder
    ],
)
def test_a_private_key_is_a_fixture_in_tests_and_examples_only(
    path: str, severity: VerifierSeverity
) -> None:
    finding = _finding(path, 1, {"private_key"}, set(), "-----BEGIN")
    assert finding.severity is severity


@pytest.mark.parametrize(
    ("line", "prose"),
    [
        # filebrowser's translation catalogs (holdout30): messages about passwords
        ('    "passwordTooShort": "密码长度至少为 {min} 位字符",', True),
        ('    "passwordTooShort": "Password must be at least {min} characters",', True),
        ('  "password": "Mot de passe",', True),
        ('  "password": "correct horse",', False),  # two words: could be a passphrase
        ('  "password": "Contraseña",', True),
        ('password = "hunter2zzKq9"', False),
        ('DB_PASSWORD="s3cr3t Pr0d"', False),
    ],
)
def test_a_keyword_guess_on_a_sentence_is_information(line: str, prose: bool) -> None:
    finding = _finding("frontend/src/i18n/zh-cn.json", 126, set(), {"Secret Keyword"}, line)
    expected = VerifierSeverity.INFO if prose else VerifierSeverity.WARNING
    assert finding.severity is expected
    assert ("reads as a sentence" in finding.message) is prose


@pytest.mark.parametrize(
    ("line", "alphabet"),
    [
        # aiohttp's multipart module (holdout): the base64 alphabet is high-entropy text
        ('    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="', True),
        ('CHARS = "0123456789abcdef"', True),
        ('KEY = "q8ZtR2vLm9Xw4Kp7Nd3Hs6Jf1Bc5Gy0A"', False),
        ('KEY = "abcdefghiZ8q2vLm9Xw4Kp7Nd3"', False),  # nine in a row: not an alphabet
    ],
)
def test_an_entropy_guess_on_an_alphabet_is_information(line: str, alphabet: bool) -> None:
    finding = _finding("aiohttp/multipart.py", 68, set(), {"Base64 High Entropy String"}, line)
    expected = VerifierSeverity.INFO if alphabet else VerifierSeverity.WARNING
    assert finding.severity is expected


@pytest.mark.parametrize(
    ("path", "severity"),
    [
        ("test/test_util.py", VerifierSeverity.INFO),  # urllib3's make_headers tests
        ("docs/auth.md", VerifierSeverity.INFO),
        ("src/client.py", VerifierSeverity.ERROR),
    ],
)
def test_an_authorization_header_is_a_fixture_in_tests_and_docs(
    path: str, severity: VerifierSeverity
) -> None:
    line = '{"authorization": "Basic dXNlcjpwYXNzw6k="},'
    assert _finding(path, 629, {"authorization_header"}, set(), line).severity is severity
    url = "  var url = 'http://google.com:80\\\\@yahoo.com/#what'"  # url-parse's parser test
    assert _finding(path, 196, {"url_credentials"}, set(), url).severity is severity


@pytest.mark.parametrize(
    ("line", "checksum"),
    [
        # go-getter's copywrite workflow (holdout8)
        ("    archive-checksum: e43f4b72fff3f219c5a5f883438d63edd5b68f5bea90a5d18abb3001c8c3aedc",
         True),
        ('    "integrity": "sha512-Zm9vYmFyYmF6cXV4cXV1eHg0NTY3ODkwYWJjZGVm",', True),
        ("    rev: 2c7b3805fd2a0fd8c1884dcaebf91fc102a13ecd", True),
        ("          ref: 2866a0499d02341ed0603601cfe4e63b24506fcb", True),  # fosite's workflow
        ('prefix = "2866a0499d02341ed0603601cfe4e63b24506fcb"', False),
        # traefik's glide.yaml pins and vite's pnpm patch hashes (holdout42)
        ("  version: 490e6a555d47ca891a89a150d0c1ef3922dfffe9", True),
        ("    hash: c07c56eb72faea34341d465cde2314e89db472106ed378181e3447893af6bf95", True),
        (("    version: 3.0.2(patch_hash=c07c56eb72faea34341d465cde2314e89db472106ed3781"
          "81e3447893af6bf95)"), True),
        ('version = "e43f4b72fff3f219c5a5f883438d63edd5b68f5bea90a5d1"', False),  # 48: no commit id
        ('client_secret = "490e6a555d47ca891a89a150d0c1ef3922dfffe9"', False),
        ('SHA256 = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"', True),
        # babel's CLDR archive sum (holdout52) and other keys ending in "sum"
        ("FILESUM = 'de8660f5371e0fcfd03a42e3b4fc4c686ec6cd602b402f1e3d227844005a54eb'", True),
        ('  md5sum: "9f86d081884c7d659a2feaa0c55ad015"', True),
        ('SUMMARY_TOKEN = "9f86d081884c7d659a2feaa0c55ad015"', False),
        ('API_SECRET = "e43f4b72fff3f219c5a5f883438d63edd5b68f5bea90a5d1"', False),
        ('previous = "e43f4b72fff3f219c5a5f883438d63edd5b68f5bea90a5d1"', False),
        # an identifier keyed alone (django-allauth's provider comment, holdout46)
        ("#  'id': '83605e110af6ff98'}", True),
        ('    "uuid": "9f86d081884c7d659a2feaa0c55ad015",', True),
        ('secret_id = "9f86d081884c7d659a2feaa0c55ad015"', False),
        ('client_id: "9f86d081884c7d659a2feaa0c55ad015"', False),
        ('idkey = "9f86d081884c7d659a2feaa0c55ad015"', False),
    ],
)  # fmt: skip
def test_an_entropy_guess_on_a_named_checksum_is_information(line: str, checksum: bool) -> None:
    finding = _finding(".github/workflows/copywrite.yml", 20, set(), {"Hex High Entropy String"},
                       line)  # fmt: skip
    expected = VerifierSeverity.INFO if checksum else VerifierSeverity.WARNING
    assert finding.severity is expected


def test_a_jwt_only_detect_secrets_found_is_a_fixture_in_tests_too() -> None:
    # go-jose's fuzz tests (holdout4): detect-secrets' JWT detector, not our pattern
    finding = _finding("fuzz/jws_test.go", 41, set(), {"JSON Web Token"}, "x")
    assert finding.severity is VerifierSeverity.INFO
    assert _finding("jws.go", 41, set(), {"JSON Web Token"}, "x").severity is VerifierSeverity.ERROR


@pytest.mark.parametrize(
    ("line", "number"),
    [
        # golang.org/x/net's SOCKS client, vendored by gorilla/websocket (read on every half)
        ("\tauthUsernamePasswordVersion = 0x01", True),
        ("PASSWORD_MIN_LENGTH = 8", True),
        ("const tokenTTL = 3_600", True),
        ("secret_ratio: 0.75", True),
        ('password = "123456"', False),  # a string of digits is a (weak) password
        ("password = hunter2", False),
        ("api_key = 0x1f2e3d; token = s3cr3t", False),
        ("password = os.environ", False),
        ("PRIVATE_KEY = 0x4c0883a69102937d6231471b5dbb6204fe512961708279f3a3b6b2f5f5e7a1c0", False),
    ],
)
def test_a_keyword_guess_on_a_number_literal_is_information(line: str, number: bool) -> None:
    finding = _finding("vendor/golang.org/x/net/internal/socks/socks.go", 274, set(),
                       {"Secret Keyword"}, line)  # fmt: skip
    assert assigns_numbers(line) is number
    if number:
        assert finding.severity is VerifierSeverity.INFO
    else:
        assert "number literal" not in finding.message



@pytest.mark.parametrize(
    ("path", "line", "reference"),
    [
        # dexidp/dex (holdout34): Go code reading and writing secret-named fields
        ("connector/microsoft/microsoft.go", "\t\tconfig.ClientSecret = c.clientSecret", True),
        ("storage/ent/db/authsession.go", "\t\t\t\t_m.Secret = value.String", True),
        ("storage/ent/db/mutation.go", "\tm.secret = nil", True),
        ("storage/ent/db/mutation.go", "\tif m.secret != nil {", True),
        ("server/config.go", "\t\tallGrants[oauth2.GrantTypePassword] = true", True),
        ("app/settings.py", "PASSWORD = env.password", True),
        ("app/settings.py", 'PASSWORD = "hunter2"', False),  # a literal
        ("app/settings.py", 'password = os.environ.get("PW", "hunter2")', False),
        ("config/app.ini", "password = hunter2", False),  # configuration: the value itself
        (".env", "SECRET_KEY=abc123def", False),
        ("deploy/values.yaml", "password: s3cr3tvalue", False),
    ],
)
def test_a_keyword_guess_on_a_name_in_code_is_information(
    path: str, line: str, reference: bool
) -> None:
    assert assigns_references(line, path) is reference
    finding = _finding(path, 3, set(), {"Secret Keyword"}, line)
    assert ("variable or a constant" in finding.message) is reference
    if reference:
        assert finding.severity is VerifierSeverity.INFO


@pytest.mark.parametrize(
    ("line", "setting"),
    [
        # ory/kratos (holdout35): the key a password setting is read under
        (('\tViperKeyPasswordRegistrationProfileGroup = '
          '"selfservice.methods.password.config.password_profile_registration_node_group"'), True),
        ('PASSWORD_SETTING = "auth.password.min_length"', True),
        ('password = "correct.horse.battery"', True),  # the price: a dotted passphrase
        ('password = "hunter2.example"', False),  # two words: a host or a value
        ('secret = "Abc.Def.Ghi"', False),  # capitals: not a key path
        ('token = "a1b2c3.d4e5f6.g7h8i9"', False),  # letters and digits mixed: a token
        ('OAUTH2_SECRET_KEY = "providers.oauth2.client_secret"', True),
        ('token = "eyJhbGciOi.eyJzdWIiOi.SflKxwRJ"', False),
    ],
)
def test_a_keyword_guess_on_a_dotted_setting_name_is_information(line: str, setting: bool) -> None:
    assert names_a_setting(line) is setting
    finding = _finding("driver/config/config.go", 195, set(), {"Secret Keyword"}, line)
    assert ("dotted name" in finding.message) is setting


def test_an_entropy_guess_in_a_fixtures_folder_is_information() -> None:
    # ory/kratos (holdout35): a CSRF token in a sorting test's form fixture
    line = '      "value": "YTc3djZwaWpsZTFha3UyNHRlMDMyaTRxaHMxMWVmcmk="'
    path = "selfservice/flow/registration/fixtures/sort/1.json"
    finding = _finding(path, 35, set(), {"Base64 High Entropy String"}, line)
    assert finding.severity is VerifierSeverity.INFO
    assert "fixtures folder" in finding.message
    outside = _finding("selfservice/flow/registration/sort.json", 35, set(),
                       {"Base64 High Entropy String"}, line)  # fmt: skip
    assert outside.severity is VerifierSeverity.WARNING
    provider = _finding(path, 35, {"github_token"}, set(), line)  # a provider's key shape
    assert provider.severity is VerifierSeverity.ERROR


@pytest.mark.parametrize(
    ("line", "itself"),
    [
        # wagtail (holdout36): an enumeration of restriction kinds, with the repo's own noqa
        ('    PASSWORD = "password"  # noqa: S105 -  false positive', True),
        # helm (holdout36): a basic-auth test server comparing what it received
        ('\t\tif !ok || username != "username" || password != "password" {', True),
        ("const apiKey = 'apikey'", True),  # case and separators of the name aside
        ('password = "hunter2"', False),
        ('secret = "token"', False),  # a word, but not the name it is assigned to
        ('password = "Password1"', False),  # not a word of the line
        ('if (credential === "credential") {', True),
        ('password = ""', False),  # an empty value is another reading's
        ('DB_PASSWORD = "db_password_2f9a"', False),  # more than the name
        # adm-zip (holdout62): an error message naming the error's key in words
        ('    WRONG_PASSWORD: "Wrong Password",', True),
        ('INVALID_PASS_PARAM: "Incompatible password parameter",', False),  # other words
        ('adminPassword = "admin password 7"', False),  # a word the name lacks
        # pysaml2 (holdout70): an attribute map's entry whose value is its key
        ('        DEF + "userPassword": "userPassword",', True),
        ("    'secretary': 'secretary',", True),
        ('        "password": "hunter2hunter2",', False),  # a key, then another value
        ('    "s3cr3tP4ss" == "s3cr3tP4ss"', False),  # the same value twice is no entry
    ],
)
def test_a_keyword_guess_whose_value_is_its_own_name_is_information(
    line: str, itself: bool
) -> None:
    assert names_itself(line) is itself
    finding = _finding("wagtail/models/view_restrictions.py", 16, set(), {"Secret Keyword"}, line)
    assert ("the name it is assigned to" in finding.message) is itself
    if itself:
        assert finding.severity is VerifierSeverity.INFO


@pytest.mark.parametrize(
    ("line", "resource"),
    [
        # pysaml2 (holdout70): SAML authentication context classes
        ('PASSWORD = "urn:oasis:names:tc:SAML:2.0:ac:classes:Password"', True),
        ("AUTHN_PASSWORD_PROTECTED = 'urn:oasis:names:tc:SAML:2.0:ac:classes:PPT'", True),
        ('token_type = "urn:ietf:params:oauth:token-type:jwt"', True),
        ('password = "urn"', False),
        ('secret = "urnSecret9f8a7b6c5d4e"', False),  # no namespace: a value
        ('password = "urn:x:hunter2", token = "hunter2hunter2"', False),  # one value is no URN
    ],
)
def test_a_keyword_guess_on_a_uniform_resource_name_is_information(
    line: str, resource: bool
) -> None:
    assert names_a_resource(line) is resource
    finding = _finding("src/saml2/saml.py", 93, set(), {"Secret Keyword"}, line)
    assert ("uniform resource name" in finding.message) is resource
    if resource:
        assert finding.severity is VerifierSeverity.INFO


@pytest.mark.parametrize(("text", "lines"), PUBLIC_PEM_EXAMPLES)
def test_public_pem_examples(text: str, lines: frozenset[int]) -> None:
    assert public_pem_lines(text) == lines


def test_a_guess_inside_a_public_pem_block_is_information_a_private_key_never() -> None:
    body = '  "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAuEHE4uAeTeEQjIwB//YH\\n" +'
    guess = _finding("web/verify.js", 3, set(), {"Base64 High Entropy String"}, body,
                     public_pem=True)
    assert guess.severity is VerifierSeverity.INFO
    assert "public key or certificate" in guess.message
    # our own pattern (a private key's shape) is never read as public, whatever the flag says
    key = _finding("web/verify.js", 3, {"private_key"}, set(), body, public_pem=True)
    assert key.severity is VerifierSeverity.ERROR


def test_azurites_published_account_key_is_information_not_a_leak() -> None:
    # tusd's end-to-end workflow creates a container in Azurite (holdout60): the key is the
    # emulator's, printed in Microsoft's documentation, the same in every repository
    key = ("Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/"
            "K1SZFPTOtr/KBHBeksoGMGw==")
    line = (f'az storage container create --connection-string "DefaultEndpointsProtocol=http;'
            f'AccountName=devstoreaccount1;AccountKey={key};"')  # fmt: skip
    found = _finding(".github/workflows/e2e.yaml", 94, {"azure_storage_account_access_key"},
                     set(), line)  # fmt: skip
    assert found.severity is VerifierSeverity.INFO
    assert "Azurite" in found.message
    other = _finding(".github/workflows/e2e.yaml", 94, {"azure_storage_account_access_key"},
                     set(), line.replace(key, key[::-1]))  # fmt: skip
    assert other.severity is VerifierSeverity.ERROR


def test_a_yaml_block_is_read_with_the_key_that_opens_it() -> None:
    # detect-secrets' YAML plugin reports a block scalar's secret at its key's line (`run: |`)
    lines = ["steps:", "  - run: |", "      docker run x \\", "        --key K", "  - name: next"]
    assert block_scalar(lines, 2) == "      docker run x \\\n        --key K"
    assert block_scalar(lines, 1) == ""
    assert block_scalar(lines, 5) == ""


_WORKFLOW = """jobs:
  test:
    runs-on: ubuntu-latest
    services:
      mysql:
        image: mysql:latest
        env:
          MYSQL_ROOT_PASSWORD: root
    env:
      API_TOKEN: q8Zr2LmX9vTb4Kp1Wd
    steps:
      - run: make test
"""


def test_yaml_keys_read_the_keys_holding_a_line_by_indentation() -> None:
    lines = _WORKFLOW.splitlines()
    assert yaml_keys(lines, 8) == ("jobs", "test", "services", "mysql", "env",
                                   "MYSQL_ROOT_PASSWORD")  # fmt: skip
    assert yaml_keys(lines, 10) == ("jobs", "test", "env", "API_TOKEN")
    assert yaml_keys(lines, 12) == ("jobs", "test", "steps", "run")  # a list item's key
    assert yaml_keys(["a:", "  - plain item"], 2) == ()  # no key on the line


@pytest.mark.parametrize(
    ("path", "line", "service"),
    [
        # beego (holdout64): a database container the job starts and throws away
        (".github/workflows/test.yml", 8, True),
        (".github/workflows/test.yml", 10, False),  # the job's own environment
        ("deploy/compose.yml", 8, False),  # not a workflow
    ],
)
def test_a_guess_in_a_ci_service_containers_settings_is_information(
    path: str, line: int, service: bool
) -> None:
    lines = _WORKFLOW.splitlines()
    assert service_container_env(path, lines, line) is service
    finding = _finding(path, line, set(), {"Secret Keyword"}, lines[line - 1],
                       service_env=service_container_env(path, lines, line))  # fmt: skip
    assert ("service container" in finding.message) is service
    assert (finding.severity is VerifierSeverity.INFO) is service


@pytest.mark.parametrize(
    ("line", "loopback"),
    [
        # beego's workflow (holdout64): a test database on the runner
        ("ORM_SOURCE: host=localhost port=5432 user=postgres password=postgres dbname=orm_test",
         True),
        ("dsn = 'host=127.0.0.1 user=app password=app'", True),
        ("dsn = 'host=db.internal.corp user=app password=hunter2'", False),
        ("password=hunter2 user=app", False),  # no host named
        ("password=postgres", False),  # not a run of settings
    ],
)
def test_connection_settings_for_a_loopback_host_are_information(line: str, loopback: bool) -> None:
    assert loopback_settings(line) is loopback


def test_a_keyword_guess_in_loopback_connection_settings_says_so() -> None:
    line = "ORM_SOURCE: host=localhost port=5432 user=postgres password=postgres dbname=orm_test"
    finding = _finding(".github/workflows/test.yml", 1, set(), {"Secret Keyword"}, line)
    assert "loopback or example host" in finding.message
    assert finding.severity is VerifierSeverity.INFO
    remote = line.replace("localhost", "db.prod.corp")
    assert _finding("ci.yml", 1, set(), {"Secret Keyword"}, remote).severity is (
        VerifierSeverity.WARNING
    )


_PASSPORT_BASE = """/**
 * Examples:
 *
 *     app.configure(function() {
 *       app.use(connect.session({ secret: 'keyboard cat' }));
 *     });
 */
"""


@pytest.mark.parametrize(
    ("line", "base", "held"),
    [
        # passport re-indenting a JSDoc usage example (holdout72)
        (" *     app.use(connect.session({ secret: 'keyboard cat' }));", _PASSPORT_BASE, True),
        # go-pkgz/auth renaming a query parameter beside a documented password (holdout72)
        ("// GET /something?user=name&passwd=xyz&aud=bar&session=[0|1]",
         "// GET /something?user=name&passwd=xyz&aud=bar&sess=[0|1]\n", True),
        # a new value, or one the base file held only as something else
        (" *     app.use(connect.session({ secret: 'tabby cat' }));", _PASSPORT_BASE, False),
        ('password = "admin"', 'role = "admin"\n', False),
        ('password = "hunter2"', "", False),  # a new file
        ('password = "hunter2", token = "s3cr3tT0k3n"', 'password = "hunter2"\n', False),
    ],
)
def test_a_guess_whose_value_the_base_file_held_is_information(
    line: str, base: str, held: bool
) -> None:
    assert held_by_base(line, base.splitlines()) is held
    finding = _finding("lib/authenticator.js", 5, set(), {"Secret Keyword"}, line,
                       base=base.splitlines())  # fmt: skip
    assert ("before the PR" in finding.message) is held
    assert (finding.severity is VerifierSeverity.INFO) is held


def test_a_provider_key_the_base_file_held_is_still_reported() -> None:
    line = 'aws_key = "AKIAIOSFODNN7EXAMPL3"'
    finding = _finding("app.py", 1, {"aws_access_key"}, set(), line, base=[line])
    assert finding.severity is VerifierSeverity.ERROR


@pytest.mark.parametrize(
    ("line", "typed"),
    [
        # xml-crypto's new signature algorithm checking its key's type (holdout73)
        ('      if (!(typeof privateKey === "string" || Buffer.isBuffer(privateKey))) {', True),
        ("if (typeof token !== 'string') throw new TypeError(msg)", True),
        ('if (typeof key === "string" && key === "hunter2") {', False),
        ('const secret = "string"', False),
    ],
)
def test_a_keyword_guess_on_a_typeof_comparison_is_information(line: str, typed: bool) -> None:
    assert compares_types(line) is typed
    finding = _finding("src/signature-algorithms.ts", 59, set(), {"Secret Keyword"}, line)
    assert ("compared with `typeof`" in finding.message) is typed


@pytest.mark.parametrize(
    ("line", "elided"),
    [
        # express-openid-connect's generated configuration docs (holdout75)
        (("clientAssertionSigningKey: '-----BEGIN PRIVATE KEY-----\\nMIIEo...PgCaw\\n"
          "-----END PRIVATE KEY-----',"), True),
        (("<span>&#39;-----BEGIN PRIVATE KEY-----</span><span>\\n</span><span>MIIEo...PgCaw"
          "</span><span>\\n</span><span>-----END PRIVATE KEY-----&#39;</span>"), True),
        (("key: '-----BEGIN RSA PRIVATE KEY-----\\nMIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8Pb\\n"
          "-----END RSA PRIVATE KEY-----'"), False),
        ("-----BEGIN PRIVATE KEY-----", False),  # the body is on the lines below: read whole
    ],
)
def test_a_private_key_with_an_elided_body_is_information(line: str, elided: bool) -> None:
    assert elided_private_key(line) is elided
    finding = _finding("docs/interfaces/ConfigParams.html", 88, {"private_key"}, set(), line)
    assert ("elided" in finding.message) is elided
    assert (finding.severity is VerifierSeverity.INFO) is elided
