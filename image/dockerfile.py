"""The Dockerfile as data: its instructions, parsed, and the build context `.dockerignore` leaves.

The image test executes these instructions itself (there is no Docker engine on the machines
this project is built on), so it understands exactly the subset the Dockerfile uses and refuses
anything else: a new instruction in the Dockerfile fails the image test until the test learns
it, and the two cannot drift apart. Pure functions; nothing here touches the file system except
:func:`context_files`, which only lists.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

SUPPORTED = ("FROM", "RUN", "COPY", "ENV", "ENTRYPOINT")
DEFAULT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
"""Docker's PATH for a base image that sets none (Debian's official images set this one)."""


class DockerfileError(ValueError):
    """An instruction the image test does not understand, or one that is malformed."""


@dataclass(frozen=True)
class Instruction:
    """One instruction: its keyword, its argument text and where it starts (1-based line)."""

    keyword: str
    text: str
    line: int


@dataclass(frozen=True)
class Run:
    """RUN: a shell command (shell form) or an argv (exec form)."""

    argv: tuple[str, ...]
    line: int


@dataclass(frozen=True)
class Copy:
    """COPY sources (relative to the context) to a destination in the image."""

    sources: tuple[str, ...]
    dest: str
    line: int


@dataclass(frozen=True)
class SetEnv:
    """ENV: variables set for every later step and for the entrypoint."""

    values: tuple[tuple[str, str], ...]
    line: int


Step = Run | Copy | SetEnv


@dataclass(frozen=True)
class Image:
    """The Dockerfile understood: its base, its steps in order, and its entrypoint."""

    base: str
    steps: tuple[Step, ...]
    entrypoint: tuple[str, ...]
    env: tuple[tuple[str, str], ...] = field(default=())
    """The environment after every ENV (the container's environment, PATH included)."""


def instructions(text: str) -> list[Instruction]:
    """Logical instructions: comments and blank lines dropped, ``\\`` continuations joined."""
    out: list[Instruction] = []
    pending: list[str] = []
    start = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        if pending and stripped.startswith("#"):
            continue  # Docker drops comment lines inside a continuation
        if not pending:
            start = number
        if stripped.endswith("\\"):
            pending.append(stripped[:-1].strip())
            continue
        pending.append(stripped)
        joined = " ".join(p for p in pending if p)
        pending = []
        keyword, _, rest = joined.partition(" ")
        out.append(Instruction(keyword.upper(), rest.strip(), start))
    if pending:
        raise DockerfileError(f"line {start}: the file ends inside a continuation")
    return out


def parse(text: str) -> Image:
    """The image the Dockerfile describes; :class:`DockerfileError` for anything unsupported."""
    base: str | None = None
    steps: list[Step] = []
    entrypoint: tuple[str, ...] | None = None
    env: dict[str, str] = {"PATH": DEFAULT_PATH}
    for ins in instructions(text):
        if ins.keyword not in SUPPORTED:
            raise DockerfileError(
                f"line {ins.line}: {ins.keyword} is not understood by the image test "
                f"(it executes {', '.join(SUPPORTED)}); teach image/dockerfile.py first"
            )
        if ins.keyword == "FROM":
            base = _base(ins, base)
            continue
        if base is None:
            raise DockerfileError(f"line {ins.line}: {ins.keyword} before FROM")
        if entrypoint is not None:
            raise DockerfileError(f"line {ins.line}: ENTRYPOINT must be the last instruction")
        if ins.keyword == "ENTRYPOINT":
            entrypoint = _exec_form(ins)
        else:
            steps.append(_step(ins, env))
    if base is None:
        raise DockerfileError("no FROM instruction")
    if entrypoint is None:
        raise DockerfileError("no ENTRYPOINT instruction")
    return Image(base, tuple(steps), entrypoint, tuple(env.items()))


def _base(ins: Instruction, base: str | None) -> str:
    if base is not None:
        raise DockerfileError(f"line {ins.line}: one FROM only (no multi-stage builds)")
    if ins.text.startswith("--") or " " in ins.text:
        raise DockerfileError(f"line {ins.line}: FROM takes an image name only")
    return ins.text


def _step(ins: Instruction, env: dict[str, str]) -> Step:
    """RUN, COPY or ENV; ENV also updates ``env`` for the instructions after it."""
    if ins.keyword == "RUN":
        return Run(_command(ins), ins.line)
    if ins.keyword == "COPY":
        return _copy(ins, env)
    values = _env_values(ins, env)
    env.update(values)
    return SetEnv(tuple(values.items()), ins.line)


def _command(ins: Instruction) -> tuple[str, ...]:
    if ins.text.startswith("--"):
        raise DockerfileError(
            f"line {ins.line}: RUN flags ({ins.text.split()[0]}) are not supported"
        )
    if ins.text.startswith("["):
        return _exec_form(ins)
    return ("/bin/sh", "-c", ins.text)


def _exec_form(ins: Instruction) -> tuple[str, ...]:
    try:
        value = json.loads(ins.text)
    except json.JSONDecodeError as err:
        raise DockerfileError(f"line {ins.line}: {ins.keyword} needs the JSON exec form") from err
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise DockerfileError(f"line {ins.line}: {ins.keyword} needs a JSON list of strings")
    return tuple(value)


def _copy(ins: Instruction, env: Mapping[str, str]) -> Copy:
    if ins.text.startswith("--") or ins.text.startswith("["):
        raise DockerfileError(f"line {ins.line}: COPY takes plain `SRC... DEST` only")
    words = [expand(w, env) for w in shlex.split(ins.text)]
    if len(words) < 2:
        raise DockerfileError(f"line {ins.line}: COPY needs a source and a destination")
    *sources, dest = words
    for src in sources:
        if PurePosixPath(src).is_absolute() or ".." in PurePosixPath(src).parts:
            raise DockerfileError(f"line {ins.line}: COPY source {src!r} leaves the context")
        if any(c in src for c in "*?["):
            raise DockerfileError(f"line {ins.line}: COPY wildcards are not supported")
    if not dest.startswith("/"):
        raise DockerfileError(f"line {ins.line}: COPY destination must be absolute (no WORKDIR)")
    return Copy(tuple(sources), dest, ins.line)


_ENV_PAIR = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=(.*)$", re.DOTALL)


def _env_values(ins: Instruction, env: Mapping[str, str]) -> dict[str, str]:
    words = shlex.split(ins.text)
    if not words:
        raise DockerfileError(f"line {ins.line}: ENV needs a value")
    if "=" not in words[0]:  # legacy form: ENV KEY value with spaces
        key, _, value = ins.text.partition(" ")
        return {key: expand(value.strip(), env)}
    out: dict[str, str] = {}
    for word in words:
        match = _ENV_PAIR.match(word)
        if match is None:
            raise DockerfileError(f"line {ins.line}: ENV expects KEY=VALUE, got {word!r}")
        # Every pair of one ENV sees the environment before that instruction, as in Docker.
        out[match.group(1)] = expand(match.group(2), env)
    return out


_VAR = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))")


