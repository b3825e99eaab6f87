"""A changelog entry or a regression test the PR adds calling its change a security fix makes
it red."""

from __future__ import annotations

import pytest

from pr_review.evidence.fix_claims import (
    CHANGELOG_EXAMPLES,
    CLAIM_EXAMPLES,
    COMMENT_EXAMPLES,
    COMPILED_EXAMPLES,
    TEST_NAME_EXAMPLES,
    VULNERABILITY_FILE_EXAMPLES,
    changelog_markers,
    claim,
    comment_claim,
    comment_markers,
    compiled,
    dependency_fix_markers,
    dependency_names,
    is_changelog,
    regression_test_markers,
    version_only,
)
from pr_review.schema.enums import Lane
from pr_review.sources.diff import FileDiff, FileStatus
from pr_review.sources.paths import classify
from tests.evidence.helpers import file_diff, lane_and_factors

CODE_BASE = "def image(url):\n    return url\n"
CODE_HEAD = "def image(url):\n    return url.replace('\"', '&quot;')\n"
CODE_DIFF = file_diff(
    "lib/markdown.py", ["    return url.replace('\"', '&quot;')"], ["    return url"], start=2
)


@pytest.mark.parametrize(("line", "claimed"), CLAIM_EXAMPLES)
def test_claim_examples(line: str, claimed: bool) -> None:
    assert (claim(line) is not None) is claimed


@pytest.mark.parametrize(("added", "is_compiled"), COMPILED_EXAMPLES)
def test_compiled_examples(added: tuple[str, ...], is_compiled: bool) -> None:
    assert compiled(added) is is_compiled


def test_a_claim_in_release_notes_compiled_from_other_prs_is_not_the_prs_own() -> None:
    (notes_lines, _), *_ = COMPILED_EXAMPLES
    notes = file_diff("docs/changelog.md", list(notes_lines))
    kinds = {"docs/changelog.md": classify("docs/changelog.md"),
             "lib/markdown.py": classify("lib/markdown.py")}
    assert changelog_markers([CODE_DIFF, notes], kinds, [CODE_DIFF]) == []
    # the same entry as the PR's own, alone, is a claim
    own = file_diff("docs/changelog.md", [notes_lines[1]])
    assert changelog_markers([CODE_DIFF, own], kinds, [CODE_DIFF]) != []


@pytest.mark.parametrize(("path", "changelog"), CHANGELOG_EXAMPLES)
def test_changelog_examples(path: str, changelog: bool) -> None:
    assert is_changelog(path, classify(path)) is changelog


@pytest.mark.parametrize(
    ("added", "why"),
    [
        (  # the changelog entry it adds
            file_diff("CHANGES.md", ["- Fix XSS in image URLs (#603)", ""], [], start=3),
            (
                "the changelog entry it adds names cross-site scripting: "
                "`- Fix XSS in image URLs (#603)` (`CHANGES.md` line 3)"
            ),
        ),
        (  # the regression test it adds
            file_diff("tests/test_keepalive_smuggling.py",
                      ["def test_rejects():", "    assert True"], status=FileStatus.ADDED),
            (
                "a regression test it adds is named for smuggling: "
                "`tests/test_keepalive_smuggling.py`"
            ),
        ),
    ],
)
def test_a_neutral_titled_fix_whose_own_words_name_the_flaw_is_red_and_says_where(
    added: FileDiff, why: str
) -> None:
    lane, factors = lane_and_factors(
        files=[CODE_DIFF, added],
        base={"lib/markdown.py": CODE_BASE},
        head={"lib/markdown.py": CODE_HEAD},
    )
    assert lane is Lane.RED
    assert factors["security-advisory:red"].why == f"the PR says it fixes a security issue: {why}"


def test_a_release_that_only_sets_its_version_is_not_read() -> None:
    # a release lists the fixes merged before it: its notes claim nothing about its own code
    release = file_diff("lib/version.py", ['__version__ = "2.5.4"'], ['__version__ = "2.5.3"'])
    notes = file_diff("CHANGES.md", ["## 2.5.4", "", "### Security", "- Fix ReDoS in lists"])
    assert version_only(release)
    assert changelog_markers([release, notes], {"lib/version.py": classify("lib/version.py"),
                                                "CHANGES.md": classify("CHANGES.md")},
                             [release]) == []
    lane, factors = lane_and_factors(files=[release, notes])
    assert "security-advisory:red" not in factors
    assert lane is not Lane.RED


def test_a_docs_only_changelog_edit_is_not_read() -> None:
    lane, factors = lane_and_factors(
        files=[file_diff("HISTORY.md", ["* Security fix for GHSA-v422-hmwv-36x6"])]
    )
    assert lane is Lane.GREEN
    assert "security-advisory:red" not in factors


