"""Functions that check input for a known attack marker, changed by a PR.

Some literals mean one thing in every codebase. A function one of whose conditions tests a
value for a parent-directory part (``'..' in parts``, ``parts.includes('..')``,
``strings.HasPrefix(rel, "..")``, ``os.pardir``) decides whether a name taken from input (an
archive entry, a URL path, an upload's filename, a link target) stays under its root; one
that tests for a script URL scheme (``javascript:``, ``vbscript:``) decides whether a link
can run script; one that tests for a scheme-relative URL (``'//'``) decides whether a
location or request can leave for another host; one that tests a key for ``__proto__``,
``'constructor'`` or ``'prototype'`` (or asks whether a key names a member of
``Object.prototype``: ``has.call(Object.prototype, key)``) decides whether input can reach
``Object.prototype``; one that tests text for a sequence closing a markup construct (``-->``,
``]]>``, ``?>``, a search for ``--``) decides whether a serializer's comment, CDATA section or
processing instruction can be closed early by its data; one that tests an address for a
private, loopback, link-local or reserved range (``ip.is_private``, Go's ``ip.IsLoopback()``,
``is_global_host(host)``) decides whether a request made for input can reach hosts inside the
network; one that tests whether a file or an archive entry is a symbolic or hard link
(``fi.Mode()&os.ModeSymlink``, ``st.isSymbolicLink()``, ``os.path.islink(p)``,
``member.issym()``) decides whether a write, a read or an extraction follows a link out of its
root. Path traversal, script-URL XSS, open redirects, prototype pollution, XML injection,
server-side request forgery and link escapes are fixed by changing such functions and reopened
the same way, in every language. The evidence is the code's own, on its syntax tree, not a name: a
function (or class) with such a check on either side of the PR whose decisions change
(:func:`pr_review.evidence.decisions.compare`: conditions, refusals, calls) gives the marker's
factor (red), and so does a condition the PR adds, removes or rewrites that calls a function
of the PR's files testing for a marker (one level: an existing ``IsDangerousURL`` check
applied to one more link kind). A marker the module names once
(``DOTDOT = '..'``, Go's ``var bJs = []byte("javascript:")``) is read through its name.
``'//'`` is also how code comments and protocol separators are tested for, so its function
counts only when a condition testing for it is itself added, removed or rewritten
(``Marker.own_check``); so do the prototype-member test and the markup terminators, which sit
in long parser and serializer functions whose other decisions change often, and the address
ranges, whose callers (dialers, fetchers) decide much else, and the link tests, which sit
in file walkers and copiers. A function moved to another file
of the PR, or renamed in its file, deciding the same is no change. The
markers are data (``MARKERS``). A containment check has a second spelling with no literal in
it, a resolved path tested by its prefix (:data:`RESOLVED_CONTAINMENT`), read the same way
through the names its function assigns.

Examples (run by the test suite, ``MARKER_EXAMPLES``): (path, base, head, factor or None).
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from pr_review.evidence import grammars
from pr_review.evidence.backtracking import python_regexes
from pr_review.evidence.decisions import FunctionChange, Sides, changed_functions
from pr_review.evidence.grammars import Scope
from pr_review.evidence.pyast import parse_python
from pr_review.evidence.scopes import PYTHON_EXTENSIONS, scoped_lines
from pr_review.schema.enums import FactorSeverity
from pr_review.schema.pack import RiskFactor
from pr_review.sources.diff import FileDiff, FileStatus
from pr_review.sources.model import RepoTree
from pr_review.sources.paths import PathKind, classify


@dataclass(frozen=True)
class Marker:
    """A literal whose test in a condition says what the function decides."""

    factor: str
    pattern: re.Pattern[str]
    decides: str
    """What a function testing for it decides (``so it decides ...``)."""
    attacks: str
    matches: tuple[str, ...]
    """Conditions (as decision atoms read them) the marker is found in."""
    misses: tuple[str, ...]
    own_check: bool = False
    """Counted only when a condition testing for the marker is itself added, removed or
    rewritten, not when other decisions of a function holding one change: for a literal that
    other code also tests for (a template compiler looking for a ``'//'`` comment)."""


MARKERS: tuple[Marker, ...] = (
    Marker(
        "path-containment-changed",
        re.compile(r"""(["'`])[/\\]?\.\.[/\\]{0,2}\1|\bpardir\b"""),
        "tests paths for a parent-directory part (`..`), so it decides whether a path stays "
        "inside its root",
        "path traversal and link escapes",
        ("'..' in parts", 'strings.HasPrefix(rel,"../")', "os.pardir in p.split(os.sep)",
         "parts.includes('..')"),
        ("dir!=='.'", "name.endswith('...')", "x==='..a'"),
    ),
    Marker(
        "script-url-check-changed",
        re.compile(r"""(?i)\b(?:java|vb)script\b[^'"`\s]*:"""),
        "tests URLs for a script scheme (`javascript:`, `vbscript:`), so it decides whether a "
        "link can run script",
        "script-URL XSS",
        ("prot.indexOf('javascript:')===0", "/^(javascript|vbscript|data):/i.test(href)",
         "href.startsWith('vbscript:')", "u.startswith('javascript:')"),
        # ``data:`` alone is how an HTTP client decodes a data URI, not a sanitizer's test
        ("lang==='javascript'", "protocol==='data:'", "event==='data'"),
    ),
    Marker(
        "scheme-relative-url-check-changed",
        re.compile(r"""(["'`])//\1|\^\\/\\/"""),
        "tests for a scheme-relative URL (`//host`), so it decides whether a location or "
        "request can leave for another host",
        "open redirects and request forgery",
        ("value.startswith('//')", 'strings.HasPrefix(loc,"//")', "/^\\/\\//.test(url)",
         "url.slice(0,2)==='//'"),
        ("url.indexOf('://')>0", "u.startswith('http://')", "path==='/'"),
        own_check=True,
    ),
    Marker(
        "prototype-key-check-changed",
        re.compile(r"""__proto__|(["'`])(?:constructor|prototype)\1"""),
        "tests keys for `__proto__`, `constructor` or `prototype`, so it decides whether input "
        "can reach `Object.prototype`",
        "prototype pollution",
        ("key==='__proto__'||key==='constructor'", "k==\"prototype\"",
         "Object.hasOwn(o,'__proto__')"),
        ("this.constructor===Foo", "typeof x.prototype==='object'"),
    ),
    Marker(
        "prototype-key-check-changed",
        re.compile(r"""\.call\(\s*Object\.prototype\s*,|\bin\s+Object\.prototype\b|Object\.prototype\["""),
        "tests whether a key names a member of `Object.prototype`, so it decides whether input "
        "can shadow or reach `Object.prototype`",
        "prototype pollution",
        ("!has.call(Object.prototype,source)", "key in Object.prototype",
         "Object.prototype.hasOwnProperty.call(Object.prototype,k)",
         "Object.prototype[key]!==undefined"),
        # a type test and an own-key test read no prototype member
        ("Object.prototype.toString.call(x)==='[object Array]'",
         "Object.prototype.hasOwnProperty.call(obj,key)"),
        own_check=True,
    ),
    Marker(
        "markup-terminator-check-changed",
        re.compile(r"""(["'`])(?:-->|\]\]>|\?>)\1"""
                   r"""|(?:indexOf|includes|contains|Contains|find|index|search)\(\s*"""
                   r"""(?:[\w.$\[\]]+\s*,\s*)?(["'`])--\2|(["'`])--\3\s+(?:not\s+)?in\b"""),
        "tests text for a sequence that closes a markup construct (`-->`, `--`, `]]>`, `?>`), "
        "so it decides whether text written into a comment, CDATA section or processing "
        "instruction can close it and inject markup",
        "XML and HTML injection through serializers",
        ("node.data.indexOf(']]>')!==-1", 'strings.Contains(data,"?>")',
         "n.data.indexOf('--')!==-1", "'--' in data", "text.includes('-->')"),
        # a command line's option prefix and end-of-options marker, an arrow
        ("arg.startsWith('--')", "arg==='--'", "s.indexOf('->')>0", "s.endswith('>')"),
        own_check=True,
    ),
    Marker(
        "address-range-check-changed",
        re.compile(r"""(?i:\b(?:ip|addr|address|host|remote)\w*)(?:\([^()]*\))?\.is_(?:private|global|"""
                   r"""loopback|link_local|reserved|unspecified|site_local)\b"""
                   r"""|\bis_(?:private|global|loopback|internal|local|public)_(?:ip|addr|address|host"""
                   r"""|hostname|network)s?\("""
                   r"""|\.Is(?:Private|Loopback|LinkLocalUnicast|LinkLocalMulticast|Unspecified)\(\)"""
                   r"""|\bip\.is(?:Private|Loopback|Public|LinkLocal)\("""
                   r"""|\.range\(\)[!=]==?(["'`])(?:private|loopback|linkLocal|reserved|unspecified)\1"""),
        "tests addresses for private, loopback, link-local or reserved ranges, so it decides "
        "whether a request made for input can reach hosts inside the network",
        "server-side request forgery",
        ("ipaddress.ip_address(host).is_private", "ip.is_loopback or ip.is_link_local",
         "is_global_host(hostname)", "!ip.IsPrivate()",
         "addr.IsLoopback()||addr.IsLinkLocalUnicast()", "ip.isPrivate(address)",
         "addr.range()==='private'"),
        # a repository's or a channel's privacy, a configuration flag, a user field
        ("repo.is_private", "repo.IsPrivate", "channel.is_private and user",
         "isPrivateField(x)", "self.is_global_config"),
        own_check=True,
    ),
    Marker(
        "query-operator-check-changed",
        re.compile(r"""\.\$(?:where|function|accumulator)\b|(["'`])\$(?:where|function|accumulator)\1"""
                   r"""|\b_bsontype\b"""),
        "tests a query for MongoDB's server-side JavaScript operators (`$where`, `$function`, "
        "`$accumulator`) or a forged BSON type (`_bsontype`), so it decides whether a filter "
        "taken from input can run code in the database or change type",
        "NoSQL injection",
        ("match!=null&&match.$where!=null", "item!=null&&item.$where", "key==='$where'",
         "'$where' in query", "val._bsontype!=null"),
        # the query builder's own `where`, a SQL clause, a template's `$scope`
        ("q.where('age')", "clause==='where'", "$scope.where===x"),
        own_check=True,
    ),
    Marker(
        "link-check-changed",
        re.compile(r"""\bModeSymlink\b|\bisSymbolicLink\(|\bS_ISLNK\(|\bislink\(|\bis_symlink\("""
                   r"""|\.issym\(\)|\.islnk\(\)|\bType(?:Symlink|Link)\b"""
                   r"""|(["'`])(?:symlink|SymbolicLink)\1"""),
        "tests whether a file or an archive entry is a symbolic or hard link, so it decides "
        "whether a path is followed through a link to a place outside its root",
        "link-following writes, reads and archive escapes",
        ("fi.Mode()&os.ModeSymlink!=0", "st.isSymbolicLink()", "os.path.islink(target)",
         "stat.S_ISLNK(st.st_mode)", "member.issym() or member.islnk()",
         "hdr.Typeflag==tar.TypeSymlink", "header.type==='symlink'",
         "entry.type==='SymbolicLink'", "p.is_symlink()"),
        # a markdown or HTML link, a link's rel, a CLI flag naming symlinks
        ("token.type==='link'", "rel==='link'", "opts.followSymlinks", "kind==='Link'"),
        own_check=True,
    ),
)  # fmt: skip


