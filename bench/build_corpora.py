"""Build the broad real corpus under ``bench/corpora/`` from fetched public repositories.

Offline once the repositories are fetched: every upstream repository is read from a bare git
directory ``/work/.mirror/<owner>+<name>/repo`` (the session's ``fetch github:<owner>/<name>``
tool puts it there; elsewhere ``git clone --bare https://github.com/<owner>/<name>`` into the
same layout, or pass ``--mirrors DIR``).

Run:
  .venv/bin/python bench/build_corpora.py select   # pick the PRs, write bench/labels/<repo>.json
  .venv/bin/python bench/build_corpora.py build    # bundles + cases from the labels files

Deterministic: ``corpora/sources.json`` records the upstream commit each repository's selection
starts from; ``select`` walks its first-parent history from there and takes the last
``PER_REPO`` merged PRs, in order: a merge commit whose subject is ``Merge pull request #N``,
or a single-parent commit whose subject ends in ``(#N)`` (a squash merge). The selection is made
before anything looks at what the review says. ``select`` only adds entries that are missing
from a labels file, with a first label from the kinds of files changed; a person then reads each
PR and writes the label and a one-line reason (``labelled_by: "person"``). Security fixes are
listed by hand in the labels file (``security``), from the project's advisories and CVE/GHSA
references in its commits and changelog.

Each case is re-created as ``shared/corpus/real/README.md`` describes: a parentless commit with
the tree of merge-base(base, head), then the PR's commits with their trees, messages, authors and
dates (a squash merge: its one commit), so ``git diff base...head`` in the bundle is the PR.
Binary files over ``SLIM_BYTES`` are replaced by small binary placeholders in every tree.

Layout written:
  corpora/<half>/repos/<repo>.bundle     (half from corpora/split.json)
  corpora/<half>/cases/<id>/case.json

A half that does not fit the corpus's 30 MiB budget is listed in split.json under
``built_outside_budget``: its labels are kept in ``bench/labels`` and its bundles and cases
are built elsewhere (``build <repos> --out /tmp/corpora-extra``) and measured from there
(``bench_corpora.py --corpora /tmp/corpora-extra --half <half>``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ROOT / "bench" / "corpora"
LABELS = ROOT / "bench" / "labels"
"""The hand labels each half is built from (outside ``CORPORA``: its 30 MiB budget is the
built corpora's)."""
DEFAULT_MIRRORS = Path("/work/.mirror")
PER_REPO = 30
MAX_COMMITS = 40
"""A PR with more commits than this is re-created as one commit (its head tree)."""
SLIM_BYTES = 100_000
"""A binary file larger than this is replaced by a small binary placeholder in every case tree.

Images and archives in docs and test fixtures made most of the bundles' size (one 2.4 MB test
image kept a repository out of the corpus); the review reads no binary file's content, and a
placeholder names the blob it stands for, so a PR that changes the file still changes it."""

def labels_text(data: dict[str, object]) -> str:
    """A labels file as people read and write it: its header fields one per line, then each PR
    and each security fix on a line of its own (a relabelled PR is a one-line diff). One key per
    line, as the files were first written, cost 164 KB more over 85 files: the room two holdouts'
    labels need in the budget. The files a PR changes and its size (``files``, ``n_files``,
    ``stat``: what ``select`` once wrote beside each PR, 380 KB over 85 files) are not kept: they
    are the upstream commit's, which ``build`` and the labeller read (``git show --stat``)."""
    data = {key: [_without_aids(e) for e in value] if isinstance(value, list) else value
            for key, value in data.items()}
    lines = ["{"]
    for i, (key, value) in enumerate(data.items()):
        comma = "," if i < len(data) - 1 else ""
        if isinstance(value, list) and value:
            entries = [json.dumps(e, ensure_ascii=False) for e in value]
            lines += [f" {json.dumps(key)}: [", *("  " + e + "," for e in entries[:-1]),
                      "  " + entries[-1], f" ]{comma}"]
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}{comma}")
    return "\n".join([*lines, "}"]) + "\n"


LABELLER_AIDS = ("files", "n_files", "stat")


def _without_aids(entry: object) -> object:
    if not isinstance(entry, dict):
        return entry
    return {k: v for k, v in entry.items() if k not in LABELLER_AIDS}


CASE_SEPARATORS = (",", ":")
"""Case files are generated from the labels and read by ``pr-review eval``: written on one line
without spaces, they take 137 KB less than one key per line (1,894 files), the room the labels
of four more labels-only halves need in the budget. A case's ``source`` names the upstream PR
and commits; the label's reason stays in ``labels/<repo>.json`` alone (repeated in every case
file it cost 217 KB)."""

