"""The action's inputs (``INPUT_*``) and the runner's variables (``GITHUB_*``), validated.

The runner does not enforce ``required`` and passes an unset input as an empty string, so
every input is checked here: an empty value means the default, a bad value is a
:class:`UserError` naming the input and what is allowed. Input ids are snake_case; the
runner upper-cases them and keeps hyphens, so ``INPUT_GITHUB-TOKEN`` is accepted too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pr_review.errors import UserError
from pr_review.publish.gate import Mode
from pr_review.reviewers.settings import PROVIDER_ENV
from pr_review.sources.github import DEFAULT_API_URL

_TRUE = frozenset({"true", "yes", "1", "on"})
_FALSE = frozenset({"false", "no", "0", "off"})
BOOL_INPUTS = ("post_comment", "inline_comments", "force", "fail_on_error", "review_drafts")


class ActionInputs(BaseModel):
    """Every input of ``action.yml``, with its default."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    github_token: str = Field(min_length=1)
    anthropic_api_key: str = ""
    config_path: str = ".pr-review/config.yml"
    model: str = ""
    challenger_model: str = ""
    mode: Mode = Mode.GATE
    post_comment: bool = True
    inline_comments: bool = True
    pr_number: int | None = Field(default=None, ge=1)
    force: bool = False
    fail_on_error: bool = True
    review_drafts: bool = False


def read_inputs(environ: Mapping[str, str]) -> ActionInputs:
    """The inputs from ``INPUT_*`` variables; a clear :class:`UserError` for a bad one."""
    raw: dict[str, object] = {}
    for name in ActionInputs.model_fields:
        value = _input(environ, name)
        if value == "":
            continue
        if name in BOOL_INPUTS:
            raw[name] = _bool(name, value)
        elif name == "mode" and value.lower() not in {m.value for m in Mode}:
            raise UserError(
                f"input `mode` is {value!r}; allowed: {', '.join(m.value for m in Mode)}."
            )
        elif name == "pr_number":
            raw[name] = _number(value)
        else:
            raw[name] = value.lower() if name == "mode" else value
    if "github_token" not in raw:
        raise UserError(
            "input `github_token` is empty: pass `github_token: ${{ github.token }}` "
            "(the default) or a token with pull-requests and checks write access."
        )
    try:
        return ActionInputs.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise UserError(f"input `{first['loc'][0]}`: {first['msg']}.") from exc


def _input(environ: Mapping[str, str], name: str) -> str:
    for key in (f"INPUT_{name.upper()}", f"INPUT_{name.upper().replace('_', '-')}"):
        if key in environ:
            return environ[key].strip()
    return ""


def _bool(name: str, value: str) -> bool:
    low = value.lower()
    if low in _TRUE:
        return True
    if low in _FALSE:
        return False
    raise UserError(
        f"input `{name}` is {value!r}; allowed: true or false "
        "(also yes/no, on/off, 1/0; any case)."
    )


def _api_url(environ: Mapping[str, str]) -> str:
    """``GITHUB_API_URL`` (default ``https://api.github.com``), checked to be an http(s) URL."""
    value = environ.get("GITHUB_API_URL", "").strip()
    if not value:
        return DEFAULT_API_URL
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018 (raises ValueError for a malformed port)
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        raise UserError(
            f"GITHUB_API_URL is {value!r}, not an http(s) URL: unset it for github.com or set "
            "it to your GitHub Enterprise Server API (https://HOST/api/v3)."
        )
    return value


def _number(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = 0
    if number < 1:
        raise UserError(
            f"input `pr_number` is {value!r}; allowed: a pull request number (1, 2, ...)."
        )
    return number


@dataclass(frozen=True)
class RunnerEnv:
    """What the runner tells the container."""

    event_name: str
    event_path: Path | None
    repository: str
    api_url: str
    output_path: Path | None
    summary_path: Path | None
    workspace: Path | None
    temp_dir: Path
    run_url: str | None
    anthropic_base_url: str
    provider_env: Mapping[str, str] = field(default_factory=dict)
    """The Bedrock/Vertex region and credential variables that are set (``PROVIDER_ENV``)."""

    @classmethod
    def from_environ(cls, environ: Mapping[str, str]) -> RunnerEnv:
        """Read the ``GITHUB_*`` variables; ``GITHUB_REPOSITORY`` is required."""
        repository = environ.get("GITHUB_REPOSITORY", "").strip()
        if "/" not in repository:
            raise UserError(
                "GITHUB_REPOSITORY is not set (owner/name): `pr-review action` runs inside a "
                "GitHub Actions job; use `pr-review review` locally."
            )
        server = environ.get("GITHUB_SERVER_URL", "").rstrip("/")
        run_id = environ.get("GITHUB_RUN_ID", "")
        return cls(
            event_name=environ.get("GITHUB_EVENT_NAME", "").strip(),
            event_path=_path(environ, "GITHUB_EVENT_PATH"),
            repository=repository,
            api_url=_api_url(environ),
            output_path=_path(environ, "GITHUB_OUTPUT"),
            summary_path=_path(environ, "GITHUB_STEP_SUMMARY"),
            workspace=_path(environ, "GITHUB_WORKSPACE"),
            temp_dir=_path(environ, "RUNNER_TEMP") or Path("/tmp"),  # noqa: S108 (runner default)
            run_url=f"{server}/{repository}/actions/runs/{run_id}" if server and run_id else None,
            anthropic_base_url=environ.get("ANTHROPIC_BASE_URL", "").strip(),
            provider_env={k: environ[k] for k in PROVIDER_ENV if environ.get(k, "").strip()},
        )


def _path(environ: Mapping[str, str], name: str) -> Path | None:
    value = environ.get(name, "").strip()
    return Path(value) if value else None
