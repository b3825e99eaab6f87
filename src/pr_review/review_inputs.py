"""What a local review reads from the PR's base revision: its configuration and policy files.

Shared by ``pr-review pack/review``, the eval and the backtest. Reading the base, never the
head, keeps a PR from weakening its own review.
"""

from __future__ import annotations

from pathlib import Path

from pr_review.config import CONFIG_RELPATH, Config, load_config, parse_config
from pr_review.errors import UserError
from pr_review.sources.model import PullRequest

POLICY_DIR = ".pr-review/verifiers/"


def config_for(pr: PullRequest, explicit: Path | None) -> Config:
    """``explicit`` (``--config``) when given, else the BASE revision's ``.pr-review/config.yml``.

    Defaults when the base revision has none.
    """
    if explicit is not None:
        return explicit_config(explicit)
    text = pr.base_tree.read(CONFIG_RELPATH.as_posix())
    if text is None:
        return Config()
    return parse_config(text, source=f"{pr.base_ref or 'base'}:{CONFIG_RELPATH.as_posix()}")


def explicit_config(path: Path) -> Config:
    """The configuration file given with ``--config``; a clear error when it is a directory,
    missing or invalid."""
    if path.is_dir():
        raise UserError(
            f"--config {path} is a directory: pass the YAML file itself "
            f"(e.g. --config {path / CONFIG_RELPATH})."
        )
    if not path.is_file():
        raise UserError(f"--config {path}: no such file. Pass an existing YAML file.")
    return load_config(path)


def policy_files_of(pr: PullRequest) -> dict[str, str]:
    """``.pr-review/verifiers/*.json`` of the base revision, name -> text."""
    files: dict[str, str] = {}
    for path in sorted(pr.base_tree.paths()):
        if path.startswith(POLICY_DIR) and path.endswith(".json") and "/" not in path[
            len(POLICY_DIR):
        ]:
            text = pr.base_tree.read(path)
            if text is not None:
                files[path[len(POLICY_DIR):]] = text
    return files
