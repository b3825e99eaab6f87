"""The model seam every model-using stage codes against.

:class:`StructuredModel` is implemented by the Anthropic gateway (``reviewers.gateway``,
the only module importing ``anthropic``) and by in-memory fakes in tests. Reviewers, the
synthesis tie-breaker, the grader and the comparator all call models through it, so they get
structured output validated with pydantic, one corrective retry, usage and cost recording,
and typed errors in one place.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from pydantic import BaseModel, ValidationError

from pr_review.errors import ReviewerOutputInvalid, ReviewerUnavailable
from pr_review.schema.run import ModelCall

T = TypeVar("T", bound=BaseModel)


@dataclass(frozen=True)
class ToolSpec:
    """A tool definition sent alongside the forced one, never chosen.

    The Messages API caches the prefix in the order tools -> system -> messages, and any
    difference in tool definitions invalidates all of it. Reviewers of one run therefore send
    the same tool list (every output type of the run) and force their own with
    ``tool_choice``; tool_choice changes only affect message-level cache entries.
    """

    name: str
    description: str
    output: type[BaseModel]


@dataclass(frozen=True)
class ModelRequest:
    """One structured-output request.

    Sent as: tools (the forced tool plus ``sibling_tools``, in a stable order), system
    (``system``, then ``shared_prefix`` marked for caching), one user turn (``prompt``).
    The shared prefix sits in the system blocks, not the user turn, so that calls forcing
    different tools still read it from cache; PR-authored text inside it is fenced and
    labelled as untrusted data by the code that builds it.
    """

    purpose: str
    """Who is asking (``fresh_eyes``, ``challenger``, ``policy``, ``grader`` ...); recorded."""
    model: str
    system: str
    """Instructions written by us, never PR-authored text. Keep it identical across the calls
    of a run (role-specific instructions go in ``prompt``) so the cached prefix is shared."""
    prompt: str
    """The request-specific part of the user turn (after the shared prefix)."""
    shared_prefix: str | None = None
    """Text shared by every call of a run (evidence pack + diff), sent first and marked for
    prompt caching so the second and later calls read it from cache."""
    unit_prefix: str | None = None
    """A review unit's own text (its diff), sent right after ``shared_prefix`` and also marked
    for caching (fresh-eyes and the challenger of one unit share it)."""
    tool_name: str = "submit"
    tool_description: str = "Submit the structured result."
    max_tokens: int = 8192
    sibling_tools: tuple[ToolSpec, ...] = ()
    """Other tools of the run, sent unchanged so every call's tool list is byte-identical."""


@dataclass(frozen=True)
class ModelResult(Generic[T]):
    """A validated answer and every call it took (one, or two after a corrective retry)."""

    value: T
    calls: tuple[ModelCall, ...]


class StructuredModel(Protocol):
    """Anything that can answer a :class:`ModelRequest` with a validated ``output`` model."""

    def complete(self, request: ModelRequest, output: type[T]) -> ModelResult[T]:
        """Return the validated answer.

        Raises :class:`ModelOutputInvalid` when the answer is still invalid after one
        corrective retry, :class:`ModelUnavailable` when the API cannot be used.
        """
        ...


class ModelOutputInvalid(ReviewerOutputInvalid):
    """Structured output failed validation twice; carries the calls made."""

    def __init__(self, message: str, *, calls: tuple[ModelCall, ...]) -> None:
        super().__init__(message)
        self.calls = calls


class ModelUnavailable(ReviewerUnavailable):
    """The API refused or could not be reached after the SDK's retries."""

    def __init__(self, message: str, *, calls: tuple[ModelCall, ...] = ()) -> None:
        super().__init__(message)
        self.calls = calls


def describe_validation_error(exc: ValidationError) -> str:
    """Each problem as ``path: message``; input values are not echoed."""
    parts = []
    for err in exc.errors(include_url=False, include_input=False)[:20]:
        path = ".".join(str(p) for p in err["loc"]) or "(top level)"
        parts.append(f"{path}: {err['msg']}")
    return "; ".join(parts)
