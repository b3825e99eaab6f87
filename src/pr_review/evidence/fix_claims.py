"""What the PR's own changelog entry, regression tests and code comments call its change: a
security fix.

Projects that land a fix under a neutral title still describe it in what the same PR adds:
its changelog entry (a Keep a Changelog ``### Security`` section, "Fix XSS in image titles",
"Fixed a potential denial of service", a towncrier fragment of type ``security``), its
regression test (``test/tm-cases/xss_issue699.text``, ``tests/test_asgi_keepalive_smuggling.py``,
``it('does not allow prototype pollution')``) and the comments it adds to the code it changes
(``// matchLimit will limit the complexity ... to avoid ReDos``, ``# DANGER: do not change
lightly; ref: request smuggling``). The words name a class of vulnerability, not a
piece of code, and mean the same in every repository, so they are read like the advisory ids of
:mod:`pr_review.evidence.advisory` and make the PR red through ``security-advisory``.

What is not read: a PR that changes no code (a release's notes listing fixes merged before, a
dependency bump with its advisory, tests alone), notes that link :data:`COMPILED_REFS` or more
other pull requests or issues (a release's notes compiled from what was merged before, however
little code the PR changes beside them: jupyterhub's 6.0 notes, one entry of 87 linked PRs
reading "Fix JSX vulnerabilities", beside two help strings), code changes that only set a
version string (a release), lines the PR only moves or rewords (the same line removed), the
names of test files the PR only edits (their names are old; but a test case added to a file
named for vulnerabilities, ``spec/vulnerabilities.spec.js``, is one), and the
``X-XSS-Protection`` header's name.
PR text is hostile data; this signal can only raise the lane.

Examples (run by the test suite): ``CLAIM_EXAMPLES`` (a line, a claim?), ``COMPILED_EXAMPLES``
(added release-note lines, compiled from other PRs?), ``CHANGELOG_EXAMPLES``
(a path, a changelog?), ``TEST_NAME_EXAMPLES`` (an added test file, named for a
vulnerability?), ``VULNERABILITY_FILE_EXAMPLES`` (a test case added to a file of
vulnerability tests?) and ``COMMENT_EXAMPLES`` (an added code line, a comment naming one?).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from difflib import SequenceMatcher
from pathlib import PurePosixPath

from pr_review.evidence.advisory import ADVISORY_ID
from pr_review.evidence.generated import is_lock_file
from pr_review.evidence.lexing import shorten
from pr_review.sources.diff import FileDiff, FileStatus
from pr_review.sources.paths import PathKind, is_type_declaration, segments

CHANGELOG_STEMS = frozenset(
    {
        "changelog", "changes", "history", "news", "releasenotes", "release-notes",
        "release_notes", "releases", "whatsnew", "whats-new", "whats_new",
    }
)  # fmt: skip
"""File names (before the first dot, any case) of release notes."""
CHANGELOG_DIRS = frozenset(
    {
        "changelog", "changelog.d", "changes", "changes.d", "newsfragments", "news",
        ".changeset", "changesets", "release-notes", "releasenotes", "unreleased",
    }
)  # fmt: skip
"""Folders of changelog fragments (towncrier, changesets, reno)."""
_HEADING = re.compile(
    r"^[\s#*_=\[\-]*security(?:\s+(?:fix(?:es)?|bug\s?fix(?:es)?|issues?|updates?|release))?"
    r"[\s*_:\]\-=]*$",
    re.IGNORECASE,
)
"""A section heading that is only the word: Keep a Changelog's ``### Security`` ("in case of
vulnerabilities"), ``**Security fixes**``, ``[Security Fixes]``, ``Security Bugfix``."""
_ADVISORY = "an advisory id"
_CLAIMS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("a security fix", re.compile(
        r"\bsecurity\s+(?:fix(?:es|ed)?|bug\s?fix(?:es)?|issues?|holes?|vulnerabilit(?:y|ies)|"
        r"bugs?|release|advisor(?:y|ies)|problems?|flaws?)\b", re.IGNORECASE)),
    ("a vulnerability", re.compile(r"\bvulnerab(?:le|ility|ilities)\b", re.IGNORECASE)),
    (_ADVISORY, ADVISORY_ID),
    ("cross-site scripting", re.compile(r"\bXSS\b|\bcross[- ]site[- ]scripting\b",
                                        re.IGNORECASE)),
    ("denial of service", re.compile(
        r"\bdenial[- ]of[- ]service\b|\bRe(?:gex|gexp)?\s?DoS\b|(?-i:\bDoS\b)|"
        r"\bcatastrophic(?:ally)?\s+backtrack|\bdecompression[- ]bomb|\bbillion[- ]laughs\b",
        re.IGNORECASE)),
    ("request smuggling", re.compile(
        r"\b(?:request|response)\s+(?:smuggling|splitting)\b|\bHTTP\s+desync\b",
        re.IGNORECASE)),
    ("path traversal", re.compile(r"\b(?:path|directory)[- ]traversal\b|\bzip[- ]slip\b",
                                  re.IGNORECASE)),
    ("prototype pollution", re.compile(r"\bprototype[- ]pollution\b", re.IGNORECASE)),
    ("an open redirect", re.compile(r"\bopen[- ]redirects?\b", re.IGNORECASE)),
    ("an injection", re.compile(
        r"\b(?:sql|command|shell|header|crlf|html|script|javascript|code|template|argument|"
        r"ldap|xpath|log)\s+injection\b|\bXXE\b|\bSSRF\b|\bserver[- ]side request forgery\b",
        re.IGNORECASE)),
    ("a timing attack", re.compile(r"\btiming\s+(?:attack|oracle|side[- ]channel)s?\b",
                                   re.IGNORECASE)),
    ("code execution", re.compile(
        r"\b(?:arbitrary|remote)\s+(?:code|command|file)\s+(?:execution|write|read|"
        r"overwrite)\b|\bprivilege\s+escalation\b", re.IGNORECASE)),
)
"""A vulnerability named by its class: what the words mean does not depend on the project.
Not here, because ordinary entries use them: "injection" alone (dependency injection),
"bypass" (a cache), "malicious", "attack"."""
_FRAGMENT_TYPE = re.compile(r"(?:^|\.)security(?:\.|$)", re.IGNORECASE)
"""A towncrier fragment whose type is ``security`` (``1234.security.rst``)."""
_VERSION_LINE = re.compile(
    r"""^\s*(?:export\s+)?(?:(?:const|var|let|final|static|public)\s+)*
        (?:[\w.]*\.)?_{0,2}(?:version|VERSION|Version)(?:_?(?:info|string|str))?_{0,2}
        \s*(?::\s*\w+\s*)?(?::?=|=)\s*
        (?:["'][^"']*["']|\([\d,\s"'a-z]*\)|\[[\d,\s"'a-z]*\])\s*[,;]?\s*(?://.*|\#.*)?$""",
    re.VERBOSE,
)
"""A version string set (``__version__ = "2.5.4"``, ``const Version = "v5.2.0"``)."""
COMPILED_REFS = 5
"""Added release-note lines linking this many distinct pull requests or issues describe other
PRs (a release's compiled notes), not the PR's own change. A PR's own entry links one or two
(python-markdown2's ``[pull #704] Fix XSS ... (#702, #703)``: three); on every read half no
fix's own changelog lines linked five or more without other red evidence."""
_REF = re.compile(r"(?:#|/pull/|/issues/|\bGH-)(\d+)\b")
MOVED_RATIO = 0.85
"""An added line this similar to a removed line of the same file was reworded or moved."""


