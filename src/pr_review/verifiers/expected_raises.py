"""Code evaluated for the exception it raises: ``with pytest.raises(E): obj.attr``.

An expression statement whose value is thrown away is a defect when it was meant as a call or
an assignment (``f.close``, ``x == 1``): ruff's ``B018`` (useless expression) and ``B015``
(useless comparison) report it. Inside a block that expects an exception or a warning (a
``with`` over ``pytest.raises``, ``pytest.warns``, ``self.assertRaises``...,
``contextlib.suppress``, or the body of a ``try`` whose ``except`` clause names the error it
expects, not a bare ``except`` or ``except Exception`` that would hide a slip) the same statement
is the point: the attribute access or the comparison is what raises (``string.Formatter``
refused by a sandbox, ``parts.port`` raising for a malformed port). Read on :mod:`ast`, so the
meaning does not depend on the repository. The bug-finding default rule set drops those hits
(:func:`without_expected_raises`); a repository that selects the rules itself gets what its own
CI reports.

Examples (run by the test suite): ``EXPECTED_RAISE_EXAMPLES`` (source, the line, expected?).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Sequence

from pr_review.verifiers.model import RawFinding

RULES = frozenset({"B015", "B018"})
"""ruff rules about a statement whose value is thrown away."""

EXPECTING = frozenset({"raises", "warns", "deprecated_call", "suppress"})
"""Context managers (by the callee's last name) whose block is expected to raise or warn:
pytest's and ``contextlib.suppress``; and every ``assertRaises*``/``assertWarns*``
(:data:`EXPECTING_PREFIXES`: unittest's, Django's ``assertRaisesMessage``)."""
EXPECTING_PREFIXES = ("assertRaises", "assertWarns")

EXPECTED_RAISE_EXAMPLES: tuple[tuple[str, int, bool], ...] = (
    # RestrictedPython GHSA-xjw2-6jm9-rf67's test: the sandbox refuses the attribute
    ("def test(s):\n    with pytest.raises(NotImplementedError):\n        s.Formatter\n", 3, True),
    ("def test(s):\n    with self.assertRaises(KeyError):\n        s['x']\n", 3, True),
    # DRF's oversized-body tests, with Django's assertRaisesMessage
    ("def test(r):\n    with self.assertRaisesMessage(RequestDataTooBig, m):\n        r.data\n",
     3, True),
    ("def test(a, b):\n    with pytest.raises(TypeError):\n        a < b\n", 3, True),
    ("def test(o):\n    with pytest.warns(DeprecationWarning):\n        o.old_name\n", 3, True),
    # RestrictedPython CVE-2024-47532's test: the error raised is what is checked
    (("def test(r):\n    try:\n        r.missing\n    except AttributeError as e:\n"
      "        assert e.obj is r\n"), 3, True),
    (("def f(u):\n    try:\n        u.port  # raises for a malformed port\n"
      "    except ValueError:\n        return None\n"), 3, True),
    # not expecting anything: a call left without its parentheses, a comparison thrown away
    ("def close(f):\n    f.close\n", 2, False),
    ("def f(x):\n    x == 1\n    return x\n", 2, False),
    ("def f(s):\n    with open(s) as fh:\n        fh.read\n", 3, False),
    ("def f(s):\n    try:\n        pass\n    finally:\n        s.close\n", 5, False),
    # an except clause does not expect its own statements to raise; a catch-all hides a slip
    ("def f(s):\n    try:\n        s.close\n    except Exception:\n        pass\n", 3, False),
    ("def f(s):\n    try:\n        s.close\n    except:\n        pass\n", 3, False),
    ("def f(s):\n    try:\n        g()\n    except OSError:\n        s.close\n", 5, False),
)


def _callee(node: ast.expr) -> str:
    func = node.func if isinstance(node, ast.Call) else node
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def _expecting(node: ast.AST) -> Iterator[Sequence[ast.stmt]]:
    """The statement blocks of ``node`` that are expected to raise."""
    if isinstance(node, ast.With | ast.AsyncWith) and any(
        _expects(_callee(item.context_expr)) for item in node.items
    ):
        yield node.body
    if isinstance(node, ast.Try | ast.TryStar) and any(
        _names_an_error(handler.type) for handler in node.handlers
    ):
        yield node.body


def _expects(callee: str) -> bool:
    return callee in EXPECTING or callee.startswith(EXPECTING_PREFIXES)


_CATCH_ALL = frozenset({"Exception", "BaseException"})


def _names_an_error(caught: ast.expr | None) -> bool:
    """``except AttributeError``, ``except (KeyError, IndexError)``: a specific error expected;
    not a bare ``except`` or ``except Exception``."""
    if caught is None:
        return False
    names = caught.elts if isinstance(caught, ast.Tuple) else [caught]
    return any(_callee(name) not in _CATCH_ALL for name in names)


def expecting_lines(source: str) -> frozenset[int]:
    """The first lines of the expression statements (not calls) of ``source`` that stand in a
    block expected to raise; empty when it does not parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return frozenset()
    lines: set[int] = set()
    for node in ast.walk(tree):
        for block in _expecting(node):
            for stmt in block:
                lines.update(
                    inner.lineno
                    for inner in ast.walk(stmt)
                    if isinstance(inner, ast.Expr) and not isinstance(inner.value, ast.Call)
                )
    return frozenset(lines)


def without_expected_raises(
    findings: Sequence[RawFinding], read: Callable[[str], str | None]
) -> tuple[RawFinding, ...]:
    """``findings`` without ``B015``/``B018`` hits on statements expected to raise (``read``:
    a file's text by the finding's path, None when it cannot be read)."""
    cache: dict[str, frozenset[int]] = {}
    out = []
    for f in findings:
        if f.rule_id in RULES and f.line is not None:
            if f.path not in cache:
                text = read(f.path)
                cache[f.path] = expecting_lines(text) if text is not None else frozenset()
            if f.line in cache[f.path]:
                continue
        out.append(f)
    return tuple(out)
