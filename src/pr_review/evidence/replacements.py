"""What a replacing call takes out of a value and puts in its place, read from syntax trees.

One reader for the rules that count a replacement as a defence: CR/LF taken out of a header
value (:mod:`pr_review.evidence.line_breaks`) and ``..`` parts taken out of a name
(:mod:`pr_review.evidence.path_escapes`). Python's ``str.replace`` and ``re.sub``/``subn`` (a
module's compiled constant's ``sub`` too) are read on :mod:`ast`; JavaScript's
``replace``/``replaceAll`` and Go's ``strings``/``bytes`` ``Replace``/``ReplaceAll`` on
tree-sitter (:func:`pr_review.evidence.grammars.call_arguments`).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from pr_review.evidence.backtracking import AppliedRegexes, constant_text
from pr_review.evidence.grammars import CallArguments
from pr_review.evidence.regex_trees import from_javascript

STRIP_CALLEES = frozenset({"replace", "replaceAll", "Replace", "ReplaceAll", "NewReplacer"})
"""Replacing calls read on tree-sitter: JavaScript's ``replace``/``replaceAll``, Go's
``strings``/``bytes`` ``Replace``/``ReplaceAll`` and ``strings.NewReplacer``."""
REMOVED_FOR = frozenset({"", " "})
"""What a stripping replacement puts in place of what it takes: nothing, or a space. Any
other text (``"\\n"`` for ``"\\r\\n"``, ``"<br>"``) normalises or renders what it finds."""


@dataclass(frozen=True)
class Replacement:
    """One replacing call: a literal or a pattern (Python's syntax) searched for, what is put
    in its place when that is a constant, and whether every occurrence is replaced."""

    literal: str | None
    pattern: str | None
    new: str | None
    every: bool

    @property
    def strips(self) -> bool:
        """What is found is replaced by nothing or a space."""
        return self.new in REMOVED_FOR


def python_replacement(call: ast.Call, regexes: AppliedRegexes) -> Replacement | None:
    """``value.replace(old, new)`` or ``re.sub(pattern, new, value)`` (a compiled module
    constant's ``.sub(new, value)`` too); None for any other call."""
    if not isinstance(call.func, ast.Attribute) or not call.args:
        return None
    args = call.args
    if call.func.attr == "replace" and len(args) >= 2:
        old = constant_text(args[0].value) if isinstance(args[0], ast.Constant) else None
        return Replacement(old, None, _constant(args[1]), every=True)
    if call.func.attr not in ("sub", "subn"):
        return None
    inline = regexes.calls.get(id(call))
    pattern = inline if inline is not None else regexes.pattern(call.func)
    replacement = args[1] if inline is not None and len(args) > 1 else args[0]
    return Replacement(None, pattern, _constant(replacement), every=True)


def tree_replacement(found: CallArguments, go: bool) -> Replacement | None:
    """A JavaScript/TypeScript ``replace``/``replaceAll`` or a Go ``Replace``/``ReplaceAll``
    with a constant searched for (a string, or a JavaScript regex literal in Python's syntax);
    None for any other call (``strings.NewReplacer`` is read by its caller)."""
    args, name = found.arguments, found.callee.rsplit(".", 1)[-1]
    if go and name in ("Replace", "ReplaceAll") and len(args) >= 3:
        old, new, every = args[1], args[2], True
    elif not go and name in ("replace", "replaceAll") and len(args) >= 2:
        old, new = args[0], args[1]
        every = name == "replaceAll" or (old.kind == "regex" and "g" in old.flags)
    else:
        return None
    value = new.value if new.kind == "string" else None
    if old.kind == "regex":
        return Replacement(None, from_javascript(old.value), value, every)
    if old.kind == "string":
        return Replacement(old.value, None, value, every)
    return None


def _constant(node: ast.expr) -> str | None:
    return constant_text(node.value) if isinstance(node, ast.Constant) else None