def is_changelog(path: str, kind: PathKind | None) -> bool:
    """Release notes or a changelog fragment (a documentation file by its kind)."""
    if kind is not PathKind.DOCS:
        return False
    name = PurePosixPath(path).name.lower()
    if name.split(".", 1)[0] in CHANGELOG_STEMS:
        return True
    return bool(CHANGELOG_DIRS.intersection(segments(path)))


def claim(line: str) -> str | None:
    """What an added changelog line says was fixed, or None when it claims no security fix."""
    text = line.strip()
    if not text:
        return None
    if _HEADING.match(text):
        return "a security section"
    for what, pattern in _CLAIMS:
        if pattern.search(text):
            return what
    return None


def _changes_code(code: Sequence[FileDiff]) -> bool:
    """Whether any of the PR's ``code`` files changes more than a version string (a release
    only bumping its version changes no code whose claims could be read)."""
    return any(not version_only(f) for f in code)


def version_only(f: FileDiff) -> bool:
    """Every changed line of ``f`` sets a version string (a release bumping its version)."""
    lines = [line for hunk in f.hunks for _, line in (*hunk.added, *hunk.removed)]
    changed = [line for line in lines if line.strip()]
    return bool(changed) and all(_VERSION_LINE.match(line) for line in changed)


_TEST_NAME_WORDS = frozenset(
    {
        "xss", "redos", "traversal", "smuggling", "smuggle", "pollution", "ssrf", "xxe",
        "vuln", "vulnerability", "vulnerabilities", "security", "exploit", "exploits",
    }
)  # fmt: skip
"""Words of an added test file's name that say it tests a vulnerability (``xss_quotes.text``,
``test_security_inline.py``, ``redos.spec.ts``). Not here: ``csrf`` and ``auth`` (features
tested under those names), ``dos`` (``todos``, DOS line endings)."""
_VULNERABILITY_FILE_WORDS = frozenset(
    {"vuln", "vulns", "vulnerability", "vulnerabilities", "exploit", "exploits"}
)
"""Words of a test file's name that say every test in it is a vulnerability's regression test
(parse-server's ``spec/vulnerabilities.spec.js``): a test case the PR adds to such a file, even
one the PR only edits, is the fix's regression test. Not ``security`` here: projects name the
tests of their security module so (pyramid's ``tests/test_security.py``, Flask-AppBuilder's
security manager), features, not fixes."""
_TEST_CASE = re.compile(
    r"^\s*(?:(?:it|test|specify)(?:\.\w+)?\s*\(\s*['\"`]|(?:async\s+)?def\s+test\w*\s*\(|"
    r"func\s+Test\w*\s*\(|class\s+Test\w*)"
)
"""A line declaring a test case: ``it('...')``/``test('...')`` (Jest, Mocha, Vitest), a pytest or
unittest ``def test_...``/``class Test...``, Go's ``func TestX(``."""
_HEADER_NAMES = re.compile(r"x-xss-protection", re.IGNORECASE)
"""A header named for XSS, set and tested by security-header middleware as a feature."""
_WORD_PARTS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def _name_words(path: str) -> set[str]:
    name = PurePosixPath(path).name
    return {part.lower() for part in _WORD_PARTS.findall(name)}