def test_an_entry_only_reworded_is_not_a_claim() -> None:
    # a typo fix in an old entry (jwx's "possiblity") moves the words, claims nothing new
    notes = file_diff(
        "Changes",
        ["    headers could cause a panic, thereby introducing a possibility of a DoS."],
        ["    headers could cause a panic, thereby introducing a possiblity of a DoS."],
    )
    kinds = {"Changes": classify("Changes"), "lib/markdown.py": classify("lib/markdown.py")}
    assert changelog_markers([CODE_DIFF, notes], kinds, [CODE_DIFF]) == []


def test_a_towncrier_fragment_of_type_security_is_a_claim() -> None:
    fragment = file_diff("changelog/1234.security.rst", ["Reject absolute paths."],
                         status=FileStatus.ADDED)
    kinds = {fragment.path: classify(fragment.path), CODE_DIFF.path: classify(CODE_DIFF.path)}
    found = changelog_markers([CODE_DIFF, fragment], kinds, [CODE_DIFF])
    assert found == ["a changelog fragment of type security, `changelog/1234.security.rst`"]


@pytest.mark.parametrize(("path", "named"), TEST_NAME_EXAMPLES)
def test_test_name_examples(path: str, named: bool) -> None:
    test = file_diff(path, ["x"], status=FileStatus.ADDED)
    kinds = {path: classify(path), CODE_DIFF.path: classify(CODE_DIFF.path)}
    assert bool(regression_test_markers([CODE_DIFF, test], kinds, [CODE_DIFF])) is named


def test_a_test_line_naming_a_vulnerability_is_a_claim_but_not_the_xss_header() -> None:
    kinds = {"test/app.test.js": classify("test/app.test.js"),
             CODE_DIFF.path: classify(CODE_DIFF.path)}
    named = file_diff("test/app.test.js", ["it('does not allow prototype pollution', () => {"])
    header = file_diff("test/app.test.js", ["expect(h['X-XSS-Protection']).toBe('0')"])
    found = regression_test_markers([CODE_DIFF, named], kinds, [CODE_DIFF])
    line = "`it('does not allow prototype pollution', () => {`"
    where = "(`test/app.test.js` line 1)"
    assert found == [f"a test it adds names prototype pollution: {line} {where}"]
    assert regression_test_markers([CODE_DIFF, header], kinds, [CODE_DIFF]) == []


@pytest.mark.parametrize(("path", "line", "claimed"), VULNERABILITY_FILE_EXAMPLES)
def test_a_test_case_added_to_a_file_of_vulnerability_tests(
    path: str, line: str, claimed: bool
) -> None:
    test = file_diff(path, [line])  # an edited file: its name is old
    kinds = {path: classify(path), CODE_DIFF.path: classify(CODE_DIFF.path)}
    found = regression_test_markers([CODE_DIFF, test], kinds, [CODE_DIFF])
    assert bool(found) is claimed
    if claimed:
        assert found[0].startswith("a test it adds sits in a file of vulnerability tests: ")
        assert f"(`{path}` line 1)" in found[0]


def test_a_test_case_only_moved_in_a_file_of_vulnerability_tests_is_no_claim() -> None:
    line = "  it('denies a regex with quotes', async () => {"
    test = file_diff("spec/vulnerabilities.spec.js", [line], [line + " "])
    kinds = {test.path: classify(test.path), CODE_DIFF.path: classify(CODE_DIFF.path)}
    assert regression_test_markers([CODE_DIFF, test], kinds, [CODE_DIFF]) == []


def test_tests_alone_are_not_read() -> None:
    test = file_diff("tests/test_xss.py", ["def test_x():", "    pass"], status=FileStatus.ADDED)
    kinds = {test.path: classify(test.path)}
    assert regression_test_markers([test], kinds, []) == []


@pytest.mark.parametrize(("line", "claimed"), COMMENT_EXAMPLES)
def test_comment_examples(line: str, claimed: bool) -> None:
    assert (comment_claim(line) is not None) is claimed


def test_a_comment_the_fix_adds_to_its_code_is_a_claim_once_and_says_where() -> None:
    code = file_diff(
        "lib/match.go",
        ["// matchLimit limits the complexity of a match to avoid ReDoS", "if n > limit {"],
        ["if n > 0 {"],
    )
    lane, factors = lane_and_factors(
        files=[code], base={"lib/match.go": "if n > 0 {\n"},
        head={"lib/match.go": "// matchLimit ...\nif n > limit {\n"},
    )
    assert lane is Lane.RED
    assert factors["security-advisory:red"].why == (
        "the PR says it fixes a security issue: a comment it adds to its code names denial of "
        "service: `// matchLimit limits the complexity of a match to avoid ReDoS` "
        "(`lib/match.go` line 1)"
    )
    moved = file_diff(
        "lib/match.go", ["    // avoid ReDoS", "x = 1"], ["// avoid ReDoS", "x = 2"]
    )
    assert comment_markers([moved]) == []
    release = file_diff("lib/version.go", ['const Version = "1.2.4"  // fixes a DoS'],
                        ['const Version = "1.2.3"'])
    assert comment_markers([release]) == []


