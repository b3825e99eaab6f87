"""Red from evidence on syntax trees, measured on the shapes of real security fixes (issue 22).

A function named for a security concern is red only when the PR changes what it decides,
refuses or calls; a watched construct (a redirect to a computed location, markup built by
concatenation, a ``'__proto__'`` check, a URL or quadratic regular expression) is red when the
PR rewrites or removes it, as fixes do; example and playground code counts with the docs, but a
red sink in it still counts.
"""

from __future__ import annotations

import ast

import pytest

from pr_review.config import Config
from pr_review.evidence.build import build_pack
from pr_review.evidence.decisions import (
    DECISION_EXAMPLES,
    HELPER_EXAMPLES,
    HOIST_EXAMPLES,
    RENAME_EXAMPLES,
    atoms_of,
    compare,
    is_version_test,
)
from pr_review.evidence.grammars import parse
from pr_review.evidence.pyast import parse_python
from pr_review.evidence.scopes import _scopes
from pr_review.schema.enums import Lane
from pr_review.schema.pack import RiskFactor
from pr_review.sources.diff import FileDiff, FileStatus
from pr_review.sources.paths import PathKind, classify
from tests.evidence.helpers import file_diff, pull_request
from tests.evidence.helpers import lane_and_factors as _risk


def _first_scope(path: str, source: str):  # type: ignore[no-untyped-def]
    if path.endswith(".py"):
        tree = parse_python(source)
        assert tree is not None
        return _scopes(tree)[0]
    parsed = parse(path, source)
    assert parsed is not None
    return parsed.scopes[0]


@pytest.mark.parametrize(("path", "old", "new", "changed"), DECISION_EXAMPLES)
def test_decision_examples(path: str, old: str, new: str, changed: bool) -> None:
    before = atoms_of(path, old, _first_scope(path, old)) if old else None  # "": a new function
    after = atoms_of(path, new, _first_scope(path, new), known=old or None)
    assert before is not None or not old
    assert after is not None
    assert (compare(before, after) is not None) is changed


def _whole_file_diffs(base: dict[str, str], head: dict[str, str]) -> list[FileDiff]:
    out = []
    for path in sorted(set(base) | set(head)):
        old, new = base.get(path), head.get(path)
        if old == new:
            continue
        status = (FileStatus.ADDED if old is None else FileStatus.DELETED if new is None
                  else FileStatus.MODIFIED)  # fmt: skip
        out.append(file_diff(path, (new or "").splitlines(), (old or "").splitlines(),
                             status=status))  # fmt: skip
    return out


@pytest.mark.parametrize(
    ("base", "head", "changed"), HELPER_EXAMPLES + RENAME_EXAMPLES + HOIST_EXAMPLES
)
def test_helper_examples(base: dict[str, str], head: dict[str, str], changed: bool) -> None:
    _lane, factors = _risk(files=_whole_file_diffs(base, head), base=base, head=head)
    assert ("security-check-changed:red" in factors) is changed, factors


@pytest.mark.parametrize(
    ("test", "version"),
    [
        ("sys.version_info[0] >= 3", True),
        ("sys.version_info < (3, 8)", True),
        ("six.PY2", True),
        ("not PY3", True),
        ("PY2 and sys.hexversion > 0x02070000", True),
        ("PY2 and isinstance(s, unicode)", False),
        ("sys.version_info >= min_version", False),
        ("len(sys.version) > 3", False),
        ("True", False),
    ],
)
def test_a_version_test_reads_only_the_interpreter_version(test: str, version: bool) -> None:
    assert is_version_test(ast.parse(test, mode="eval").body) is version


def test_code_under_type_checking_and_casts_decide_nothing() -> None:
    old = "def sign(k):\n    return hmac(k)\n"
    new = (
        "def sign(k: bytes) -> str:\n    if TYPE_CHECKING:\n        check(k)\n"
        "    return hmac(cast(bytes, k))\n"
    )
    assert compare(atoms_of("a.py", old, _first_scope("a.py", old)),
                   atoms_of("a.py", new, _first_scope("a.py", new))) is None  # fmt: skip


