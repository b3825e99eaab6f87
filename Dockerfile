# The Action image: the package and its pinned verifier tools, installed by the same script CI
# runs (.ci/install-runtime). No USER (the runner mounts the workspace owned by another uid and
# the action must read it as root) and no WORKDIR (the runner sets /github/workspace).
FROM python:3.11-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends git \
    && rm -rf /var/lib/apt/lists/*
COPY . /app
RUN sh /app/.ci/install-runtime
ENTRYPOINT ["pr-review", "action"]
