# The two commands a fresh clone needs: `make generate` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
TSC := node_modules/.bin/tsc

.PHONY: generate check test golden clean

# The tool alone: what `make generate` needs.
$(VENV)/.tool: pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -c constraints.txt -e .
	touch $@

# Everything the tests need on top: Python test packages and the TypeScript compiler.
$(VENV)/.test: $(VENV)/.tool pyproject.toml constraints.txt
	$(PY) -m pip install --quiet -c constraints.txt -e '.[test]'
	touch $@

$(TSC): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

generate: $(VENV)/.tool
	$(PY) -m generator generate

check: $(VENV)/.tool
	$(PY) -m generator check

test: $(VENV)/.test $(TSC)
	$(PY) -m pytest

# Rewrite the golden files of tests/cases/ from the current generator.
golden: $(VENV)/.test
	$(PY) -m tests.golden

clean:
	rm -rf $(VENV) node_modules
