"""Whether a source's tokens are a lexer's tokens: records tagged with a kind.

``token`` names two different things. In an authentication library it is a credential (a
bearer token, a CSRF token, a JWT); in a parser, a template engine or a route matcher it is
a piece of lexed input, and code that handles it is no more security-relevant than the rest
of the parser. The difference is on the syntax tree, in any language: a lexer's token is a
record tagged with its kind, and code that handles it asks which kind it is
(``token.type === "text"``, ``switch tok.Kind``, ``token.ttype is T.Keyword``,
``tok.type == tokenize.NAME``). A credential has no kind to ask about: it is split, decoded,
compared, signed, stored. A source that compares or switches on the ``type``, ``kind``,
``ttype`` or (Go) ``typ`` field of something named for tokens (``token``, ``tok``,
``lastToken``, ``tokens[i]``), or (JavaScript/TypeScript) whose token-named function returns
a record tagged with a kind (``function token(type, value) { return { type: type, value }
}``: the lexer's own constructor), holds a lexer's tokens; the scope words
``token``/``tokens`` do not make its functions security-relevant (``csrf``, ``jwt``, ``auth``
and the rest still do).

Python is read with :mod:`ast`, JavaScript/TypeScript and Go on tree-sitter
(:func:`pr_review.evidence.grammars.compared_fields`). Examples (run by the test suite,
``LEXER_TOKEN_EXAMPLES``): (path, source, lexer tokens?).
"""

from __future__ import annotations

import ast

from pr_review.evidence.grammars import compared_fields, returned_record_keys
from pr_review.evidence.pyast import name_of, parse_python
from pr_review.evidence.scopes import PYTHON_EXTENSIONS, words

KIND_FIELDS = frozenset({"type", "kind", "ttype", "typ"})
"""The field a lexer's token is tagged with (``typ``: Go's spelling, ``type`` being a keyword
there). Not ``token_type``: OAuth's field for ``Bearer``."""
TOKEN_WORDS = frozenset({"token", "tokens", "tok", "toks"})

_EQUALITY_OPS = (ast.Eq, ast.NotEq, ast.Is, ast.IsNot, ast.In, ast.NotIn)


def _receiver(node: ast.expr) -> str | None:
    """The last name of what a field is read from (``self.tokens[i]`` -> ``tokens``)."""
    while isinstance(node, ast.Subscript):
        node = node.value
    return name_of(node)


def _python_fields(source: str) -> list[tuple[str, str]] | None:
    tree = parse_python(source)
    if tree is None:
        return None
    operands: list[ast.expr] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and all(isinstance(o, _EQUALITY_OPS) for o in node.ops):
            operands.extend([node.left, *node.comparators])
        elif isinstance(node, ast.Match):
            operands.append(node.subject)
    out: list[tuple[str, str]] = []
    for operand in operands:
        if isinstance(operand, ast.Attribute):
            receiver = _receiver(operand.value)
            if receiver is not None:
                out.append((receiver, operand.attr))
    return out


def holds_lexer_tokens(path: str, source: str | None) -> bool:
    """Whether ``source`` compares or switches on the kind of something named for tokens.
    False when it cannot be read on a tree (the word then keeps its meaning)."""
    if source is None:
        return False
    if path.endswith(PYTHON_EXTENSIONS):
        fields = _python_fields(source)
    else:
        fields = (compared_fields(path, source) or []) + (
            returned_record_keys(path, source) or []
        )
    return any(
        field.lower() in KIND_FIELDS and TOKEN_WORDS & set(words(receiver))
        for receiver, field in fields or ()
    )


def _lines(*lines: str) -> str:
    return "\n".join(lines) + "\n"


LEXER_TOKEN_EXAMPLES: tuple[tuple[str, str, bool], ...] = (
    # route matcher (path-to-regexp): tokens tagged text/param/wildcard/group
    ("src/index.ts", _lines(
        "function tokenToFunction(token: Token) {",
        '  if (token.type === "text") return () => token.value;',
        "}",
    ), True),
    # Markdown lexer (marked): the previous token's kind, through an optional chain
    ("src/Lexer.ts", _lines(
        "class L {",
        "  inlineTokens(src, tokens = []) {",
        "    const lastToken = tokens.at(-1);",
        "    if (lastToken?.type === 'text') { lastToken.raw += src; }",
        "  }",
        "}",
    ), True),
    ("lexer.js", _lines("switch (tokens[i].kind) {", "  case 'open': depth++; break;", "}"), True),
    ("parse/lex.go", _lines(
        "package parse",
        "func next(tok Token) bool {",
        "\tswitch tok.Kind {",
        "\tcase KindEOF:",
        "\t\treturn false",
        "\t}",
        "\treturn true",
        "}",
    ), True),
    ("sql/filters.py", _lines(
        "def process(stream):",
        "    for token in stream:",
        "        if token.ttype is T.Keyword:",
        "            yield token",
    ), True),
    ("tpl/parser.py", _lines(
        "def expect(self, kind):",
        "    if self.current_token.type != kind:",
        "        raise SyntaxError(kind)",
    ), True),
    # a template lexer (nunjucks) building its tokens: the constructor tags each with a type
    ("src/lexer.js", _lines(
        "function token(type, value, lineno) {",
        "  return { type: type, value: value, lineno: lineno };",
        "}",
    ), True),
    # Go spells the tag `typ` (go-yaml's scanner)
    ("scannerc.go", _lines(
        "package yaml",
        "func fetch(parser *yaml_parser_t, token *yaml_token_t) bool {",
        "\tif token.typ == yaml_STREAM_END_TOKEN {",
        "\t\treturn false",
        "\t}",
        "\treturn true",
        "}",
    ), True),
    # credentials: split, decoded, checked for a scheme
    ("parser.go", _lines(
        "package jwt",
        "func splitToken(token string) ([]string, bool) {",
        '\tparts := strings.Split(token, ".")',
        "\tif len(parts) != 3 {",
        "\t\treturn nil, false",
        "\t}",
        "\treturn parts, true",
        "}",
    ), False),
    ("lib/cache-handler.js", _lines(
        "function appendConnectionHeaderTokens (remove, header) {",
        "  const tokens = header.split(',')",
        "  for (const t of tokens) remove.push(t.trim())",
        "}",
    ), False),
    # OAuth: ``token_type`` is the scheme (Bearer, MAC), not a lexer's tag
    ("oauth2/client.py", _lines(
        "def check(token):",
        "    if token.token_type.lower() != 'bearer':",
        "        raise ValueError('scheme')",
    ), False),
    # a session built with a credential token: a record, but no kind tag
    ("src/session.js", _lines(
        "function makeToken(user, secret) {",
        "  return { value: sign(user.id, secret), expires: Date.now() + 3600 };",
        "}",
    ), False),
    # a kind read on something that is not a token
    ("src/router.ts", 'if (route.type === "static") { serve(route); }\n', False),
    # a token's kind read but never compared
    ("auth/verify.py", _lines(
        "def verify(token):",
        "    log.debug(token.type)",
        "    return check(token.value)",
    ), False),
)  # fmt: skip
