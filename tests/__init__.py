"""Tests for pr_review."""
