# The two commands a fresh clone needs: `make generate` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
TSC := node_modules/.bin/tsc

.PHONY: rust generate check test golden bench mutate clean go java

# The tool alone: what `make generate` needs.
$(VENV)/.tool: pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -c constraints.txt -e .
	touch $@

# Everything the tests need on top: Python test packages (with the benchmark
# baselines, for the bench's smoke run) and the TypeScript compiler.
$(VENV)/.test: $(VENV)/.tool pyproject.toml constraints.txt
	$(PY) -m pip install --quiet -c constraints.txt -e '.[test,bench]'
	touch $@

$(TSC): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

generate: $(VENV)/.tool
	$(PY) -m taxogen generate

check: $(VENV)/.tool
	$(PY) -m taxogen check

# Go, for the go target's tests (tests/targets/go/test_go.py): Debian's golang-go (1.19),
# installed when missing, as CI runs as root on Debian.
go:
	@command -v go >/dev/null || (apt-get update -qq && apt-get install -y -qq golang-go)

# Rust, for the rust target's tests (tests/targets/rust/test_rust.py): Debian's rustc,
# cargo and rustfmt (1.63) and its packaged serde crates, which the tests read
# offline through a directory source (/usr/share/cargo/registry); installed when
# missing, as Go is.
RUST_CRATES = /usr/share/cargo/registry
rust:
	@(command -v /usr/bin/cargo && command -v /usr/bin/rustfmt && ls -d $(RUST_CRATES)/serde_json-* $(RUST_CRATES)/serde_derive-*) >/dev/null 2>&1 || \
		(apt-get update -qq && apt-get install -y -qq rustc cargo rustfmt librust-serde-json-dev librust-serde-derive-dev)

# Java, for the java target's tests (tests/targets/java/): Debian's OpenJDK 17, the
# Jackson jars its tests compile against offline from /usr/share/java (with JUnit 5,
# which the issue names; the conformance runner is a plain main, one JVM for every case),
# and Kotlin, whose compiler runs docs/java.md's Kotlin example.
JAVA_JARS := /usr/share/java/jackson-databind.jar /usr/share/java/jackson-core.jar \
	/usr/share/java/jackson-annotations.jar
java:
	@(command -v javac >/dev/null && command -v kotlinc >/dev/null && \
	ls $(JAVA_JARS) >/dev/null 2>&1) || \
	(apt-get update -qq && apt-get install -y -qq openjdk-17-jdk-headless \
	libjackson2-databind-java junit5 kotlin)

test: $(VENV)/.test $(TSC) go java rust
	$(PY) -m pytest

# The benchmark suite: synthesized taxonomies of 100 to 10,000 codes, every figure
# next to its baseline; writes benchmarks/RESULTS.md (takes several minutes).
bench: $(VENV)/.test $(TSC) rust go java
	$(PY) -m benchmarks.bench

# Rewrite the golden files of tests/cases/ from the current generator (and the
# committed copy of the taxonomy format's schema, schema/taxonomy.schema.json).
golden: $(VENV)/.test
	$(PY) -m tests.golden
	$(PY) -m tests.bad_golden
	$(PY) -m taxogen schema > schema/taxonomy.schema.json

clean:
	rm -rf $(VENV) node_modules

# The mutation test pass over naming, validate, contract and emit; writes
# MUTATION.md (takes a while: mutmut runs the fast tests once per mutant).
mutate: $(VENV)/.test
	$(PY) -m pip install --quiet -c constraints.txt -e '.[test,bench,mutate]'
	$(PY) -m tests.mutation
