"""Verifier toggles for tests about the Python tools and the runner: the other languages'
tools (which a PR's Python files would also bring in: the sink rules read Python) off, so
counts and file lists are the Python tools' alone."""

from __future__ import annotations

OTHER_LANGUAGES_OFF = {
    "sinks": False,
    "oxlint": False,
    "shellcheck": False,
    "hadolint": False,
    "zizmor": False,
}