def test_moving_a_call_from_a_helper_to_a_method_is_no_new_decision() -> None:
    old = "def open_session(app):\n    return int(total_seconds(app.lifetime))\n"
    new = "def open_session(app):\n    return int(app.lifetime.total_seconds())\n"
    assert compare(atoms_of("a.py", old, _first_scope("a.py", old)),
                   atoms_of("a.py", new, _first_scope("a.py", new))) is None  # fmt: skip


_LOCATION = (
    "res.location = function location(url) {\n"
    "  var loc = String(url);\n"
    "  return this.set('Location', encodeUrl(loc));\n"
    "};\n"
)


def test_a_rewritten_redirect_location_is_red_and_names_the_base_line() -> None:
    head = _LOCATION.replace(
        "  return this.set('Location', encodeUrl(loc));",
        "  var encoded = encodeUrl(loc);\n  return this.set('Location', encoded);",
    )
    lane, factors = _risk(
        files=[file_diff("lib/response.js",
                         ["  var encoded = encodeUrl(loc);",
                          "  return this.set('Location', encoded);"],
                         ["  return this.set('Location', encodeUrl(loc));"], start=3)],
        base={"lib/response.js": _LOCATION}, head={"lib/response.js": head},
    )  # fmt: skip
    assert lane is Lane.RED
    why = factors["sink-redirect:red"].why
    assert "rewritten or removed" in why
    assert "line 3 of the base file" in why
    assert "this.set('Location', encodeUrl(loc))" in why


def test_an_edit_beside_an_unchanged_redirect_is_not_redirect_evidence() -> None:
    head = _LOCATION.replace("  var loc = String(url);", "  var loc = String(url || '/');")
    _, factors = _risk(
        files=[file_diff("lib/response.js", ["  var loc = String(url || '/');"],
                         ["  var loc = String(url);"], start=2)],
        base={"lib/response.js": _LOCATION}, head={"lib/response.js": head},
    )  # fmt: skip
    assert not [k for k in factors if k.startswith("sink-redirect")]


def test_a_proto_key_check_added_is_red() -> None:
    base = "function build(name, target) {\n  target[name] = {};\n}\n"
    head = (
        "function build(name, target) {\n  if (name === '__proto__') return;\n"
        "  target[name] = {};\n}\n"
    )
    lane, factors = _risk(
        files=[file_diff("lib/helpers/formDataToJSON.js",
                         ["  if (name === '__proto__') return;"], [], start=2)],
        base={"lib/helpers/formDataToJSON.js": base},
        head={"lib/helpers/formDataToJSON.js": head},
    )  # fmt: skip
    assert lane is Lane.RED
    assert "__proto__" in factors["sink-object-key:red"].why


def test_a_quadratic_regex_replaced_is_red_and_a_new_one_is_yellow() -> None:
    base = "export function trim(s) {\n  return s.replace(/^\\s*/, '').replace(/\\s*$/, '');\n}\n"
    head = "export function trim(s) {\n  return s.trim();\n}\n"
    lane, factors = _risk(
        files=[file_diff("lib/utils.js", ["  return s.trim();"],
                         ["  return s.replace(/^\\s*/, '').replace(/\\s*$/, '');"], start=2)],
        base={"lib/utils.js": base}, head={"lib/utils.js": head},
    )  # fmt: skip
    assert lane is Lane.RED
    assert "sink-redos:red" in factors
    lane, factors = _risk(
        files=[file_diff("lib/utils.js", base.splitlines(), status=FileStatus.ADDED)],
        head={"lib/utils.js": base},
    )  # fmt: skip
    assert lane is Lane.YELLOW
    assert "sink-redos:moderate" in factors


