"""Tests of the AI reviewer stage."""
