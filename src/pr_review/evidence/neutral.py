"""Which changed files cannot alter behaviour: comments, formatting and pure renames.

For each file the code tokens of the removed lines (read from the base file with comments
and docstrings blanked out) are compared with those of the added lines (from the head file).
Equal sequences mean only comments, docstrings, whitespace or line wrapping changed. Equal
length with differences only at identifiers means a rename; the renames of the whole PR must
then form one consistent one-to-one substitution, every old name must be gone from the head
tree and every new name absent from the base tree (no call site left behind, no collision).
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import NamedTuple

from pr_review import yamlfiles
from pr_review.evidence import grammars
from pr_review.evidence.catalogs import CATALOG_EXTENSIONS, same_catalog
from pr_review.evidence.lexing import CYTHON_EXTENSIONS, is_identifier, strip_comments, tokens
from pr_review.evidence.pyast import prose_key, reduced_key, same_behaviour, shape_key
from pr_review.evidence.scopes import PYTHON_EXTENSIONS
from pr_review.sources.diff import FileDiff, FileStatus
from pr_review.sources.model import RepoTree
from pr_review.sources.paths import PathKind, classify, extension

MAX_TREE_FILES = 5000
DEFINERS = frozenset(
    {
        "def",
        "class",
        "function",
        "func",
        "const",
        "let",
        "var",
        "type",
        "interface",
        "struct",
        "enum",
        "trait",
        "fn",
        "module",
    }
)
"""Keywords after which a renamed identifier is a definition, not a use."""


class Rename(NamedTuple):
    """One identifier substitution; ``defined`` when the PR renames its definition."""

    old: str
    new: str
    defined: bool


MAX_FILE_CHARS = 2_000_000


@dataclass(frozen=True)
class Neutrality:
    """Result of the cosmetic analysis of a PR."""

    neutral: frozenset[str]
    """Paths whose change cannot alter behaviour."""
    renames: tuple[tuple[str, str], ...] = ()
    """Consistent identifier renames (old, new) the decision relied on."""
    reasons: dict[str, str] = field(default_factory=dict)
    """Why a code file that looked cosmetic is not (rename inconsistent, old name left...)."""
    tree_checked: bool = True
    """False when the trees were too large to confirm renames completely."""


def analyse(files: Sequence[FileDiff], base: RepoTree, head: RepoTree) -> Neutrality:
    """Decide, for the PR's code and config files, which changes are cosmetic."""
    neutral: set[str] = set()
    renamed_files: dict[str, list[Rename]] = {}
    reasons: dict[str, str] = {}
    for f in files:
        kind = classify(f.path)
        if kind in {PathKind.DOCS, PathKind.TEST}:
            continue
        if (
            _python_tree_equal(f, base, head)
            or _grammar_tree_equal(f, base, head)
            or _data_prose_equal(f, base, head)
            or _code_prose_equal(f, base, head)
            or _catalog_equal(f, base, head)
            or _go_mod_comments_equal(f, base, head)
            or _cython_tokens_equal(f, base, head)
            or _linguist_only(f)
            or _setup_metadata_equal(f, base, head)
        ):
            neutral.add(f.path)
            continue
        pairs = _file_renames(f, base, head)
        if pairs is None:
            continue
        if pairs:
            renamed_files[f.path] = pairs
        else:
            neutral.add(f.path)
    if not renamed_files:
        return Neutrality(frozenset(neutral))
    renames = [p for ps in renamed_files.values() for p in ps]
    mapping, problem = _consistent((r.old, r.new) for r in renames)
    defined = {r.old for r in renames if r.defined} | _declared(mapping, renamed_files, base, head)
    undefined = sorted({r.old for r in renames} - defined)
    if problem is None and undefined:
        problem = f"`{undefined[0]}` is replaced but its definition is not renamed in this PR"
    checked = True
    if problem is None:
        problem, checked = _tree_problem(mapping, base, head, renamed_files)
    if problem is not None:
        reasons = dict.fromkeys(renamed_files, problem)
        return Neutrality(frozenset(neutral), reasons=reasons, tree_checked=checked)
    neutral.update(renamed_files)
    return Neutrality(frozenset(neutral), tuple(sorted(mapping.items())), tree_checked=checked)