REPOS = {
    # short name: (owner/name, language, kind)
    "express": ("expressjs/express", "javascript", "web framework"),
    "axios": ("axios/axios", "javascript", "HTTP client"),
    "gin": ("gin-gonic/gin", "go", "web framework"),
    "click": ("pallets/click", "python", "CLI library"),
    "pyjwt": ("jpadilla/pyjwt", "python", "auth/crypto library"),
    "koa": ("koajs/koa", "javascript", "web framework"),
    "ky": ("sindresorhus/ky", "typescript", "HTTP client"),
    "golang-jwt": ("golang-jwt/jwt", "go", "auth/crypto library"),
    "starlette": ("encode/starlette", "python", "ASGI web framework"),
    "httpx": ("encode/httpx", "python", "HTTP client"),
    "hono": ("honojs/hono", "typescript", "web framework"),
    "fastify": ("fastify/fastify", "javascript", "web framework"),
    "echo": ("labstack/echo", "go", "web framework"),
    "aiohttp": ("aio-libs/aiohttp", "python", "HTTP client/server"),
    "fiber": ("gofiber/fiber", "go", "web framework"),
    "werkzeug": ("pallets/werkzeug", "python", "WSGI toolkit"),
    "tornado": ("tornadoweb/tornado", "python", "web framework and server"),
    "h3": ("unjs/h3", "typescript", "HTTP framework"),
    "chi": ("go-chi/chi", "go", "HTTP router"),
    "python-multipart": ("Kludex/python-multipart", "python", "multipart parser"),
    "jinja": ("pallets/jinja", "python", "template engine"),
    "multer": ("expressjs/multer", "javascript", "upload middleware"),
    "undici": ("nodejs/undici", "javascript", "HTTP client"),
    "go-jose": ("go-jose/go-jose", "go", "JOSE/crypto library"),
    "urllib3": ("urllib3/urllib3", "python", "HTTP client"),
    "jsonwebtoken": ("auth0/node-jsonwebtoken", "javascript", "JWT library"),
    "jwx": ("lestrrat-go/jwx", "go", "JOSE library"),
    "waitress": ("Pylons/waitress", "python", "WSGI HTTP server"),
    "path-to-regexp": ("pillarjs/path-to-regexp", "typescript", "route matcher"),
    "cookie": ("jshttp/cookie", "javascript", "cookie parser"),
    "bluemonday": ("microcosm-cc/bluemonday", "go", "HTML sanitizer"),
    "authlib": ("lepture/authlib", "python", "OAuth/JOSE library"),
    "express-session": ("expressjs/session", "javascript", "session middleware"),
    "gorilla-csrf": ("gorilla/csrf", "go", "CSRF middleware"),
    "itsdangerous": ("pallets/itsdangerous", "python", "signing library"),
    "helmet": ("helmetjs/helmet", "typescript", "security headers middleware"),
    "node-tar": ("isaacs/node-tar", "typescript", "tar archive library"),
    "go-getter": ("hashicorp/go-getter", "go", "URL/archive downloader"),
    "webob": ("Pylons/webob", "python", "WSGI request/response library"),
    "marked": ("markedjs/marked", "typescript", "Markdown parser"),
    "follow-redirects": ("follow-redirects/follow-redirects", "javascript",
                         "redirect-following HTTP client"),
    "send": ("pillarjs/send", "javascript", "static file server"),
    "gorilla-websocket": ("gorilla/websocket", "go", "WebSocket library"),
    "sqlparse": ("andialbrecht/sqlparse", "python", "SQL parser"),
    "uvicorn": ("encode/uvicorn", "python", "ASGI server"),
    "ws": ("websockets/ws", "javascript", "WebSocket library"),
    "rs-cors": ("rs/cors", "go", "CORS middleware"),
    "gunicorn": ("benoitc/gunicorn", "python", "WSGI HTTP server"),
    "pyyaml": ("yaml/pyyaml", "python", "YAML parser"),
    "body-parser": ("expressjs/body-parser", "javascript", "request-body parser middleware"),
    "gjson": ("tidwall/gjson", "go", "JSON path library"),
    "h11": ("python-hyper/h11", "python", "HTTP/1.1 protocol parser"),
    "serve-static": ("expressjs/serve-static", "javascript", "static-file middleware"),
    "nosurf": ("justinas/nosurf", "go", "CSRF middleware"),
    "python-ecdsa": ("tlsfuzzer/python-ecdsa", "python", "ECDSA/crypto library"),
    "finalhandler": ("pillarjs/finalhandler", "javascript", "final-response handler"),
    "secure": ("unrolled/secure", "go", "security-headers middleware"),
    "python-rsa": ("sybrenstuvel/python-rsa", "python", "RSA library"),
    "cors": ("expressjs/cors", "javascript", "CORS middleware"),
    "gorilla-handlers": ("gorilla/handlers", "go", "HTTP handler middleware"),
    "python-jose": ("mpdavis/python-jose", "python", "JOSE/JWT library"),
    "content-disposition": ("jshttp/content-disposition", "typescript",
                            "Content-Disposition header library"),
    "gorilla-schema": ("gorilla/schema", "go", "form decoder"),
    "bleach": ("mozilla/bleach", "python", "HTML sanitizer"),
    "sanitize-html": ("apostrophecms/sanitize-html", "javascript", "HTML sanitizer"),
    "node-fetch": ("node-fetch/node-fetch", "javascript", "HTTP client"),
    "go-retryablehttp": ("hashicorp/go-retryablehttp", "go", "retrying HTTP client"),
    "oauthlib": ("oauthlib/oauthlib", "python", "OAuth library"),
    "validator-js": ("validatorjs/validator.js", "javascript", "string validation library"),
    "goxmldsig": ("russellhaering/goxmldsig", "go", "XML digital signature library"),
    "bottle": ("bottlepy/bottle", "python", "web framework"),
    "qs": ("ljharb/qs", "javascript", "query-string parser"),
    "http-proxy-middleware": ("chimurai/http-proxy-middleware", "typescript",
                              "HTTP proxy middleware"),
    "go-slug": ("hashicorp/go-slug", "go", "archive packer/unpacker"),
    "cheroot": ("cherrypy/cheroot", "python", "HTTP server"),
    "mistune": ("lepture/mistune", "python", "Markdown parser"),
    "python-markdown2": ("trentm/python-markdown2", "python", "Markdown converter"),
    "markdown-it": ("markdown-it/markdown-it", "javascript", "Markdown parser"),
    "gomarkdown": ("gomarkdown/markdown", "go", "Markdown parser"),
    "xmldom": ("xmldom/xmldom", "javascript", "XML parser"),
    "go-git": ("go-git/go-git", "go", "git implementation"),
    "scrapy": ("scrapy/scrapy", "python", "web crawler framework"),
    "handlebars": ("handlebars-lang/handlebars.js", "javascript", "template engine"),
    "miekg-dns": ("miekg/dns", "go", "DNS library"),
    "django-rest-framework": ("encode/django-rest-framework", "python", "REST framework"),
    "ejs": ("mde/ejs", "javascript", "template engine"),
    "goldmark": ("yuin/goldmark", "go", "Markdown converter"),
    "sanic": ("sanic-org/sanic", "python", "web framework"),
    "nunjucks": ("mozilla/nunjucks", "javascript", "template engine"),
    "go-yaml": ("go-yaml/yaml", "go", "YAML parser"),
    "pyramid": ("Pylons/pyramid", "python", "web framework"),
    "dompurify": ("cure53/DOMPurify", "javascript", "HTML sanitizer"),
    "gorilla-sessions": ("gorilla/sessions", "go", "session store"),
    "httpie": ("httpie/cli", "python", "HTTP client CLI"),
    "fast-xml-parser": ("NaturalIntelligence/fast-xml-parser", "javascript", "XML parser"),
    "archiver": ("mholt/archiver", "go", "archive extraction library"),
    "flask-cors": ("corydolphin/flask-cors", "python", "CORS extension"),
    "tough-cookie": ("salesforce/tough-cookie", "javascript", "cookie jar"),
    "go-restful": ("emicklei/go-restful", "go", "REST framework"),
    "litestar": ("litestar-org/litestar", "python", "web framework"),
    "url-parse": ("unshiftio/url-parse", "javascript", "URL parser"),
    "fosite": ("ory/fosite", "go", "OAuth 2.0 / OpenID Connect framework"),
    "django-oauth-toolkit": (
        "jazzband/django-oauth-toolkit", "python", "OAuth 2.0 provider for Django"
    ),
    "js-xss": ("leizongmin/js-xss", "javascript", "XSS filter"),
    "casbin": ("casbin/casbin", "go", "authorization library"),
    "simplejwt": (
        "jazzband/djangorestframework-simplejwt", "python",
        "JWT authentication for Django REST framework",
    ),
    "shelljs": ("shelljs/shelljs", "javascript", "Unix shell commands for Node.js"),
    "go-oidc": ("coreos/go-oidc", "go", "OpenID Connect client"),
    "pyopenssl": ("pyca/pyopenssl", "python", "OpenSSL bindings"),
    "engine.io": ("socketio/engine.io", "javascript", "realtime transport server"),
    "filebrowser": ("filebrowser/filebrowser", "go", "web file manager"),
    "restrictedpython": (
        "zopefoundation/RestrictedPython", "python", "restricted execution of Python code"
    ),
    "knex": ("knex/knex", "javascript", "SQL query builder"),
    "caddy": ("caddyserver/caddy", "go", "web server"),
    "pip": ("pypa/pip", "python", "package installer"),
    "nodemailer": ("nodemailer/nodemailer", "javascript", "mail library"),
    "gogs": ("gogs/gogs", "go", "self-hosted git service"),
    "jupyter-server": ("jupyter-server/jupyter_server", "python", "notebook web server"),
    "got": ("sindresorhus/got", "typescript", "HTTP client"),
    "zitadel-oidc": ("zitadel/oidc", "go", "OpenID Connect client and server library"),
    "setuptools": ("pypa/setuptools", "python", "packaging library"),
    "node-mysql2": ("sidorares/node-mysql2", "typescript", "database client"),
    "dex": ("dexidp/dex", "go", "OpenID Connect identity provider"),
    "twisted": ("twisted/twisted", "python", "networking framework"),
    "mongoose": ("Automattic/mongoose", "javascript", "database object modelling library"),
    "kratos": ("ory/kratos", "go", "identity and user management server"),
    "social-core": ("python-social-auth/social-core", "python", "social authentication library"),
    "parse-server": ("parse-community/parse-server", "javascript", "backend application server"),
    "helm": ("helm/helm", "go", "package manager CLI"),
    "wagtail": ("wagtail/wagtail", "python", "content management system"),
    "sveltekit": ("sveltejs/kit", "typescript", "web application framework"),
    "cosign": ("sigstore/cosign", "go", "artifact signing CLI"),
    "mermaid": ("mermaid-js/mermaid", "typescript", "diagram renderer"),
    "runc": ("opencontainers/runc", "go", "container runtime"),
    "jupyterhub": ("jupyterhub/jupyterhub", "python", "multi-user notebook server"),
    "react-router": ("remix-run/react-router", "typescript", "web routing framework"),
    "gh-cli": ("cli/cli", "go", "command-line client of a forge"),
    "pyload": ("pyload/pyload", "python", "download manager with a web interface"),
    "sequelize": ("sequelize/sequelize", "typescript", "SQL object-relational mapper"),
    "containerd": ("containerd/containerd", "go", "container runtime daemon"),
    "mcp-python-sdk": ("modelcontextprotocol/python-sdk", "python", "protocol SDK"),
    "svelte": ("sveltejs/svelte", "typescript", "UI compiler"),
    "minio": ("minio/minio", "go", "object storage server"),
    "flask-appbuilder": ("dpgaspar/Flask-AppBuilder", "python", "web application framework"),
    "vite": ("vitejs/vite", "typescript", "front-end build tool and dev server"),
    "traefik": ("traefik/traefik", "go", "reverse proxy and load balancer"),
    "mitmproxy": ("mitmproxy/mitmproxy", "python", "intercepting HTTP proxy"),
    "socket.io": ("socketio/socket.io", "typescript", "realtime messaging server and client"),
    "nats-server": ("nats-io/nats-server", "go", "message broker server"),
    "nbconvert": ("jupyter/nbconvert", "python", "notebook converter"),
    "mathjs": (
        "josdejong/mathjs", "javascript", "math library with an expression parser and evaluator"
    ),
    "quic-go": ("quic-go/quic-go", "go", "QUIC and HTTP/3 implementation"),
    "gradio": ("gradio-app/gradio", "python", "web UI framework for machine-learning apps"),
    "webpack-dev-server": ("webpack/webpack-dev-server", "javascript", "development server"),
    "hydra": ("ory/hydra", "go", "OAuth 2.0 and OpenID Connect server"),
    "saleor": ("saleor/saleor", "python", "e-commerce GraphQL API server"),
    "jose": ("panva/jose", "typescript", "JOSE library: JWS, JWE, JWT, JWK"),
    "dtls": ("pion/dtls", "go", "DTLS 1.2 implementation"),
    "django-allauth": (
        "pennersr/django-allauth", "python", "Django authentication and social login"
    ),
    "formidable": ("node-formidable/formidable", "javascript", "multipart form and upload parser"),
    "fasthttp": ("valyala/fasthttp", "go", "HTTP server and client"),
    "falcon": ("falconry/falcon", "python", "web API framework"),
    "tar-fs": (
        "mafintosh/tar-fs", "javascript", "tar archive packing and extraction to the file system"
    ),
    "pug": ("pugjs/pug", "javascript", "HTML template engine"),
    "distribution": ("distribution/distribution", "go", "container image registry"),
    "django-debug-toolbar": ("jazzband/django-debug-toolbar", "python", "Django debugging panels"),
    "crewjam-saml": ("crewjam/saml", "go", "SAML identity and service provider library"),
    "pillow": (
        "python-pillow/Pillow", "python", "imaging library: image file decoders and encoders"
    ),
    "js-yaml": ("nodeca/js-yaml", "javascript", "YAML parser and serializer"),
    "hapi": ("hapijs/hapi", "javascript", "HTTP server framework"),
    "execa": ("sindresorhus/execa", "javascript", "process execution for Node"),
    "gorilla-mux": ("gorilla/mux", "go", "HTTP request router"),
    "yarl": ("aio-libs/yarl", "python", "URL parsing and building"),
    "pgx": ("jackc/pgx", "go", "PostgreSQL driver and toolkit"),
    "pygments": ("pygments/pygments", "python", "syntax highlighter: lexers and formatters"),
    "ajv": ("ajv-validator/ajv", "javascript", "JSON schema validator compiling schemas to code"),
    "form-data": ("form-data/form-data", "javascript", "multipart form-data encoder"),
    "coredns": ("coredns/coredns", "go", "DNS server with plugins"),
    "babel": ("python-babel/babel", "python", "internationalization: locale data and catalogs"),
    "jquery": ("jquery/jquery", "javascript", "DOM manipulation library"),
    "smallstep-certificates": (
        "smallstep/certificates", "go", "private certificate authority and ACME server"
    ),
    "mkdocs": ("mkdocs/mkdocs", "python", "static site generator for documentation"),
    "highlight.js": ("highlightjs/highlight.js", "javascript", "syntax highlighter"),
    "compress": ("klauspost/compress", "go", "compression formats: zstd, gzip, zip, s2"),
    "yargs-parser": ("yargs/yargs-parser", "javascript", "command-line argument parser"),
    "validator": ("go-playground/validator", "go", "struct and field validation library"),
    "idna": ("kjd/idna", "python", "internationalized domain names (IDNA 2008, UTS 46) codec"),
    "marshmallow": (
        "marshmallow-code/marshmallow", "python", "object serialization and validation library"
    ),
    "moment": ("moment/moment", "javascript", "date parsing, formatting and arithmetic library"),
    "resty": ("go-resty/resty", "go", "HTTP and REST client"),
    "jsonschema": ("python-jsonschema/jsonschema", "python", "JSON Schema validator"),
    "node-semver": ("npm/node-semver", "javascript", "semantic version parser and comparator"),
    "logrus": ("sirupsen/logrus", "go", "structured logger"),
    "black": ("psf/black", "python", "code formatter"),
    "wheel": ("pypa/wheel", "python", "wheel packaging tool and library"),
    "browserslist": ("browserslist/browserslist", "javascript", "browser query resolver"),
    "urfave-cli": ("urfave/cli", "go", "command-line application framework"),
    "postcss": ("postcss/postcss", "javascript", "CSS parser and transformer"),
    "immer": ("immerjs/immer", "typescript", "immutable state by mutating drafts"),
    "go-ldap": ("go-ldap/ldap", "go", "LDAP v3 client and protocol encoding"),
    "ipython": ("ipython/ipython", "python", "interactive Python shell and kernel base"),
    "serialize-javascript": (
        "yahoo/serialize-javascript", "javascript", "serializer of JavaScript values to code"
    ),
    "go-toml": ("pelletier/go-toml", "go", "TOML parser and encoder"),
    "pydantic": ("pydantic/pydantic", "python", "data validation with type annotations"),
    "node-postgres": ("brianc/node-postgres", "javascript", "PostgreSQL client"),
    "tusd": ("tus/tusd", "go", "resumable file upload server"),
    "pipenv": ("pypa/pipenv", "python", "packaging and virtual environment manager"),
    "cheerio": ("cheeriojs/cheerio", "typescript", "HTML parser and DOM manipulation"),
    "go-mysql": ("go-sql-driver/mysql", "go", "MySQL driver"),
    "fastapi": ("fastapi/fastapi", "python", "web framework"),
    "adm-zip": ("cthackers/adm-zip", "javascript", "zip archive reader and writer"),
    "go-crypto": ("ProtonMail/go-crypto", "go", "OpenPGP and cryptography library"),
    "dnspython": ("rthalley/dnspython", "python", "DNS toolkit"),
    "radicale": ("Kozea/Radicale", "python", "CalDAV and CardDAV server"),
    "nanoid": ("ai/nanoid", "javascript", "unique ID generator"),
    "circl": ("cloudflare/circl", "go", "cryptographic library"),
    "weasyprint": ("Kozea/WeasyPrint", "python", "HTML and CSS to PDF renderer"),
    "file-type": ("sindresorhus/file-type", "javascript", "file type detection from binary data"),
    "beego": ("beego/beego", "go", "web framework"),
    "poetry": ("python-poetry/poetry", "python", "packaging and dependency manager"),
    "superagent": ("ladjs/superagent", "javascript", "HTTP client"),
    "cobra": ("spf13/cobra", "go", "CLI framework"),
    "celery": ("celery/celery", "python", "distributed task queue"),
    "xml2js": ("Leonidas-from-XIV/node-xml2js", "javascript", "XML to object parser"),
    "pq": ("lib/pq", "go", "PostgreSQL driver"),
    "lxml": ("lxml/lxml", "python", "XML and HTML library (Cython)"),
    "fs-extra": ("jprichardson/node-fs-extra", "javascript", "file system utilities"),
    "migrate": ("golang-migrate/migrate", "go", "database migrations library and CLI"),
    "markupsafe": ("pallets/markupsafe", "python", "HTML escaping of text"),
    "pino": ("pinojs/pino", "javascript", "JSON logger"),
    "securecookie": ("gorilla/securecookie", "go", "authenticated and encrypted cookie values"),
    "flask-wtf": ("pallets-eco/flask-wtf", "python", "forms and CSRF protection for Flask"),
    "fast-json-stringify": (
        "fastify/fast-json-stringify", "javascript", "JSON serializer code generator"
    ),
    "goth": ("markbates/goth", "go", "OAuth and OpenID login providers"),
    "h2": ("python-hyper/h2", "python", "HTTP/2 protocol state machine"),
    "simple-git": ("steveukx/git-js", "typescript", "git command-line wrapper"),
    "webauthn": ("go-webauthn/webauthn", "go", "WebAuthn relying-party library"),
    "pysaml2": ("IdentityPython/pysaml2", "python", "SAML 2.0 identity and service provider"),
    "fastify-static": ("fastify/fastify-static", "javascript", "static file serving plugin"),
    "oauth2-proxy": ("oauth2-proxy/oauth2-proxy", "go", "OAuth2 authenticating reverse proxy"),
    "django-axes": ("jazzband/django-axes", "python", "login-failure lockout for Django"),
    "passport": ("jaredhanson/passport", "javascript", "authentication middleware"),
    "pkgz-auth": ("go-pkgz/auth", "go", "OAuth and JWT authentication service"),
    "flask-login": ("maxcountryman/flask-login", "python", "user session management for Flask"),
    "xml-crypto": ("node-saml/xml-crypto", "javascript", "XML digital signatures and encryption"),
    "go-oauth2": ("go-oauth2/oauth2", "go", "OAuth 2.0 authorization server library"),
    "flask-jwt-extended": ("vimalloc/flask-jwt-extended", "python", "JWT authentication for Flask"),
    "node-saml": ("node-saml/node-saml", "typescript", "SAML 2.0 service provider library"),
    "scs": ("alexedwards/scs", "go", "HTTP session management"),
    "requests-oauthlib": ("requests/requests-oauthlib", "python", "OAuth for requests"),
    "express-openid-connect": ("auth0/express-openid-connect", "javascript",
                               "OpenID Connect middleware for Express"),
    "oathkeeper": ("ory/oathkeeper", "go", "identity and access proxy"),
    "django-cors-headers": ("adamchainz/django-cors-headers", "python", "CORS headers for Django"),
}