def test_a_url_regex_changed_is_red() -> None:
    base = (
        "module.exports = function isAbsoluteURL(url) {\n"
        "  return /^([a-z]+:)?\\/\\//i.test(url);\n};\n"
    )
    head = base.replace(")?\\/\\/", ")\\/\\/")
    lane, factors = _risk(
        files=[file_diff("lib/helpers/isAbsoluteURL.js",
                         ["  return /^([a-z]+:)\\/\\//i.test(url);"],
                         ["  return /^([a-z]+:)?\\/\\//i.test(url);"], start=2)],
        base={"lib/helpers/isAbsoluteURL.js": base}, head={"lib/helpers/isAbsoluteURL.js": head},
    )  # fmt: skip
    assert lane is Lane.RED
    assert "sink-url-parse:red" in factors


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("examples/server.js", PathKind.DOCS),
        ("sandbox/client.html", PathKind.DOCS),
        ("playground/assets/index.html", PathKind.DOCS),  # vite's end-to-end apps (holdout42)
        ("example/main.go", PathKind.DOCS),
        (".github/ISSUE_TEMPLATE/bug.yml", PathKind.DOCS),
        (".github/PULL_REQUEST_TEMPLATE.md", PathKind.DOCS),
        (".github/ISSUE_TEMPLATE", PathKind.DOCS),  # twisted's: one file, no extension
        (".github/PULL_REQUEST_TEMPLATE", PathKind.DOCS),
        (".github/PULL_REQUEST_TEMPLATE/feature.md", PathKind.DOCS),
        ("src/twisted/newsfragments/11575.doc", PathKind.DOCS),  # towncrier fragments
        ("newsfragments/4321.bugfix", PathKind.DOCS),
        ("changelog.d/20261127_fix.md", PathKind.DOCS),
        ("newsfragments/check.py", PathKind.CODE),  # a language's extension is code
        ("src/news/templates.py", PathKind.CODE),
        ("examples/go.mod", PathKind.DOCS),  # dex's examples module: nothing ships it
        ("examples/package.json", PathKind.DOCS),
        ("_examples/go.sum", PathKind.DOCS),
        ("src/examples/go.mod", PathKind.MANIFEST),  # inside the package: it ships
        (".github/ISSUE_TEMPLATE.py", PathKind.CODE),
        ("src/examples/loader.py", PathKind.CODE),  # inside the package: it ships
        (".github/workflows/ci.yml", PathKind.INFRA),
    ],
)
def test_example_and_template_paths(path: str, kind: PathKind) -> None:
    assert classify(path) is kind


_UPLOAD = (
    "package main\n\nfunc upload(c *gin.Context) {\n\tfile, _ := c.FormFile(\"file\")\n"
    "\tc.SaveUploadedFile(file, file.Filename)\n}\n"
)


def test_example_code_is_green_but_a_red_sink_in_it_still_counts() -> None:
    head = _UPLOAD.replace("\tc.SaveUploadedFile(file, file.Filename)",
                           "\tc.SaveUploadedFile(file, \"upload.bin\")")  # fmt: skip
    lane, factors = _risk(
        files=[file_diff("examples/upload/main.go", ['\tc.SaveUploadedFile(file, "upload.bin")'],
                         ["\tc.SaveUploadedFile(file, file.Filename)"], start=5)],
        base={"examples/upload/main.go": _UPLOAD}, head={"examples/upload/main.go": head},
    )  # fmt: skip
    assert lane is Lane.RED
    assert "file.Filename" in factors["sink-path:red"].why
    plain = _UPLOAD.replace('c.FormFile("file")', 'c.FormFile("upload")')
    lane, _ = _risk(
        files=[file_diff("examples/upload/main.go", ['\tfile, _ := c.FormFile("upload")'],
                         ['\tfile, _ := c.FormFile("file")'], start=4)],
        base={"examples/upload/main.go": _UPLOAD}, head={"examples/upload/main.go": plain},
    )  # fmt: skip
    assert lane is Lane.GREEN


def test_every_red_explains_itself_in_one_line_in_the_packet_and_the_check_run() -> None:
    from pr_review.packet.sections import lane as lane_section
    from pr_review.publish.report import check_summary
    from pr_review.schema.enums import Confidence, FactorSeverity
    from pr_review.schema.pack import Risk

    red = Risk(
        lane=Lane.RED,
        confidence=Confidence.HIGH,
        factors=(
            RiskFactor(factor="logic-change", files=("lib/a.js",),
                       severity=FactorSeverity.MODERATE, why="code changes"),
            RiskFactor(factor="sink-redirect", files=("lib/response.js",),
                       severity=FactorSeverity.RED,
                       why="A response redirects to a computed location: rewritten or removed "
                       "(line 3 of the base file: `this.set('Location', encodeUrl(loc))`)"),
        ),
    )  # fmt: skip
    line = red.why_red()
    assert line is not None
    assert line.startswith("sink-redirect in `lib/response.js`: ")
    assert "line 3 of the base file" in line
    summary = check_summary(red, [], "a" * 40)
    assert "**Why red:** sink-redirect in `lib/response.js`" in summary
    assert Risk(lane=Lane.YELLOW, factors=red.factors[:1]).why_red() is None

    class _Input:
        pack = build_pack(pull_request([file_diff("README.md", ["b"], ["a"])]), Config())

    _Input.pack = _Input.pack.model_copy(update={"risk": red})
    text = "\n".join(lane_section(_Input()))  # type: ignore[arg-type]
    assert "**Why red:** sink-redirect in `lib/response.js`" in text


