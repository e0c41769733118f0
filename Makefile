# The two commands of the README: `make serve` and `make test`. Both install what is missing
# first (scripts/setup.sh is idempotent and pins every tool).
SHELL := /bin/bash
export PATH := $(HOME)/.cargo/bin:$(PATH)

.PHONY: all setup setup-native setup-benchexec serve test test-native test-browser test-benchexec build-web lint dist

all: test

setup:
	scripts/setup.sh

setup-native:
	scripts/setup.sh --native-only

setup-benchexec:
	scripts/setup-benchexec.sh

lint:
	cargo fmt --all -- --check
	cargo clippy --workspace --all-targets -- -D warnings
	python3 scripts/import-cycles.py engine/src web/src cli/src solver-bridge/src

test-native: setup-native
	cargo test --workspace --release

build-web: setup
	scripts/build-web.sh

test-browser: build-web
	scripts/test-browser.sh

# The BenchExec tool-info module (contrib/benchexec/) with the release binary: BenchExec's own
# checker and real runs of cpa verify; no cgroups needed.
test-benchexec: setup-native setup-benchexec
	cargo build --release -q -p cpa-cli
	scripts/test-benchexec.sh

test: setup lint test-native test-browser test-benchexec

# The whole deployment in dist/: copy the folder to any static host (no special headers needed).
dist: build-web
	@echo "dist/ is the whole deployment: copy it to any static web host."

serve: build-web
	python3 scripts/serve.py dist 8080
