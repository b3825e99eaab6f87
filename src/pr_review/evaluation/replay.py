"""Recorded model outputs: answer from ``recorded/<purpose>.json`` instead of calling a model.

A recording file holds one answer object, or a list of them (answered in order, the last one
repeated), or ``{"responses": [...], "usage": {"input_tokens": N, "output_tokens": M}}``.
The file stem is the request's ``purpose`` (``fresh_eyes``, ``challenger``, ``policy``,
``grader``, ``comparator`` ...). A purpose with no recording raises :class:`ModelUnavailable`,
which every stage already records as a skipped or failed step, so the run goes on offline.

:class:`RecordingModel` wraps a real model and writes what it answered in the same format,
so recordings are made by running the eval once with a key.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from pr_review.reviewers.interface import (
    ModelOutputInvalid,
    ModelRequest,
    ModelResult,
    ModelUnavailable,
    StructuredModel,
    T,
)
from pr_review.schema.run import ModelCall

REPLAY_SUFFIX = " (replay)"


class ReplayModel:
    """A :class:`StructuredModel` answering from recordings keyed by purpose."""

    def __init__(self, recordings: Mapping[str, list[dict[str, Any]]],
                 usage: Mapping[str, Mapping[str, int]] | None = None) -> None:
        self._recordings = {k: list(v) for k, v in recordings.items()}
        self._usage = dict(usage or {})
        self._served: dict[str, int] = {}
        self._lock = threading.Lock()

    @classmethod
    def from_dir(cls, recorded_dir: Path) -> ReplayModel:
        """Load every ``*.json`` in ``recorded_dir`` (an absent directory = no recordings)."""
        recordings: dict[str, list[dict[str, Any]]] = {}
        usage: dict[str, Mapping[str, int]] = {}
        if recorded_dir.is_dir():
            for path in sorted(recorded_dir.glob("*.json")):
                data = json.loads(path.read_text(encoding="utf-8"))
                if isinstance(data, dict) and "responses" in data:
                    usage[path.stem] = dict(data.get("usage", {}))
                    data = data["responses"]
                recordings[path.stem] = data if isinstance(data, list) else [data]
        return cls(recordings, usage)

    @property
    def purposes(self) -> frozenset[str]:
        """Purposes that have a recording."""
        return frozenset(k for k, v in self._recordings.items() if v)

    def complete(self, request: ModelRequest, output: type[T]) -> ModelResult[T]:
        """The next recorded answer for ``request.purpose``, validated as ``output``."""
        answers = self._recordings.get(request.purpose)
        if not answers:
            raise ModelUnavailable(f"no recorded output for {request.purpose!r} (replay)")
        with self._lock:
            index = self._served.get(request.purpose, 0)
            self._served[request.purpose] = index + 1
        usage = self._usage.get(request.purpose, {})
        call = ModelCall(
            reviewer=request.purpose,
            model=request.model + REPLAY_SUFFIX,
            input_tokens=int(usage.get("input_tokens", 0)),
            output_tokens=int(usage.get("output_tokens", 0)),
            cost_usd=0.0,
        )
        try:
            value = output.model_validate(answers[min(index, len(answers) - 1)])
        except ValidationError as exc:
            raise ModelOutputInvalid(
                f"recorded output for {request.purpose!r} does not validate: {exc}",
                calls=(call.model_copy(update={"ok": False, "error": "invalid recording"}),),
            ) from exc
        return ModelResult(value=value, calls=(call,))


class RecordingModel:
    """Delegates to a real model and keeps each answer, by purpose, for :meth:`write`."""

    def __init__(self, inner: StructuredModel) -> None:
        self._inner = inner
        self._answers: dict[str, list[dict[str, Any]]] = {}
        self._lock = threading.Lock()

    def complete(self, request: ModelRequest, output: type[T]) -> ModelResult[T]:
        """Answer through the inner model and remember the validated answer."""
        result = self._inner.complete(request, output)
        with self._lock:
            self._answers.setdefault(request.purpose, []).append(
                result.value.model_dump(mode="json", by_alias=True)
            )
        return result

    def write(self, recorded_dir: Path) -> tuple[Path, ...]:
        """Write one ``<purpose>.json`` per purpose answered; returns the files written."""
        recorded_dir.mkdir(parents=True, exist_ok=True)
        written = []
        with self._lock:
            items = sorted(self._answers.items())
        for purpose, answers in items:
            path = recorded_dir / f"{purpose}.json"
            path.write_text(json.dumps(answers, indent=2) + "\n", encoding="utf-8")
            written.append(path)
        return tuple(written)