_STATIC = (
    "def lookup_path(directory, path):\n"
    "    if path.startswith('..'):\n"
    "        return None\n"
    "    return os.path.join(directory, path)\n"
)


def test_a_dotdot_guard_rewritten_into_a_containment_check_is_red() -> None:
    head = (
        "def lookup_path(directory, path):\n"
        "    full = os.path.realpath(os.path.join(directory, path))\n"
        "    if os.path.commonpath([full, directory]) != directory:\n"
        "        return None\n"
        "    return full\n"
    )
    lane, factors = _risk(
        files=[file_diff("app/staticfiles.py", head.splitlines()[1:],
                         _STATIC.splitlines()[1:], start=2)],
        base={"app/staticfiles.py": _STATIC}, head={"app/staticfiles.py": head},
    )  # fmt: skip
    assert lane is Lane.RED
    why = factors["sink-path:red"].why
    assert "'..'" in why
    assert "rewritten or removed" in why


def test_an_anchored_validation_regex_changed_is_red_and_an_unrelated_edit_is_not() -> None:
    base = "const subtypeNameReg = /^[\\w!#$%&'*+.^`|~-]+\\s*/;\nconst n = 1;\n"
    head = base.replace("\\s*/;", "\\s*$/;")
    lane, factors = _risk(
        files=[file_diff("lib/content-type.js", [head.splitlines()[0]], [base.splitlines()[0]])],
        base={"lib/content-type.js": base}, head={"lib/content-type.js": head},
    )  # fmt: skip
    assert lane is Lane.RED
    assert "sink-validation:red" in factors
    other = base.replace("const n = 1;", "const n = 2;")
    lane, factors = _risk(
        files=[file_diff("lib/content-type.js", ["const n = 2;"], ["const n = 1;"], start=2)],
        base={"lib/content-type.js": base}, head={"lib/content-type.js": other},
    )  # fmt: skip
    assert lane is Lane.YELLOW
    assert not [k for k in factors if k.startswith("sink-")]


def test_a_typing_only_change_to_a_tls_parameter_is_no_tls_change() -> None:
    base = (
        "class Request:\n"
        "    def __init__(self, url, validate_cert: Optional[bool] = None) -> None:\n"
        "        self.validate_cert = validate_cert\n"
    )
    typed = base.replace("Optional[bool]", "bool | None")
    lane, factors = _risk(
        files=[file_diff("pkg/client.py", [typed.splitlines()[1]], [base.splitlines()[1]],
                         start=2)],
        base={"pkg/client.py": base}, head={"pkg/client.py": typed},
    )  # fmt: skip
    assert "crypto:red" not in factors
    assert lane is not Lane.RED
    turned_off = typed.replace("        self.validate_cert = validate_cert",
                               "        self.ctx.verify_mode = ssl.CERT_NONE")
    lane, factors = _risk(
        files=[file_diff("pkg/client.py", [typed.splitlines()[1], turned_off.splitlines()[2]],
                         [base.splitlines()[1], base.splitlines()[2]], start=2)],
        base={"pkg/client.py": base}, head={"pkg/client.py": turned_off},
    )  # fmt: skip
    assert lane is Lane.RED  # a real change beside the annotation is still read
    assert "crypto:red" in factors


_REDIRECT_CLASS = (
    "class RequestRedirect(Exception):\n"
    "    def get_response(self, url):\n"
    "        if not url.startswith('/'):\n"
    "            raise ValueError(url)\n"
    "        return redirect(url, 308)\n"
)


