"""The repository's ``.pr-review/`` configuration, read from the **base** commit only.

A pull request cannot weaken its own review: the configuration and policy verifiers come from
the commit the PR merges into, never from its head.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from posixpath import dirname

from pr_review import __version__
from pr_review.config import CONFIG_RELPATH, Config, parse_config
from pr_review.errors import ConfigError
from pr_review.sources.github import GitHubApi

VERIFIERS_DIR = ".pr-review/verifiers/"
DEFAULT_CONFIG_PATH = CONFIG_RELPATH.as_posix()


@dataclass(frozen=True)
class BaseConfig:
    """The configuration and policy files of the base commit, and their digest."""

    config: Config
    policy_files: dict[str, str]
    source: str
    """Where the configuration came from (``path@sha``, or ``defaults``)."""
    digest: str
    """Changes whenever the configuration, a policy file, or this tool's version does."""


def load_base_config(api: GitHubApi, base_sha: str, config_path: str) -> BaseConfig:
    """Read and validate the base commit's configuration.

    A missing file at the default path means defaults (a repository without configuration);
    a ``config_path`` input naming a file the base commit does not have is an error, since
    silently using defaults would review with a weaker configuration than asked for.
    """
    text = api.file_text(config_path, base_sha)
    where = f"{config_path}@{base_sha[:12]}"
    if text is None and config_path.strip("/") != DEFAULT_CONFIG_PATH:
        raise ConfigError(
            f"input `config_path` is {config_path!r}, but the base commit {base_sha[:12]} has "
            "no such file: fix the path (it is relative to the repository root) or commit the "
            f"file to the base branch; leave the input unset for {DEFAULT_CONFIG_PATH}"
        )
    config = parse_config(text, source=where) if text is not None else Config()
    verifiers_dir = _verifiers_dir(config_path)
    paths, _ = api.tree_paths(base_sha)
    policy: dict[str, str] = {}
    for path in sorted(paths):
        if (
            path.startswith(verifiers_dir)
            and path.endswith(".json")
            and "/" not in path[len(verifiers_dir) :]
        ):
            content = api.file_text(path, base_sha)
            if content is not None:
                policy[path] = content
    return BaseConfig(
        config, policy, where if text is not None else "defaults", _digest(text, policy)
    )


def _verifiers_dir(config_path: str) -> str:
    """``.pr-review/verifiers/`` next to the configuration file."""
    parent = dirname(config_path.strip("/"))
    return f"{parent}/verifiers/" if parent else VERIFIERS_DIR


def _digest(config_text: str | None, policy: dict[str, str]) -> str:
    data = json.dumps(
        {"version": __version__, "config": config_text, "policy": policy}, sort_keys=True
    )
    return hashlib.sha256(data.encode("utf-8")).hexdigest()[:16]