def _modified_texts(f: FileDiff, base: RepoTree, head: RepoTree) -> tuple[str, str] | None:
    """Both sides' text of a file the PR modifies in place (not added, deleted or moved: a move
    changes a module's import path; not binary, a mode change or a submodule), for the
    whole-file comparisons below; None otherwise."""
    if f.binary or f.mode_changed or f.submodule or f.status is not FileStatus.MODIFIED:
        return None
    old, new = base.read(f.old_path or f.path), head.read(f.path)
    return None if old is None or new is None else (old, new)


def _python_tree_equal(f: FileDiff, base: RepoTree, head: RepoTree) -> bool:
    """A modified Python file whose syntax tree, docstrings dropped, is the same on both
    sides: behaviour-neutral by construction, whatever the lines say."""
    if not f.path.endswith(PYTHON_EXTENSIONS):
        return False
    texts = _modified_texts(f, base, head)
    return texts is not None and same_behaviour(*texts)


def _cython_tokens_equal(f: FileDiff, base: RepoTree, head: RepoTree) -> bool:
    """A modified Cython file (no syntax tree here) whose code tokens, comments and docstrings
    blanked by Python's tokenizer (:func:`strip_comments`, which keeps compiler directives),
    are the same on both sides: only text for people or layout changed (lxml's ``XMLParser``
    docstring gaining ``huge_tree``)."""
    if extension(f.path) not in CYTHON_EXTENSIONS:
        return False
    texts = _modified_texts(f, base, head)
    if texts is None:
        return False
    old, new = (tokens(strip_comments(text, f.path)) for text in texts)
    return old == new


def _grammar_tree_equal(f: FileDiff, base: RepoTree, head: RepoTree) -> bool:
    """A modified file of a language with a tree-sitter grammar whose code leaves (comments
    left out) are the same on both sides: only comments or layout changed."""
    if f.binary or f.mode_changed or f.submodule or f.status is not FileStatus.MODIFIED:
        return False
    if grammars.language_of(f.path) is None:
        return False
    old = grammars.parse(f.path, base.read(f.path))
    new = grammars.parse(f.path, head.read(f.path)) if old is not None else None
    return old is not None and new is not None and old.tokens == new.tokens


PROSE_KEYS = frozenset(
    {"description", "comment", "comments", "summary", "help", "doc", "docs", "docstring",
     "note", "notes"}
)  # fmt: skip
"""Keys of YAML and JSON data whose string values are prose for people (a service catalog's
``description``, a code generator's ``comment:`` block): a typo fixed there changes nothing a
program does with the data. ``name`` and ``title`` are not prose: names key checks and jobs."""
DATA_EXTENSIONS = frozenset({".yml", ".yaml", ".json"})
PROSE_EXAMPLES: tuple[tuple[str, str, str, bool], ...] = (
    # (path, base, head, behaviour-neutral?)
    ("jwt/options.yaml", "options:\n  - ident: X\n    comment: |\n      speficies the amount\n",
     "options:\n  - ident: X\n    comment: |\n      specifies the amount\n", True),
    ("catalog.json", '{"description": "A JWT lib", "tier": 2}',
     '{"description": "A JSON Web Token library", "tier": 2}', True),
    ("catalog.json", '{"description": "A JWT lib", "tier": 2}',
     '{"description": "A JWT lib", "tier": 3}', False),
    ("jwt/options.yaml", "options:\n  - ident: X\n    comment: old\n",
     "options:\n  - ident: Y\n    comment: old\n", False),
    ("config.yml", "checks:\n  name: lint\n", "checks:\n  name: lint-all\n", False),
    ("config.yml", "description:\n  level: 3\n", "description:\n  level: 4\n", False),
)
"""Run by the test suite: prose changed alone is neutral; a value, an identifier, a name, or a
mapping under a prose key is not."""


def _without_prose(value: object) -> object:
    """``value`` (loaded YAML or JSON) with the strings under :data:`PROSE_KEYS` blanked."""
    if isinstance(value, dict):
        return {
            k: "<prose>" if str(k).lower() in PROSE_KEYS and isinstance(v, str)
            else _without_prose(v)
            for k, v in value.items()
        }  # fmt: skip
    if isinstance(value, list):
        return [_without_prose(v) for v in value]
    return value