_MERGE = re.compile(r"^Merge pull request #(\d+) ")
_SQUASH = re.compile(r"\(#(\d+)\)\s*$")
_ID = re.compile(r"[^A-Za-z0-9_.-]+")


def git(repo: Path, *args: str, env: dict[str, str] | None = None) -> str:
    """Run git in ``repo`` and return stdout (text); raise with git's message on failure."""
    done = subprocess.run(
        ["git", "--git-dir", str(repo), *args], capture_output=True, check=False,
        env={**os.environ, **(env or {})}, timeout=600,
    )
    if done.returncode:
        raise RuntimeError(f"git {' '.join(args[:3])}: {done.stderr.decode(errors='replace')}")
    return done.stdout.decode("utf-8", errors="replace")


def mirror(mirrors: Path, slug: str) -> Path:
    """The bare git directory of a fetched repository."""
    path = mirrors / slug.replace("/", "+") / "repo"
    if not (path / "objects").is_dir():
        raise SystemExit(f"build_corpora: {path} missing: fetch github:{slug} first")
    return path


def halves() -> dict[str, list[str]]:
    """Half -> its repositories (``owner/name``), from corpora/split.json: every key with a
    list of repositories is a half; the others are notes."""
    data = json.loads((CORPORA / "split.json").read_text())
    return {half: slugs for half, slugs in data.items() if isinstance(slugs, list)}