def marker_of(atoms: Iterable[str] | None, changed: Iterable[str] = ()) -> Marker | None:
    """The first marker one of a function's conditions (``atoms``) tests for, or None; a
    marker with :attr:`Marker.own_check` only when one of the ``changed`` conditions does."""
    checks = [a.removeprefix("check ") for a in atoms or () if a.startswith("check ")]
    own = [a.removeprefix("check ") for a in changed if a.startswith("check ")]
    return next((m for m in MARKERS
                 if any(m.pattern.search(c) for c in (own if m.own_check else checks))), None)


def marker_factors(
    files: Sequence[FileDiff], base: RepoTree, head: RepoTree
) -> list[RiskFactor]:
    """One red factor, at the first function testing for a marker whose decisions the PR
    changes."""
    sides = Sides(files, base, head)
    same: dict[Marker, bool] = {}
    for f in files:
        if f.binary or not f.patch_available or classify(f.path) is not PathKind.CODE:
            continue
        found = _changed(f, sides, same)
        if found is not None:
            return [found]
    return []


def _changed(f: FileDiff, sides: Sides, same: dict[Marker, bool]) -> RiskFactor | None:
    """The marker factor of the first function of ``f`` testing for a marker whose decisions
    change; ``same`` holds :func:`_same_tests` per marker, read once per PR."""
    old_path = f.old_path or f.path
    old_source = None if f.status is FileStatus.ADDED else sides.source("base", old_path)
    new_source = None if f.status is FileStatus.DELETED else sides.source("head", f.path)
    new_lines = scoped_lines(f.path, new_source, f.added_line_numbers)
    old_lines = scoped_lines(old_path, old_source, f.removed_line_numbers)
    constants = {**module_strings(old_path, old_source), **module_strings(f.path, new_source)}
    for found in changed_functions(f, new_lines, sides, removed=old_lines):
        raw = (*found.change.added, *found.change.removed)
        changed = _expanded(raw, constants)
        marker = (marker_of(_expanded(found.old, constants), changed)
                  or marker_of(_expanded(found.new, constants), changed))
        helper = None
        if marker is None:
            marker, helper = _through_helper(changed, sides, (old_path, f.path))
        if marker is None and _resolved_prefix_test(raw, found, f, sides):
            marker = RESOLVED_CONTAINMENT
        if marker is None:
            continue
        if marker.own_check and helper is None:
            if marker not in same:
                same[marker] = _same_tests(sides, marker)
            if same[marker]:
                continue
        decides = marker.decides if helper is None else (
            f"calls `{helper}` in a condition the PR adds, removes or rewrites, and `{helper}` "
            + marker.decides
        )
        return RiskFactor(
            factor=marker.factor,
            files=(f.path,),
            severity=FactorSeverity.RED,
            why=f"`{found.line.qualified}` ({found.where}) {decides}, and changes what "
            f"it decides: {found.change.describe(marker.pattern.search)} ({marker.attacks} "
            "are fixed and reopened here)",
        )
    return None