def _documents(path: str, text: str) -> object:
    if extension(path) == ".json":
        return json.loads(text)
    return yamlfiles.load_all(text)


def data_prose_equal(path: str, old: str, new: str) -> bool:
    """Whether two versions of a YAML or JSON data file load to the same data once the prose
    under :data:`PROSE_KEYS` is set aside (False when either does not load)."""
    try:
        return _without_prose(_documents(path, old)) == _without_prose(_documents(path, new))
    except (ValueError, yamlfiles.YAMLError):
        return False


def _data_prose_equal(f: FileDiff, base: RepoTree, head: RepoTree) -> bool:
    """A modified configuration data file (YAML, JSON; not CI, infrastructure or a manifest)
    whose only change is prose: see :func:`data_prose_equal`."""
    if extension(f.path) not in DATA_EXTENSIONS or classify(f.path) is not PathKind.CONFIG:
        return False
    texts = _modified_texts(f, base, head)
    return texts is not None and data_prose_equal(f.path, *texts)


CODE_PROSE_NAMES = frozenset(
    {"help", "helptext", "usage", "usagetext", "description", "example", "examples", "epilog",
     "summary"}
)  # fmt: skip
"""Names under which code holds text for people (compared lowercased, underscores dropped): a
command's ``help=``/``usage``/``Example:``/``description``, an API's ``summary``, Django's
``help_text``. Not ``doc`` (a document), ``name``, ``title`` or ``message`` (matched, logged
or returned as data)."""
SPACED_PROSE_NAMES = frozenset({"short", "long"})
"""Names that hold text for people only when the text has words apart: cobra's ``Short:`` and
``Long:`` descriptions, where a flag table's ``long: "verbose"`` is a flag's name (a flag name
never holds a space)."""
CODE_PROSE_EXAMPLES: tuple[tuple[str, str, str, bool], ...] = (
    # (path, base, head, behaviour-neutral?)
    ("cli.py", 'p.add_argument("--max-age", help="a duration in days")\n',
     'p.add_argument("--max-age", help="a duration in integer days (P<n>D)")\n', True),
    ("runner.py", 'HELP = """--trusted_proxy_headers=LIST"""\n',
     'HELP = """--trusted-proxy-headers=LIST"""\n', True),
    ("models.py", 'x = models.IntegerField(help_text=_("Old"), default=1)\n',
     'x = models.IntegerField(help_text=_("New words"), default=1)\n', True),
    ("cmd/create.go", 'package cmd\nvar c = &cobra.Command{Use: "create", Example: `x -n "a"`}\n',
     'package cmd\nvar c = &cobra.Command{Use: "create", Example: `x --name "a"`}\n', True),
    ("cli.js", "program.description('Old').option('-v', 'verbose')\n",
     "program.description('New words').option('-v', 'verbose')\n", True),
    ("api.ts", "export const op = { summary: 'Get', path: '/a' }\n",
     "export const op = { summary: 'Get one', path: '/a' }\n", True),
    ("cmd/root.go",
     'package cmd\nvar c = &cobra.Command{Short: "Create a client", Long: `Old text.`}\n',
     'package cmd\nvar c = &cobra.Command{Short: "Create one client", Long: `New words.`}\n',
     True),
    ("cli.py", 'p.add_argument("--max-age", help="a duration", default=1)\n',
     'p.add_argument("--max-age", help="a duration", default=2)\n', False),
    ("cli.py", 'p.add_argument("--max-age", help="days %s" % unit)\n',
     'p.add_argument("--max-age", help="days %s" % other)\n', False),
    ("cmd/create.go", 'package cmd\nvar c = &cobra.Command{Use: "create", Example: `x`}\n',
     'package cmd\nvar c = &cobra.Command{Use: "new", Example: `x`}\n', False),
    ("flags.js", "const flags = [{ short: 'v', long: 'verbose' }]\n",
     "const flags = [{ short: 'v', long: 'loud' }]\n", False),
    ("cli.rs", 'struct A { #[arg(long = "old")] x: u8 }\n',
     'struct A { #[arg(long = "new")] x: u8 }\n', False),
    ("api.ts", "export const op = { title: 'Get', path: '/a' }\n",
     "export const op = { title: 'Get one', path: '/a' }\n", False),
    ("cli.js", "program.description(`Runs ${cmd}`)\n", "program.description(`Runs ${other}`)\n",
     False),
)
"""Run by the test suite: text for people changed alone is neutral; a value beside it, a
command's name, a flag's long name (one word), a title, or an expression inside the text is
not."""