def test_a_security_named_class_moved_to_another_file_unchanged_is_not_a_decision_change() -> None:
    # Shape of a router rewrite that moved its exceptions into their own module.
    base_routing = "import os\n\n" + _REDIRECT_CLASS + "\ndef build(rule):\n    return rule\n"
    head_routing = "import os\n\ndef build(rule):\n    return rule\n"
    _, factors = _risk(
        files=[
            file_diff("pkg/routing.py", [], _REDIRECT_CLASS.splitlines(), start=3),
            file_diff("pkg/exceptions.py", _REDIRECT_CLASS.splitlines(), status=FileStatus.ADDED),
        ],
        base={"pkg/routing.py": base_routing},
        head={"pkg/routing.py": head_routing, "pkg/exceptions.py": _REDIRECT_CLASS},
    )
    assert "security-check-changed:red" not in factors


def test_a_security_named_class_moved_and_changed_is_still_a_decision_change() -> None:
    changed = _REDIRECT_CLASS.replace("if not url.startswith('/')", "if not url")
    base_routing = "import os\n\n" + _REDIRECT_CLASS
    lane, factors = _risk(
        files=[
            file_diff("pkg/routing.py", [], _REDIRECT_CLASS.splitlines(), start=3),
            file_diff("pkg/exceptions.py", changed.splitlines(), status=FileStatus.ADDED),
        ],
        base={"pkg/routing.py": base_routing},
        head={"pkg/routing.py": "import os\n", "pkg/exceptions.py": changed},
    )
    assert lane is Lane.RED
    assert "security-check-changed:red" in factors


_ORIGIN_CHECK = (
    "def is_trusted_origin(origin, allowed):\n"
    "    if origin is None:\n"
    "        raise ValueError('no origin')\n"
    "    return origin in allowed\n"
)


def test_a_red_security_function_says_whether_the_pr_added_it_or_changed_it() -> None:
    base = "import os\n\n\n" + _ORIGIN_CHECK
    changed = _ORIGIN_CHECK.replace("origin in allowed", "origin.lower() in allowed")
    cases = [
        # added: a new function in an existing file
        (file_diff("pkg/web.py", _ORIGIN_CHECK.splitlines(), start=4),
         {"pkg/web.py": "import os\n"}, {"pkg/web.py": base}, "is new in this PR: "),
        # changed in place
        (file_diff("pkg/web.py", changed.splitlines(), _ORIGIN_CHECK.splitlines(), start=4),
         {"pkg/web.py": base}, {"pkg/web.py": "import os\n\n\n" + changed},
         "changes what it decides: "),
    ]  # fmt: skip
    for diff, before, after, what in cases:
        lane, factors = _risk(files=[diff], base=before, head=after)
        factor = factors["security-check-changed:red"]
        assert lane is Lane.RED
        assert factor.why.startswith("`web:is_trusted_origin` (line 4), named for ")
        assert f"(`trusted`), {what}" in factor.why


_HOST = (
    "export function getRequestHost(event) {\n"
    "  const host = event.request.headers.get('x-forwarded-host')\n"
    "  return host || event.request.headers.get('host')\n"
    "}\n"
)


def test_a_forwarding_header_read_after_a_receiver_rename_is_no_rewrite() -> None:
    head = _HOST.replace("event.request.", "event.req.")
    _, factors = _risk(
        files=[file_diff("src/request.ts", head.splitlines()[1:3], _HOST.splitlines()[1:3],
                         start=2)],
        base={"src/request.ts": _HOST}, head={"src/request.ts": head},
    )  # fmt: skip
    assert not any(k.startswith("sink-proxy-header") for k in factors)


_FORWARD = (
    "package proxy\n\nfunc Forward(c *fiber.Ctx) error {\n"
    '\tc.Request().Header.Add("X-Real-IP", c.IP())\n'
    "\treturn nil\n}\n"
)


def test_a_forwarded_client_address_appended_then_overwritten_is_red() -> None:
    # Shape of a real spoofing fix: Add kept the client's own X-Real-IP in front.
    head = _FORWARD.replace("Header.Add", "Header.Set")
    lane, factors = _risk(
        files=[file_diff("proxy.go", [head.splitlines()[3]], [_FORWARD.splitlines()[3]],
                         start=4)],
        base={"proxy.go": _FORWARD}, head={"proxy.go": head},
    )  # fmt: skip
    assert lane is Lane.RED
    assert "X-Real-IP" in factors["sink-proxy-header:red"].why