def expand(value: str, env: Mapping[str, str]) -> str:
    """``$VAR`` and ``${VAR}`` replaced from ``env`` (unset: empty), as Docker does in ENV/COPY."""
    return _VAR.sub(lambda m: env.get(m.group(1) or m.group(2), ""), value)


# -- .dockerignore -----------------------------------------------------------------------------


@dataclass(frozen=True)
class IgnoreRule:
    """One `.dockerignore` line: a pattern, and whether it re-includes (``!``)."""

    regex: re.Pattern[str]
    include: bool


def ignore_rules(text: str) -> list[IgnoreRule]:
    """The rules of a `.dockerignore` file, in order (the last matching rule decides)."""
    rules = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        include = line.startswith("!")
        pattern = os.path.normpath(line[1:].strip() if include else line).lstrip("/")
        if pattern in ("", "."):
            continue
        rules.append(IgnoreRule(re.compile(_glob_regex(pattern)), include))
    return rules


def _glob_regex(pattern: str) -> str:
    """Go's filepath.Match syntax plus ``**`` (any number of directories), as Docker reads it."""
    out = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**", i):
            i += 2
            if pattern.startswith("/", i):
                i += 1
                out.append("(?:.*/)?")
            else:
                out.append(".*")
            continue
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            end = pattern.find("]", i + 1)
            if end == -1:
                out.append(re.escape(c))
            else:
                body = pattern[i + 1 : end]
                body = "^" + body[1:] if body.startswith("^") else body
                out.append(f"[{body}]")
                i = end
        elif c == "\\" and i + 1 < len(pattern):
            i += 1
            out.append(re.escape(pattern[i]))
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out) + "$"


def ignored(path: str, rules: list[IgnoreRule]) -> bool:
    """Whether the context-relative ``path`` is left out: a rule matches the path or a parent."""
    parts = PurePosixPath(path).parts
    prefixes = ["/".join(parts[: n + 1]) for n in range(len(parts))]
    verdict = False
    for rule in rules:
        if any(rule.regex.match(p) for p in prefixes):
            verdict = not rule.include
    return verdict


def context_files(context: Path, rules: list[IgnoreRule]) -> Iterator[str]:
    """Context-relative paths of the regular files and symlinks a build would send, sorted."""
    for dirpath, dirnames, filenames in os.walk(context):
        rel_dir = Path(dirpath).relative_to(context).as_posix()
        prefix = "" if rel_dir == "." else f"{rel_dir}/"
        # A directory excluded outright is not walked unless some rule could re-include below it.
        if not any(r.include for r in rules):
            dirnames[:] = [d for d in dirnames if not ignored(prefix + d, rules)]
        dirnames.sort()
        for name in sorted(filenames):
            rel = prefix + name
            if not ignored(rel, rules):
                yield rel