def regression_test_markers(
    files: Sequence[FileDiff], kinds: Mapping[str, PathKind], code: Sequence[FileDiff]
) -> list[str]:
    """The first regression test the PR adds for a vulnerability, named so (an added test
    file's name, or a line it adds to its tests), as a short description naming where (at most
    one); none unless ``code`` changes more than a version string."""
    if not _changes_code(code):
        return []
    tests = [f for f in files if kinds.get(f.path) is PathKind.TEST]
    for f in tests:
        words = _name_words(f.path) & _TEST_NAME_WORDS
        if f.status is FileStatus.ADDED and words:
            return [f"a regression test it adds is named for {sorted(words)[0]}: `{f.path}`"]
    for f in tests:
        found = _first_new_claim(f, _test_claim)
        if found is not None:
            return [f"a test it adds names {found[0]}: {found[1]}"]
    for f in tests:
        if f.status is not FileStatus.DELETED and _name_words(f.path) & _VULNERABILITY_FILE_WORDS:
            case = _first_new_claim(f, _test_case)
            if case is not None:
                return [f"a test it adds sits in a file of vulnerability tests: {case[1]}"]
    return []


def _test_case(line: str) -> str | None:
    return "a test case" if _TEST_CASE.match(line) else None


def _test_claim(line: str) -> str | None:
    text = _HEADER_NAMES.sub("", line)
    for what, pattern in _CLAIMS:
        if what != _ADVISORY and pattern.search(text):  # code_markers reads ids in tests
            return what
    return None


_COMMENT_LINE = re.compile(
    r"^\s*(?://(?!/\s*<(?:reference|amd-module|amd-dependency)\b)|/\*|\*(?!/)|"
    r"#(?!!|\s*(?:include|define|undef|if|ifdef|ifndef|else|elif|endif|pragma)\b))"
)
"""A line that is a comment (``//``, ``/*``, a block comment's ``*`` line, ``#``; not a shebang,
a C preprocessor line or a TypeScript triple-slash directive, ``/// <reference path="..." />``,
which names a file for the compiler)."""