def test_a_null_prototype_object_for_parsed_input_is_red() -> None:
    base = (
        "export function readForm(entries) {\n  const form = {}\n  return fill(form, entries)\n}\n"
    )
    head = base.replace("const form = {}", "const form = Object.create(null)")
    lane, factors = _risk(
        files=[file_diff("src/body.ts", [head.splitlines()[1]], [base.splitlines()[1]],
                         start=2)],
        base={"src/body.ts": base}, head={"src/body.ts": head},
    )  # fmt: skip
    assert lane is Lane.RED
    assert "Object.create(null)" in factors["sink-object-key:red"].why


_LOGIN = (
    "exports.logIn = function (req, user, done) {\n"
    "  req.session.passport = { user: user.id }\n"
    "  done()\n"
    "}\n"
)
_ROTATED = (
    "exports.logIn = function (req, user, done) {\n"
    "  req.session.regenerate(function (err) {\n"
    "    if (err) return done(err)\n"
    "    req.session.passport = { user: user.id }\n"
    "    done()\n"
    "  })\n"
    "}\n"
)


def _session_risk(base: str, head: str) -> tuple[Lane, dict[str, RiskFactor]]:
    old, new = base.splitlines(), head.splitlines()
    return _risk(
        files=[file_diff("lib/sessionmanager.js", [n for n in new if n not in old],
                         [o for o in old if o not in new], start=2)],
        base={"lib/sessionmanager.js": base}, head={"lib/sessionmanager.js": head},
    )  # fmt: skip


def test_a_session_regenerated_on_login_is_red_either_way() -> None:
    # Shape of passport 0.6.0 (CVE-2022-25896): the session fixation fix, and its revert.
    for base, head in ((_LOGIN, _ROTATED), (_ROTATED, _LOGIN)):
        lane, factors = _session_risk(base, head)
        assert lane is Lane.RED
        assert "req.session.regenerate" in factors["sink-session-rotation:red"].why


def test_an_edit_inside_the_regenerate_callback_is_no_rotation_change() -> None:
    head = _ROTATED.replace("user: user.id", "user: user.id, at: Date.now()")
    _, factors = _session_risk(_ROTATED, head)
    assert not any(k.startswith("sink-session-rotation") for k in factors)


_TUS_UPLOAD = (
    "package h\n\nfunc patch(f *os.File, r *http.Request, remaining int64) error {\n"
    "\t_, err := io.Copy(f, r.Body)\n\treturn err\n}\n"
)


def test_a_request_body_capped_at_n_bytes_is_red() -> None:
    # Shape of filebrowser GHSA-ffv3-7h97-993q: an upload written without the declared bound.
    capped = "io.Copy(f, io.LimitReader(r.Body, remaining+1))"
    head = _TUS_UPLOAD.replace("io.Copy(f, r.Body)", capped)
    lane, factors = _risk(
        files=[file_diff("http/tus.go", [head.splitlines()[3]], [_TUS_UPLOAD.splitlines()[3]],
                         start=4)],
        base={"http/tus.go": _TUS_UPLOAD}, head={"http/tus.go": head},
    )  # fmt: skip
    assert lane is Lane.RED
    assert "io.LimitReader" in factors["sink-read-limit:red"].why


def test_a_capped_reader_moved_unchanged_is_no_evidence() -> None:
    capped = "io.Copy(f, io.LimitReader(r.Body, remaining))"
    base = _TUS_UPLOAD.replace("io.Copy(f, r.Body)", capped)
    head = base.replace("\treturn err\n", "\tif err != nil {\n\t\treturn err\n\t}\n\treturn nil\n")
    lane, factors = _risk(
        files=[file_diff("http/tus.go", head.splitlines()[4:8], base.splitlines()[4:5], start=5)],
        base={"http/tus.go": base}, head={"http/tus.go": head},
    )  # fmt: skip
    assert "sink-read-limit:red" not in factors
    assert lane is not Lane.RED


_NOTEBOOK_APP = (
    "from jinja2 import Environment, FileSystemLoader\n\n\n"
    "def init_jinja(template_path, jinja_env_options):\n"
    "    jenv_opt = jinja_env_options if jinja_env_options else {}\n"
    "    return Environment(loader=FileSystemLoader(template_path), **jenv_opt)\n"
)


