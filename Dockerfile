# The Action image: Debian's slim base with Debian's own python3, and the package with its
# pinned verifier tools installed by the same script CI runs (.ci/install-runtime) into a
# virtual environment (Debian's python3 is "externally managed", PEP 668). Trimmed in the same
# step that installs, since a later step cannot make a layer smaller.
# `make image-test` executes these instructions itself in a debootstrapped root (no Docker
# engine is needed): it understands FROM, RUN, COPY, ENV and ENTRYPOINT and refuses anything
# else, so a new kind of instruction here fails that test until image/dockerfile.py learns it.
# No USER (the runner mounts the workspace owned by another uid and the action must read it as
# root) and no WORKDIR (the runner sets /github/workspace).
FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends python3 python3-venv git ca-certificates \
    && rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*.deb /var/log/apt /var/log/dpkg.log
ENV VIRTUAL_ENV=/opt/pr-review PATH=/opt/pr-review/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
COPY . /app
RUN python3 -m venv /opt/pr-review \
    && PYTHON=/opt/pr-review/bin/python sh /app/.ci/install-runtime \
    && /opt/pr-review/bin/python /app/.ci/trim_image.py /opt/pr-review
ENTRYPOINT ["pr-review", "action"]
