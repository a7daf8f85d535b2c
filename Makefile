# Two commands do everything: `make run` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test check setup bench clean secrecy

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	$(BIN)/duel serve $(ARGS)

check: $(STAMP)
	$(BIN)/ruff check engine protocol server tests bench
	$(BIN)/mypy engine protocol server

test: $(STAMP) check
	$(BIN)/pytest

# the cheater property test at length (issue 8): 300 random effect-heavy duels
secrecy: $(STAMP)
	DUEL_CHEATER_EXAMPLES=300 $(BIN)/pytest tests/engine/test_secrecy.py

bench: $(STAMP)
	$(BIN)/python -m bench.run
	$(BIN)/python -m bench.server

clean:
	rm -rf $(VENV) var .mypy_cache .ruff_cache .pytest_cache