def comment_claim(line: str) -> str | None:
    """What a comment line names (a class of vulnerability), or None: not a code line, not an
    advisory id (:func:`pr_review.evidence.advisory.code_markers` reads those)."""
    return _test_claim(line) if _COMMENT_LINE.match(line) else None


def comment_markers(code: Sequence[FileDiff]) -> list[str]:
    """The first comment the PR adds to its ``code`` files (behaviour-changing code, not
    tests) that names a class of vulnerability (``// avoid ReDoS``, ``# ref: request
    smuggling``), not only moved or reworded, as a short description naming where (at most
    one); none unless the code changes more than a version string. A fix explains itself where
    the change is as often as in a changelog. Type declarations (``index.d.ts``, a ``.pyi``
    stub) hold no code that runs: their comments document a type (hapi's ``xss`` option,
    "controls the X-XSS-Protection header"), they cannot explain a fix."""
    if not _changes_code(code):
        return []
    for f in code:
        if is_type_declaration(f.path):
            continue
        found = _first_new_claim(f, comment_claim)
        if found is not None:
            return [f"a comment it adds to its code names {found[0]}: {found[1]}"]
    return []


def changelog_markers(
    files: Sequence[FileDiff], kinds: Mapping[str, PathKind], code: Sequence[FileDiff]
) -> list[str]:
    """The first security claim among the lines the PR adds to its changelog, as a short
    description naming where (at most one); none unless ``code`` (the PR's behaviour-changing
    code files) changes more than a version string."""
    if not _changes_code(code):
        return []
    for f in files:
        if not is_changelog(f.path, kinds.get(f.path)):
            continue
        name = PurePosixPath(f.path).name
        if f.status is FileStatus.ADDED and _FRAGMENT_TYPE.search(name.split(".", 1)[-1]):
            return [f"a changelog fragment of type security, `{f.path}`"]
        if compiled(f.added_texts):
            continue
        found = _first_new_claim(f, claim)
        if found is not None:
            return [f"the changelog entry it adds names {found[0]}: {found[1]}"]
    return []


_TOKEN = re.compile(r"[A-Za-z@][\w@./-]*[A-Za-z0-9]")
_MANIFEST_WORDS = frozenset(
    {
        "version", "require", "requires", "dependencies", "devdependencies",
        "peerdependencies", "optionaldependencies", "replace", "exclude", "indirect", "module",
        "toolchain", "go", "python", "node", "engines", "extras", "optional", "markers",
    }
)  # fmt: skip
"""Keys and keywords of manifests (``require``, ``"dependencies"``), not dependencies."""
_VERSION_TOKEN = re.compile(r"^v?\d")


def dependency_names(manifests: Sequence[FileDiff]) -> set[str]:
    """The names on the lines a PR changes in its dependency manifests (lock files left out):
    ``github.com/gogs/git-module`` and ``git-module`` for a go.mod ``require`` line,
    ``on-headers`` for ``"on-headers": "~1.1.0"``; none for a release setting its own
    ``"version"``. Lower-cased."""
    names: set[str] = set()
    for f in manifests:
        if is_lock_file(f.path):
            continue
        for hunk in f.hunks:
            for _, line in (*hunk.added, *hunk.removed):
                for token in _TOKEN.findall(line):
                    lowered = token.lower()
                    if lowered in _MANIFEST_WORDS or _VERSION_TOKEN.match(lowered):
                        continue
                    names.add(lowered)
                    names.add(lowered.rsplit("/", 1)[-1])
    return {n for n in names if len(n) >= 3}


_DEPENDENCIES = re.compile(r"\b(?:dependenc(?:y|ies)|deps)\b", re.IGNORECASE)
"""An entry saying its subject is the dependencies ("Upgrade vulnerable frontend
dependencies", "bump deps with known CVEs") names them as a class."""


def _names_any(line: str, names: set[str]) -> bool:
    lowered = line.lower()
    return any(
        re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", lowered) is not None
        for name in names
    )


