"""Tests for the PR sources: the diff model and the local git source."""
