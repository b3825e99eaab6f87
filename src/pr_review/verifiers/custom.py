"""Repository-declared commands (``verifiers.custom`` in ``.pr-review/config.yml``).

They may run anything, so they run only in trusted mode; in untrusted mode each is reported
as skipped with that reason. They need the real repository, so they run in a full checkout
of the head revision materialized in the workspace, with that checkout as working directory
and an environment stripped of credentials.

Their findings go through the same diff scope, but the command runs on head only: a finding
on a line the PR did not change is dropped (running arbitrary commands twice would double
their cost). With ``format: none`` only the exit status speaks.
"""

from __future__ import annotations

from dataclasses import dataclass

from pr_review.schema.enums import TrustMode
from pr_review.verifiers.model import (
    Category,
    Checked,
    Context,
    Deadline,
    Outcome,
    Skipped,
    TimedOut,
)
from pr_review.verifiers.parsers import OutputError, parse_generic, parse_sarif
from pr_review.verifiers.settings import CustomVerifier, OutputFormat

UNTRUSTED_REASON = (
    "untrusted mode: repository-declared commands do not run on this pull request's code"
)


@dataclass(frozen=True)
class CustomCommand:
    """One declared command."""

    spec: CustomVerifier
    checkout_ready: bool
    """False when the head checkout could not be made (then the command is skipped)."""

    @property
    def name(self) -> str:
        """``custom:<name>``, so a declared command never poses as a built-in."""
        return f"custom:{self.spec.name}"

    @property
    def category(self) -> Category:
        """Always custom."""
        return Category.CUSTOM

    @property
    def timeout_seconds(self) -> float:
        """The command's own timeout."""
        return self.spec.timeout_seconds

    def check(self, ctx: Context, deadline: Deadline) -> Outcome:
        """Run the command in the head checkout and parse its output."""
        if ctx.trust_mode is TrustMode.UNTRUSTED:
            return Skipped(UNTRUSTED_REASON)
        if not self.checkout_ready:
            return Skipped("the head checkout could not be materialized")
        files = tuple(p for p in ctx.head_files if (ctx.workspace.checkout / p).is_file())
        remaining = deadline.remaining()
        if remaining <= 0:
            return TimedOut(f"{self.name} had no time left", files)
        return self._execute(ctx, remaining, files)

    def _execute(self, ctx: Context, timeout_s: float, files: tuple[str, ...]) -> Outcome:
        argv = [*self.spec.argv, *(files if self.spec.pass_files else ())]
        root = ctx.workspace.checkout
        result = ctx.run(argv, cwd=root, timeout_s=timeout_s, env=ctx.command_env)
        if result.start_error is not None:
            return Skipped(f"{self.name} could not start: {result.start_error}", files)
        if result.timed_out:
            return TimedOut(
                f"killed with its child processes after {result.duration_ms / 1000:.1f} s", files
            )
        try:
            match self.spec.format:
                case OutputFormat.GENERIC:
                    text = result.text() + "\n" + result.error_text()
                    findings = parse_generic(text, root, self.spec.default_severity)
                case OutputFormat.SARIF:
                    findings = parse_sarif(result.text(), root)
                case OutputFormat.NONE:
                    findings = ()
        except OutputError as exc:
            return Skipped(f"{self.name}: {exc} ({result.describe()})", files)
        failed = result.describe() if result.returncode != 0 and not findings else None
        return Checked(findings, None, files, failed_without_findings=failed)