def _same_tests(sides: Sides, marker: Marker) -> bool:
    """Whether the PR's files test for ``marker`` in the same conditions on both sides, in
    whichever functions: a check moved to another function (a callback rewritten as
    ``async``/``await`` whose helpers are merged or renamed: fs-extra's ``copy``, holdout67)
    decides what it did."""
    tests = []
    for side in ("base", "head"):
        found: Counter[str] = Counter()
        paths = dict.fromkeys(p for named in sides.functions(side).values() for p, _ in named)
        for path in paths:
            parsed = sides.parsed(side, path)
            constants = module_strings(path, sides.source(side, path))
            for scope in parsed.top:  # a top-level scope's decisions hold its nested ones'
                atoms = _expanded(parsed.atoms_at(scope), constants)
                found.update(
                    a for a in atoms if a.startswith("check ") and marker.pattern.search(a)
                )
        tests.append(found)
    return tests[0] == tests[1]


_IDENTIFIER = re.compile(r"(?<![\w$.])([A-Za-z_$][\w$]*)(?![\w$])")

RESOLVED_PATH = re.compile(
    r"\b(?:os\.path\.)?(?:abspath|realpath|normpath)\s*\("
    r"|\bfilepath\.(?:Clean|Abs|EvalSymlinks)\s*\(|\bpath\.(?:resolve|normalize|Clean)\s*\("
    r"|\.resolve\(\s*\)"
)
"""A call that makes a path absolute or canonical: Python's ``os.path.abspath``/``realpath``/
``normpath`` and pathlib's ``.resolve()``, Go's ``filepath.Clean``/``Abs``/``EvalSymlinks`` and
``path.Clean``, Node's ``path.resolve``/``normalize`` (not a promise's ``resolve(x)``)."""
PATH_MODULES: dict[str, str] = {
    "path": "resolve|normalize", "node:path": "resolve|normalize",
    "path/posix": "resolve|normalize", "node:path/posix": "resolve|normalize",
    "path/win32": "resolve|normalize", "node:path/win32": "resolve|normalize",
    "upath": "resolve|normalize", "pathe": "resolve|normalize",
    "path/filepath": "Clean|Abs|EvalSymlinks",
}  # fmt: skip
"""Modules whose functions make a path absolute or canonical, by import path, with those
functions: a module imported under another name resolves paths by that name
(:func:`resolved_path`; adm-zip's ``pth = require("path")``, ``pth.resolve(targetPath,
entryName)``)."""


def resolved_path(imports: Mapping[str, str]) -> re.Pattern[str]:
    """:data:`RESOLVED_PATH` with the resolving calls of path modules a file imports under
    another name (``imports``: :func:`grammars.module_imports`)."""
    extra = [
        rf"\b{re.escape(name)}\.(?:{PATH_MODULES[module]})\s*\("
        for name, module in sorted(imports.items())
        if module in PATH_MODULES and name not in {"path", "filepath"}
    ]
    if not extra:
        return RESOLVED_PATH
    return re.compile("|".join([RESOLVED_PATH.pattern, *extra]))


PREFIX_TEST = re.compile(r"\b(?:" + "|".join(sorted(grammars.PREFIX_TESTS)) + r")\s*\(")
"""A call of one of :data:`grammars.PREFIX_TESTS`, the same vocabulary the decision atoms read:
a test whether a string begins with another (a path library's own containment predicates,
``is_relative_to``, ``IsLocal``, ``commonpath``, are read by
:mod:`pr_review.evidence.path_escapes`)."""
RESOLVED_CONTAINMENT = Marker(
    "path-containment-changed",
    PREFIX_TEST,
    "tests whether a path it made absolute or canonical begins with another (a root), so it "
    "decides whether a path stays inside its root",
    "path traversal and link escapes",
    (),  # its examples are whole functions: MARKER_EXAMPLES (runc, pyload, a Node server)
    (),
    own_check=True,
)
"""The other spelling of a containment check: no ``..`` in sight, a resolved path compared by
its prefix (runc's ``dest := filepath.Clean(m.Destination)`` then ``if
!strings.HasPrefix(dest, rootfs)``; pyload's ``abs_path_value.startswith(abs_PKGDIR)`` on two
``os.path.abspath`` values). Counted, like the own-check markers, only when such a condition is
itself added, removed or rewritten: a condition of the PR's change that tests a prefix of a
resolver's result, written in it or through a name the function assigns from one
(:func:`_resolved_prefix_test`)."""


def _resolved_prefix_test(
    changed: Iterable[str], found: FunctionChange, f: FileDiff, sides: Sides
) -> bool:
    """Whether a condition in ``changed`` (atoms the PR adds or removes in the function of
    ``found``) tests the prefix of a path made absolute or canonical in it, or of a name the
    function assigns from one on either side. A containment check resolves the path it tests,
    not the root it tests against (werkzeug's ``self.filename.startswith(os.path.realpath(p))``
    asks whether a traceback frame is a library's): what a prefix test examines is read on the
    syntax tree (:meth:`SourceDecisions.prefix_tests_at`)."""
    checks = [a.removeprefix("check ") for a in changed if a.startswith("check ")]
    if not checks:
        return False
    head = sides.parsed("head", f.path) if found.after is not None else None
    base = sides.parsed("base", f.old_path or f.path) if found.before is not None else None
    calls = [
        *(head.prefix_tests_at(found.after) if head and found.after else ()),
        *(base.prefix_tests_at(found.before) if base and found.before else ()),
    ]
    tested = [subject for call, subject in calls if any(call in check for check in checks)]
    if not tested:
        return False
    resolving = resolved_path({
        **(base.module_imports() if base is not None else {}),
        **(head.module_imports() if head is not None else {}),
    })
    if any(resolving.search(subject) for subject in tested):
        return True
    names: set[str] = set()
    if head is not None and found.after is not None:
        names |= head.bound_at(found.after, resolving)
    if base is not None and found.before is not None:
        names |= base.bound_at(found.before, resolving)
    return any(name in names for subject in tested for name in _IDENTIFIER.findall(subject))


