"""Library calls that keep a path inside its root, in conditions a PR adds, removes or rewrites.

An ``if`` whose condition asks a path library whether a path is absolute or stays under a root
(``filepath.IsAbs(rel)``, ``filepath.IsLocal(p)``, ``path.isAbsolute(p)``,
``os.path.isabs(p)``, ``p.is_absolute()``, ``p.is_relative_to(root)``,
``os.path.commonpath([full, root]) != root``, go-getter's ``containsDotDot``), or that compares
a name with itself made one element or clean (``name != filepath.Base(name)``,
``os.path.basename(n) != n``, ``path.normalize(p) !== p``: :data:`SELF_NORMALIZERS`) decides,
in every repository, whether a name from an archive, a URL or a request may reach a file outside the
root: path traversal (zip-slip, static files, symlinks out of a copied tree) is fixed by adding
or tightening one and reopened by removing one. The callee is matched by its whole last name,
so a URL's ``isAbsoluteURL(u)`` is another question, and so is a file's existence
(``os.path.isfile``). Red, as factor ``path-containment-changed`` (the one
:mod:`pr_review.evidence.markers` gives a function that tests for a ``..`` part and changes
what it decides), when the PR's code files hold a different set of such conditions than
before; a condition moved between files of the PR is no change. A replacement taking ``..``
parts out of a name (``name.replace(/^(\\.\\.(\\/|\\\\|$))+/, '')``, ``name.replace('../', '')``,
``re.sub(r'\\.\\./', '', name)``: :func:`pr_review.evidence.regex_trees.removes_parent_parts`)
counts with them: adm-zip's GHSL-2020-198 fix added one. Only the condition is read:
a function or class that merely holds such a test elsewhere (``Flask`` resolving its
``instance_path``) decides nothing new when its other code changes. Python is read with
:mod:`ast`, the other languages on tree-sitter.

Examples (run by the test suite, ``PATH_ESCAPE_EXAMPLES``): (path, base, head, changed?).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from dataclasses import dataclass

from pr_review.evidence.backtracking import AppliedRegexes
from pr_review.evidence.decisions import last_name
from pr_review.evidence.grammars import (
    CallArguments,
    absolutizing_ifs,
    call_arguments,
    if_conditions,
    language_of,
)
from pr_review.evidence.lexing import shorten
from pr_review.evidence.pyast import parse_python
from pr_review.evidence.regex_trees import removes_parent_parts
from pr_review.evidence.replacements import (
    STRIP_CALLEES,
    Replacement,
    python_replacement,
    tree_replacement,
)
from pr_review.evidence.scopes import PYTHON_EXTENSIONS, chains, scope_tree
from pr_review.evidence.sides import code_sides, first_moved, red_when_moved
from pr_review.schema.pack import RiskFactor
from pr_review.sources.diff import FileDiff
from pr_review.sources.model import RepoTree

FACTOR = "path-containment-changed"
"""Shared with the ``..`` marker (:data:`pr_review.evidence.markers.MARKERS`): one concern."""

ESCAPE_CALLS = frozenset(
    {
        "IsAbs", "IsLocal", "isAbsolute", "isabs", "is_absolute", "is_relative_to",
        "commonpath", "containsDotDot",
    }
)  # fmt: skip
"""Callees (by last name) that test whether a path is absolute or stays under a root."""

_CALL = re.compile(r"(?<![\w$])(" + "|".join(sorted(ESCAPE_CALLS)) + r")\s*\(")

SELF_NORMALIZERS = frozenset(
    {"Base", "basename", "Clean", "normpath", "normalize", "realpath", "abspath"}
)  # fmt: skip
"""Callees (by last name) whose result, compared with their own argument, asks whether a name
is one plain path element, or already clean, absolute and free of links (``if name !=
filepath.Base(name)``, ``os.path.basename(n) != n``): no ``/``, no ``..``."""

_OPERAND = r"[\w$.]+"
_NORMALIZED = r"(?:[\w$]+\.)*(?:" + "|".join(sorted(SELF_NORMALIZERS)) + r")\(\s*"
_SELF_COMPARED = re.compile(
    rf"(?<![\w$.])({_OPERAND})\s*[!=]==?\s*{_NORMALIZED}\1\s*\)"
    rf"|{_NORMALIZED}({_OPERAND})\s*\)\s*[!=]==?\s*\2(?![\w$.(])"
)
"""A value compared with itself normalized, in a condition's text (tree-sitter languages)."""


