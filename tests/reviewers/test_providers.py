"""Bedrock and Vertex through the SDK's own clients, against the loopback Messages API."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator

import pytest

from pr_review.config import Config
from pr_review.pipeline import model_from_env
from pr_review.reviewers.gateway import build_gateway, missing_credentials
from pr_review.reviewers.run import run_reviewers
from pr_review.reviewers.settings import PROVIDER_MODELS, Provider, ReviewerSettings
from pr_review.schema.run import ReviewerStatus
from tests.fakes.anthropic_server import FakeAnthropic, anthropic_server, by_tool, tool_reply
from tests.reviewers.builders import finding, make_pack, source_diff


@pytest.fixture
def server() -> Iterator[FakeAnthropic]:
    with anthropic_server(
        by_tool({"submit_review": lambda r: tool_reply(r, {"findings": [finding()]})})
    ) as fake:
        yield fake


def _review(settings: ReviewerSettings, env: dict[str, str]) -> str:
    model = build_gateway(settings, env)
    assert model is not None
    diff = source_diff()
    try:
        outcome = run_reviewers(make_pack(diff), diff, settings, model=model)
    finally:
        model.close()  # type: ignore[attr-defined]
    fresh = next(r for r in outcome.runs if r.name == "fresh_eyes")
    assert fresh.status is ReviewerStatus.RAN, fresh.reason
    assert fresh.findings_count == 1
    (call,) = fresh.calls
    assert call.model == "claude-sonnet-4-6"  # recorded and priced under our id
    assert call.cost_usd is not None
    return fresh.reason or ""


def test_bedrock_with_an_api_key_calls_invoke_with_the_mapped_model(
    server: FakeAnthropic,
) -> None:
    settings = ReviewerSettings(provider=Provider.BEDROCK)
    env = {
        "AWS_REGION": "us-west-2",
        "AWS_BEARER_TOKEN_BEDROCK": "bedrock-test-token",
        "ANTHROPIC_BEDROCK_BASE_URL": server.base_url,
    }
    _review(settings, env)
    (request,) = server.requests
    assert request.path == "/model/anthropic.claude-sonnet-4-6/invoke"
    assert request.headers["authorization"] == "Bearer bedrock-test-token"
    assert request.json["anthropic_version"]  # in the body, as Bedrock wants it
    assert "model" not in request.json


def test_vertex_with_an_access_token_calls_raw_predict_with_the_mapped_model(
    server: FakeAnthropic,
) -> None:
    settings = ReviewerSettings(
        provider=Provider.VERTEX, provider_models={"claude-sonnet-4-6": "claude-sonnet-4-6@2026"}
    )
    env = {
        "CLOUD_ML_REGION": "us-east5",
        "ANTHROPIC_VERTEX_PROJECT_ID": "demo-project",
        "GOOGLE_OAUTH_ACCESS_TOKEN": "ya29.test",
        "ANTHROPIC_VERTEX_BASE_URL": server.base_url,
    }
    _review(settings, env)
    (request,) = server.requests
    assert request.path == (
        "/projects/demo-project/locations/us-east5/publishers/anthropic/models/"
        "claude-sonnet-4-6@2026:rawPredict"
    )
    assert request.headers["authorization"] == "Bearer ya29.test"
    assert request.json["anthropic_version"]  # in the body, as Vertex wants it


def test_every_default_model_has_an_id_on_each_provider() -> None:
    defaults = ReviewerSettings()
    used = {defaults.fresh_eyes_model, defaults.challenger.model, defaults.policy_model}
    for provider in (Provider.BEDROCK, Provider.VERTEX):
        assert used <= set(PROVIDER_MODELS[provider]), provider


@pytest.mark.parametrize(
    ("provider", "env", "expected"),
    [
        (Provider.ANTHROPIC, {}, "no ANTHROPIC_API_KEY"),
        (Provider.BEDROCK, {"AWS_BEARER_TOKEN_BEDROCK": "t"}, "AWS_REGION is not set"),
        (Provider.BEDROCK, {"AWS_REGION": "us-east-1"}, "no AWS credentials are set"),
        (Provider.VERTEX, {"GOOGLE_OAUTH_ACCESS_TOKEN": "t"}, "CLOUD_ML_REGION is not set"),
        (
            Provider.VERTEX,
            {"CLOUD_ML_REGION": "us-east5", "GOOGLE_OAUTH_ACCESS_TOKEN": "t"},
            "ANTHROPIC_VERTEX_PROJECT_ID",
        ),
    ],
)
def test_missing_credentials_name_the_variable(
    provider: Provider, env: dict[str, str], expected: str
) -> None:
    settings = ReviewerSettings(provider=provider)
    reason = missing_credentials(settings, env)
    assert reason is not None
    assert expected in reason
    assert build_gateway(settings, env) is None
    config = Config(reviewers=settings)
    model, why = model_from_env(config, env)
    assert model is None
    assert why == f"{reason}: AI reviewers did not run"


@pytest.mark.skipif(
    importlib.util.find_spec("boto3") is not None, reason="boto3 installed: IAM signing works"
)
def test_bedrock_iam_credentials_without_boto3_say_how_to_fix() -> None:
    settings = ReviewerSettings(provider=Provider.BEDROCK)
    env = {
        "AWS_REGION": "eu-west-1",
        "AWS_ACCESS_KEY_ID": "AKIDEXAMPLE",
        "AWS_SECRET_ACCESS_KEY": "x",
    }
    reason = missing_credentials(settings, env)
    assert reason is not None
    assert "pip install 'anthropic[bedrock]'" in reason


def test_the_clients_are_built_from_the_standard_variables(server: FakeAnthropic) -> None:
    bedrock = build_gateway(
        ReviewerSettings(provider=Provider.BEDROCK),
        {"AWS_DEFAULT_REGION": "ap-south-1", "AWS_BEARER_TOKEN_BEDROCK": "t"},
    )
    assert bedrock is not None
    assert bedrock.base_url == "https://bedrock-runtime.ap-south-1.amazonaws.com"  # type: ignore[attr-defined]
    vertex = build_gateway(
        ReviewerSettings(provider=Provider.VERTEX),
        {
            "CLOUD_ML_REGION": "europe-west1",
            "GOOGLE_CLOUD_PROJECT": "p",
            "GOOGLE_OAUTH_ACCESS_TOKEN": "t",
        },
    )
    assert vertex is not None
    assert vertex.base_url == "https://europe-west1-aiplatform.googleapis.com/v1/"  # type: ignore[attr-defined]
    for gateway in (bedrock, vertex):
        gateway.close()  # type: ignore[attr-defined]