def module_strings(path: str, source: str | None) -> dict[str, str]:
    """The constant strings a module binds at its top level, by name (Python on :mod:`ast`,
    JavaScript/TypeScript and Go on tree-sitter: :func:`grammars.module_strings`): a marker is
    often named once (``DOTDOT = '..'``, Go's ``var bJs = []byte("javascript:")``) and tested
    by that name. A Python name bound to a compiled constant pattern, or to its method, stands
    for the pattern (lxml's ``_is_javascript_scheme = re.compile(r'(?:javascript|...):',
    re.I).search``)."""
    if source is None:
        return {}
    if not path.endswith(PYTHON_EXTENSIONS):
        return grammars.module_strings(path, source) or {}
    tree = parse_python(source)
    out: dict[str, str] = {}
    for regex in python_regexes(tree) if tree is not None else ():
        if regex.binding is not None:  # IS_JS = re.compile(...), is_js = re.compile(...).search
            out[regex.binding] = regex.pattern
    for stmt in tree.body if tree is not None else ():
        if (
            isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name) and isinstance(stmt.value, ast.Constant)
            and isinstance(stmt.value.value, str | bytes)
        ):  # fmt: skip
            value = stmt.value.value
            out[stmt.targets[0].id] = value if isinstance(value, str) else value.decode("latin-1")
    return out


def _expanded(atoms: Iterable[str] | None, constants: dict[str, str]) -> list[str]:
    """``atoms`` with every condition's bare names of module constants replaced by their
    quoted value (``hasPrefix(url,bJs)`` -> ``hasPrefix(url,'javascript:')``); a member
    (``opts.bJs``) is not a module constant."""
    if not constants:
        return list(atoms or ())

    def quoted(match: re.Match[str]) -> str:
        value = constants.get(match.group(1))
        return match.group(1) if value is None else repr(value)

    return [a if not a.startswith("check ") else "check " + _IDENTIFIER.sub(
        quoted, a.removeprefix("check ")) for a in atoms or ()]


_QUALIFIED_CALLEE = re.compile(r"(?:(?<![\w$.])([A-Za-z_$][\w$]*)\.)?([A-Za-z_$][\w$]*)\s*\(")


def _through_helper(
    changed: Iterable[str], sides: Sides, here: tuple[str, str] | None = None
) -> tuple[Marker | None, str | None]:
    """The marker a helper tests for, when a changed condition calls it by name: a function
    or method of one of the PR's files (either side) whose own conditions test for a marker
    (goldmark's links gaining ``if !IsDangerousURL(url)``, the function that looks for
    ``javascript:``), or, in Python, a function of a module the changed file (``here``: its
    base and head paths) imports, outside the PR (Radicale's CVE-2015-8747: ``if not
    pathutils.is_safe_filesystem_path_component(name)``, a function testing for
    ``os.pardir``). One level: the helper's own conditions, not its callees'."""
    for atom in changed:
        if not atom.startswith("check "):
            continue
        calls = _QUALIFIED_CALLEE.findall(atom.removeprefix("check "))
        for qualifier, name in dict.fromkeys(calls):
            for side in ("head", "base"):
                found = sides.functions(side).get(name, ())
                if not found and here is not None:
                    found = _imported(sides, side, here[side == "head"], qualifier or name, name)
                for path, scope in found:
                    constants = module_strings(path, sides.source(side, path))
                    atoms = _expanded(sides.parsed(side, path).atoms_at(scope), constants)
                    marker = marker_of(atoms, atoms)
                    if marker is not None:
                        return marker, name
    return None, None


def _imported(
    sides: Sides, side: str, path: str, bound: str, name: str
) -> list[tuple[str, Scope]]:
    """The top-level functions called ``name`` of the module a Python file at ``path`` binds
    to ``bound`` by an import (``from radicale import pathutils``, ``from .pathutils import
    check``), read from ``side``'s tree; none for other languages or names."""
    source = sides.source(side, path) if path.endswith(PYTHON_EXTENSIONS) else None
    if source is None:
        return []
    out: list[tuple[str, Scope]] = []
    tree = parse_python(source)  # shared within the pack
    found = {} if tree is None else python_import_files(path, tree)
    for candidate in found.get(bound, ()):
        parsed = sides.parsed(side, candidate)
        out.extend((candidate, scope) for scope in parsed.top if scope.name == name)
    return out


def python_import_files(path: str, tree: ast.Module) -> dict[str, tuple[str, ...]]:
    """The files a Python module at ``path`` may have bound each imported name to, by name:
    ``from radicale import pathutils`` -> ``pathutils``: ``radicale/pathutils.py``,
    ``radicale/pathutils/__init__.py``, ``radicale.py``, ... (the name may be a module or a
    name of one); ``import a.b as c`` -> ``c``: ``a/b.py``, ``a/b/__init__.py``; relative
    imports from the file's folder. Each also under ``src/`` (a src layout)."""
    folder = path.rsplit("/", 1)[0].split("/") if "/" in path else []
    out: dict[str, tuple[str, ...]] = {}
    for node in tree.body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    out[alias.asname] = _module_files(alias.name.split("."))
        elif isinstance(node, ast.ImportFrom):
            parts = (node.module or "").split(".") if node.module else []
            if node.level:
                up = node.level - 1
                parts = [*(folder[: len(folder) - up] if up <= len(folder) else []), *parts]
            for alias in node.names:
                out[alias.asname or alias.name] = (
                    *_module_files([*parts, alias.name]), *_module_files(parts)
                )
    return out


def _module_files(parts: Sequence[str]) -> tuple[str, ...]:
    if not parts or not all(parts):
        return ()
    joined = "/".join(parts)
    files = (f"{joined}.py", f"{joined}/__init__.py")
    return (*files, *(f"src/{f}" for f in files))


def _lines(*lines: str) -> str:
    return "\n".join(lines) + "\n"