@dataclass(frozen=True)
class EscapeCheck:
    """An ``if`` whose condition asks whether a path is absolute or stays under a root, or a
    replacement taking ``..`` parts out of a name (``kind`` ``strip``)."""

    line: int
    code: str
    kind: str = "check"


def _parent_literal(value: str) -> bool:
    """``"../"``, ``".."``, ``"..\\"``: a parent part and separators, nothing else."""
    return ".." in value and set(value) <= {".", "/", "\\"} and value.strip("/\\") == ".."


def _python_strips(call: ast.Call, regexes: AppliedRegexes) -> bool:
    """``name.replace("../", "")`` or ``re.sub(r"\\.\\./", "", name)`` (a compiled module
    constant's ``sub`` too): parent-directory parts taken out of a name."""
    found = python_replacement(call, regexes)
    return found is not None and found.strips and _takes_parent_parts(found)


def _strips(found: CallArguments, go: bool) -> bool:
    """A JavaScript/TypeScript or Go call taking parent-directory parts out of a name."""
    replaced = tree_replacement(found, go)
    return replaced is not None and replaced.strips and _takes_parent_parts(replaced)


def _takes_parent_parts(found: Replacement) -> bool:
    if found.literal is not None:
        return _parent_literal(found.literal)
    return found.pattern is not None and removes_parent_parts(found.pattern)


OWN_CHECKS = frozenset({"containsDotDot"})
"""Callees of :data:`ESCAPE_CALLS` a repository writes itself (go-getter's); the others are a
path library's, and a file that defines a function of that name asks its own question:
dnspython's ``Name.is_absolute()`` asks whether a DNS name ends at the root (holdout62)."""


def _python_escape_test(test: ast.expr, calls: frozenset[str] = ESCAPE_CALLS) -> bool:
    return any(
        (isinstance(node, ast.Call) and last_name(ast.unparse(node.func)) in calls)
        or (isinstance(node, ast.Compare) and _python_self_compared(node))
        for node in ast.walk(test)
    )


def _python_absolutizes(node: ast.If) -> bool:
    """``if not p.is_absolute(): p = p.resolve()`` (or ``os.path.isabs``): the consequence
    only completes the relative path the condition tests, one assignment to it; or ``if
    os.path.isabs(p): ... else: ...`` choosing how to reach the path, absolute or relative to a
    base, no branch leaving (return, raise, break, continue) and the absolute branch keeping
    the value as it is. A containment check refuses, strips or returns instead (poetry's
    ``_path_to_file_url``, holdout64; fs-extra's ``ensureSymlink``, holdout67)."""
    test = node.test
    negated = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
    call = test.operand if isinstance(test, ast.UnaryOp) and negated else test
    if not isinstance(call, ast.Call):
        return False
    name = last_name(ast.unparse(call.func))
    if name == "is_absolute" and isinstance(call.func, ast.Attribute):
        tested = ast.unparse(call.func.value)
    elif name == "isabs" and len(call.args) == 1:
        tested = ast.unparse(call.args[0])
    else:
        return False
    if node.orelse:
        absolute = node.orelse if negated else node.body
        leaves = any(
            isinstance(n, ast.Return | ast.Raise | ast.Break | ast.Continue)
            for n in ast.walk(node)
        )
        kept = not any(
            ast.unparse(t) == tested for n in absolute for inner in ast.walk(n)
            if isinstance(inner, ast.Assign | ast.AnnAssign | ast.AugAssign)
            for t in (inner.targets if isinstance(inner, ast.Assign) else [inner.target])
        )
        return not leaves and kept
    if not negated or len(node.body) != 1:
        return False
    body = node.body[0]
    targets = body.targets if isinstance(body, ast.Assign) else (
        [body.target] if isinstance(body, ast.AnnAssign) else [])  # fmt: skip
    return len(targets) == 1 and ast.unparse(targets[0]) == tested


