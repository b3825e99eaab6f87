"""The one module that runs the sink rules on source text (the ``ast-grep-py`` binding).

Parsing never executes anything; a file that does not parse as its language yields the
matches of whatever the parser recovered (tree-sitter is error-tolerant), never an error.
"""

from __future__ import annotations

from typing import cast

from ast_grep_py import Config, SgRoot

from pr_review.rules import SinkHit, SinkRule, rules_for

MAX_SNIPPET = 200
MAX_CODE = 4000


def scan_source(
    text: str, language: str, rules: tuple[SinkRule, ...] | None = None
) -> list[SinkHit]:
    """Every match of the rules reading ``language`` in ``text``, in line order."""
    chosen = rules_for(language, rules)
    if not chosen or not text.strip():
        return []
    root = SgRoot(text, language).root()
    hits: list[SinkHit] = []
    for rule in chosen:
        seen: set[int] = set()
        for node in root.find_all(config=cast("Config", rule.config)):
            where = node.range()
            line = where.start.line + 1
            if line in seen:  # nested matches of one rule on one line are one hit
                continue
            seen.add(line)
            text = node.text()
            snippet = text.splitlines()[0] if text else ""
            hits.append(
                SinkHit(
                    rule_id=rule.id,
                    category=rule.category,
                    lane=rule.lane,
                    untrusted=rule.untrusted,
                    why=rule.why,
                    message=rule.message,
                    severity=rule.severity,
                    line=line,
                    end_line=where.end.line + 1,
                    snippet=snippet[:MAX_SNIPPET],
                    code="".join(text.split())[:MAX_CODE],
                    on_change=rule.on_change,
                    report=rule.report,
                )
            )
    return _most_specific(hits)


def _most_specific(hits: list[SinkHit]) -> list[SinkHit]:
    """One hit per line and category: the untrusted-input rule over the generic one (it says
    more: the client controls the value), then a rule that weighs a rewrite (``on_change``)
    over one that does not (a tag concatenation over the attribute fragment on the same
    line), then the rule id, in line order."""
    best: dict[tuple[int, str], SinkHit] = {}
    for hit in sorted(hits, key=lambda h: (not h.untrusted, h.on_change is None, h.rule_id)):
        best.setdefault((hit.line, hit.category.value), hit)
    return sorted(best.values(), key=lambda h: (h.line, h.rule_id))
