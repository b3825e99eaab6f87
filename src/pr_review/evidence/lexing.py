"""Comments, docstrings and tokens: enough lexing to tell cosmetic edits from code edits.

``strip_comments`` blanks comments (and Python docstrings) out of a file's text while
keeping every line where it was, so line ``n`` of the result is line ``n``'s code.
Python is lexed with :mod:`tokenize`; other languages with one regular expression that
knows strings and the comment syntax of the file's extension.
"""

from __future__ import annotations

import io
import re
import tokenize
from functools import lru_cache

from pr_review.sources.paths import extension


def shorten(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, ``...`` marking a cut: code quoted in a factor's
    one-line reason."""
    return text if len(text) <= limit else text[: limit - 3] + "..."

CYTHON_EXTENSIONS = frozenset({".pyx", ".pxd", ".pxi"})
PYTHON_LEXED = frozenset({".py", ".pyi", *CYTHON_EXTENSIONS})
"""Python, and Cython (``cdef class``, ``<char*>x``: Python's tokenizer reads both), whose
comments and docstrings :func:`strip_comments` finds with :mod:`tokenize`."""
CYTHON_DIRECTIVE = re.compile(r"#[ \t]*(?:cython|distutils)[ \t]*:")
"""A Cython comment that is a compiler directive (``# cython: boundscheck=False``, ``#
distutils: language = c++``): it changes what Cython builds (pyyaml's ``# cython:
freethreading_compatible = True``), so :func:`strip_comments` keeps it."""
_HASH = frozenset(
    {
        ".py",
        ".pyx",
        ".pxd",
        ".pxi",
        ".rb",
        ".sh",
        ".bash",
        ".zsh",
        ".yml",
        ".yaml",
        ".toml",
        ".r",
        ".pl",
        ".cfg",
        ".conf",
        ".ini",
        ".properties",
        ".mk",
        ".cmake",
        ".ps1",
        ".nix",
        ".bazelrc",  # Bazel and its Starlark files
        ".bazel",
        ".bzl",
        ".star",
    }
)
_SLASH = frozenset(
    {
        ".js",
        ".jsx",
        ".ts",
        ".tsx",
        ".mjs",
        ".cjs",
        ".es6",
        ".go",
        ".java",
        ".kt",
        ".kts",
        ".c",
        ".h",
        ".cc",
        ".cpp",
        ".hpp",
        ".cs",
        ".swift",
        ".rs",
        ".scala",
        ".dart",
        ".proto",
        ".css",
        ".scss",
        ".less",
        ".groovy",
        ".gradle",
        ".json5",
    }
)
_BOTH = frozenset({".php", ".tf", ".hcl", ".tfvars"})
_SQL = frozenset({".sql"})
_MARKUP = frozenset({".html", ".htm", ".xml", ".vue", ".svelte"})
_STRINGS = r"\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`"
_TOKEN = re.compile(r"[A-Za-z_$][\w$]*|\d[\w.]*|\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*'|\S")
IDENTIFIER = re.compile(r"^[A-Za-z_$][\w$]*$")
KEYWORDS = frozenset(
    {
        "def",
        "class",
        "return",
        "if",
        "else",
        "elif",
        "for",
        "while",
        "in",
        "not",
        "and",
        "or",
        "is",
        "import",
        "from",
        "as",
        "with",
        "try",
        "except",
        "finally",
        "raise",
        "lambda",
        "None",
        "True",
        "False",
        "pass",
        "break",
        "continue",
        "yield",
        "await",
        "async",
        "del",
        "global",
        "nonlocal",
        "assert",
        "function",
        "const",
        "let",
        "var",
        "new",
        "this",
        "null",
        "undefined",
        "true",
        "false",
        "func",
        "package",
        "type",
        "struct",
        "interface",
        "go",
        "defer",
        "chan",
        "select",
        "case",
        "switch",
        "default",
        "public",
        "private",
        "protected",
        "static",
        "void",
        "throw",
        "throws",
        "catch",
        "export",
        "typeof",
        "instanceof",
        "nil",
    }
)


def strip_comments(text: str, path: str) -> str:
    """``text`` with comments and docstrings replaced by spaces, newlines kept."""
    ext = extension(path)
    if ext in PYTHON_LEXED:
        stripped = _strip_python(text, keep=CYTHON_DIRECTIVE if ext in CYTHON_EXTENSIONS else None)
        if stripped is not None:
            return stripped
    pattern = _comment_regex(ext, _is_hash_named(path))
    if pattern is None:
        return text
    return pattern.sub(_blank_comment, text)


_STRING_LITERAL = re.compile(
    r"(?<![\w$])(?P<p>[rRbBuUfF]{0,2})"
    r"(?:(?P<q3>\"\"\"|''')(?P<b3>[\s\S]*?)(?P=q3)"
    r"|(?P<q>[\"'`])(?P<b>(?:\\.|(?!(?P=q))[^\\\n])*)(?P=q))"
)


_NOT_NEWLINE = re.compile(r"[^\n]")


def strip_strings(code: str) -> str:
    """``code`` (comments already blanked) with the contents of string literals replaced by
    spaces, quotes and newlines kept: keywords inside strings are data, not code."""
    return _STRING_LITERAL.sub(_blank_string, code)


def _blank_string(match: re.Match[str]) -> str:
    quote = match.group("q3") or match.group("q")
    body = match.group("b3") if match.group("q3") else match.group("b")
    blank = _NOT_NEWLINE.sub(" ", body)
    return f"{match.group('p')}{quote}{blank}{quote}"


def tokens(code: str) -> list[str]:
    """Whitespace-insensitive token sequence of code text."""
    return _TOKEN.findall(code)


def is_identifier(token: str) -> bool:
    """An identifier that is not a keyword (renaming it changes no syntax)."""
    return IDENTIFIER.match(token) is not None and token not in KEYWORDS


def _is_hash_named(path: str) -> bool:
    """Files whose name, not extension, says ``#`` starts a comment: Dockerfile, Makefile,
    ``.env``, Procfile, CODEOWNERS, Bazel's BUILD/WORKSPACE and dot-rc files (``.npmrc``,
    ``.bashrc``; a JSON rc file has no ``#`` outside its strings)."""
    name = path.rsplit("/", 1)[-1].lower()
    return (
        name.startswith(("dockerfile", "makefile", ".env", "procfile"))
        or name in {"codeowners", "build", "workspace"}
        or (name.startswith(".") and name.endswith("rc"))
    )


@lru_cache(maxsize=32)
def _comment_regex(ext: str, hash_named: bool) -> re.Pattern[str] | None:
    comments: list[str] = []
    if ext in _HASH or hash_named:
        comments.append(r"#[^\n]*")
    if ext in _SLASH or ext in _BOTH:
        comments += [r"//[^\n]*", r"/\*[\s\S]*?\*/"]
    if ext in _BOTH:
        comments.append(r"#[^\n]*")
    if ext in _SQL:
        comments += [r"--[^\n]*", r"/\*[\s\S]*?\*/"]
    if ext in _MARKUP:
        comments.append(r"<!--[\s\S]*?-->")
    if not comments:
        return None
    return re.compile(f"(?P<s>{_STRINGS})|(?P<c>{'|'.join(comments)})")


def _blank_comment(match: re.Match[str]) -> str:
    if match.group("c") is None:
        return match.group(0)
    return re.sub(r"[^\n]", " ", match.group(0))


def _strip_python(text: str, keep: re.Pattern[str] | None = None) -> str | None:
    """Blank comments (but those ``keep`` matches) and statement-level strings (docstrings);
    None if it does not lex."""
    lines = text.splitlines(keepends=True)
    spans: list[tuple[tuple[int, int], tuple[int, int]]] = []
    statement_start = True
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if (
                tok.type == tokenize.COMMENT and not (keep and keep.match(tok.string))
            ) or (tok.type == tokenize.STRING and statement_start):
                spans.append((tok.start, tok.end))
            if tok.type in {tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.NL}:
                statement_start = True
            elif tok.type != tokenize.COMMENT and not (
                tok.type == tokenize.STRING and statement_start
            ):
                statement_start = False
    except (tokenize.TokenError, SyntaxError):
        return None
    out = [list(line) for line in lines]
    for (srow, scol), (erow, ecol) in spans:
        for row in range(srow, erow + 1):
            chars = out[row - 1]
            start = scol if row == srow else 0
            end = ecol if row == erow else len(chars)
            for i in range(start, min(end, len(chars))):
                if chars[i] not in "\r\n":
                    chars[i] = " "
    return "".join("".join(chars) for chars in out)


_LITERAL_OR_RECEIVER = re.compile(
    r"(\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*'|`(?:\\.|[^`\\])*`)|([A-Za-z_$][\w$]*)(?=\.)"
)


_MASKED_CHAIN = re.compile(r"(?<![\w$])(?:_\.){2,}")


def mask_receivers(code: str) -> str:
    """``code`` with its whitespace normalised and every name followed by ``.`` masked as
    ``_``, a chain of them as one (strings, operators, plain names and the last name of each
    member access kept): what a refactor that renamed a receiver everywhere
    (``event.request`` -> ``event.req``, ``os.path.sep`` -> ``os.sep``) leaves unchanged.
    ``c.Request().Header.Add("X-Real-IP", ip)`` and ``...Header.Set(...)`` still differ."""

    def mask(m: re.Match[str]) -> str:
        return m.group(0) if m.group(2) is None else "_"

    masked = _LITERAL_OR_RECEIVER.sub(mask, " ".join(code.split()))
    return _MASKED_CHAIN.sub("_.", masked)