def dependency_fix_markers(
    files: Sequence[FileDiff], kinds: Mapping[str, PathKind], code: Sequence[FileDiff],
    manifests: Sequence[FileDiff],
) -> list[str]:
    """A security claim the PR adds to its changelog when its only behaviour change is a
    dependency bump and the entry does not name the dependency (at most one): the project's
    own fix shipped through a library it bumps, as gogs fixes argument injection in
    ``git-module`` and records "_Security:_ Argument injection through a crafted branch
    name ... GHSA-2grc-qr7q-6m36" under its own name. An entry naming the bumped dependency
    (express-session's "Fix CVE-2025-7339 (GHSA-... on-headers)") or the dependencies as a
    class (gradio's "Upgrade vulnerable frontend dependencies") announces their advisories,
    and a release setting its own version bumps nothing: none is read."""
    if _changes_code(code):
        return []  # code changed: changelog_markers reads the entry
    names = dependency_names(manifests)
    if not names:
        return []

    def own(line: str) -> str | None:
        if _names_any(line, names) or _DEPENDENCIES.search(line):
            return None
        return claim(line)

    for f in files:
        if not is_changelog(f.path, kinds.get(f.path)):
            continue
        if compiled(f.added_texts):
            continue
        found = _first_new_claim(f, own)
        if found is not None:
            what, where = found
            why = f"the changelog entry it adds names {what}: {where}, for a dependency bump "
            return [why + "it does not name"]
    return []


def compiled(added: Sequence[str]) -> bool:
    """Whether release-note lines a PR adds link :data:`COMPILED_REFS` or more distinct pull
    requests or issues: notes compiled from other PRs."""
    refs = {m.group(1) for line in added for m in _REF.finditer(line)}
    return len(refs) >= COMPILED_REFS


def _first_new_claim(f: FileDiff, read: Callable[[str], str | None]) -> tuple[str, str] | None:
    """The first line ``f`` adds, not only moved or reworded (an equally worded line removed),
    in which ``read`` finds a claim: (what it claims, the line and where it is)."""
    claimed_before = [  # only a line that claimed something can have been reworded into one
        line.strip() for hunk in f.hunks for _, line in hunk.removed if read(line) is not None
    ]
    for hunk in f.hunks:
        for number, line in hunk.added:
            what = read(line)
            if what is not None and not _moved(line.strip(), claimed_before):
                return what, f"`{shorten(line.strip(), 90)}` (`{f.path}` line {number})"
    return None


def _moved(line: str, removed: Sequence[str]) -> bool:
    for old in removed:
        matcher = SequenceMatcher(None, line, old, autojunk=False)
        if matcher.real_quick_ratio() >= MOVED_RATIO and matcher.quick_ratio() >= MOVED_RATIO \
                and matcher.ratio() >= MOVED_RATIO:
            return True
    return False


CLAIM_EXAMPLES: tuple[tuple[str, bool], ...] = (
    # section headings (Keep a Changelog's Security section, release-note styles)
    ("### Security", True),
    ("**Security fixes**", True),
    ("[Security Fixes]", True),
    ("Security Bugfix", True),
    ("Security", True),
    # entries naming a class of vulnerability (python-markdown2, sqlparse, waitress, send)
    ("- [pull #604] Fix XSS injection in image URLs (#603)", True),
    ("* IMPORTANT: Fixes a potential denial of service attack (DOS) due to recursion", True),
    ("- [pull #428] Fix catastrophic backtracking (Regex DoS) in pyshell blocks.", True),
    ("  longer supported. This stops potential HTTP desync/HTTP request smuggling.", True),
    ("  * Fix a path traversal issue when using `root`", True),
    ("- Fixed a security issue where restricting the maximum number of followed", True),
    ("- Fix CVE-2025-47944: a malformed multipart request crashes the process", True),
    ("- Prevent prototype pollution in `merge`", True),
    ("- Fix header injection through a newline in a cookie value", True),
    # ordinary entries: words that only look like it
    ("- Add a security headers option to the middleware", False),
    ("- Support dependency injection of the session store", False),
    ("- Allow bypassing the cache with `no-store`", False),
    ("- Improve docs of the SECURITY.md policy", False),
    ("- Fix handling of DOS line endings (CRLF) in fenced code", False),
    ("- Add `sanitize` option", False),
    ("## 2.5.4 (2024-05-01)", False),
    # a known false claim, kept to show it: a policy sentence that names a security issue
    ("- Document how to report a security issue", True),
)
"""Each: a line a PR adds to its changelog, and whether it is read as a security claim."""

