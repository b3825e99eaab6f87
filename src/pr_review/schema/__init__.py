"""The project's contracts as pydantic models.

``pack`` is the evidence pack (schema 1.0) and ``finding`` the candidate and synthesized
findings, field for field as in seed ``003``; ``export`` turns them into JSON Schema files.
Models here may add fields to a seed's schema, never drop or rename one.
"""