def split() -> dict[str, str]:
    """Short repository name -> half (tune, report, holdout...), from corpora/split.json."""
    by_slug = {slug: half for half, slugs in halves().items() for slug in slugs}
    return {name: by_slug[slug] for name, (slug, _, _) in REPOS.items()}


# ---------------------------------------------------------------- selection


def merged_prs(repo: Path, start: str, n: int) -> list[dict[str, object]]:
    """The last ``n`` merged PRs on the first-parent history from ``start``."""
    out = git(repo, "log", "--first-parent", "--format=%H%x00%P%x00%s%x1e", start)
    prs: list[dict[str, object]] = []
    for record in out.split("\x1e"):
        if not record.strip():
            continue
        sha, parents, subject = record.strip("\n").split("\x00")
        plist = parents.split()
        m = _MERGE.match(subject) if len(plist) == 2 else None
        s = _SQUASH.search(subject) if len(plist) == 1 else None
        if m:
            prs.append({"upstream": sha, "pr": int(m.group(1)), "kind": "merge"})
        elif s:
            prs.append({"upstream": sha, "pr": int(s.group(1)), "kind": "squash"})
        if len(prs) == n:
            break
    return prs


def pr_range(repo: Path, entry: dict[str, object]) -> tuple[str, str]:
    """(base, head) upstream commits of a selected PR or a listed security fix."""
    if "upstream_base" in entry:
        return str(entry["upstream_base"]), str(entry["upstream_head"])
    sha = str(entry["upstream"])
    if entry.get("kind") == "merge":
        return f"{sha}^1", f"{sha}^2"
    return f"{sha}^1", sha