def is_prose(name: str, text: str) -> bool:
    """Whether code binding the string ``text`` to ``name`` holds text for people
    (:data:`CODE_PROSE_NAMES`, :data:`SPACED_PROSE_NAMES`)."""
    key = name.lower().replace("_", "")
    return key in CODE_PROSE_NAMES or (key in SPACED_PROSE_NAMES and len(text.split()) > 1)


def code_prose_equal(path: str, old: str, new: str) -> bool:
    """Whether two versions of a source (Python, or a language with a grammar) have the same
    syntax tree once the strings :func:`is_prose` accepts are set aside (False when either
    does not parse)."""
    if path.endswith(PYTHON_EXTENSIONS):
        old_key = prose_key(old, is_prose)
        return old_key is not None and old_key == prose_key(new, is_prose)
    old_tree = grammars.parse(path, old)
    new_tree = grammars.parse(path, new) if old_tree is not None else None
    if old_tree is None or new_tree is None:
        return False
    old_tokens = grammars.prose_tokens(old_tree, is_prose)
    return old_tokens == grammars.prose_tokens(new_tree, is_prose)


def _code_prose_equal(f: FileDiff, base: RepoTree, head: RepoTree) -> bool:
    """A modified code file whose only change is text for people: see
    :func:`code_prose_equal`."""
    if not f.path.endswith(PYTHON_EXTENSIONS) and grammars.language_of(f.path) is None:
        return False
    texts = _modified_texts(f, base, head)
    return texts is not None and code_prose_equal(f.path, *texts)


def _catalog_equal(f: FileDiff, base: RepoTree, head: RepoTree) -> bool:
    """A modified gettext catalog holding the same messages on both sides (references,
    order and wrapping aside): :func:`pr_review.evidence.catalogs.same_catalog`."""
    if not f.path.lower().endswith(CATALOG_EXTENSIONS):
        return False
    texts = _modified_texts(f, base, head)
    return texts is not None and same_catalog(*texts)


def _go_mod_comments_equal(f: FileDiff, base: RepoTree, head: RepoTree) -> bool:
    """A modified ``go.mod`` or ``go.work`` whose directives are the same once ``//`` comments
    and blank lines are set aside (distribution dropping a comment, holdout48): the module's
    requirements did not change. A module path never holds ``//``."""
    if PurePosixPath(f.path).name not in {"go.mod", "go.work"}:
        return False
    texts = _modified_texts(f, base, head)
    return texts is not None and _go_directives(texts[0]) == _go_directives(texts[1])


SETUP_METADATA = frozenset(
    {"url", "download_url", "project_urls", "author", "author_email", "maintainer",
     "maintainer_email", "description", "long_description", "long_description_content_type",
     "license", "keywords", "classifiers", "platforms"}
)  # fmt: skip
"""``setup()`` arguments that only describe the project on its index page: no installation
reads them (dependencies, packages, entry points and ``python_requires`` still count)."""


def _setup_metadata_equal(f: FileDiff, base: RepoTree, head: RepoTree) -> bool:
    """A ``setup.py`` whose syntax tree is the same once the values of its ``setup()``
    call's descriptive arguments (:data:`SETUP_METADATA`) are set aside: h2's project URL
    renamed with the repository (holdout69) changed no installation."""
    if PurePosixPath(f.path).name != "setup.py":
        return False
    texts = _modified_texts(f, base, head)
    if texts is None:
        return False
    keys = [_setup_key(text) for text in texts]
    return keys[0] is not None and keys[0] == keys[1]


def _setup_key(source: str) -> str | None:
    """The dump of ``source``'s tree without docstrings and with the descriptive ``setup()``
    arguments' values blanked; None when it does not parse."""
    return reduced_key(source, _SETUP_CALLS, _blank_metadata)


_SETUP_CALLS = frozenset({"setup"})
"""``setup(...)`` and ``setuptools.setup(...)``, by the call's last name."""


def _blank_metadata(call: ast.Call) -> None:
    for keyword in call.keywords:
        if keyword.arg in SETUP_METADATA:
            keyword.value = ast.Constant(None)


