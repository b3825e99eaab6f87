"""Verifiers for the other languages PRs are written in: oxlint (JavaScript/TypeScript),
shellcheck (shell), hadolint (Dockerfiles), zizmor (GitHub Actions workflows) and the sink
rules (``pr_review.rules``: code evaluation, shells, SQL, paths, TLS, cookies across
JavaScript/TypeScript, Go, Java, Ruby and PHP).

Each is run like the Python tools (:func:`.builtin.two_sided`): on the touched files of its
kind, head side then base side, so only problems new on the PR's lines are reported; under
the verifier's time limit; and safe for fork PRs: every tool gets our configuration, never
the repository's (none of them reads a configuration that can execute code or reach the
network: oxlint's JavaScript configs, shellcheck's ``source`` following, zizmor's online
audits are all off). Which rules count is data in :mod:`.rule_catalog`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath

from pr_review.rules import language_of
from pr_review.schema.enums import VerifierSeverity
from pr_review.sources.paths import JS_EXTENSIONS, is_test, is_type_declaration
from pr_review.verifiers.builtin import two_sided
from pr_review.verifiers.model import Category, Context, Deadline, Outcome, RawFinding
from pr_review.verifiers.parsers import (
    parse_hadolint,
    parse_oxlint,
    parse_shellcheck,
    parse_sinks,
    parse_zizmor,
)
from pr_review.verifiers.rule_catalog import (
    HADOLINT_KEPT,
    OXLINT_CATEGORIES,
    OXLINT_OFF,
    OXLINT_OFF_IN_TESTS,
    SHELLCHECK_OFF,
    ZIZMOR_OFF,
)
from pr_review.verifiers.sides import ByLine, Side

Pick = Callable[[Sequence[str]], tuple[str, ...]]
"""Which of the given paths a tool reads."""

SHELL_SUFFIXES = (".sh", ".bash", ".ksh", ".dash")


def js_files(paths: Sequence[str]) -> tuple[str, ...]:
    """JavaScript and TypeScript sources (type declarations hold no code: left out)."""
    return tuple(
        p for p in paths if p.lower().endswith(JS_EXTENSIONS) and not is_type_declaration(p)
    )


def shell_files(paths: Sequence[str]) -> tuple[str, ...]:
    """Shell scripts, by suffix."""
    return tuple(p for p in paths if p.lower().endswith(SHELL_SUFFIXES))


def dockerfiles(paths: Sequence[str]) -> tuple[str, ...]:
    """``Dockerfile``, ``Dockerfile.*``, ``*.dockerfile`` and ``Containerfile``."""
    out = []
    for path in paths:
        name = PurePosixPath(path).name.lower()
        named = name in ("dockerfile", "containerfile") or name.startswith("dockerfile.")
        if named or name.endswith(".dockerfile"):
            out.append(path)
    return tuple(out)


def workflow_files(paths: Sequence[str]) -> tuple[str, ...]:
    """GitHub Actions workflows (``.github/workflows/*.yml``) and action definitions."""
    out = []
    for path in paths:
        pure = PurePosixPath(path)
        in_workflows = pure.parent.as_posix() == ".github/workflows"
        is_workflow = in_workflows and pure.suffix in (".yml", ".yaml")
        if is_workflow or pure.name in ("action.yml", "action.yaml"):
            out.append(path)
    return tuple(out)


def sink_files(paths: Sequence[str]) -> tuple[str, ...]:
    """Files in a language the sink rules read."""
    return tuple(p for p in paths if language_of(p) is not None)


def sink_findings(lines: Iterable[str], root: Path) -> tuple[RawFinding, ...]:
    """The sink rules' hits outside test code. A test does on purpose what a sink rule looks
    for (``InsecureSkipVerify: true`` against its self-signed server, ``eval`` of a payload, SQL
    built to test the escaping), so a hit there is not a finding; the lane weighs test files
    through its own evidence."""
    return tuple(f for f in parse_sinks(lines, root) if not is_test(f.path))


def _kept(findings: tuple[RawFinding, ...], off: frozenset[str]) -> tuple[RawFinding, ...]:
    return tuple(f for f in findings if (f.rule_id or "") not in off)


def _our_config(ctx: Context, name: str, text: str) -> Path:
    """A configuration file of ours in the workspace's temporary folder."""
    path = ctx.workspace.tmp / name
    path.write_text(text, encoding="utf-8")
    return path


def oxlint_kept(findings: tuple[RawFinding, ...]) -> tuple[RawFinding, ...]:
    """oxlint's findings less the rules left off, and in tests those that flag what tests do
    on purpose (:data:`OXLINT_OFF_IN_TESTS`)."""
    return tuple(
        f for f in _kept(findings, OXLINT_OFF)
        if not (is_test(f.path) and (f.rule_id or "") in OXLINT_OFF_IN_TESTS)
    )  # fmt: skip


@dataclass(frozen=True)
class Oxlint:
    """``oxlint``: correctness and suspicious rules, our configuration, no plugins that
    need Node, no nested or repository configuration."""

    timeout_seconds: float
    name: str = "oxlint"
    category: Category = Category.LINT

    def check(self, ctx: Context, deadline: Deadline) -> Outcome:
        """Lint the touched JavaScript/TypeScript files on both sides."""
        config = _our_config(ctx, "oxlintrc.json", json.dumps({"rules": {}}))
        categories = [arg for c in OXLINT_CATEGORIES for arg in ("-D", c)]
        off = [arg for rule in sorted(OXLINT_OFF) for arg in ("-A", rule.split("/")[-1])]

        def argv(side: Side, _out: Path) -> list[str]:
            return ["-c", str(config), "--disable-nested-config", "--no-ignore",
                    "-A", "all", *categories, *off, "--format", "json", "--threads", "1",
                    "--", *side.files]  # fmt: skip

        def parse(text: str, root: Path) -> tuple[RawFinding, ...]:
            return oxlint_kept(parse_oxlint(text, root))

        return two_sided(ctx, deadline, "oxlint", module="oxlint", argv_for=argv, parse=parse,
                         per_file=True, pick=js_files, kind="JavaScript/TypeScript")  # fmt: skip


@dataclass(frozen=True)
class Shellcheck:
    """``shellcheck``: warnings and errors, no rc file, no following of ``source``."""

    timeout_seconds: float
    name: str = "shellcheck"
    category: Category = Category.LINT

    def check(self, ctx: Context, deadline: Deadline) -> Outcome:
        """Check the touched shell scripts on both sides."""

        def argv(side: Side, _out: Path) -> list[str]:
            return ["--norc", "-f", "json1", "-S", "warning", "--", *side.files]

        def parse(text: str, root: Path) -> tuple[RawFinding, ...]:
            # shellcheck's warnings are its bug class (unquoted expansions that split or
            # glob, rm -rf "$DIR/"* on an empty variable); info and style are not asked for.
            kept = _kept(parse_shellcheck(text, root), SHELLCHECK_OFF)
            data = shell_test_data(kept)
            return tuple(
                replace(f, severity=VerifierSeverity.ERROR) for f in kept if f.path not in data
            )

        return two_sided(ctx, deadline, "shellcheck", module="shellcheck", argv_for=argv,
                         parse=parse, per_file=True, pick=shell_files,
                         kind="shell")  # fmt: skip


def shell_test_data(findings: Iterable[RawFinding]) -> frozenset[str]:
    """Files in a test folder that shellcheck cannot parse (an ``SC1xxx`` parser error): input
    for a shell lexer or parser under test, not a script anything runs (pygments's
    ``tests/examplefiles/bash/doif.sh``, holdout51). Their findings describe the sample; a
    script outside tests that does not parse keeps its findings."""
    return frozenset(
        f.path
        for f in findings
        if is_test(f.path)
        and f.severity is VerifierSeverity.ERROR
        and (f.rule_id or "").startswith("SC1")
        and len(f.rule_id or "") == 6
    )


@dataclass(frozen=True)
class Hadolint:
    """``hadolint``: Dockerfile errors (its style and pinning advice is left out)."""

    timeout_seconds: float
    name: str = "hadolint"
    category: Category = Category.LINT

    def check(self, ctx: Context, deadline: Deadline) -> Outcome:
        """Check the touched Dockerfiles on both sides."""
        config = _our_config(ctx, "hadolint.yaml", "{}\n")

        def argv(side: Side, _out: Path) -> list[str]:
            return ["-c", str(config), "-f", "json", "--no-fail", "--", *side.files]

        def parse(text: str, root: Path) -> tuple[RawFinding, ...]:
            return tuple(
                f for f in parse_hadolint(text, root)
                if f.severity is VerifierSeverity.ERROR or (f.rule_id or "") in HADOLINT_KEPT
            )  # fmt: skip

        return two_sided(ctx, deadline, "hadolint", module="hadolint", argv_for=argv,
                         parse=parse, per_file=True, pick=dockerfiles,
                         kind="Dockerfile")  # fmt: skip


@dataclass(frozen=True)
class Zizmor:
    """``zizmor --offline``: GitHub Actions weaknesses (template injection, dangerous
    triggers with PR code, credential persistence), high severity, confidence above low."""

    timeout_seconds: float
    name: str = "zizmor"
    category: Category = Category.SECURITY

    def check(self, ctx: Context, deadline: Deadline) -> Outcome:
        """Audit the touched workflows and action definitions on both sides."""

        def argv(side: Side, _out: Path) -> list[str]:
            return ["--offline", "--no-config", "--no-progress", "--no-exit-codes",
                    "--format", "json", "--", *side.files]  # fmt: skip

        def parse(text: str, root: Path) -> tuple[RawFinding, ...]:
            return tuple(
                f for f in _kept(parse_zizmor(text, root), ZIZMOR_OFF)
                if f.severity is VerifierSeverity.ERROR
            )  # fmt: skip

        return two_sided(ctx, deadline, "zizmor", module="zizmor", argv_for=argv, parse=parse,
                         per_file=True, pick=workflow_files, kind="workflow")  # fmt: skip


@dataclass(frozen=True)
class Sinks:
    """The sink rules (``pr_review.rules``, ast-grep syntax-tree rules as data), in their own
    process so the time limit can stop them."""

    timeout_seconds: float
    name: str = "sinks"
    category: Category = Category.SECURITY

    def check(self, ctx: Context, deadline: Deadline) -> Outcome:
        """Match the sink rules on the touched files of their languages on both sides."""

        def argv(side: Side, out: Path) -> list[str]:
            return ["--output", str(out), "--", *side.files]

        return two_sided(ctx, deadline, "sinks", module="pr_review.rules", argv_for=argv,
                         parse=ByLine(sink_findings), per_file=True, pick=sink_files,
                         kind="JavaScript/TypeScript, Go, Java, Ruby or PHP")  # fmt: skip
