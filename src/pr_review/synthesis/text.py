"""Deterministic text similarity for clustering findings.

A finding's text becomes a set of normalized terms: lower-cased words and code identifiers,
stop-words removed, suffixes stripped ("stemming-lite"), and security phrases mapped to one
concept term each (``redis key`` and ``cache key`` both become ``@cache_key``). Two term
sets are compared with a weighted Jaccard index in which each term weighs its inverse
document frequency over the findings being synthesized: terms every finding shares (the
name of the function the whole PR touches) count little, rare shared terms count a lot.
The weights depend only on the *set* of findings, so the result is independent of order.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

_WORD = re.compile(r"[a-z0-9_]+(?:\(\))?")

STOPWORDS = frozenset(
    (
        "a",
        "an",
        "the",
        "and",
        "or",
        "but",
        "if",
        "then",
        "else",
        "of",
        "to",
        "in",
        "on",
        "at",
        "by",
        "for",
        "from",
        "with",
        "without",
        "into",
        "onto",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "this",
        "that",
        "these",
        "those",
        "it",
        "its",
        "as",
        "not",
        "no",
        "nor",
        "so",
        "than",
        "too",
        "very",
        "can",
        "could",
        "should",
        "would",
        "will",
        "may",
        "might",
        "must",
        "shall",
        "do",
        "does",
        "did",
        "done",
        "has",
        "have",
        "had",
        "having",
        "which",
        "who",
        "whom",
        "whose",
        "what",
        "when",
        "where",
        "why",
        "how",
        "all",
        "any",
        "both",
        "each",
        "few",
        "more",
        "most",
        "other",
        "some",
        "such",
        "only",
        "own",
        "same",
        "just",
        "also",
        "there",
        "here",
        "their",
        "them",
        "they",
        "we",
        "you",
        "your",
        "our",
        "us",
        "i",
        "me",
        "my",
        "he",
        "she",
        "his",
        "her",
        "via",
        "per",
        "about",
        "above",
        "below",
        "after",
        "before",
        "over",
        "under",
        "again",
        "further",
        "once",
        "while",
        "until",
        "because",
        "between",
        "through",
        "during",
        "out",
        "up",
        "down",
        "off",
        "issue",
        "issues",
        "problem",
        "potential",
        "potentially",
        "possible",
        "possibly",
        "likely",
        "code",
        "line",
        "lines",
        "function",
        "method",
        "call",
        "calls",
        "called",
        "use",
        "uses",
        "used",
        "using",
        "consider",
        "considering",
        "instead",
        "currently",
        "current",
        "new",
        "existing",
        "value",
        "values",
        "variable",
        "here",
        "now",
        "e",
        "g",
        "eg",
        "ie",
        "etc",
    )
)


@dataclass(frozen=True)
class Concept:
    """One security or review concept: the phrases that mean it, with examples."""

    term: str
    patterns: tuple[str, ...]
    examples: tuple[str, ...]
    """Texts that must map to the concept (turned into tests)."""
    counter_examples: tuple[str, ...] = ()
    """Texts that must not."""


CONCEPTS: tuple[Concept, ...] = (
    Concept(
        "@cache_key",
        (r"\b(?:cache|redis|memcached?)[ _-]?keys?\b", r"\bkey construction\b"),
        ("Cache key uses input", "Redis key construction", "bad redis_key"),
        ("the API key leaked",),
    ),
    Concept(
        "@untrusted_input",
        (
            r"\bun(?:sanitized|sanitised|validated|escaped|trusted)\b",
            r"\b(?:user|attacker|client|caller)[ -](?:controlled|supplied|provided|input)\b",
            r"\barbitrary (?:user[ -]controlled )?(?:input|strings?|values?|data)\b",
            r"\bcontrols? (?:the )?\w+ (?:parameter|input|value)\b",
            r"\bwho controls\b",
            r"\bfrom (?:the )?request\b",
        ),
        ("unsanitized user input", "user-controlled strings", "an attacker who controls x"),
        ("sanitized output",),
    ),
    Concept(
        "@injection",
        (r"\binjection\b", r"\binjects?\b", r"\bpoison(?:ing|ed)?\b", r"\boverwrit\w*\b"),
        ("cache key injection", "cache poisoning", "overwriting entries"),
    ),
    Concept(
        "@stack_trace",
        (r"\bstack[ -]?traces?\b", r"\btraceback\b", r"\bbacktraces?\b", r"\bformat_exc\b"),
        ("full exception stack trace", "traceback.format_exc()"),
    ),
    Concept(
        "@sql_injection",
        (
            r"\bsql[ -]?injection\b",
            r"\bsqli\b",
            r"\braw sql\b",
            r"\bstring[- ]based query\b",
            r"\bsql (?:built|assembled) (?:by|from|with)\b",
            (r"\bsql\b[^.;]*\b(?:unescaped|unsanitized|unsanitised|concatenat\w*|interpolat\w*"
            r"|f-strings?|%-format\w*|string format\w*)"),
            (r"\b(?:unescaped|unsanitized|unsanitised|concatenat\w*|interpolat\w*)\b[^.;]*"
            r"\b(?:sql|query|queries)\b"),
        ),
        (
            "SQL injection in query",
            "raw SQL built from input",
            "Possible SQL injection vector through string-based query construction",
            "SQL built by string formatting",
            "User input reaches a SQL query unescaped",
            "the id is concatenated into the query",
        ),
        ("SQL query parameters are bound", "The SQL query is slow"),
    ),
    Concept(
        "@command_injection",
        (
            r"\b(?:command|shell|os command) injection\b",
            r"\bshell=true\b",
            r"\bshell command built\b",
            r"\b(?:runs?|passe[sd]|reach\w*|goes|into)\b[^.;]*\b(?:a|the) shell\b",
            r"\bsh -c\b",
            r"\bchild_process\b",
            r"\bexec\.command\b",
        ),
        (
            "Command injection through the file name",
            "subprocess call with shell=True",
            "A shell command built from a template or concatenation (child_process exec)",
            "The name is passed to a shell unquoted",
        ),
        ("the shell completion script",),
    ),
    Concept(
        "@code_eval",
        (
            r"\beval\b",
            r"\b(?:arbitrary|remote) code execution\b",
            r"\bnew function\b",
            r"\bcode evaluation\b",
            r"\bexecutes? (?:user|client|attacker)\w*[ -]\w+ (?:code|input|strings?)\b",
        ),
        (
            "eval can be harmful.",
            "Request input reaches code evaluation",
            "leads to arbitrary code execution",
        ),
        ("the evaluation set is small",),
    ),
    Concept(
        "@path_traversal",
        (
            r"\bpath traversal\b",
            r"\bdirectory traversal\b",
            r"\.\./",
            r"\b(?:used|taken) as a file path\b",
            r"\boutside (?:the )?(?:intended|served|root|base) (?:folder|directory)\b",
        ),
        (
            "Path traversal via the name parameter",
            "Request input used as a file path",
            "reads files outside the intended folder (../)",
        ),
    ),
    Concept(
        "@tls_verification",
        (
            r"\b(?:tls|ssl|certificate) verification\b",
            r"\bverify=false\b",
            r"\binsecureskipverify\b",
            r"\brejectunauthorized\b",
        ),
        (
            "TLS certificate verification turned off",
            "requests.get(url, verify=False)",
            "InsecureSkipVerify: true disables checks",
        ),
    ),
    Concept(
        "@swallowed_exception",
        (
            r"\bexcept(?:ion)?s?:? ?pass\b",
            r"\btry[/ ]except[/ ]pass\b",
            r"\b(?:silently|quietly) (?:ignored|swallowed|dropped)\b",
            r"\bswallow\w*\b",
            r"\b(?:broad|bare|blind) except\w*\b",
            r"\bcatch(?:es|ing)? (?:every|all) exceptions?\b",
        ),
        (
            "try/except/pass hides failures",
            "Exception silently ignored",
            "Do not catch blind exception: `Exception`",
            "errors are swallowed",
        ),
        ("the exception is logged and re-raised",),
    ),
    Concept(
        "@xss",
        (r"\bxss\b", r"\bcross[ -]site scripting\b", r"\binnerhtml\b"),
        ("stored XSS", "cross-site scripting via innerHTML"),
    ),
    Concept(
        "@null",
        (
            r"\bnull(?:pointer(?:exception)?)?\b",
            r"\bnpe\b",
            r"\bnil\b",
            r"\bnone\b",
            r"\bundefined\b",
            r"\bnullable\b",
        ),
        ("NullPointerException when absent", "returns None", "nil dereference"),
    ),
    Concept(
        "@race",
        (
            r"\brace(?: condition)?s?\b",
            r"\bthread[ -]?safe(?:ty)?\b",
            r"\bconcurren\w*\b",
            r"\bdata race\b",
            r"\btoctou\b",
            r"\bcheck[ -]then[ -]act\b",
        ),
        ("race condition on counter", "not thread-safe", "concurrent writes"),
    ),
    Concept(
        "@authz",
        (
            r"\bauthori[sz]\w*\b",
            r"\bpermissions?\b",
            r"\baccess control\b",
            r"\bprivilege\w*\b",
            r"\brbac\b",
            r"\bacl\b",
        ),
        ("authorization check missing", "wrong permission", "privilege escalation"),
    ),
    Concept(
        "@secret",
        (
            r"\bsecrets?\b",
            r"\bapi[ _-]?keys?\b",
            r"\bcredentials?\b",
            r"\bpasswords?\b",
            r"\bprivate key\b",
        ),
        ("hard-coded API key", "password in logs"),
    ),
    Concept(
        "@expiry",
        (r"\bttl\b", r"\bexpir\w*\b", r"\bnever expires?\b"),
        ("TTL set to 0", "entries never expire"),
    ),
)

# One alternation per concept (a search for ``a|b`` succeeds exactly when one of ``a``, ``b``
# matches somewhere), and one over every concept to skip texts that mention none: the same
# answers as searching each pattern, with a fraction of the passes over the text.
_COMPILED = tuple((c.term, re.compile("|".join(f"(?:{p})" for p in c.patterns))) for c in CONCEPTS)
_ANY_CONCEPT = re.compile("|".join(f"(?:{p})" for c in CONCEPTS for p in c.patterns))
_SUFFIXES = ("ations", "ation", "ings", "ing", "ies", "ied", "es", "ed", "ly", "s")


@lru_cache(maxsize=16384)
def stem(word: str) -> str:
    """Strip one common English suffix from a plain word (identifiers are kept whole)."""
    if "_" in word or word.endswith("()") or any(ch.isdigit() for ch in word):
        return word.removesuffix("()")
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)] + ("y" if suffix in ("ies", "ied") else "")
            break
    # "response"/"responses", "controlled"/"control": drop a final e and a doubled letter.
    if len(word) > 4 and word.endswith("e"):
        word = word[:-1]
    if len(word) > 4 and word[-1] == word[-2] and word[-1] not in "s":
        word = word[:-1]
    return word


def concepts(text: str) -> frozenset[str]:
    """The concept terms a text mentions."""
    low = text.lower()
    if _ANY_CONCEPT.search(low) is None:
        return frozenset()
    return frozenset(term for term, pattern in _COMPILED if pattern.search(low))


@lru_cache(maxsize=4096)
def terms(text: str) -> frozenset[str]:
    """Normalized terms of a text: stemmed content words, identifiers and concepts.

    Cached: verifier findings repeat their titles and explanations by the thousand.
    """
    low = text.lower()
    words = {stem(w) for w in _WORD.findall(low) if w not in STOPWORDS and len(w) > 1}
    return frozenset(words - STOPWORDS) | concepts(low)


def shared_concepts(a: frozenset[str], b: frozenset[str]) -> frozenset[str]:
    """The concept terms two term sets share (``@sql_injection``, ``@secret``, ...)."""
    return frozenset(t for t in a & b if t.startswith("@"))


def idf_weights(docs: Iterable[frozenset[str]]) -> dict[str, float]:
    """Smoothed inverse document frequency of every term over a set of documents."""
    docs = list(docs)
    df: Counter[str] = Counter(t for d in docs for t in d)
    n = len(docs)
    return {t: math.log(1.0 + n / c) for t, c in df.items()}


def similarity(a: frozenset[str], b: frozenset[str], weights: Mapping[str, float]) -> float:
    """Weighted cosine of two term sets: shared weight over the geometric mean of both.

    Unlike Jaccard it does not punish a long text for saying more about the same thing.
    """
    if not a or not b:
        return 0.0
    inter = sum(weights.get(t, 1.0) for t in a & b)
    wa = sum(weights.get(t, 1.0) for t in a)
    wb = sum(weights.get(t, 1.0) for t in b)
    return inter / math.sqrt(wa * wb) if wa and wb else 0.0