_LINGUIST_ATTRIBUTE = re.compile(r"^[-!]?linguist-[a-z-]+(?:=\S+)?$")


def _linguist_only(f: FileDiff) -> bool:
    """A ``.gitattributes`` whose changed lines set only GitHub Linguist's attributes
    (``fuzz/corpus/*.sc linguist-detectable=false``, ``dist/** linguist-generated``): they
    change how GitHub counts and shows files, nothing git or a build does with them
    (securecookie's, holdout68). ``text``, ``eol``, ``filter``, ``diff`` or ``export-ignore``
    still count."""
    if PurePosixPath(f.path).name != ".gitattributes" or f.binary or not f.patch_available:
        return False
    lines = [
        line.split() for line in (*f.added_texts, *f.removed_texts)
        if line.strip() and not line.lstrip().startswith("#")
    ]
    return bool(lines) and all(
        len(parts) > 1 and all(_LINGUIST_ATTRIBUTE.match(a) for a in parts[1:]) for parts in lines
    )


def _go_directives(text: str) -> list[str]:
    lines = (" ".join(line.split("//", 1)[0].split()) for line in text.splitlines())
    return [line for line in lines if line]


def _file_renames(f: FileDiff, base: RepoTree, head: RepoTree) -> list[Rename] | None:
    """[] when cosmetic, the identifier pairs when a pure rename, None when code changed."""
    if f.binary or not f.patch_available or f.mode_changed or f.submodule:
        return None
    old_path = f.old_path or f.path
    if not _may_be_cosmetic(f.removed_texts, f.added_texts, f.path):
        return None
    old_source, new_source = base.read(old_path), head.read(f.path)
    old_code = _code_lines(old_source, old_path, f.removed_line_numbers, f.removed_texts)
    new_code = _code_lines(new_source, f.path, f.added_line_numbers, f.added_texts)
    if f.status is FileStatus.DELETED and old_code.strip():
        return None
    old_tokens, new_tokens = tokens(old_code), tokens(new_code)
    pairs: list[Rename] = []
    if f.status is FileStatus.RENAMED and f.old_path:
        old_stem, new_stem = PurePosixPath(f.old_path).stem, PurePosixPath(f.path).stem
        if old_stem != new_stem:
            pairs.append(Rename(old_stem, new_stem, defined=True))
    if old_tokens == new_tokens:
        return pairs if _shape_kept(f.path, old_source, new_source) else None
    renamed = _identifier_pairs(old_tokens, new_tokens)
    if renamed is None or not _shape_kept(f.path, old_source, new_source):
        return None
    return pairs + renamed


def _shape_kept(path: str, old: str | None, new: str | None) -> bool:
    """The changed lines' tokens match; whether the whole file agrees (:func:`_python_shape_kept`,
    :func:`_grammar_shape_kept`): lines can hold the same text and sit elsewhere."""
    return _python_shape_kept(path, old, new) and _grammar_shape_kept(path, old, new)


def _grammar_shape_kept(path: str, old: str | None, new: str | None) -> bool:
    """For a file of a language with a tree-sitter grammar whose two sides parse, whether their
    code leaves (:func:`pr_review.evidence.grammars.ordered_leaves`: imports sorted) are the
    same sequence up to identifiers. The removed and the added lines can hold the same code
    while the code moved past other code: cosign's GHSA-whqx-f9j3-ch6m
    moved two signature comparisons and a digest check above an early ``return true, nil`` of
    the same function, the same text in another order, and the fix. Python is judged on its
    tree (:func:`_python_shape_kept`); a file with no grammar or a side that does not parse, on
    its whole token sequence (:func:`_token_order_kept`); an absent side, by the lines."""
    if path.endswith(PYTHON_EXTENSIONS) or old is None or new is None:
        return True
    language = grammars.language_of(path)
    before = grammars.parse(path, old) if language else None
    after = grammars.parse(path, new) if language else None
    if before is None or after is None:
        return _token_order_kept(path, old, new)
    old_leaves, new_leaves = grammars.ordered_leaves(before), grammars.ordered_leaves(after)
    if len(old_leaves) != len(new_leaves):
        return False
    return all(
        a == b or (is_identifier(a) and is_identifier(b))
        for a, b in zip(old_leaves, new_leaves, strict=True)
    )