_DOC = re.compile(r"(\.(md|rst|txt|adoc)$|^docs?/|^doc/|^examples?/|LICENSE|AUTHORS|CHANGES|"
                  r"CHANGELOG|History\.md|HISTORY)", re.I)
_TEST = re.compile(r"(^tests?/|/tests?/|_test\.go$|\.test\.[jt]s$|\.spec\.[jt]s$|^test_|/test_|"
                   r"^__tests__/|/__tests__/|^testdata/|/testdata/)")
_CI = re.compile(r"^\.github/(workflows|actions)/")
_DEPS = re.compile(r"(^|/)(package\.json|package-lock\.json|go\.mod|go\.sum|pyproject\.toml|"
                   r"requirements[^/]*\.txt|setup\.py|setup\.cfg|yarn\.lock|uv\.lock|"
                   r"\.github/dependabot\.yml)$")


_REQS = re.compile(r"(^|/)requirements[^/]*(/|\.txt$)|(^|/)constraints[^/]*\.txt$")


def auto_label(files: list[str]) -> tuple[list[str], str]:
    """A first label from the kinds of files a PR changes (a person reviews every one)."""
    if not files:
        return ["green"], "auto: empty diff"
    if all(_REQS.search(f) for f in files):
        return ["yellow"], "auto: dependency pins (a person decides dev-only: green or yellow)"
    if all(_DOC.search(f) or _TEST.search(f) for f in files):
        return ["green"], "auto: docs/tests only"
    if any(_CI.search(f) for f in files):
        return ["yellow", "red"], "auto: CI workflow change"
    return ["yellow"], "auto: code change"


