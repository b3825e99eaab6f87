"""Shared fixtures of the reviewer tests."""

from __future__ import annotations

import sys
from pathlib import Path

# `tests.fakes` is imported as a package from the repository root; pytest's default
# rootdir handling does not put the root on sys.path when tests/ has no __init__.py.
_ROOT = str(Path(__file__).resolve().parents[2])
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)