def _token_order_kept(path: str, old: str, new: str) -> bool:
    """Whether two sides of a file no grammar reads hold the same tokens in the same order, up
    to renames: a name that changes must be new to the file and its old spelling gone from it.
    Lines that only moved hold the same tokens, and where order decides, moving them is the
    change: coredns's GHSA-c9v3-4pv7-87pr moved ``acl:acl`` below ``cache`` and ``rewrite`` in
    ``plugin.cfg`` (the plugin chain's order), so a rewritten query no longer slipped past
    its access list. A cyclic shift of names is no rename (each name already exists)."""
    old_tokens = tokens(strip_comments(old, path))
    new_tokens = tokens(strip_comments(new, path))
    pairs = _identifier_pairs(old_tokens, new_tokens)
    if pairs is None:
        return False
    old_names, new_names = set(old_tokens), set(new_tokens)
    renames: dict[str, str] = {}
    return all(
        p.new not in old_names and p.old not in new_names
        and renames.setdefault(p.old, p.new) == p.new
        for p in pairs
    )


def _python_shape_kept(path: str, old: str | None, new: str | None) -> bool:
    """For a Python file whose two sides parse, whether their trees are the same up to names:
    tokens carry no indentation, so code moved into a ``try:`` or out of an ``if`` has the same
    tokens and different behaviour (bottle's CVE-2022-31799 moved its path decoding into the
    ``try:``). Other languages, a side that is absent (an added or deleted file) and sources
    that do not parse are judged by tokens alone."""
    if not path.endswith(PYTHON_EXTENSIONS) or old is None or new is None:
        return True
    old_key, new_key = shape_key(old), shape_key(new)
    return old_key is None or new_key is None or old_key == new_key


def _identifier_pairs(old_tokens: list[str], new_tokens: list[str]) -> list[Rename] | None:
    """The identifier renames when the sequences differ only by identifiers."""
    if len(old_tokens) != len(new_tokens):
        return None
    pairs: list[Rename] = []
    for index, (old, new) in enumerate(zip(old_tokens, new_tokens, strict=True)):
        if old == new:
            continue
        if not (is_identifier(old) and is_identifier(new)):
            return None
        defined = index > 0 and old_tokens[index - 1] in DEFINERS
        pairs.append(Rename(old, new, defined))
    return pairs


def _may_be_cosmetic(removed: Sequence[str], added: Sequence[str], path: str) -> bool:
    """Cheap pre-check on the changed lines alone: string literals aside, could the code
    token sequences match up to identifier renames? Avoids lexing whole files for changes
    that plainly alter code."""
    lex_path = "fragment.rb" if path.endswith((".py", ".pyi")) else path
    old = [t for t in tokens(strip_comments("\n".join(removed), lex_path)) if t[0] not in "\"'"]
    new = [t for t in tokens(strip_comments("\n".join(added), lex_path)) if t[0] not in "\"'"]
    if len(old) != len(new):
        return False
    return all(
        a == b or (is_identifier(a) and is_identifier(b)) for a, b in zip(old, new, strict=True)
    )


def _code_lines(
    text: str | None, path: str, numbers: Sequence[int], fallback: Sequence[str]
) -> str:
    """The changed lines' code, comments blanked using the whole file when it is readable."""
    if text is not None and len(text) <= MAX_FILE_CHARS:
        code = strip_comments(text, path).splitlines()
        if all(0 < n <= len(code) for n in numbers):
            return "\n".join(code[n - 1] for n in numbers)
    return strip_comments("\n".join(fallback), path)


def _consistent(pairs: Iterable[tuple[str, str]]) -> tuple[dict[str, str], str | None]:
    forward: dict[str, str] = {}
    backward: dict[str, str] = {}
    for old, new in pairs:
        if forward.setdefault(old, new) != new:
            return forward, f"`{old}` is renamed inconsistently ({forward[old]} and {new})"
        if backward.setdefault(new, old) != old:
            return forward, f"`{new}` replaces two different names ({backward[new]} and {old})"
    return forward, None


