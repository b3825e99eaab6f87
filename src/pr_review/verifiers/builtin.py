"""The built-in static verifiers for Python: ruff (lint), bandit (security), mypy (types).

Each reads the touched ``.py`` files from the workspace (head side) and the base versions of
the modified ones (base side), so scoping can tell new problems from old ones. None of them
executes the code it checks. Their configuration is the repository's (from the config tree),
with the options that could write files or run code overridden on the command line.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from pr_review.schema.enums import VerifierSeverity
from pr_review.sources.paths import is_test
from pr_review.verifiers.expected_raises import without_expected_raises
from pr_review.verifiers.lint_scope import lint_scope
from pr_review.verifiers.model import (
    Category,
    Checked,
    Context,
    Deadline,
    Outcome,
    RawFinding,
    Skipped,
    TimedOut,
)
from pr_review.verifiers.mypy_codes import is_finding, on_ignored_line
from pr_review.verifiers.mypy_commands import mypy_commands, runs_mypy
from pr_review.verifiers.mypy_config import find_mypy_config, python_floor, sanitized_ini
from pr_review.verifiers.mypy_scope import Layout, mypy_scope, resolution_files, search_roots
from pr_review.verifiers.mypy_version import ours, pinned_mypy, skew
from pr_review.verifiers.parsers import OutputError, parse_bandit, parse_mypy, parse_ruff
from pr_review.verifiers.rule_catalog import (
    BANDIT_LOW_KEPT_OUTSIDE_TESTS,
    PYTHON2_BUILTINS,
    RUFF_DEFAULT_IGNORE,
    RUFF_DEFAULT_SELECT,
    RUFF_IMMUTABLE_CALLS,
)
from pr_review.verifiers.scope import DiffScope
from pr_review.verifiers.sides import ByLine, Parse, Side, run_sharded, usable_cores
from pr_review.verifiers.stage import MAX_SUPPORT_BYTES, has_text, stage_support
from pr_review.verifiers.workspace import safe_relpath

PYTHON_SUFFIXES = (".py", ".pyi")

MAX_TOOL_BYTES = 2_000_000
"""Larger Python files (generated data, vendored bundles) are not given to the tools: parsing
a 10 MB one-line module takes ruff and bandit hundreds of MB. They are named in the run's
reason; the secrets verifier and the evidence scan still read their added lines."""


def python_files(paths: Sequence[str]) -> tuple[str, ...]:
    """The Python sources among ``paths``."""
    return tuple(p for p in paths if p.endswith(PYTHON_SUFFIXES))


ArgvFor = Callable[[Side, Path], list[str]]
"""``(side, report file) -> tool arguments``."""


def two_sided(
    ctx: Context,
    deadline: Deadline,
    tool: str,
    *,
    module: str,
    argv_for: ArgvFor,
    parse: Parse,
    per_file: bool = False,
    shards: int = 1,
    select: Callable[[str], str | None] | None = None,
    prepare: Callable[[Side], str | None] | None = None,
    pick: Callable[[Sequence[str]], tuple[str, ...]] | None = None,
    kind: str = "Python",
) -> Outcome:
    """Run a tool on the head files, then on the base files, and parse both.

    ``per_file`` tools (a file's findings do not depend on which other files are listed:
    ruff, bandit, mypy) run on the base side only for the files whose head findings need it:
    a finding on a line the PR did not add is kept only when it is new compared to base (see
    :mod:`.scope`); findings on added lines, and files without such findings, never look at
    base. Scoping gives the same result as with every base file checked, for a fraction of
    the base run. ``shards`` (for per-file tools that use one core) splits each side into
    that many processes at once. ``select`` says why the repository's own run would not
    check a file (None: it would); such files are left out and named in the reason.
    ``prepare`` runs before each side's tool run (staging what the tool needs besides the
    listed files) and may return a note for the reason. ``pick`` chooses the files the tool
    reads (default: the Python sources); ``kind`` names them in notes.
    """
    chosen = pick or python_files
    written = chosen(ctx.head_files)
    unchecked = unchecked_note(ctx, written, chosen, kind)
    written, out_of_scope = _in_scope(written, select)
    head_files, too_big = _within_budget(ctx.workspace.head, written)
    notes = (unchecked, _scope_note(tool, out_of_scope), _too_big_note(too_big) if too_big else "")
    note = "; ".join(n for n in notes if n)
    if not head_files:
        return Skipped(note or f"no {kind} files touched")
    prefix = ctx.locate(module, tool)
    if prefix is None:
        return Skipped(f"{tool} is not installed (neither `python -m {module}` nor on PATH)")

    def argv(side: Side, out: Path) -> list[str]:
        return [*prefix, *argv_for(side, out)]

    head_side = Side(ctx.workspace.head, head_files, "head")
    if prepare is not None:
        note = "; ".join(n for n in (note, prepare(head_side)) if n)
    head = run_sharded(
        ctx, deadline, tool, side=head_side, argv_for=argv, parse=parse, limit=shards
    )
    if not isinstance(head, tuple):
        return _with_files(head, head_files)
    base_files = chosen(ctx.base_files)
    if select is not None:
        listed = {ctx.scope.base_paths.get(p) for p in head_files}
        base_files = tuple(p for p in base_files if p in listed)
    if per_file:
        wanted = base_files_needed(ctx.scope, head)
        base_files = tuple(p for p in base_files if p in wanted)
    if not base_files:
        return Checked(head, (), head_files, note=note or None)
    base_side = Side(ctx.workspace.base, base_files, "base")
    if prepare is not None:
        prepare(base_side)
    base = run_sharded(
        ctx, deadline, tool, side=base_side, argv_for=argv, parse=parse, limit=shards
    )
    if not isinstance(base, tuple):
        return _with_files(base, head_files)
    return Checked(head, base, head_files, note=note or None)


def unchecked_note(
    ctx: Context,
    written: Sequence[str],
    pick: Callable[[Sequence[str]], tuple[str, ...]] = python_files,
    kind: str = "Python",
) -> str | None:
    """Which touched files of the tool's kind it is not given, and why (never a silent skip)."""
    touched = pick([f.path for f in ctx.pr.diff.files if has_text(f)])
    missing = [p for p in touched if p not in set(written)]
    if not missing:
        return None
    odd = [p for p in missing if "\n" in p or "\\" in p or "\r" in p]
    why = (
        "names holding a newline or backslash cannot be handed to the tool safely"
        if len(odd) == len(missing)
        else "their names cannot be written safely or their content could not be read"
    )
    names = ", ".join(repr(p) for p in missing[:10]) + (" …" if len(missing) > 10 else "")
    return f"{len(missing)} touched {kind} file(s) not checked ({why}): {names}"


