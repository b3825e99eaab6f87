"""mypy error codes that are never findings, as data: each with why, and an example message.

A finding must name something that goes wrong when the code runs, or that the project's own
CI would reject for the same reason. These codes report neither:

- how completely the code is annotated (strictness flags: ``disallow_untyped_defs``,
  ``disallow_untyped_calls``, ``disallow_any_generics``, ``warn_return_any`` ...). A missing
  annotation is not a defect; the repository's CI enforces its own strictness.
- the hygiene of suppressions and casts (``warn_unused_ignores``, ``warn_redundant_casts``).
- a deliberate stub (``empty-body``: a body that is only ``...``).
- ``Any`` leaking in from outside. The verifier runs without the project's third-party
  packages (never installed, never executed), so every third-party import is ``Any`` here
  even when it is typed in the project's environment: a ``type: ignore`` the project needs
  looks unused, a typed base class looks like ``Any``. Reporting those would blame the PR for
  our environment.

Each entry's example is a message mypy prints; the test suite checks that every example is
dropped and that real errors (``arg-type``, ``attr-defined``, ``return-value`` ...) are kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class NotAFinding:
    """One mypy code (optionally narrowed by its message) that is never reported."""

    code: str
    why: str
    example: str
    """A message mypy prints under this code; the tests feed it through :func:`is_finding`."""
    message: str | None = None
    """A regex the message must match too (for codes like ``misc`` that also hold real errors)."""


NOT_FINDINGS: tuple[NotAFinding, ...] = (
    NotAFinding(
        "no-untyped-def",
        "a function without annotations (disallow_untyped_defs / disallow_incomplete_defs): "
        "coverage of annotations, not a defect",
        "Function is missing a return type annotation",
    ),
    NotAFinding(
        "no-untyped-call",
        "a call to an unannotated function from annotated code (disallow_untyped_calls)",
        'Call to untyped function "make_app" in typed context',
    ),
    NotAFinding(
        "untyped-decorator",
        "a decorator without annotations makes the function untyped "
        "(disallow_untyped_decorators); often a third-party decorator that is Any here",
        'Untyped decorator makes function "index" untyped',
    ),
    NotAFinding(
        "misc",
        "the same, in mypy versions that file it under misc",
        'Untyped decorator makes function "index" untyped',
        message=r"^Untyped decorator makes function ",
    ),
    NotAFinding(
        "misc",
        "a decorated function typed Any after its decorator (disallow_any_decorated): the "
        "decorator is usually a third-party one (pytest's marks and fixtures), Any here",
        "Function is untyped after decorator transformation",
        message=r"^Function is untyped after decorator transformation",
    ),
    NotAFinding(
        "type-arg",
        "a generic without type parameters (disallow_any_generics): implicit Any",
        'Missing type parameters for generic type "dict"',
    ),
    NotAFinding(
        "no-any-return",
        "returning a value typed Any (warn_return_any); third-party values are Any here",
        'Returning Any from function declared to return "str"',
    ),
    NotAFinding(
        "no-any-unimported",
        "a type that becomes Any because its import is not followed (disallow_any_unimported)",
        'Argument 1 to "f" becomes "Any" due to an unfollowed import',
    ),
    NotAFinding(
        "explicit-any",
        "an explicit Any (disallow_any_explicit): a style choice",
        'Explicit "Any" is not allowed',
    ),
    NotAFinding(
        "misc",
        "subclassing a class typed Any (disallow_subclassing_any); third-party bases are Any here",
        'Class cannot subclass "Resource" (has type "Any")',
        message=r'^Class cannot subclass .* \(has type "Any"\)',
    ),
    NotAFinding(
        "misc",
        "an expression or decorated function typed Any (disallow_any_expr / "
        "disallow_any_decorated)",
        'Expression has type "Any"',
        message=r'^(Expression (has type|type contains) "Any"|Type of decorated function '
        r'contains type "Any")',
    ),
    NotAFinding(
        "unused-ignore",
        "a type: ignore that mypy finds unneeded (warn_unused_ignores): hygiene; and here "
        "third-party code is Any, so an ignore the project needs looks unused",
        'Unused "type: ignore" comment',
    ),
    NotAFinding(
        "redundant-cast",
        "a cast to the type the value already has (warn_redundant_casts): hygiene",
        'Redundant cast to "int"',
    ),
    NotAFinding(
        "ignore-without-code",
        'a "type: ignore" without an error code (optional code): hygiene',
        '"type: ignore" comment without error code',
    ),
    NotAFinding(
        "redundant-self",
        "an annotation of self that mypy infers anyway (optional code): style",
        'Redundant "Self" annotation for the first method argument',
    ),
    NotAFinding(
        "empty-body",
        "a function whose body is only `...`, `pass` or a docstring is a deliberate stub "
        "(protocols, abstract or overload-like declarations, typing tests); a forgotten "
        "return in a real body is reported under `return`, which stays a finding",
        "Missing return statement",
    ),
    NotAFinding(
        "explicit-override",
        "an override without @override (optional code): style",
        'Method "run" is not using @override but is overriding a method in class "Base"',
    ),
)


IGNORE_COMMENT = re.compile(r"#\s*type:\s*ignore\b")
"""A ``# type: ignore`` comment (with or without codes). An error on a line that carries
one is never a finding: the repository's CI accepted the line with the error the comment
names; without the project's third-party types the same problem can surface here under
another code (an ``ignore[misc]`` line reported as ``assignment``)."""


_BY_CODE: dict[str, list[NotAFinding]] = {}
for _entry in NOT_FINDINGS:
    _BY_CODE.setdefault(_entry.code, []).append(_entry)
_PATTERNS = {id(e): re.compile(e.message) for e in NOT_FINDINGS if e.message is not None}


def is_finding(code: str | None, message: str) -> bool:
    """False when mypy's ``code`` (and message) is on :data:`NOT_FINDINGS`."""
    for entry in _BY_CODE.get(code or "misc", ()):
        if entry.message is None or _PATTERNS[id(entry)].search(message):
            return False
    return True


def on_ignored_line(text: str | None) -> bool:
    """True when the source line ``text`` carries a ``# type: ignore`` comment."""
    return text is not None and IGNORE_COMMENT.search(text) is not None
