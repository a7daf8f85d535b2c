# Two commands do everything: `make run` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
NPM ?= npm
WEB_STAMP := web/node_modules/.installed
WEB_OUT := web/dist/app.js
WEB_SRC := $(wildcard web/src/*.ts web/static/*) web/build.mjs web/tsconfig.json

.PHONY: run test check setup web bench clean secrecy

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

# the web client: npm packages from the lockfile, then esbuild into web/dist/
$(WEB_STAMP): web/package.json web/package-lock.json
	cd web && $(NPM) ci --no-audit --no-fund --loglevel=error
	touch $(WEB_STAMP)

$(WEB_OUT): $(WEB_STAMP) $(WEB_SRC)
	cd web && node build.mjs

web: $(WEB_OUT)

setup: $(STAMP) web

run: $(STAMP) web
	$(BIN)/duel serve $(ARGS)

check: $(STAMP) $(WEB_STAMP)
	$(BIN)/ruff check engine protocol server tests bench
	$(BIN)/mypy engine protocol server
	cd web && node_modules/.bin/tsc --noEmit

test: $(STAMP) check web
	$(BIN)/pytest

# the secrecy tests at length (issue 8): the cheater over 300 random effect-heavy duels, and
# 300 duels over websockets checked frame by frame
secrecy: $(STAMP)
	DUEL_CHEATER_EXAMPLES=300 $(BIN)/pytest tests/engine/test_secrecy.py
	DUEL_HIDDEN_INFO_DUELS=300 $(BIN)/pytest tests/server/test_server_hidden_info.py

bench: $(STAMP)
	$(BIN)/python -m bench.run
	$(BIN)/python -m bench.server
	$(BIN)/python -m bench.replays

clean:
	rm -rf $(VENV) var .mypy_cache .ruff_cache .pytest_cache web/node_modules web/dist artifacts
