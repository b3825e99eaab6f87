"""Questions for the human: what the review cannot settle on its own.

Sources: required missing artifacts; contested and requires-human findings; a lane raised
because the classification had low confidence; blockers; and the tile's human-escalation
areas (architecture, public API, migrations, rollout, auth/security/secrets, intent
ambiguity, multi-subsystem, concurrency), each detected from the risk factors and asked as
a specific question.
"""

from __future__ import annotations

from dataclasses import dataclass

from pr_review.packet.neutralize import end_sentence, inline
from pr_review.schema.finding import SynthesizedFinding
from pr_review.schema.pack import EvidencePack


@dataclass(frozen=True)
class EscalationArea:
    """One area that always needs a human, the factor words that reveal it, its question."""

    name: str
    keywords: tuple[str, ...]
    question: str
    example_factor: str
    """A factor name that must map to this area (turned into a test)."""


ESCALATION_AREAS: tuple[EscalationArea, ...] = (
    EscalationArea(
        "auth, security and trust boundaries",
        ("auth", "permission", "security", "secret", "crypto", "token", "session", "trust"),
        "Who may now do what they could not before, and which trust boundary does this "
        "change move?",
        "auth-sensitive",
    ),
    EscalationArea(
        "migrations",
        ("migration", "schema", "ddl"),
        "Is the migration reversible, and is it safe against existing data and a rolling "
        "deploy where old code still runs?",
        "migration",
    ),
    EscalationArea(
        "public API",
        ("public-api", "api", "proto", "graphql", "route", "endpoint"),
        "Which clients depend on the changed interface, and is the change "
        "backward-compatible or versioned?",
        "public-api",
    ),
    EscalationArea(
        "rollout-sensitive changes",
        ("rollout", "flag", "toggle", "canary", "kill"),
        "What is the rollout plan and how is this turned off if it misbehaves?",
        "rollout-feature-flag",
    ),
    EscalationArea(
        "concurrency",
        ("concurrency", "lock", "thread", "async", "race", "atomic"),
        "Which shared state do concurrent callers touch here, and what keeps it consistent?",
        "concurrency",
    ),
    EscalationArea(
        "architecture and deployment",
        ("infra", "deploy", "architecture", "dependency", "dependencies"),
        "Does this change how the system is built or deployed, and who owns that decision?",
        "infra-deploy",
    ),
    EscalationArea(
        "multi-subsystem interactions",
        ("multi-subsystem",),
        "How do the touched subsystems interact through this change, and was each owner consulted?",
        "multi-subsystem",
    ),
)


def escalation_areas(pack: EvidencePack) -> tuple[tuple[EscalationArea, tuple[str, ...]], ...]:
    """Areas revealed by the risk factors, each with the factors that revealed it."""
    found = []
    for area in ESCALATION_AREAS:
        factors = tuple(
            f.factor for f in pack.risk.factors if any(k in f.factor.lower() for k in area.keywords)
        )
        if factors:
            found.append((area, factors))
    return tuple(found)


def questions(pack: EvidencePack, surfaced: tuple[SynthesizedFinding, ...]) -> list[str]:
    """Every question, specific to this PR, most decisive first."""
    out: list[str] = []
    for f in surfaced:
        if f.contested_by:
            out.append(
                f"Finding #{f.rank} is contested by {inline(', '.join(f.contested_by))}: "
                f"which position holds for “{inline(f.title, 120)}”?"
            )
        elif f.requires_human:
            out.append(
                end_sentence(f"Finding #{f.rank} needs a human decision: {inline(f.title, 160)}")
            )
    out += [
        f"Required artifact missing: **{inline(a.artifact, 80)}** "
        f"({inline(a.why_required, 200)}). Where is it, or why is it not needed? "
        f"Expected at {inline(a.suggested_location, 120)}."
        for a in pack.missing_artifacts
        if a.required
    ]
    if pack.risk.escalated_for_low_confidence:
        out.append(
            f"The risk classification had low confidence, so the lane was raised to "
            f"{pack.risk.lane.value} as a precaution: does this change touch anything riskier "
            "than the factors above show?"
        )
    out += [
        f"{inline(b.message, 200)} {inline(b.recommendation, 200)} "
        "Can the PR be split, or who reviews the part no AI reviewer saw?"
        for b in pack.blockers
    ]
    for area, factors in escalation_areas(pack):
        out.append(
            f"Escalation ({area.name}; factors: {inline(', '.join(factors), 120)}): {area.question}"
        )
    if not pack.pr.description.strip() and not pack.context.linked_issues:
        out.append(
            "Intent: the PR has no description and no linked issue. What is this change "
            "meant to do, so the findings can be judged against it?"
        )
    return out