def _in_scope(
    paths: tuple[str, ...], select: Callable[[str], str | None] | None
) -> tuple[tuple[str, ...], dict[str, list[str]]]:
    """``paths`` the repository's run checks, and the others grouped by why not."""
    if select is None:
        return paths, {}
    kept = []
    out: dict[str, list[str]] = {}
    for path in paths:
        why = select(path)
        if why is None:
            kept.append(path)
        else:
            out.setdefault(why, []).append(path)
    return tuple(kept), out


def _scope_note(tool: str, out: dict[str, list[str]]) -> str | None:
    """Which touched files are outside the repository's own scope for ``tool``, and why."""
    if not out:
        return None
    parts = []
    for why, paths in out.items():
        names = ", ".join(paths[:5]) + (f" and {len(paths) - 5} more" if len(paths) > 5 else "")
        parts.append(f"{why}: {names}")
    count = sum(len(p) for p in out.values())
    return (f"{count} touched Python file(s) outside the repository's {tool} scope, not "
            f"checked ({'; '.join(parts)})")  # fmt: skip


def _within_budget(root: Path, files: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``files`` split into those the tools read and those over :data:`MAX_TOOL_BYTES`."""
    kept: list[str] = []
    big: list[str] = []
    for path in files:
        try:
            size = (root / path).stat().st_size
        except OSError:
            size = 0
        (big if size > MAX_TOOL_BYTES else kept).append(path)
    return tuple(kept), tuple(big)


def _too_big_note(paths: tuple[str, ...]) -> str:
    shown = ", ".join(paths[:5]) + (f" and {len(paths) - 5} more" if len(paths) > 5 else "")
    return f"not checked, over {MAX_TOOL_BYTES // 1_000_000} MB: {shown}"


def base_files_needed(scope: DiffScope, head: Sequence[RawFinding]) -> frozenset[str]:
    """Base paths of the files with a head finding on a line the PR did not add, or on one it
    rewrote (its hunk removed lines too: the base may hold the same finding there)."""
    return frozenset(
        scope.base_paths[f.path]
        for f in head
        if f.path in scope.base_paths
        and (not scope.hits(f.path, f.line) or scope.rewritten_from(f.path, f.line))
    )


def _with_files(outcome: Skipped | TimedOut, files: tuple[str, ...]) -> Skipped | TimedOut:
    return type(outcome)(outcome.reason, files)


def _toml_has(ctx: Context, name: str, table: str) -> bool:
    text = ctx.config_tree.read(name)
    if text is None:
        return False
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return False
    return isinstance(data.get("tool", {}).get(table), dict)


@dataclass(frozen=True)
class Ruff:
    """``ruff check``: lint with the repository's ruff configuration."""

    timeout_seconds: float
    name: str = "ruff"
    category: Category = Category.LINT

    def check(self, ctx: Context, deadline: Deadline) -> Outcome:
        """Lint the touched Python files on both sides."""
        config = next(
            (n for n in ("ruff.toml", ".ruff.toml") if ctx.config_tree.read(n) is not None), None
        )
        if config is None and _toml_has(ctx, "pyproject.toml", "ruff"):
            config = "pyproject.toml"

        def argv(side: Side, out: Path) -> list[str]:
            # --no-cache and --output-file override config keys that would write elsewhere;
            # --no-fix overrides `fix = true` (ruff would rewrite the staged files, hiding the
            # fixed findings and shifting the line numbers of the others); --force-exclude
            # honours the repository's exclude/extend-exclude for explicitly passed files.
            # Without a configuration of its own, the repository gets the bug-finding default
            # set (see rule_catalog), never ruff's or our style rules.
            chosen = (
                ["--config", str(side.root / config)]
                if config
                else ["--isolated", "--select", ",".join(RUFF_DEFAULT_SELECT),
                      "--ignore", ",".join(RUFF_DEFAULT_IGNORE), "--config",
                      "lint.flake8-bugbear.extend-immutable-calls = "
                      + json.dumps(list(RUFF_IMMUTABLE_CALLS))]
            )  # fmt: skip
            return ["check", "--no-cache", "--no-fix", "--exit-zero", "--force-exclude",
                    "--output-format", "json-lines", "--output-file", str(out),
                    *chosen, "--", *side.files]  # fmt: skip

        # The scope is the base branch's whatever `tool_config` says: its patterns run in this
        # process, so none comes from the PR's own files.
        scope = lint_scope(ctx.pr.base_tree, ruff_configured=config is not None)
        outcome = two_sided(
            ctx,
            deadline,
            "ruff",
            module="ruff",
            argv_for=argv,
            parse=ByLine(parse_ruff if config else ruff_default_set),
            per_file=True,
            select=scope.why_out,
        )
        if isinstance(outcome, Checked):
            floor = python_floor(ctx.pr.head_tree)
            outcome = replace(outcome, head=within_floor(outcome.head, floor))
        return _noted(outcome, scope.problems)


def _noted(outcome: Outcome, notes: Sequence[str]) -> Outcome:
    """``outcome`` with ``notes`` added to what the run says: a checked run's note, a skipped
    run's reason (never dropped silently)."""
    if not notes:
        return outcome
    if isinstance(outcome, Checked):
        return replace(outcome, note="; ".join(n for n in (outcome.note, *notes) if n))
    if isinstance(outcome, Skipped):
        return replace(outcome, reason="; ".join((outcome.reason, *notes)))
    return outcome


_NEWER_SYNTAX = re.compile(r"syntax was added in Python (\d+)\.(\d+)")


def within_floor(
    found: tuple[RawFinding, ...], floor: tuple[int, int] | None
) -> tuple[RawFinding, ...]:
    """``found`` without ruff's syntax errors for a Python older than ``floor``, the oldest
    Python the PR's head says it supports: ruff reads the base's `requires-python`, and a PR
    that raises it to 3.9 and writes a parenthesized `with` ("syntax was added in Python 3.9")
    made no error (wheel's, holdout57). A floor names only the Pythons the code supports."""
    if floor is None:
        return found
    out = []
    for f in found:
        newer = _NEWER_SYNTAX.search(f.message) if f.rule_id == "invalid-syntax" else None
        if newer is None or (int(newer[1]), int(newer[2])) > floor:
            out.append(f)
    return tuple(out)


def ruff_default_set(lines: Iterable[str], root: Path) -> tuple[RawFinding, ...]:
    """ruff's report under the default rule set, without a thrown-away expression that stands
    where an exception is expected (:mod:`pr_review.verifiers.expected_raises`) and without an
    undefined name that is a Python 2 builtin (``rule_catalog.PYTHON2_BUILTINS``)."""
    found = without_expected_raises(parse_ruff(lines, root), _SourceLines(root).text)
    return tuple(f for f in found if not _python2_builtin(f))


_UNDEFINED = re.compile(r"^Undefined name `(?P<name>[^`]+)`")


def _python2_builtin(finding: RawFinding) -> bool:
    match = _UNDEFINED.match(finding.message) if finding.rule_id == "F821" else None
    return match is not None and match["name"] in PYTHON2_BUILTINS


@dataclass(frozen=True)
class Bandit:
    """``bandit``: security linter, with the repository's bandit configuration if any."""

    timeout_seconds: float
    name: str = "bandit"
    category: Category = Category.SECURITY

    def check(self, ctx: Context, deadline: Deadline) -> Outcome:
        """Scan the touched Python files on both sides."""
        config: list[str] = []
        if _toml_has(ctx, "pyproject.toml", "bandit"):
            config = ["-c", "pyproject.toml"]
        elif ctx.config_tree.read(".bandit") is not None:
            config = ["--ini", ".bandit"]

        def argv(side: Side, out: Path) -> list[str]:
            return ["-q", "-f", "json", "-o", str(out), *config, "--", *side.files]

        def parse(text: str, root: Path) -> tuple[RawFinding, ...]:
            findings, errors = parse_bandit(text, root)
            if errors and not findings:
                raise OutputError("bandit could not parse: " + "; ".join(errors[:3]))
            return findings if config else bandit_default_set(findings)

        return two_sided(
            ctx,
            deadline,
            "bandit",
            module="bandit",
            argv_for=argv,
            parse=parse,
            per_file=True,
            shards=min(usable_cores(), ctx.settings.max_parallel),
        )


def bandit_default_set(findings: Sequence[RawFinding]) -> tuple[RawFinding, ...]:
    """The default bandit set: medium severity and up, plus hard-coded passwords, outside
    test code (see ``rule_catalog.BANDIT_LOW_KEPT_OUTSIDE_TESTS``)."""
    out = []
    for f in findings:
        if is_test(f.path):
            continue
        low = f.severity is VerifierSeverity.INFO
        if low and f.rule_id not in BANDIT_LOW_KEPT_OUTSIDE_TESTS:
            continue
        out.append(f)
    return tuple(out)


class _SourceLines:
    """Lines of the files a tool reported on, read from where it ran, once per file."""

    def __init__(self, root: Path) -> None:
        self._root = root
        self._files: dict[str, list[str]] = {}

    def text(self, path: str) -> str | None:
        """The whole text of ``path`` (None when it cannot be read)."""
        rel = safe_relpath(path)  # a tool's path is data: never read outside the root
        if rel is None:
            return None
        try:
            return self._root.joinpath(*rel.parts).read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None

    def at(self, path: str, line: int | None) -> str | None:
        """The text of ``line`` of ``path`` (None when unknown)."""
        if line is None:
            return None
        if path not in self._files:
            self._files[path] = (self.text(path) or "").splitlines()
        found = self._files[path]
        return found[line - 1] if 0 < line <= len(found) else None


@dataclass(frozen=True)
class Mypy:
    """``mypy``, only when the repository configures it, as the repository runs it.

    Only the touched files in the repository's own mypy scope are checked (see
    :mod:`.mypy_scope`); the project's modules they import are staged from the same
    revision so imports resolve as in the project's CI; the configuration is a sanitized
    copy without plugins, executables or report outputs (see :mod:`.mypy_config`), in every
    trust mode; codes that report strictness rather than defects are dropped (see
    :mod:`.mypy_codes`).
    """

    timeout_seconds: float
    name: str = "mypy"
    category: Category = Category.TYPE

    def check(self, ctx: Context, deadline: Deadline) -> Outcome:
        """Type-check the touched Python files on both sides."""
        found = find_mypy_config(ctx.config_tree)
        if found is None:
            return Skipped(
                "mypy is not configured in this repository (no [tool.mypy] in pyproject.toml, "
                "no mypy.ini or .mypy.ini, no [mypy] in setup.cfg)"
            )
        if not runs_mypy(ctx.pr.base_tree):
            return Skipped(
                "mypy is configured but nothing the repository writes down runs or installs it "
                "(no workflow, pre-commit hook, Makefile, tox, nox or task command, no "
                "development dependency): its errors would be news to this repository"
            )
        floor = python_floor(ctx.config_tree)
        scope = mypy_scope(found)
        if not scope.targeted:
            # The configuration leaves its targets to the command line: the repository's own
            # commands, the base branch's whatever `tool_config` says (a mypy hook's `files`
            # pattern runs in this process, so none comes from a PR, as for ruff's scope).
            scope = mypy_scope(found, mypy_commands(ctx.pr.base_tree))
        trees = {"head": ctx.pr.head_tree, "base": ctx.pr.base_tree}
        layouts = {label: Layout(tree.paths()) for label, tree in trees.items()}
        written = {"head": set(ctx.head_files), "base": set(ctx.base_files)}

        def prepare(side: Side) -> str | None:
            """Stage the project's modules the side's files import; write its config."""
            layout = layouts[side.label]
            wanted = resolution_files(layout, side.files, scope)
            staged, left = stage_support(
                side.root, trees[side.label], wanted, skip=written[side.label]
            )
            roots = search_roots([(layout, [*side.files, *staged])])
            config = ctx.workspace.tmp / f"mypy-{side.label}.ini"
            config.write_text(sanitized_ini(found, roots, floor), encoding="utf-8")
            if not left:
                return None
            budget = MAX_SUPPORT_BYTES // 1_000_000
            return (f"import resolution limited: {left} module(s) of the project over the "
                    f"{budget} MB staging budget were not staged")  # fmt: skip

        def argv(side: Side, _out: Path) -> list[str]:
            config = ctx.workspace.tmp / f"mypy-{side.label}.ini"
            cache = ctx.workspace.tmp / f"mypy-cache-{side.label}"
            # Our environment's site-packages are not the project's: without them imports
            # of third-party code resolve the same way on every machine (ignored, as Any).
            # Imports of the project's own modules resolve to the staged files, read for
            # their types only (errors are reported for the listed files alone).
            return ["-O", "json", "--config-file", str(config), "--follow-imports=silent",
                    "--ignore-missing-imports", "--no-site-packages", "--cache-dir", str(cache),
                    "--no-color-output", "--", *side.files]  # fmt: skip

        def parse(text: str, root: Path) -> tuple[RawFinding, ...]:
            findings = parse_mypy(text, root)
            blocking = [f for f in findings if f.line is None]
            if blocking:
                raise OutputError(f"mypy stopped: {blocking[0].message}")
            lines = _SourceLines(root)
            return tuple(
                f
                for f in findings
                if is_finding(f.rule_id, f.message)
                and not on_ignored_line(lines.at(f.path, f.line))
            )

        def select(path: str) -> str | None:
            return scope.why_out(path, layouts["head"])

        outcome = two_sided(
            ctx, deadline, "mypy", module="mypy", argv_for=argv, parse=parse, per_file=True,
            select=select, prepare=prepare,
        )  # fmt: skip
        if not isinstance(outcome, Checked):
            return outcome
        notes = [*scope.problems]
        pin, version = pinned_mypy(ctx.config_tree), ours()
        if pin is not None and version is not None and skew(pin, version):
            notes.append(
                f"the repository pins mypy {pin.text()} ({pin.where}) and this review ran "
                f"{'.'.join(map(str, version))}, which checks differently: its errors are "
                "information, not findings"
            )
            outcome = replace(outcome, head=tuple(
                replace(f, severity=VerifierSeverity.INFO) for f in outcome.head
            ))  # fmt: skip
        return _noted(outcome, notes)
