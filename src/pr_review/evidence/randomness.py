"""Random sources swapped between a predictable generator and a cryptographic one.

A token, a nonce, an OAuth ``state``, a session id or a placeholder that an attacker must not
guess is safe only when drawn from a cryptographic source; drawn from a seeded, predictable
generator it can be guessed (CWE-338). Moving a file from one kind of source to the other is
how that is fixed (goth's OAuth state from ``math/rand`` to ``crypto/rand``,
serialize-javascript's placeholder from ``Math.random()`` to ``randomBytes``:
CVE-2020-7660) or reopened, in every language. Each language's sources are read on its syntax
tree, as data (``SOURCES``):

- Python (:mod:`ast`): calls of the ``random`` module (``random.choice(...)``, or a name
  imported from it) are predictable, except ``random.SystemRandom``; calls of ``secrets``,
  ``os.urandom`` and ``SystemRandom`` are cryptographic.
- Go (tree-sitter): importing ``math/rand`` (or ``math/rand/v2``) is predictable, importing
  ``crypto/rand`` cryptographic.
- JavaScript/TypeScript (tree-sitter): ``Math.random()`` is predictable; calls named
  ``randomBytes``, ``getRandomValues``, ``randomUUID``, ``randomInt``, ``randomFill(Sync)``
  are cryptographic.

Factor ``randomness-source-changed`` (red): in one code file of the PR, predictable sources
went down while cryptographic ones went up, or the other way round. A file only adding one
kind (a retry's jitter, a new id) or dropping one kind is not a swap and does not count; a
swap in a test file is not read.

Examples (run by the test suite, ``RANDOMNESS_EXAMPLES``): (path, base, head, red?).
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import dataclass

from pr_review.evidence.grammars import call_arguments, go_import_paths
from pr_review.evidence.lexing import shorten
from pr_review.evidence.pyast import parse_python
from pr_review.evidence.scopes import PYTHON_EXTENSIONS
from pr_review.evidence.sides import code_sides
from pr_review.schema.enums import FactorSeverity
from pr_review.schema.pack import RiskFactor
from pr_review.sources.diff import FileDiff
from pr_review.sources.model import RepoTree

FACTOR = "randomness-source-changed"

PREDICTABLE = "predictable"
CRYPTOGRAPHIC = "cryptographic"


@dataclass(frozen=True)
class Sources:
    """What one language calls or imports for random values, by kind."""

    predictable: frozenset[str]
    cryptographic: frozenset[str]


SOURCES: dict[str, Sources] = {
    # dotted names of calls, after names imported from a module are resolved
    "python": Sources(
        predictable=frozenset({"random.*"}),
        cryptographic=frozenset(
            {"secrets.*", "os.urandom", "random.SystemRandom", "SystemRandom"}
        ),
    ),
    # import paths
    "go": Sources(
        predictable=frozenset({"math/rand", "math/rand/v2"}),
        cryptographic=frozenset({"crypto/rand"}),
    ),
    # callees (a bare name or the last name of a member call)
    "javascript": Sources(
        predictable=frozenset({"Math.random"}),
        cryptographic=frozenset({
            "randomBytes", "getRandomValues", "randomUUID", "randomInt", "randomFill",
            "randomFillSync",
        }),
    ),
}
"""Predictable and cryptographic random sources of each language, as data."""

_PYTHON_MODULES = frozenset({"random", "secrets", "os"})
_JS_CALLEES = frozenset({"random"}) | SOURCES["javascript"].cryptographic


@dataclass(frozen=True)
class RandomSource:
    """A call or an import that draws random values, and its kind."""

    line: int
    code: str
    kind: str


def _matches(name: str, patterns: frozenset[str]) -> bool:
    return name in patterns or any(
        p.endswith(".*") and name.startswith(p[:-1]) for p in patterns
    )


def _kind(name: str, sources: Sources) -> str | None:
    """Cryptographic before predictable: ``random.SystemRandom`` is both by pattern."""
    if _matches(name, sources.cryptographic):
        return CRYPTOGRAPHIC
    return PREDICTABLE if _matches(name, sources.predictable) else None


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        owner = _dotted(node.value)
        return None if owner is None else f"{owner}.{node.attr}"
    return None


def _python_sources(source: str) -> list[RandomSource] | None:
    tree = parse_python(source)
    if tree is None:
        return None
    imported: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(
                (alias.asname or alias.name, alias.name)
                for alias in node.names if alias.name in _PYTHON_MODULES
            )  # fmt: skip
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (
            node.module in _PYTHON_MODULES
        ):
            imported.update(
                (alias.asname or alias.name, f"{node.module}.{alias.name}")
                for alias in node.names
            )
    out: list[RandomSource] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = _dotted(node.func)
        if name is None:
            continue
        head, _, rest = name.partition(".")
        if head not in imported:
            continue
        full = imported[head] + (f".{rest}" if rest else "")
        kind = _kind(full, SOURCES["python"])
        if kind is not None:
            out.append(RandomSource(node.lineno, shorten(ast.unparse(node), 80), kind))
    return out


def sources(path: str, source: str | None) -> list[RandomSource] | None:
    """The random sources ``source`` draws from; None when it is not read on a tree."""
    if source is None:
        return None
    if path.endswith(PYTHON_EXTENSIONS):
        return _python_sources(source)
    imports = go_import_paths(path, source)
    if imports is not None:
        return [
            RandomSource(line, f'import "{value}"', kind)
            for line, value in imports
            if (kind := _kind(value, SOURCES["go"])) is not None
        ]
    calls = call_arguments(path, source, _JS_CALLEES)
    if calls is None:
        return None
    found = []
    for call in calls:
        name = call.callee if call.callee == "Math.random" else call.callee.rsplit(".", 1)[-1]
        kind = _kind(name, SOURCES["javascript"])
        if kind is not None:
            found.append(RandomSource(call.line, shorten(call.code, 80), kind))
    return found


def _count(found: list[RandomSource], kind: str) -> int:
    return sum(s.kind == kind for s in found)


def randomness_factors(
    files: Sequence[FileDiff], base: RepoTree, head: RepoTree
) -> list[RiskFactor]:
    """One red factor at the first code file whose predictable and cryptographic random
    sources moved in opposite directions."""
    for side in code_sides(files, base, head, sources):
        predictable = _count(side.new, PREDICTABLE) - _count(side.old, PREDICTABLE)
        cryptographic = _count(side.new, CRYPTOGRAPHIC) - _count(side.old, CRYPTOGRAPHIC)
        if predictable * cryptographic >= 0:
            continue
        stronger = cryptographic > 0
        added = next(
            s for s in side.new if s.kind == (CRYPTOGRAPHIC if stronger else PREDICTABLE)
        )
        gone = next(
            s for s in side.old if s.kind == (PREDICTABLE if stronger else CRYPTOGRAPHIC)
        )
        verb = "replaced by a cryptographic one" if stronger else "replaced by a predictable one"
        first = "a predictable random source" if stronger else "a cryptographic random source"
        return [
            RiskFactor(
                factor=FACTOR,
                files=(side.path,),
                severity=FactorSeverity.RED,
                why=f"{first} {verb} (line {added.line}: `{added.code}`; line {gone.line} of "
                f"the base file: `{gone.code}`): tokens, nonces, OAuth state and ids drawn "
                "from a predictable generator can be guessed (CWE-338); which source a file "
                "draws from decides whether they can",
            )
        ]
    return []


RANDOMNESS_EXAMPLES: tuple[tuple[str, str, str, bool], ...] = (
    # predictable -> cryptographic: goth's OAuth state, serialize-javascript CVE-2020-7660
    (
        "gothic.go",
        (
            'package g\nimport (\n\t"fmt"\n\t"math/rand"\n)\nfunc state() string {\n'
            "\treturn fmt.Sprint(rand.Int63())\n}\n"
        ),
        (
            'package g\nimport (\n\t"crypto/rand"\n\t"encoding/base64"\n)\n'
            "func state() string {\n\tb := make([]byte, 64)\n\trand.Read(b)\n"
            "\treturn base64.URLEncoding.EncodeToString(b)\n}\n"
        ),
        True,
    ),
    (
        "index.js",
        "var UID = Math.floor(Math.random() * 0x10000000000).toString(16);\n",
        "var randomBytes = require('randombytes');\nvar UID = randomBytes(16).toString('hex');\n",
        True,
    ),
    (
        "tokens.py",
        "import random\ndef token():\n    return ''.join(random.choice(ABC) for _ in range(32))\n",
        "import secrets\ndef token():\n    return secrets.token_urlsafe(32)\n",
        True,
    ),
    (  # a name imported from the module, SystemRandom swapped for it: weakened
        "nonce.py",
        (
            "from random import SystemRandom\ndef nonce():\n"
            "    return SystemRandom().getrandbits(64)\n"
        ),
        "from random import getrandbits\ndef nonce():\n    return getrandbits(64)\n",
        True,
    ),
    (
        "id.ts",
        "export const id = () => crypto.randomUUID();\n",
        "export const id = () => Math.random().toString(36).slice(2);\n",
        True,
    ),
    # one kind only added or dropped: a retry's jitter, a new id, a shuffle removed
    (
        "retry.js",
        "function delay(n) { return 2 ** n * 100 }\n",
        "function delay(n) { return 2 ** n * 100 + Math.random() * 100 }\n",
        False,
    ),
    (
        "ids.go",
        'package p\nimport "fmt"\nfunc id() string { return fmt.Sprint(1) }\n',
        (
            'package p\nimport (\n\t"crypto/rand"\n\t"fmt"\n)\n'
            "func id() string { b := make([]byte, 8); rand.Read(b); return fmt.Sprint(b) }\n"
        ),
        False,
    ),
    (
        "sample.py",
        "import random\ndef pick(xs):\n    return random.choice(xs)\n",
        "def pick(xs):\n    return xs[0]\n",
        False,
    ),
    (  # a method named like the module's function on another object is no source
        "lb.py",
        "import secrets\ndef pick(self, xs):\n    return secrets.choice(xs)\n",
        "def pick(self, xs):\n    return self.rng.choice(xs)\n",
        False,
    ),
    (  # lodash's random, another library's randomBytes-free helper: not Math.random
        "shuffle.js",
        "const n = crypto.randomInt(10)\n",
        "const n = _.random(10)\n",
        False,
    ),
)
"""A base and a head source of one file, and whether the change is red."""