def test_template_autoescaping_turned_on_is_red() -> None:
    # Shape of IPython CVE-2015-6938 (read on holdout58): the notebook's Jinja environment
    # gains `{"autoescape": True}`, escaping every template's values at once.
    head = _NOTEBOOK_APP.replace(
        "    jenv_opt = jinja_env_options if jinja_env_options else {}\n",
        '    jenv_opt = {"autoescape": True}\n'
        "    jenv_opt.update(jinja_env_options if jinja_env_options else {})\n",
    )
    lane, factors = _risk(
        files=[file_diff("notebook/app.py", head.splitlines()[4:6], _NOTEBOOK_APP.splitlines()[4:5],
                         start=5)],
        base={"notebook/app.py": _NOTEBOOK_APP}, head={"notebook/app.py": head},
    )  # fmt: skip
    assert lane is Lane.RED
    assert "autoescape" in factors["sink-template-escaping:red"].why


def test_template_options_without_autoescaping_are_no_evidence() -> None:
    head = _NOTEBOOK_APP.replace("{}\n", '{"auto_reload": True}\n')
    _lane, factors = _risk(
        files=[file_diff("notebook/app.py", head.splitlines()[4:5], _NOTEBOOK_APP.splitlines()[4:5],
                         start=5)],
        base={"notebook/app.py": _NOTEBOOK_APP}, head={"notebook/app.py": head},
    )  # fmt: skip
    assert "sink-template-escaping:red" not in factors


_CHECKPOINT_COPY = (
    "package cri\n\nfunc copyOut(src string) (*os.File, error) {\n"
    "\treturn os.OpenFile(src, os.O_RDONLY, 0)\n}\n"
)


def test_a_path_opened_without_following_links_is_red() -> None:
    # Shape of containerd GHSA-rgh6-rfwx-v388: a checkpoint file opened where a planted link
    # could point it at the host.
    head = _CHECKPOINT_COPY.replace("os.O_RDONLY,", "os.O_RDONLY|unix.O_NOFOLLOW,")
    lane, factors = _risk(
        files=[file_diff("cri/checkpoint.go", [head.splitlines()[3]],
                         [_CHECKPOINT_COPY.splitlines()[3]], start=4)],
        base={"cri/checkpoint.go": _CHECKPOINT_COPY}, head={"cri/checkpoint.go": head},
    )  # fmt: skip
    assert lane is Lane.RED
    assert "O_NOFOLLOW" in factors["sink-link-following:red"].why


def test_a_link_safe_open_left_as_it_was_is_no_evidence() -> None:
    base = _CHECKPOINT_COPY.replace("os.O_RDONLY,", "os.O_RDONLY|unix.O_NOFOLLOW,")
    head = base.replace("func copyOut(src string)", "func copyOut(src string) /* checkpoint */")
    lane, factors = _risk(
        files=[file_diff("cri/checkpoint.go", [head.splitlines()[2]], [base.splitlines()[2]],
                         start=3)],
        base={"cri/checkpoint.go": base}, head={"cri/checkpoint.go": head},
    )  # fmt: skip
    assert "sink-link-following:red" not in factors
    assert lane is not Lane.RED


def test_a_watched_sink_rewritten_in_a_tutorial_is_no_fix_the_project_ships() -> None:
    # pyramid's quick tutorial stopped redirecting to `came_from` (holdout23, docs-only PR)
    path = "docs/quick_tutorial/authentication/tutorial/views.py"
    base = "def login(request, came_from):\n    return HTTPFound(location=came_from)\n"
    home = "    return HTTPFound(location=request.route_url('home'))"
    head = f"def login(request, came_from):\n{home}\n"
    lane, factors = _risk(
        files=[file_diff(path, [home], ["    return HTTPFound(location=came_from)"], start=2)],
        base={path: base}, head={path: head},
    )  # fmt: skip
    assert lane is Lane.GREEN
    assert not any(key.startswith("sink-redirect") for key in factors)
    # the same rewrite in the project's code is red
    lane, factors = _risk(
        files=[file_diff("app/views.py", [home], ["    return HTTPFound(location=came_from)"],
                         start=2)],
        base={"app/views.py": base}, head={"app/views.py": head},
    )  # fmt: skip
    assert lane is Lane.RED
    assert "rewritten or removed" in factors["sink-redirect:red"].why