def _go_link(helper: str, test: str, guarded: bool) -> str:
    """A Go renderer with a helper testing a URL, whose link writer calls it or not."""
    write = ["\tif !" + helper + "(u) {", "\t\tw.Write(escape(u))", "\t}"] if guarded else [
        "\tw.Write(escape(u))"]
    return _lines(
        "package render", f"func {helper}(u []byte) bool {{", f"\tif {test} {{", "\t\treturn true",
        "\t}", "\treturn false", "}", "func autoLink(w *Writer, u []byte) {", *write, "}",
    )


MARKER_EXAMPLES: tuple[tuple[str, str, str, str | None], ...] = (
    # archive extraction (node-tar): a hard link's target now checked like a path
    ("src/unpack.ts", _lines(
        "class Unpack {",
        "  checkPath(entry, field) {",
        "    const parts = entry[field].split('/')",
        "    if (field === 'path') {",
        "      if (parts.includes('..')) { this.warn('TAR_ENTRY_ERROR', 'dots'); return false }",
        "    }",
        "    return true",
        "  }",
        "}",
    ), _lines(
        "class Unpack {",
        "  checkPath(entry, field) {",
        "    const parts = entry[field].split('/')",
        "    if (field === 'path' || entry.type === 'Link') {",
        "      if (parts.includes('..')) { this.warn('TAR_ENTRY_ERROR', 'dots'); return false }",
        "    }",
        "    return true",
        "  }",
        "}",
    ), "path-containment-changed"),
    # a Go copier refusing a resolved path that climbs out
    ("copy_dir.go", _lines(
        "package getter",
        "func copyDir(dst, src string) error {",
        "\treturn walk(src, dst)",
        "}",
    ), _lines(
        "package getter",
        "func copyDir(dst, src string) error {",
        "\trel, _ := filepath.Rel(src, dst)",
        '\tif strings.HasPrefix(rel, "..") {',
        '\t\treturn fmt.Errorf("subdir escapes root")',
        "\t}",
        "\treturn walk(src, dst)",
        "}",
    ), "path-containment-changed"),
    # an upload keeping only the basename (Python)
    ("multipart/file.py", _lines(
        "def target(self, directory, name):",
        "    if name.startswith('/') or '..' in name.split('/'):",
        "        raise ValueError(name)",
        "    return os.path.join(directory, name)",
    ), _lines(
        "def target(self, directory, name):",
        "    name = os.path.basename(name)",
        "    if name.startswith('/') or '..' in name.split('/'):",
        "        raise ValueError(name)",
        "    return os.path.join(directory, name)",
    ), "path-containment-changed"),
    # the check's function changes only its message, or a line outside it changes
    ("static.py", _lines(
        "def safe(root, p):",
        "    if os.pardir in p.split(os.sep):",
        "        raise NotFound('no')",
        "    return os.path.join(root, p)",
        "def size(p):",
        "    return os.stat(p).st_size",
    ), _lines(
        "def safe(root, p):",
        "    if os.pardir in p.split(os.sep):",
        "        raise NotFound('path escapes the root')",
        "    return os.path.join(root, p)",
        "def size(p):",
        "    return os.lstat(p).st_size",
    ), None),
    # a function that never tests for '..' changes its decisions
    ("src/router.ts", _lines(
        "function match(path) {",
        "  if (path.startsWith('/api')) return api(path)",
        "  return page(path)",
        "}",
    ), _lines(
        "function match(path) {",
        "  if (path.startsWith('/v2/api')) return api(path)",
        "  return page(path)",
        "}",
    ), None),
    # a '..' inside a string that is not tested (a message, a join)
    ("build.js", _lines(
        "function out(dir) {",
        "  if (dir) return path.join(dir, '..', 'dist')",
        "  return 'dist'",
        "}",
    ), _lines(
        "function out(dir) {",
        "  if (dir && dir !== '.') return path.join(dir, '..', 'dist')",
        "  return 'dist'",
        "}",
    ), None),
    # a Markdown renderer's link sanitizer refusing one more script scheme (marked)
    ("lib/marked.js", _lines(
        "Renderer.prototype.link = function(href, title, text) {",
        "  if (prot.indexOf('javascript:') === 0) {",
        "    return ''",
        "  }",
        "  return '<a href=\"' + href + '\">' + text + '</a>'",
        "}",
    ), _lines(
        "Renderer.prototype.link = function(href, title, text) {",
        "  if (prot.indexOf('javascript:') === 0 || prot.indexOf('vbscript:') === 0) {",
        "    return ''",
        "  }",
        "  return '<a href=\"' + href + '\">' + text + '</a>'",
        "}",
    ), "script-url-check-changed"),
    # a cleaner whose script-scheme test is a module-level compiled pattern's bound method
    ("html/clean.py", _lines(
        "import re",
        "_is_javascript_scheme = re.compile(r'(?:javascript|vbscript):', re.I).search",
        "def _remove_javascript_link(link):",
        "    if _is_javascript_scheme(link):",
        "        return ''",
        "    return link",
    ), _lines(
        "import re",
        "_is_javascript_scheme = re.compile(r'(?:javascript|vbscript):', re.I).search",
        "def _remove_javascript_link(link):",
        "    if _is_javascript_scheme(link) or _is_javascript_scheme(link.strip()):",
        "        return ''",
        "    return link",
    ), "script-url-check-changed"),
    # the same test through a pattern matching something else
    ("html/clean.py", _lines(
        "import re",
        "_is_mail = re.compile(r'mailto:', re.I).search",
        "def _remove_mail_link(link):",
        "    if _is_mail(link):",
        "        return ''",
        "    return link",
    ), _lines(
        "import re",
        "_is_mail = re.compile(r'mailto:', re.I).search",
        "def _remove_mail_link(link):",
        "    if _is_mail(link) or _is_mail(link.strip()):",
        "        return ''",
        "    return link",
    ), None),
    # a query parser that stops skipping prototype keys
    ("lib/parse.js", _lines(
        "function assign(obj, key, value) {",
        "  if (key === '__proto__' || key === 'constructor') return",
        "  obj[key] = value",
        "}",
    ), _lines(
        "function assign(obj, key, value) {",
        "  obj[key] = value",
        "}",
    ), "prototype-key-check-changed"),
    # a query parser whose prototype-member test is rewritten (qs): the key it tests changes
    ("lib/parse.js", _lines(
        "function parseKeys(key, options) {",
        "  if (!options.plainObjects && has.call(Object.prototype, key.replace(/\\[|]/g, ''))) {",
        "    if (!options.allowPrototypes) return",
        "  }",
        "  return key",
        "}",
    ), _lines(
        "function parseKeys(key, options) {",
        "  if (!options.plainObjects && has.call(Object.prototype, key.slice(1, -1))) {",
        "    if (!options.allowPrototypes) return",
        "  }",
        "  return key",
        "}",
    ), "prototype-key-check-changed"),
    # a function holding a prototype-member test changes other decisions: not this marker
    ("lib/parse.js", _lines(
        "function parseKeys(key, options) {",
        "  if (has.call(Object.prototype, key)) return",
        "  if (options.depth > 5) return",
        "  return key",
        "}",
    ), _lines(
        "function parseKeys(key, options) {",
        "  if (has.call(Object.prototype, key)) return",
        "  if (options.depth > 10) return",
        "  return key",
        "}",
    ), None),
    # an XML serializer refusing processing-instruction data that would close it early
    ("lib/dom.js", _lines(
        "function serialize(node, buf, requireWellFormed) {",
        "  if (node.nodeType === CDATA && node.data.indexOf(']]>') !== -1) {",
        "    throw new DOMException('data contains ]]>')",
        "  }",
        "  if (node.nodeType === PI) {",
        "    return buf.push('<?', node.target, ' ', node.data, '?>')",
        "  }",
        "}",
    ), _lines(
        "function serialize(node, buf, requireWellFormed) {",
        "  if (node.nodeType === CDATA && node.data.indexOf(']]>') !== -1) {",
        "    throw new DOMException('data contains ]]>')",
        "  }",
        "  if (node.nodeType === PI) {",
        "    if (requireWellFormed && node.data.indexOf('?>') !== -1) {",
        "      throw new DOMException('data contains ?>')",
        "    }",
        "    return buf.push('<?', node.target, ' ', node.data, '?>')",
        "  }",
        "}",
    ), "markup-terminator-check-changed"),
    # ... and a comment's '--' (Go)
    ("xml/write.go", _lines(
        "package xml",
        "func (w *Writer) Comment(data string) error {",
        '	w.WriteString("<!--" + data + "-->")',
        "	return nil",
        "}",
    ), _lines(
        "package xml",
        "func (w *Writer) Comment(data string) error {",
        '	if strings.Contains(data, "--") {',
        '		return errors.New("comment contains --")',
        "	}",
        '	w.WriteString("<!--" + data + "-->")',
        "	return nil",
        "}",
    ), "markup-terminator-check-changed"),
    # the same, in the second of two functions of one name (a prototype method delegating to
    # a function declaration): the changed line's own function is compared, not the first
    ("lib/dom.js", _lines(
        "XMLSerializer.prototype.serializeToString = function (node) {",
        "  return serializeToString(node, [])",
        "}",
        "function serializeToString(node, buf) {",
        "  if (node.data.indexOf(']]>') !== -1) throw new Error('x')",
        "  return buf.push('<!--', node.data, '-->')",
        "}",
    ), _lines(
        "XMLSerializer.prototype.serializeToString = function (node) {",
        "  return serializeToString(node, [])",
        "}",
        "function serializeToString(node, buf) {",
        "  if (node.data.indexOf(']]>') !== -1) throw new Error('x')",
        "  if (node.data.indexOf('--') !== -1) throw new Error('y')",
        "  return buf.push('<!--', node.data, '-->')",
        "}",
    ), "markup-terminator-check-changed"),
    # a serializer holding a terminator test changes another decision; a CLI reads '--'
    ("lib/dom.js", _lines(
        "function serialize(node, buf) {",
        "  if (node.data.indexOf(']]>') !== -1) throw new Error('x')",
        "  if (node.nodeType === TEXT) return buf.push(node.data)",
        "}",
    ), _lines(
        "function serialize(node, buf) {",
        "  if (node.data.indexOf(']]>') !== -1) throw new Error('x')",
        "  if (node.nodeType === TEXT || node.nodeType === SPACE) return buf.push(node.data)",
        "}",
    ), None),
    ("cli.py", _lines(
        "def parse(args):",
        "    for a in args:",
        "        if a.startswith('-'):",
        "            yield a",
    ), _lines(
        "def parse(args):",
        "    for a in args:",
        "        if a == '--':",
        "            break",
        "        if a.startswith('-'):",
        "            yield a",
    ), None),
    # a response making a Location absolute stops a '//evil.example' path becoming a host
    ("src/webob/response.py", _lines(
        "def _make_location_absolute(environ, value):",
        "    if SCHEME_RE.search(value):",
        "        return value",
        "    return urljoin(request_uri(environ), value)",
    ), _lines(
        "def _make_location_absolute(environ, value):",
        "    if SCHEME_RE.search(value):",
        "        return value",
        "    if value.startswith('//'):",
        "        value = '/%2f' + value[2:]",
        "    return urljoin(request_uri(environ), value)",
    ), "scheme-relative-url-check-changed"),
    # an existing script-URL helper applied to one more kind of link (a Markdown renderer)
    ("render/html.go",
     _go_link("isDangerous", 'bytes.HasPrefix(bytes.ToLower(u), []byte("javascript:"))', False),
     _go_link("isDangerous", 'bytes.HasPrefix(bytes.ToLower(u), []byte("javascript:"))', True),
     "script-url-check-changed"),
    # a marker named once at module level and tested by its name
    ("lib/extract.js", _lines(
        "const DOTS = '..'",
        "function safe(name) {",
        "  if (name.split('/').includes(DOTS)) return false",
        "  return true",
        "}",
    ), _lines(
        "const DOTS = '..'",
        "function safe(name) {",
        "  if (name.split(/[\\\\/]/).includes(DOTS)) return false",
        "  return true",
        "}",
    ), "path-containment-changed"),
    ("archive/extract.py", _lines(
        "PARENT = '..'",
        "def member_ok(name):",
        "    return PARENT not in name.split('/')",
        "def check(name):",
        "    if PARENT in name.split('/'):",
        "        raise ValueError(name)",
    ), _lines(
        "PARENT = '..'",
        "def member_ok(name):",
        "    return PARENT not in name.split('/')",
        "def check(name):",
        "    if PARENT in name.replace('\\\\', '/').split('/'):",
        "        raise ValueError(name)",
    ), "path-containment-changed"),
    ("lib/extract.js", _lines(
        "const SEP = '/'",
        "function parts(name) {",
        "  if (name.includes(SEP)) return name.split(SEP)",
        "  return [name]",
        "}",
    ), _lines(
        "const SEP = '/'",
        "function parts(name) {",
        "  if (name.includes(SEP) && name.length > 1) return name.split(SEP)",
        "  return [name]",
        "}",
    ), None),
    # a new condition calling a helper that tests for no marker
    ("render/html.go", _go_link("isEmpty", "len(u) == 0", False),
     _go_link("isEmpty", "len(u) == 0", True), None),
    # a syntax highlighter choosing a grammar by language name; a class comparing constructors
    ("src/highlight.ts", _lines(
        "function grammar(lang: string) {",
        "  if (lang === 'javascript') return js",
        "  return plain",
        "}",
    ), _lines(
        "function grammar(lang: string) {",
        "  if (lang === 'javascript' || lang === 'js') return js",
        "  return plain",
        "}",
    ), None),
    # a template compiler holding a `'//'` comment test: other decisions of it change
    ("lib/compile.js", _lines(
        "function scanLine(line, d) {",
        "  if (line === '<' + d) return EVAL",
        "  if (line.lastIndexOf('//') > line.lastIndexOf('\\n')) line += '\\n'",
        "  return TEXT",
        "}",
    ), _lines(
        "function scanLine(line, d, o) {",
        "  if (line === o + d) return EVAL",
        "  if (line.lastIndexOf('//') > line.lastIndexOf('\\n')) line += '\\n'",
        "  return TEXT",
        "}",
    ), None),
    ("src/equal.js", _lines(
        "function equal(a, b) {",
        "  if (a.constructor !== b.constructor) return false",
        "  return true",
        "}",
    ), _lines(
        "function equal(a, b) {",
        "  if (a.constructor !== b.constructor) return false",
        "  if (a.length !== b.length) return false",
        "  return true",
        "}",
    ), None),
    # mongoose CVE-2024-53900 (holdout35, read after its figure): populate() refusing a
    # `$where` filter in its `match` option
    ("lib/helpers/populate/getModelsMapForPopulate.js", _lines(
        "function _getModelNames(doc, schema, options) {",
        "  let match = options.match;",
        "  if (typeof match === 'function') { match = match.call(doc, doc); }",
        "  return match;",
        "}",
    ), _lines(
        "function _getModelNames(doc, schema, options) {",
        "  let match = options.match;",
        "  if (typeof match === 'function') { match = match.call(doc, doc); }",
        "  if (match != null && match.$where != null) {",
        "    throw new MongooseError('Cannot use $where filter with populate() match');",
        "  }",
        "  return match;",
        "}",
    ), "query-operator-check-changed"),
    # ... but a query builder's `where` clause is no operator test
    ("lib/query.js", _lines(
        "function build(q, opts) {",
        "  if (opts.age) { q.where('age').gt(opts.age); }",
        "  return q;",
        "}",
    ), _lines(
        "function build(q, opts) {",
        "  if (opts.age != null) { q.where('age').gte(opts.age); }",
        "  return q;",
        "}",
    ), None),
    # a container runtime refusing a mount destination outside its root (runc, CVE-2023-27561)
    ("libcontainer/rootfs_linux.go", _lines(
        "package libcontainer",
        "func mountTo(m *Mount, rootfs string) error {",
        "\tdest := m.Destination",
        "\treturn mount(m.Source, dest)",
        "}",
    ), _lines(
        "package libcontainer",
        "func mountTo(m *Mount, rootfs string) error {",
        "\tdest := filepath.Clean(m.Destination)",
        "\tif !strings.HasPrefix(dest, rootfs) {",
        '\t\treturn fmt.Errorf("mount destination %s outside of rootfs", dest)',
        "\t}",
        "\treturn mount(m.Source, dest)",
        "}",
    ), "path-containment-changed"),
    # a settings writer refusing a folder inside the program's own (pyload, GHSA-3f7w-p8vr-4v5f)
    ("blueprints/json_blueprint.py", _lines(
        "def save_config(section, option, value):",
        "    api.set_config_value(section, option, value)",
    ), _lines(
        "def save_config(section, option, value):",
        "    if option == 'storage_folder':",
        "        abs_value = os.path.join(os.path.abspath(value), '')",
        "        abs_pkg = os.path.join(os.path.abspath(PKGDIR), '')",
        "        if abs_value.startswith(abs_pkg):",
        "            return",
        "    api.set_config_value(section, option, value)",
    ), "path-containment-changed"),
    # Node: a resolved name tested against its root, in the condition itself
    ("lib/static.js", _lines(
        "function serve(root, name) {",
        "  return send(path.join(root, name))",
        "}",
    ), _lines(
        "function serve(root, name) {",
        "  if (!path.resolve(root, name).startsWith(root)) { throw new Error('outside root') }",
        "  return send(path.join(root, name))",
        "}",
    ), "path-containment-changed"),
    # ... the path module imported under another name (adm-zip's CVE-2018-1002204, Zip Slip)
    ("adm-zip.js", _lines(
        'var pth = require("path");',
        "function extract(targetPath, entryName) {",
        "  var target = pth.resolve(targetPath, entryName)",
        "  write(target)",
        "}",
    ), _lines(
        'var pth = require("path");',
        "function extract(targetPath, entryName) {",
        "  var target = pth.resolve(targetPath, entryName)",
        "  if (!target.startsWith(targetPath)) { throw new Error('invalid filename') }",
        "  write(target)",
        "}",
    ), "path-containment-changed"),
    # ... but another module's `resolve` is no path resolver (a promise library's)
    ("lib/wait.js", _lines(
        'var Q = require("q");',
        "function ready(name) {",
        "  var value = Q.resolve(name)",
        "  return value",
        "}",
    ), _lines(
        'var Q = require("q");',
        "function ready(name) {",
        "  var value = Q.resolve(name)",
        "  if (!value.startsWith('v')) { throw new Error('bad') }",
        "  return value",
        "}",
    ), None),
    # ... but a prefix test of a name no resolver made is a plain string test
    ("pkg/names.py", _lines(
        "def public(names, root):",
        "    base = os.path.abspath(root)",
        "    return [n for n in names if n]",
    ), _lines(
        "def public(names, root):",
        "    base = os.path.abspath(root)",
        "    return [n for n in names if n and not n.startswith('_')]",
    ), None),
    # ... nor the prefix a resolved root is tested against: whether a traceback frame's file is
    # a library's (werkzeug's debugger, `self.filename.startswith(os.path.realpath(path))`)
    ("debug/tbtools.py", _lines(
        "def is_library(filename):",
        "    return any(filename.startswith(os.path.realpath(p)) for p in paths())",
    ), _lines(
        "def is_library(filename):",
        "    return any(filename.startswith((p, os.path.realpath(p))) for p in paths())",
    ), None),
    # ... nor is a promise's `resolve`
    ("lib/queue.js", _lines(
        "async function next(q) {",
        "  const item = await new Promise((resolve) => q.once('item', resolve))",
        "  return item",
        "}",
    ), _lines(
        "async function next(q) {",
        "  const item = await new Promise((resolve) => q.once('item', resolve))",
        "  if (item.startsWith('#')) { return null }",
        "  return item",
        "}",
    ), None),
    # a containment helper returning its prefix test, called by a refusal the PR adds (pip,
    # CVE-2026-8643: an entry point's script name with `..` was written outside the folder)
    ("install/wheel.py", _lines(
        "def check_entrypoint(spec):",
        "    entry = get_export_entry(spec)",
        "    if entry is not None and entry.suffix is None:",
        "        raise MissingCallableSuffix(str(entry))",
    ), _lines(
        "def _within(name, scripts_dir):",
        "    root = os.path.normpath(scripts_dir)",
        "    dest = os.path.normpath(os.path.join(scripts_dir, name))",
        "    return dest.startswith(root + os.sep)",
        "",
        "def check_entrypoint(spec, scripts_dir):",
        "    entry = get_export_entry(spec)",
        "    if entry is not None and entry.suffix is None:",
        "        raise MissingCallableSuffix(str(entry))",
        "    if entry is not None and not _within(entry.name, scripts_dir):",
        "        raise InstallationError('outside the scripts directory')",
    ), "path-containment-changed"),
    # the returned prefix test itself rewritten: `/srv/app` no longer admits `/srv/app-old`
    ("pkg/fs/root.go", _lines(
        "package fs",
        "func within(root, p string) bool {",
        "	return strings.HasPrefix(filepath.Clean(p), root)",
        "}",
    ), _lines(
        "package fs",
        "func within(root, p string) bool {",
        "	return strings.HasPrefix(filepath.Clean(p), root+string(filepath.Separator))",
        "}",
    ), "path-containment-changed"),
    # ... but a returned prefix test of a string no resolver made is a plain string test
    ("src/headers.ts", _lines(
        "function isJson(type: string): boolean {",
        "  return type.startsWith('application/json')",
        "}",
    ), _lines(
        "function isJson(type: string): boolean {",
        "  return type.startsWith('application/json') || type.startsWith('application/ld+json')",
        "}",
    ), None),
    # a URL fetched for a request only when its host resolves to a public address (pyload's
    # SSRF fix GHSA-2wvg-62qm-gj33)
    ("core/api.py", _lines(
        "def check_links(self, url):",
        "    page = get_url(url)",
        "    return find_links(page)",
    ), _lines(
        "def check_links(self, url):",
        "    host = urlparse(url).hostname",
        "    if host and is_global_host(host):",
        "        return find_links(get_url(url))",
        "    return []",
    ), "address-range-check-changed"),
    # Go: a dialer refusing loopback and private addresses
    ("proxy/dial.go", _lines(
        "package proxy",
        "func dial(ip net.IP) (net.Conn, error) {",
        "	return connect(ip)",
        "}",
    ), _lines(
        "package proxy",
        "func dial(ip net.IP) (net.Conn, error) {",
        "	if ip.IsLoopback() || ip.IsPrivate() {",
        "		return nil, errForbidden",
        "	}",
        "	return connect(ip)",
        "}",
    ), "address-range-check-changed"),
    # ... not a repository's privacy, a field of the same name
    ("pkg/cmd/view.go", _lines(
        "package cmd",
        "func label(repo Repo) string {",
        "	return repo.Name",
        "}",
    ), _lines(
        "package cmd",
        "func label(repo Repo) string {",
        "	if repo.IsPrivate {",
        "		return repo.Name + \" (private)\"",
        "	}",
        "	return repo.Name",
        "}",
    ), None),
    # a copier refusing to follow a symbolic link out of the tree it copies (helm's
    # GHSA-557j-xg8c-q2mm, containerd's GHSA-c72p-9xmj-rx3w have this shape)
    ("pkg/downloader/manager.go", _lines(
        "package downloader",
        "func copyChart(dest string) error {",
        "	info, _ := os.Lstat(dest)",
        "	return write(dest, info)",
        "}",
    ), _lines(
        "package downloader",
        "func copyChart(dest string) error {",
        "	info, _ := os.Lstat(dest)",
        "	if info.Mode()&os.ModeSymlink != 0 {",
        "		return fmt.Errorf(\"%s is a symlink\", dest)",
        "	}",
        "	return write(dest, info)",
        "}",
    ), "link-check-changed"),
    # Node: an extractor's symlink test on a directory it will write into (node-tar's
    # GHSA-83g3-92jg-28cx)
    ("src/unpack.ts", _lines(
        "class Unpack {",
        "  mkdir(t, cb) {",
        "    fs.lstat(t, (er, st) => {",
        "      if (st && st.isDirectory()) return cb()",
        "      fs.mkdir(t, cb)",
        "    })",
        "  }",
        "}",
    ), _lines(
        "class Unpack {",
        "  mkdir(t, cb) {",
        "    fs.lstat(t, (er, st) => {",
        "      if (st && st.isSymbolicLink()) return cb(new Error('symlink in path'))",
        "      if (st && st.isDirectory()) return cb()",
        "      fs.mkdir(t, cb)",
        "    })",
        "  }",
        "}",
    ), "link-check-changed"),
    # ... but a function holding a link test whose other decisions change is counted only by
    # the test itself: a directory walker gaining an ignore rule
    ("walk.py", _lines(
        "def walk(root, ignore):",
        "    for p in scan(root):",
        "        if os.path.islink(p):",
        "            continue",
        "        yield p",
    ), _lines(
        "def walk(root, ignore):",
        "    for p in scan(root):",
        "        if os.path.islink(p):",
        "            continue",
        "        if p.name in ignore:",
        "            continue",
        "        yield p",
    ), None),
    # ... nor is a link test moved to another function, callbacks rewritten as async/await
    # (fs-extra's copy, holdout67)
    ("lib/copy.js", _lines(
        "function copy(src, dest, cb) {",
        "  checkPaths(src, dest, (err) => {",
        "    if (err) return cb(err)",
        "    getStats(src, dest, cb)",
        "  })",
        "}",
        "function getStats(src, dest, cb) {",
        "  fs.lstat(src, (err, srcStat) => {",
        "    if (err) return cb(err)",
        "    if (srcStat.isSymbolicLink()) return onLink(src, dest, cb)",
        "    return onFile(src, dest, cb)",
        "  })",
        "}",
    ), _lines(
        "async function copy(src, dest) {",
        "  await checkPaths(src, dest)",
        "  return performCopy(src, dest)",
        "}",
        "async function performCopy(src, dest) {",
        "  const srcStat = await fs.lstat(src)",
        "  if (srcStat.isSymbolicLink()) return onLink(src, dest)",
        "  return onFile(src, dest)",
        "}",
    ), None),
)  # fmt: skip