def select(mirrors: Path, only: list[str]) -> None:
    """Pick each repository's PRs and add the missing ones to its labels file."""
    sources_path = CORPORA / "sources.json"
    sources = json.loads(sources_path.read_text()) if sources_path.exists() else {}
    LABELS.mkdir(parents=True, exist_ok=True)
    for name, (slug, lang, kind) in REPOS.items():
        if only and name not in only:
            continue
        repo = mirror(mirrors, slug)
        start = sources.get(name) or git(repo, "rev-parse", "HEAD").strip()
        sources[name] = start
        path = LABELS / f"{name}.json"
        data = json.loads(path.read_text()) if path.exists() else {
            "repo": slug, "language": lang, "kind": kind, "prs": [], "security": []}
        known = {str(e["upstream"]) for e in data["prs"]}
        for pr in merged_prs(repo, start, PER_REPO):
            if pr["upstream"] in known:
                continue
            base, head = pr_range(repo, pr)
            mb = git(repo, "merge-base", base, head).strip()
            lane, reason = auto_label(git(repo, "diff", "--name-only", mb, head).split())
            data["prs"].append({**pr, "subject": _subject(repo, pr), "lane": lane,
                                "reason": reason, "labelled_by": "auto"})
        path.write_text(labels_text(data))
        print(f"{name}: {len(data['prs'])} PRs, {len(data['security'])} security fixes")
    sources_path.write_text(json.dumps(sources, indent=2, sort_keys=True) + "\n")