def _python_self_compared(node: ast.Compare) -> bool:
    """``os.path.basename(name) != name`` (or the other way round)."""
    if len(node.comparators) != 1 or not isinstance(node.ops[0], ast.Eq | ast.NotEq):
        return False
    left, right = node.left, node.comparators[0]
    for call, other in ((left, right), (right, left)):
        if (
            isinstance(call, ast.Call) and len(call.args) == 1 and not call.keywords
            and last_name(ast.unparse(call.func)) in SELF_NORMALIZERS
            and ast.unparse(call.args[0]) == ast.unparse(other)
        ):  # fmt: skip
            return True
    return False


def checks(path: str, source: str | None) -> list[EscapeCheck] | None:
    """The path-containment conditions of ``source``; None when it is not read on a tree."""
    if source is None:
        return None
    if path.endswith(PYTHON_EXTENSIONS):
        tree = parse_python(source)
        if tree is None:
            return None
        calls = ESCAPE_CALLS - (_defined(path, source) - OWN_CHECKS)
        found = [
            EscapeCheck(node.lineno, " ".join(ast.unparse(node.test).split()))
            for node in ast.walk(tree)
            if isinstance(node, ast.If) and _python_escape_test(node.test, calls)
            and not _python_absolutizes(node)
        ]
        regexes = AppliedRegexes.of(tree)
        found.extend(
            EscapeCheck(node.lineno, ast.unparse(node), "strip") for node in ast.walk(tree)
            if isinstance(node, ast.Call) and _python_strips(node, regexes)
        )
        return sorted(found, key=lambda c: c.line)
    conditions = if_conditions(path, source)
    if conditions is None:
        return None
    own = _defined(path, source) & (ESCAPE_CALLS - OWN_CHECKS)
    completing = absolutizing_ifs(path, source)
    found = [
        EscapeCheck(line, code) for line, code in conditions
        if line not in completing
        and (any(m[1] not in own for m in _CALL.finditer(code)) or _SELF_COMPARED.search(code))
    ]
    go = language_of(path) == "go"
    strips = call_arguments(path, source, STRIP_CALLEES) or []
    found.extend(EscapeCheck(c.line, c.code, "strip") for c in strips if _strips(c, go))
    return sorted(found, key=lambda c: c.line)


def _defined(path: str, source: str) -> frozenset[str]:
    """The names of the classes and functions a source defines, nested ones too."""
    top = scope_tree(path, source) or []
    return frozenset(chain[-1].rsplit(".", 1)[-1] for chain in chains(top))


def path_escape_factors(
    files: Sequence[FileDiff], base: RepoTree, head: RepoTree
) -> list[RiskFactor]:
    """One red factor when the PR's code files hold a different set of path-escape
    conditions after the PR than before, at the first file whose set moved."""
    moved = first_moved(code_sides(files, base, head, checks), lambda c: c.code)
    return red_when_moved(
        FACTOR,
        moved,
        lambda moved: ("a check that a path stays inside its root" if moved.item.kind == "check"
                       else "a replacement taking `..` parts out of a name")
        + f" {moved.verb} or rewritten "
        f"({moved.where}: `{'if ' if moved.item.kind == 'check' else ''}"
        f"{shorten(moved.item.code, 80)}`; {moved.came} new, "
        f"{moved.gone} gone in the PR's files): absolute paths and containment tests decide "
        "whether a name from an archive, URL or request reaches a file outside the root "
        "(path traversal)",
    )