def test_a_comment_in_type_declarations_is_no_claim() -> None:
    # hapi moving its DefinitelyTyped declarations in (holdout49, read after its figures): the
    # `xss` option's doc comment names the header it controls, in a file no code runs from
    lines = [" * xss - boolean that controls the 'X-XSS-PROTECTION' header for IE.",
             "xss?: boolean | undefined;"]
    assert comment_markers([file_diff("lib/index.d.ts", lines, status=FileStatus.ADDED)]) == []
    assert comment_markers([file_diff("stubs/client.pyi", ["# avoid XSS", "x: int"])]) == []
    assert comment_markers([file_diff("lib/index.ts", lines)]) != []


GOMOD = file_diff(
    "go.mod", ["\tgithub.com/gogs/git-module v1.8.9"], ["\tgithub.com/gogs/git-module v1.8.8"],
    start=29,
)
GOSUM = file_diff("go.sum", ["github.com/gogs/git-module v1.8.9 h1:yhX0AE+ljDq0jKPiSMdYS9a2="])


def test_dependency_names_are_read_from_the_manifest_lines_not_the_lock_file() -> None:
    assert dependency_names([GOMOD, GOSUM]) == {"github.com/gogs/git-module", "git-module"}
    package = file_diff("package.json", ['    "on-headers": "~1.1.0",'],
                        ['    "on-headers": "~1.0.2",'])  # fmt: skip
    assert dependency_names([package]) == {"on-headers"}
    release = file_diff("package.json", ['  "version": "6.9.10",'], ['  "version": "6.9.9",'])
    assert dependency_names([release]) == set()


def test_the_projects_own_fix_shipped_in_a_dependency_it_bumps_is_red() -> None:
    # gogs #8390 (holdout32, read after its figures): the fix lives in gogs/git-module
    entry = (
        "- _Security:_ Argument injection through a crafted branch name when creating a pull "
        "request allowed an authenticated user to write files to arbitrary paths. [#8390]"
        "(https://github.com/gogs/gogs/pull/8390) - [GHSA-2grc-qr7q-6m36]"
        "(https://github.com/gogs/gogs/security/advisories/GHSA-2grc-qr7q-6m36)"
    )
    notes = file_diff("CHANGELOG.md", [entry], start=14)
    lane, factors = lane_and_factors(files=[GOMOD, GOSUM, notes])
    assert lane is Lane.RED
    why = factors["security-advisory:red"].why
    assert why.startswith("the PR says it fixes a security issue: the changelog entry it adds")
    assert why.endswith("for a dependency bump it does not name")


def test_a_dependencys_advisory_named_with_the_dependency_stays_a_bump() -> None:
    # express-session (holdout7): the entry names on-headers, the dependency it bumps
    package = file_diff("package.json", ['    "on-headers": "~1.1.0",'],
                        ['    "on-headers": "~1.0.2",'])  # fmt: skip
    entry = (
        "    - Fix [CVE-2025-7339](https://www.cve.org/CVERecord?id=CVE-2025-7339) "
        "([GHSA-76c9-3jph-rj3q](https://github.com/expressjs/on-headers/security/advisories/"
        "GHSA-76c9-3jph-rj3q))"
    )
    notes = file_diff("HISTORY.md", ["  * deps: on-headers@~1.1.0", entry])
    kinds = {package.path: classify(package.path), notes.path: classify(notes.path)}
    assert dependency_fix_markers([package, notes], kinds, [], [package]) == []
    lane, factors = lane_and_factors(files=[package, notes])
    assert "security-advisory:red" not in factors
    assert lane is not Lane.RED


@pytest.mark.parametrize(
    ("entry", "own"),
    [
        ("feat:Upgrade vulnerable frontend dependencies", False),  # gradio (holdout44)
        ("- Bump deps to fix CVE-2024-4067 in micromatch", False),
        ("- Security: prototype pollution in the query parser (GHSA-xxxx-yyyy-zzzz)", True),
    ],
)
def test_an_entry_about_the_dependencies_as_a_class_announces_theirs(
    entry: str, own: bool
) -> None:
    package = file_diff("package.json", ['    "vite": "^7.1.11",'], ['    "vite": "^7.1.5",'])
    notes = file_diff(".changeset/neat-badgers-cut.md", ["---", '"gradio": patch', "---", entry])
    kinds = {package.path: classify(package.path), notes.path: classify(notes.path)}
    found = dependency_fix_markers([package, notes], kinds, [], [package])
    assert bool(found) is own, found


def test_a_release_setting_its_own_version_bumps_no_dependency() -> None:
    release = file_diff("package.json", ['  "version": "6.9.10",'], ['  "version": "6.9.9",'])
    notes = file_diff("CHANGELOG.md", ["### Security", "- Fix SMTP command injection"])
    kinds = {release.path: classify(release.path), notes.path: classify(notes.path)}
    assert dependency_fix_markers([release, notes], kinds, [], [release]) == []
