"""The project's contracts as pydantic models.

``pack`` is the evidence pack (schema 1.0) and ``finding`` the candidate and synthesized
findings, field for field as in seed ``003``; ``export`` turns them into JSON Schema files.
Models here may add fields to a seed's schema, never drop or rename one.
"""

SCHEMA_NAMES = (
    "evidence-pack",
    "candidate-finding",
    "finding",
    "verdicts",
    "verdicts-aggregate",
    "grading",
    "comparison",
    "analysis",
    "scorecard",
)
"""Names ``pr-review schema NAME`` accepts; :data:`.export.SCHEMAS` maps each to its model.

Here, apart from the models, so that building the command line does not import them.
"""
