"""Tests of the GitHub Action: gateway, publishing, gate, events and the end-to-end runs."""
