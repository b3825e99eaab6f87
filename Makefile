# Two commands do all the set-up on a fresh machine (see README.md):
#   make example   offline review of the bundled example PR
#   make test      the whole test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
EXAMPLE := examples/.work

.PHONY: install example test lint bench clean image-test

$(STAMP): pyproject.toml .ci/install-runtime
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --upgrade pip
	PYTHON=$(BIN)/python sh .ci/install-runtime
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-cache-dir -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

example: $(STAMP)
	$(BIN)/python examples/make_example.py $(EXAMPLE)/shop-api
	$(BIN)/pr-review review --repo $(EXAMPLE)/shop-api --base main \
		--title "Sortable order list and nightly export" --body-file $(EXAMPLE)/shop-api.body.md \
		--out-dir $(EXAMPLE)/out --sarif $(EXAMPLE)/out/findings.sarif

test: $(STAMP)
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check src tests bench image .ci examples/make_example.py
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) $(EXAMPLE) .mypy_cache .ruff_cache .pytest_cache

# Not part of `make test`: needs root, debootstrap and the package mirror (see README).
image-test: $(STAMP)
	$(BIN)/python -m image