def _subject(repo: Path, pr: dict[str, object]) -> str:
    title, _ = pr_title_body(repo, pr)
    return title


def pr_title_body(repo: Path, entry: dict[str, object]) -> tuple[str, str]:
    """The PR's title and body as far as git has them offline."""
    sha = str(entry.get("upstream") or entry.get("upstream_head"))
    message = git(repo, "log", "-1", "--format=%B", sha).strip()
    subject, _, rest = message.partition("\n")
    rest = rest.strip()
    if entry.get("kind") == "merge":
        # GitHub's merge message: "Merge pull request #N from x/y\n\n<PR title>\n\n<more>"
        title, _, body = rest.partition("\n")
        return (title.strip() or subject), body.strip()
    if "title" in entry:
        return str(entry["title"]), rest
    return _SQUASH.sub("", subject).strip(), rest


# ---------------------------------------------------------------- building


class Builder:
    """Re-creates cases as parentless-base + PR commits in one scratch repository per repo."""

    def __init__(self, upstream: Path, scratch: Path) -> None:
        self.upstream = upstream
        self.scratch = scratch
        subprocess.run(["git", "init", "-q", "--bare", str(scratch)], check=True)
        alt = scratch / "objects" / "info" / "alternates"
        alt.write_text(str((upstream / "objects").resolve()) + "\n")
        self.refs: list[str] = []
        self._slim_blobs: dict[str, str] = {}
        self._slim_trees: dict[str, str] = {}

    def slim(self, tree: str) -> str:
        """``tree`` with each binary blob over ``SLIM_BYTES`` replaced by a placeholder."""
        if tree in self._slim_trees:
            return self._slim_trees[tree]
        big = []
        for line in git(self.scratch, "ls-tree", "-r", "-l", "-z", tree).split("\x00"):
            meta, _, path = line.partition("\t")
            parts = meta.split()
            if len(parts) == 4 and parts[1] == "blob" and parts[3] == "BAD":
                big.append((parts[0], parts[2], -1, path))  # absent from the fetched mirror
            elif len(parts) == 4 and parts[1] == "blob" and parts[3] != "-" \
                    and int(parts[3]) > SLIM_BYTES and self._binary(parts[2]):
                big.append((parts[0], parts[2], int(parts[3]), path))
        result = tree
        if big:
            with tempfile.TemporaryDirectory(prefix="corpus-index-") as tmp:
                env = {"GIT_INDEX_FILE": str(Path(tmp) / "index")}
                git(self.scratch, "read-tree", tree, env=env)
                for mode, sha, size, path in big:
                    git(self.scratch, "update-index", "--cacheinfo",
                        f"{mode},{self._placeholder(sha, size)},{path}", env=env)
                result = git(self.scratch, "write-tree", env=env).strip()
        self._slim_trees[tree] = result
        return result

    def _binary(self, sha: str) -> bool:
        """Git's own test: a NUL byte in the first 8000 bytes."""
        if sha in self._slim_blobs:
            return True
        done = subprocess.run(["git", "--git-dir", str(self.scratch), "cat-file", "blob", sha],
                              capture_output=True, check=True, timeout=600)
        return b"\x00" in done.stdout[:8000]

    def _placeholder(self, sha: str, size: int) -> str:
        if sha not in self._slim_blobs:
            text = (f"\x00corpus builder: a {size}-byte binary file (upstream blob {sha}) "
                    f"left out to keep bench/corpora small\n") if size >= 0 else (
                    f"\x00corpus builder: upstream blob {sha} is absent from the fetched "
                    f"mirror (its largest files may be listed but not stored)\n")
            done = subprocess.run(
                ["git", "--git-dir", str(self.scratch), "hash-object", "-w", "--stdin"],
                input=text.encode(), capture_output=True, check=True, timeout=600)
            self._slim_blobs[sha] = done.stdout.decode().strip()
        return self._slim_blobs[sha]

    def commit(self, sha: str | None, tree: str, parent: str | None, message: str,
               ident: dict[str, str]) -> str:
        """A commit with ``tree`` and ``parent``, message and identity of ``sha`` (or given)."""
        args = ["commit-tree", tree]
        if parent:
            args += ["-p", parent]
        if sha:
            fmt = "%an%x00%ae%x00%ad%x00%cn%x00%ce%x00%cd"
            an, ae, ad, cn, ce, cd = git(self.upstream, "log", "-1", "--date=raw",
                                         f"--format={fmt}", sha).split("\x00")
            ident = {"GIT_AUTHOR_NAME": an, "GIT_AUTHOR_EMAIL": ae, "GIT_AUTHOR_DATE": ad,
                     "GIT_COMMITTER_NAME": cn, "GIT_COMMITTER_EMAIL": ce,
                     "GIT_COMMITTER_DATE": cd.strip()}
        return git(self.scratch, *args, "-m", message, env=ident).strip()

    def case(self, case_id: str, base: str, head: str) -> tuple[str, str, list[dict[str, str]]]:
        """Re-create one PR; return (base, head, commits) in the scratch repository."""
        up = self.upstream
        base_c = git(up, "rev-parse", base).strip()
        head_c = git(up, "rev-parse", head).strip()
        mb = git(up, "merge-base", base_c, head_c).strip()
        date = git(up, "log", "-1", "--date=raw", "--format=%cd", mb).strip()
        ident = {"GIT_AUTHOR_NAME": "corpus builder", "GIT_AUTHOR_EMAIL": "corpus@invalid",
                 "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_NAME": "corpus builder",
                 "GIT_COMMITTER_EMAIL": "corpus@invalid", "GIT_COMMITTER_DATE": date}
        new_base = self.commit(None, self.slim(f"{mb}^{{tree}}"), None,
                               f"base of {case_id}: tree of upstream {mb}", ident)
        shas = git(up, "rev-list", "--reverse", "--topo-order", f"{mb}..{head_c}").split()
        if len(shas) > MAX_COMMITS:
            shas = [head_c]
        parent = new_base
        commits = []
        for sha in shas:
            message = git(up, "log", "-1", "--format=%B", sha)
            parent = self.commit(sha, self.slim(f"{sha}^{{tree}}"), parent, message, {})
            author = git(up, "log", "-1", "--format=%an <%ae>", sha).strip()
            commits.append({"message": message.strip(), "author": author})
        for suffix, target in (("base", new_base), ("head", parent)):
            ref = f"refs/heads/{case_id}/{suffix}"
            git(self.scratch, "update-ref", ref, target)
            self.refs.append(ref)
        return new_base, parent, commits

    def bundle(self, dest: Path, tight: bool = True) -> None:
        """Write every case's refs (and what they reach) as one git bundle: packed as tightly
        as git can for bench/corpora's size budget (``tight``), else git's default packing (a
        half built outside the budget; the tight repack of a large repository's cases takes
        longer than git is given)."""
        dest.parent.mkdir(parents=True, exist_ok=True)
        if tight:
            git(self.scratch, "repack", "-adq", "-f", "--window=250", "--depth=50")
        else:
            git(self.scratch, "repack", "-adq")
        git(self.scratch, "bundle", "create", str(dest.resolve()), "--all")


