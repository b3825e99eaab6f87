"""Which model credentials the environment lacks, without loading the model SDK.

Kept apart from :mod:`.gateway` (which imports :mod:`anthropic`) so a review without
credentials, and every command that only builds a pack, never pays for that import.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping
from typing import assert_never

from pr_review.reviewers.settings import Provider, ReviewerSettings


def missing_credentials(settings: ReviewerSettings, env: Mapping[str, str]) -> str | None:
    """Why the configured provider cannot be used from ``env`` (and the fix), or None."""
    match settings.provider:
        case Provider.ANTHROPIC:
            return None if env_value(env, "ANTHROPIC_API_KEY") else "no ANTHROPIC_API_KEY"
        case Provider.BEDROCK:
            return _bedrock_missing(env)
        case Provider.VERTEX:
            return _vertex_missing(env)
        case _ as unreachable:
            assert_never(unreachable)


def _bedrock_missing(env: Mapping[str, str]) -> str | None:
    if not (env_value(env, "AWS_REGION") or env_value(env, "AWS_DEFAULT_REGION")):
        return "reviewers.provider is bedrock but AWS_REGION is not set"
    if env_value(env, "AWS_BEARER_TOKEN_BEDROCK"):
        return None
    keys = env_value(env, "AWS_ACCESS_KEY_ID") and env_value(env, "AWS_SECRET_ACCESS_KEY")
    if not (keys or env_value(env, "AWS_PROFILE")):
        return (
            "reviewers.provider is bedrock but no AWS credentials are set "
            "(AWS_BEARER_TOKEN_BEDROCK, AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or AWS_PROFILE)"
        )
    return _needs("boto3", "bedrock", "AWS_BEARER_TOKEN_BEDROCK")


def _vertex_missing(env: Mapping[str, str]) -> str | None:
    if not env_value(env, "CLOUD_ML_REGION"):
        return "reviewers.provider is vertex but CLOUD_ML_REGION is not set"
    if not env_value(env, "GOOGLE_OAUTH_ACCESS_TOKEN"):
        return _needs("google.auth", "vertex", "GOOGLE_OAUTH_ACCESS_TOKEN")
    if env_value(env, "ANTHROPIC_VERTEX_PROJECT_ID") or env_value(env, "GOOGLE_CLOUD_PROJECT"):
        return None
    return (
        "reviewers.provider is vertex but neither ANTHROPIC_VERTEX_PROJECT_ID nor "
        "GOOGLE_CLOUD_PROJECT is set"
    )


def _needs(module: str, extra: str, token_variable: str) -> str | None:
    """Signing with ambient cloud credentials needs the SDK's optional extra."""
    try:
        found = importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        found = False
    if found:
        return None
    return (
        f"reviewers.provider is {extra}: ambient credentials need `{module}` "
        f"(pip install 'anthropic[{extra}]'), or set {token_variable}"
    )


def env_value(env: Mapping[str, str], name: str) -> str | None:
    """``env[name]`` stripped; None when absent or blank."""
    return env.get(name, "").strip() or None