PATH_ESCAPE_EXAMPLES: tuple[tuple[str, str, str, bool], ...] = (
    (  # a relative path completed, not refused (poetry's `_path_to_file_url`, holdout64)
        "executor.py",
        "def url(path):\n    return Path(path).as_uri()\n",
        (
            "def url(path):\n    source = Path(path)\n    if not source.is_absolute():\n"
            "        source = source.resolve()\n    return source.as_uri()\n"
        ),
        False,
    ),
    (  # ... in JavaScript and Go too
        "lib/paths.js",
        "function full(p) {\n  return p\n}\n",
        "function full(p) {\n  if (!path.isAbsolute(p)) p = path.resolve(base, p)\n  return p\n}\n",
        False,
    ),
    (
        "paths.go",
        "package p\nfunc full(p string) string {\n\treturn p\n}\n",
        (
            "package p\nfunc full(p string) string {\n\tif !filepath.IsAbs(p) {\n"
            "\t\tp = filepath.Join(base, p)\n\t}\n\treturn p\n}\n"
        ),
        False,
    ),
    (  # a path reached absolute or relative to a base (fs-extra's `ensureSymlink`, holdout67)
        "lib/ensure/symlink.js",
        "async function same(src, dst) {\n  const st = await fs.stat(src)\n  return st\n}\n",
        (
            "async function same(src, dst) {\n  let st\n  if (path.isAbsolute(src)) {\n"
            "    st = await fs.stat(src)\n  } else {\n"
            "    st = await fs.stat(path.join(path.dirname(dst), src))\n  }\n  return st\n}\n"
        ),
        False,
    ),
    (
        "links.py",
        "def target(src, dst):\n    return os.stat(src)\n",
        (
            "def target(src, dst):\n    if os.path.isabs(src):\n        st = os.stat(src)\n"
            "    else:\n        st = os.stat(os.path.join(os.path.dirname(dst), src))\n"
            "    return st\n"
        ),
        False,
    ),
    (  # ... but an absolute path made relative, or one refused in a branch, is a check
        "extract.js",
        "function entry(name) {\n  return name\n}\n",
        (
            "function entry(name) {\n  if (path.isAbsolute(name)) {\n"
            "    name = name.slice(1)\n  } else {\n    name = './' + name\n  }\n"
            "  return name\n}\n"
        ),
        True,
    ),
    (
        "links.py",
        "def target(src):\n    return src\n",
        (
            "def target(src):\n    if os.path.isabs(src):\n        raise ValueError(src)\n"
            "    else:\n        src = os.path.join(ROOT, src)\n    return src\n"
        ),
        True,
    ),
    (  # ... and a relative path refused is a check
        "store.py",
        "def entry(name):\n    return name\n",
        (
            "def entry(name):\n    if not os.path.isabs(name):\n"
            "        raise ValueError(name)\n    return name\n"
        ),
        True,
    ),
    (  # adm-zip's GHSL-2020-198: leading `..` parts taken out of an entry's name
        "adm-zip.js",
        "function canonical(p) {\n  return pth.join('./', pth.normalize(p))\n}\n",
        (
            "function canonical(p) {\n"
            "  var safe = pth.normalize(p).replace(/^(\\.\\.(\\/|\\\\|$))+/, '')\n"
            "  return pth.join('./', safe)\n}\n"
        ),
        True,
    ),
    (  # ... the same with a literal, in Python and in Go
        "store.py",
        "def entry(name):\n    return name\n",
        "def entry(name):\n    return name.replace('../', '')\n",
        True,
    ),
    (
        "store.go",
        "package s\nfunc entry(name string) string {\n\treturn name\n}\n",
        (
            "package s\nfunc entry(name string) string {\n"
            "\treturn strings.ReplaceAll(name, \"../\", \"\")\n}\n"
        ),
        True,
    ),
    (  # ... and with a compiled pattern's sub
        "names.py",
        "import re\nUP = re.compile(r'\\.\\.[/\\\\]')\ndef clean(n):\n    return n\n",
        "import re\nUP = re.compile(r'\\.\\.[/\\\\]')\ndef clean(n):\n    return UP.sub('', n)\n",
        True,
    ),
    (  # trailing dots, an ellipsis, dots made into slashes: text, not parent parts
        "text.js",
        "function f(s) {\n  return s\n}\n",
        (
            "function f(s) {\n  return s.replace(/\\.+$/, '').replace('...', '')"
            ".replace(/\\./g, '/')\n}\n"
        ),
        False,
    ),
    (  # a class's own `is_absolute` (a DNS name's), not a path library's (dnspython, holdout62)
        "dns/name.py",
        (
            "class Name:\n    def is_absolute(self):\n        return self.labels[-1] == b''\n"
            "    def to_text(self, omit_final_dot=False):\n        return '.'.join(self.labels)\n"
        ),
        (
            "class Name:\n    def is_absolute(self):\n        return self.labels[-1] == b''\n"
            "    def to_text(self, omit_final_dot=False):\n"
            "        if omit_final_dot and self.is_absolute():\n"
            "            return '.'.join(self.labels[:-1])\n"
            "        return '.'.join(self.labels)\n"
        ),
        False,
    ),
    (  # ... in Go too: a type's own IsAbs method
        "name.go",
        (
            "package dns\nfunc (n Name) IsAbs() bool {\n\treturn n.last == \"\"\n}\n"
            "func (n Name) String() string {\n\treturn n.text\n}\n"
        ),
        (
            "package dns\nfunc (n Name) IsAbs() bool {\n\treturn n.last == \"\"\n}\n"
            "func (n Name) String() string {\n\tif n.IsAbs() {\n\t\treturn n.text + \".\"\n"
            "\t}\n\treturn n.text\n}\n"
        ),
        False,
    ),
    (  # go-getter's CVE-2025-8959: a resolved symlink must not climb out of the source
        "copy_dir.go",
        (
            "package getter\nfunc copyDir(src string) error {\n"
            "\tresolved, err := filepath.EvalSymlinks(src)\n\treturn walk(resolved, err)\n}\n"
        ),
        (
            "package getter\nfunc copyDir(src string) error {\n"
            "\tresolved, err := filepath.EvalSymlinks(src)\n"
            "\trel, err := filepath.Rel(filepath.Dir(src), resolved)\n"
            "\tif err != nil || filepath.IsAbs(rel) || containsDotDot(rel) {\n"
            "\t\treturn ErrSymlinkCopy\n\t}\n\treturn walk(resolved, err)\n}\n"
        ),
        True,
    ),
    (  # an archive entry's absolute path refused (JavaScript)
        "lib/unpack.js",
        "function checkPath (entry) {\n  return true\n}\n",
        (
            "function checkPath (entry) {\n  if (path.isAbsolute(entry.path)) {\n"
            "    this.warn('absolute path')\n    return false\n  }\n  return true\n}\n"
        ),
        True,
    ),
    (  # ... and the same check tightened (Windows roots too)
        "lib/unpack.js",
        (
            "function checkPath (entry) {\n  if (path.isAbsolute(entry.path)) {\n"
            "    return false\n  }\n  return true\n}\n"
        ),
        (
            "function checkPath (entry) {\n"
            "  if (path.isAbsolute(entry.path) || path.win32.isAbsolute(entry.path)) {\n"
            "    return false\n  }\n  return true\n}\n"
        ),
        True,
    ),
    (  # starlette's static files: containment by common path
        "staticfiles.py",
        (
            "def lookup_path(self, path):\n    for directory in self.all_directories:\n"
            "        full_path = os.path.realpath(os.path.join(directory, path))\n"
            "        if os.path.isfile(full_path):\n            return full_path\n"
        ),
        (
            "def lookup_path(self, path):\n    for directory in self.all_directories:\n"
            "        full_path = os.path.realpath(os.path.join(directory, path))\n"
            "        if os.path.commonpath([full_path, directory]) != directory:\n"
            "            continue\n"
            "        if os.path.isfile(full_path):\n            return full_path\n"
        ),
        True,
    ),
    (  # a containment check removed (pathlib)
        "static.py",
        (
            "def serve(root, p):\n    if not (root / p).resolve().is_relative_to(root):\n"
            "        raise NotFound()\n    return read(root / p)\n"
        ),
        "def serve(root, p):\n    return read(root / p)\n",
        True,
    ),
    (  # helm's GHSA-v53g-5gjp-272r: a chart name must be one path element
        "metadata.go",
        (
            "package chart\nfunc (md *Metadata) Validate() error {\n"
            "\tif md.Name == \"\" {\n\t\treturn ValidationError(\"name is required\")\n\t}\n"
            "\treturn nil\n}\n"
        ),
        (
            "package chart\nfunc (md *Metadata) Validate() error {\n"
            "\tif md.Name == \"\" {\n\t\treturn ValidationError(\"name is required\")\n\t}\n"
            "\tif md.Name != filepath.Base(md.Name) {\n"
            "\t\treturn ValidationErrorf(\"invalid chart name %q\", md.Name)\n\t}\n"
            "\treturn nil\n}\n"
        ),
        True,
    ),
    (  # the same question in Python and JavaScript, either way round
        "upload.py",
        "def save(name, data):\n    store(name, data)\n",
        (
            "def save(name, data):\n    if os.path.basename(name) != name:\n"
            "        raise ValueError(name)\n    store(name, data)\n"
        ),
        True,
    ),
    (
        "upload.js",
        "function save (name, data) {\n  store(name, data)\n}\n",
        (
            "function save (name, data) {\n  if (path.normalize(name) !== name) {\n"
            "    throw new Error('bad name')\n  }\n  store(name, data)\n}\n"
        ),
        True,
    ),
    (  # a base name compared with something else, or only computed: no containment question
        "names.go",
        "package p\nfunc f(a, b string) bool {\n\treturn false\n}\n",
        (
            "package p\nfunc f(a, b string) bool {\n\tname := filepath.Base(a)\n"
            "\tif filepath.Base(a) != b {\n\t\treturn false\n\t}\n"
            "\treturn name != \"\"\n}\n"
        ),
        False,
    ),
    (
        "names.py",
        "def f(a, b):\n    return a\n",
        "def f(a, b):\n    if os.path.basename(a) == b:\n        return b\n    return a\n",
        False,
    ),
    # no path-containment call: a URL's absoluteness, a file's existence, a `..` test (the
    # marker's: judged by what its function decides), a check only moved
    (
        "lib/core/buildFullPath.js",
        "function buildFullPath (base, url) {\n  return url\n}\n",
        (
            "function buildFullPath (base, url) {\n"
            "  if (base && !isAbsoluteURL(url)) {\n    return combineURLs(base, url)\n  }\n"
            "  return url\n}\n"
        ),
        False,
    ),
    (
        "files.py",
        "def load(p):\n    return open(p).read()\n",
        (
            "def load(p):\n    if not os.path.isfile(p):\n        raise FileNotFoundError(p)\n"
            "    return open(p).read()\n"
        ),
        False,
    ),
    (
        "static.py",
        "def serve(p):\n    if p.startswith('..'):\n        raise NotFound()\n    return read(p)\n",
        "def serve(p):\n    return read(p)\n",
        False,
    ),
    (
        "paths.go",
        (
            "package p\nfunc a(p string) error {\n\tif filepath.IsAbs(p) {\n"
            "\t\treturn ErrBad\n\t}\n\treturn nil\n}\nfunc b(p string) error {\n\treturn nil\n}\n"
        ),
        (
            "package p\nfunc a(p string) error {\n\treturn nil\n}\nfunc b(p string) error {\n"
            "\tif filepath.IsAbs(p) {\n\t\treturn ErrBad\n\t}\n\treturn nil\n}\n"
        ),
        False,
    ),
)
"""A base and a head source of one file, and whether the change is red."""