def build(mirrors: Path, only: list[str], root: Path = CORPORA) -> None:
    """Bundles and cases for every repository with a labels file, under ``root/<half>``."""
    halves = split()
    for name, (slug, _, _) in REPOS.items():
        path = LABELS / f"{name}.json"
        if (only and name not in only) or not path.exists():
            continue
        data = json.loads(path.read_text())
        upstream = mirror(mirrors, slug)
        out = root / halves[name]
        for old in (out / "cases").glob(f"{name}-*"):
            shutil.rmtree(old)
        with tempfile.TemporaryDirectory(prefix="corpus-build-") as tmp:
            builder = Builder(upstream, Path(tmp) / f"{name}.git")
            n = 0
            entries = [(e, "ordinary") for e in data["prs"]]
            entries += [(e, "security") for e in data["security"]]
            for entry, kind in entries:
                if kind == "ordinary":
                    case_id = f"{name}-ordinary-{str(entry['upstream'])[:10]}"
                else:
                    case_id = f"{name}-security-{_ID.sub('-', str(entry['id']))}"
                base, head = pr_range(upstream, entry)
                title, body = pr_title_body(upstream, entry)
                new_base, new_head, commits = builder.case(case_id, base, head)
                src_base = git(upstream, "rev-parse", base).strip()[:12]
                src_head = git(upstream, "rev-parse", head).strip()[:12]
                what = (f"merged pull request #{entry['pr']}" if kind == "ordinary"
                        else f"security fix {entry['id']}")
                case = {
                    "id": case_id, "repo": name, "base": new_base, "head": new_head,
                    "title": title, "body": body, "labels": [], "commits": commits,
                    "expected": {"lane_any_of": entry["lane"]}, "criteria": [],
                    "source": f"{slug} {what}, upstream base {src_base} head {src_head}",
                }
                if entry.get("secrets") is False:
                    case["expected"]["secrets"] = False
                case_dir = out / "cases" / case_id
                case_dir.mkdir(parents=True, exist_ok=True)
                (case_dir / "case.json").write_text(
                    json.dumps(case, separators=CASE_SEPARATORS) + "\n"
                )
                n += 1
            builder.bundle(out / "repos" / f"{name}.bundle", tight=root == CORPORA)
        size = (out / "repos" / f"{name}.bundle").stat().st_size
        print(f"{name}: {n} cases -> {out.name}/, bundle {size / 1e6:.1f} MB", flush=True)


def main(argv: list[str]) -> int:
    """``select`` or ``build``, for all repositories or the ones named."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("step", choices=["select", "build"])
    parser.add_argument("repos", nargs="*", help="short names (default: all)")
    parser.add_argument("--mirrors", type=Path, default=DEFAULT_MIRRORS)
    parser.add_argument("--out", type=Path, default=CORPORA,
                        help="where build writes <half>/repos and <half>/cases (default "
                             "bench/corpora; a half split.json lists under "
                             "built_outside_budget goes elsewhere, e.g. /tmp/corpora-extra)")
    args = parser.parse_args(argv[1:])
    if args.step == "select":
        select(args.mirrors, args.repos)
    else:
        build(args.mirrors, args.repos, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
