"""Finding the tools and building the environments they run in."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import sys
from collections.abc import Mapping
from pathlib import Path

from pr_review.verifiers.workspace import Workspace


def locate_tool(module: str, executable: str) -> tuple[str, ...] | None:
    """How to run a tool: ``python -I -m module`` when importable here, else a PATH executable.

    ``-I`` (isolated mode) keeps the working directory, which holds PR files, off
    ``sys.path``: a PR that adds ``ruff/__main__.py`` must not be what ``-m ruff`` runs.
    """
    if importlib.util.find_spec(module) is not None:
        return (sys.executable, "-I", "-m", module)
    beside = Path(sys.executable).parent / executable
    if beside.is_file() and os.access(beside, os.X_OK):
        return (str(beside),)
    found = shutil.which(executable)
    return (found,) if found else None


_KEPT_VARIABLES = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "SYSTEMROOT")


def tool_env(workspace: Workspace, parent: Mapping[str, str]) -> dict[str, str]:
    """The minimal allowlisted environment built-in tools run with.

    Only locale, PATH and timezone come from ``parent``; HOME, TMPDIR and the XDG dirs point
    into the workspace, so no user configuration, token or key reaches the tool.
    """
    env = {k: parent[k] for k in _KEPT_VARIABLES if k in parent}
    env.setdefault("PATH", os.defpath)
    home = str(workspace.home)
    env.update(
        {
            "HOME": home,
            "TMPDIR": str(workspace.tmp),
            "XDG_CONFIG_HOME": str(workspace.home / ".config"),
            "XDG_CACHE_HOME": str(workspace.tmp / "cache"),
            "PYTHONDONTWRITEBYTECODE": "1",
            "PYTHONNOUSERSITE": "1",
            "NO_COLOR": "1",
        }
    )
    return env


_SECRET_NAME = re.compile(
    r"(?i)(TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|API_?KEY|PRIVATE_?KEY|ACCESS_?KEY|AUTH)"
)
_SECRET_PREFIXES = ("GITHUB_", "ANTHROPIC_", "ACTIONS_", "AWS_", "INPUT_", "RUNNER_TOKEN")


def command_env(workspace: Workspace, parent: Mapping[str, str]) -> dict[str, str]:
    """The environment for repository-declared commands (trusted mode only).

    The caller's environment minus anything that looks like a credential or belongs to the
    GitHub or Anthropic integration; the commands need the toolchain, never our tokens.
    """
    env = {
        k: v
        for k, v in parent.items()
        if not _SECRET_NAME.search(k) and not k.startswith(_SECRET_PREFIXES)
    }
    env["TMPDIR"] = str(workspace.tmp)
    env.setdefault("PATH", os.defpath)
    return env