def _tree_problem(
    mapping: dict[str, str],
    base: RepoTree,
    head: RepoTree,
    renamed: dict[str, list[Rename]],
) -> tuple[str | None, bool]:
    """An old name still used in the head tree, or a new name already used in the base tree
    (for Go names no other package can see, in the renamed files' packages:
    :func:`_go_packages`)."""
    exts = {extension(p) for p in renamed}
    old_names = _word_regex(mapping)
    new_names = _word_regex({v: k for k, v in mapping.items()})
    packages = _go_packages(mapping, renamed)
    head_hit, head_ok = _first_use(head, exts, old_names, packages)
    if head_hit:
        return f"`{head_hit[1]}` is still referenced in {head_hit[0]} after the rename", head_ok
    base_hit, base_ok = _first_use(base, exts, new_names, packages)
    if base_hit:
        return f"`{base_hit[1]}` already existed in {base_hit[0]} before the rename", base_ok
    return None, head_ok and base_ok


def _word_regex(mapping: dict[str, str]) -> re.Pattern[str]:
    # The names come first so the regex engine can skip ahead to their first characters; the
    # identifier boundary before a name is checked by _search (same first match as a leading
    # lookbehind would give).
    names = sorted(mapping, key=len, reverse=True)
    return re.compile(r"(" + "|".join(map(re.escape, names)) + r")(?![\w$])")


_WORD_BEFORE = re.compile(r"[\w$]")
READ_BATCH = 200
"""Tree files read per git process when the tree can read many at once."""


def _search(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    """First match of a :func:`_word_regex` not preceded by an identifier character."""
    pos = 0
    while (match := pattern.search(text, pos)) is not None:
        start = match.start()
        if start == 0 or _WORD_BEFORE.match(text, start - 1) is None:
            return match
        pos = start + 1
    return None


def _declared(
    mapping: dict[str, str], renamed: dict[str, list[Rename]], base: RepoTree, head: RepoTree
) -> set[str]:
    """The old names whose declaration the PR renames in a Go file the syntax tree reads (a
    struct field, a parameter, a ``:=`` variable: declarations no keyword precedes): the old
    name declared in the base file and the new one in the head file."""
    out: set[str] = set()
    for path in renamed:
        old = grammars.go_declared_names(path, base.read(path))
        new = grammars.go_declared_names(path, head.read(path))
        if old is not None and new is not None:
            out.update(k for k, v in mapping.items() if k in old and v in new)
    return out


def _go_packages(
    mapping: dict[str, str], renamed: dict[str, list[Rename]]
) -> frozenset[str] | None:
    """The folders of the renamed files when they are all Go and every name renamed is
    unexported (a lower-case or ``_`` first letter): Go lets no other package see such a name,
    so a field or parameter renamed in its package is complete though another package keeps
    a name spelled the same (golang-migrate's ``databaseName`` field, holdout67); None
    otherwise (the whole tree is searched)."""
    names = [*mapping, *mapping.values()]
    if not all(p.endswith(".go") for p in renamed) or not all(
        n[:1] == "_" or n[:1].islower() for n in names
    ):
        return None
    return frozenset(str(PurePosixPath(p).parent) for p in renamed)


def _first_use(
    tree: RepoTree, exts: set[str], pattern: re.Pattern[str], folders: frozenset[str] | None
) -> tuple[tuple[str, str] | None, bool]:
    paths = sorted(
        p for p in tree.paths() if extension(p) in exts
        and (folders is None or str(PurePosixPath(p).parent) in folders)
    )
    complete = len(paths) <= MAX_TREE_FILES
    paths = paths[:MAX_TREE_FILES]
    for offset in range(0, len(paths), READ_BATCH):
        chunk = paths[offset : offset + READ_BATCH]
        for path, text in _read_chunk(tree, chunk):
            if text is None or len(text) > MAX_FILE_CHARS:
                continue
            if _search(pattern, text) is None:  # cheap: most files never mention the names
                continue
            match = _search(pattern, strip_comments(text, path))
            if match:
                return (path, match.group(1)), complete
    return None, complete


def _read_chunk(tree: RepoTree, paths: list[str]) -> Iterable[tuple[str, str | None]]:
    """The texts of ``paths`` in order, in one read when the tree offers ``read_many``."""
    read_many = getattr(tree, "read_many", None)
    if callable(read_many):
        texts = read_many(paths)
        return ((p, texts.get(p)) for p in paths)
    return ((p, tree.read(p)) for p in paths)