CHANGELOG_EXAMPLES: tuple[tuple[str, bool], ...] = (
    ("CHANGELOG.md", True),
    ("CHANGES.rst", True),
    ("History.md", True),
    ("docs/news.rst", True),
    ("Changes", True),
    ("changelog/1234.bugfix.rst", True),
    (".changeset/brave-dogs-run.md", True),
    ("README.md", False),
    ("docs/security.md", False),
    ("SECURITY.md", False),
)
"""Each: a documentation file, and whether it is release notes or a changelog fragment."""

COMPILED_EXAMPLES: tuple[tuple[tuple[str, ...], bool], ...] = (
    # a release's notes: entries of many PRs merged before (jupyterhub 6.0, gunicorn 23.0)
    (
        (
            "## 6.0.0",
            "- Fix JSX vulnerabilities, lint errors and rendering [#5360](https://x.io/pull/5360)",
            "- Add session options [#5351](https://github.com/o/r/pull/5351)",
            "- Drop Python 3.9 [#5340](https://github.com/o/r/pull/5340)",
            "- Use aiohttp [#5447](https://github.com/o/r/pull/5447)",
            "- Typo fixes (#5490, #5489)",
        ),
        True,
    ),
    # a PR's own entry: its number and the issues it closes
    (("- [pull #704] Fix XSS from smuggling spans into image attributes (#702, #703)",), False),
    (("### Security", "- Fix a path traversal in `send` (GH-123)"), False),
    # a number that is no link: a standard's name
    (("- Fix PKCS#1 v1.5 padding oracle", "- Support PKCS#7 and PKCS#8 keys, RFC #2"), False),
)
"""Each: the lines a PR adds to a changelog, and whether they are compiled from other PRs."""

TEST_NAME_EXAMPLES: tuple[tuple[str, bool], ...] = (
    ("test/tm-cases/xss_issue699.text", True),
    ("tests/test_asgi_keepalive_smuggling.py", True),
    ("src/redos.spec.ts", True),
    ("tests/test_security_inline.py", True),
    ("test/pathTraversal.test.js", True),
    ("test/iexss.js", False),
    ("tests/test_csrf_token.py", False),
    ("test/todos.test.ts", False),
    ("tests/test_redirects.py", False),
)
"""Each: a test file the PR adds, and whether its name says it tests a vulnerability."""

VULNERABILITY_FILE_EXAMPLES: tuple[tuple[str, str, bool], ...] = (
    ("spec/vulnerabilities.spec.js", "  it('denies a regex with quotes in a query', async () => {",
     True),
    ("tests/test_vulns.py", "def test_header_value_with_newline():", True),
    ("test/exploits_test.go", "func TestEntryOutsideRoot(t *testing.T) {", True),
    ("spec/vulnerabilities.spec.js", "    const config = await reconfigureServer({});", False),
    ("tests/test_security.py", "def test_remember_me_cookie():", False),
    ("tests/test_views.py", "def test_login_redirect():", False),
)
"""Each: a test file the PR edits, a line it adds there, and whether that is a test case in a
file of vulnerability tests."""


COMMENT_EXAMPLES: tuple[tuple[str, bool], ...] = (
    # comments fixes add (gjson, gunicorn, ws, ejs, sanitize-html)
    ("// matchLimit will limit the complexity of the match operation to avoid ReDos", True),
    ("                # DANGER: do not change lightly; ref: request smuggling", True),
    ("      // vulnerabilities / memory attacks.", True),
    ("      // remote code execution", True),
    ("   * game over for XSS protection, so if that's allowed we strip it", True),
    ("/* escape the name: a crafted name is a path traversal */", True),
    # code lines, and comments naming no class of vulnerability
    ("if (isXSS(value)) { return '' }", False),
    ("raise ValueError('possible denial of service')", False),
    ("# TODO: make the timeout configurable", False),
    ("#include <stdio.h> // DoS", False),
    # a TypeScript directive naming a file, not a comment (js-xss's typings)
    ('/// <reference path="./xss.d.ts" />', False),
    ("/// avoid XSS: escape the attribute", True),
    ("#!/usr/bin/env python  # XSS", False),
    ("// the CVE-2024-1234 fix", False),
    ("// set X-XSS-Protection for old browsers", False),
)
"""Lines the PR adds to its code: a comment naming a class of vulnerability, or not."""
