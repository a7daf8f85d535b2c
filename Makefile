# Two commands do everything: `make run` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
NPM ?= npm
WEB_STAMP := web/node_modules/.installed
WEB_OUT := web/dist/app.js
WEB_SRC := $(wildcard web/src/*.ts web/static/*) web/build.mjs web/tsconfig.json

.PHONY: run test test-engine system check setup web native bench clean secrecy faults fuzz

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

# the rules engine compiled with mypyc into var/native/ (server/runtime/native.py loads it while it
# matches the sources; deploy/build_native.py). A content check, not timestamps: fast when current.
native: $(STAMP)
	$(BIN)/python deploy/build_native.py --if-stale

# what the machine must have (Chromium, gcc, Python's headers, Node.js): installed when missing
# and root (or password-less sudo), else one line with the command to run
system:
	deploy/system_deps.sh $(PY)

setup: $(STAMP) web native

run:
	deploy/system_deps.sh $(PY) --no-browser || echo "continuing without them"
	$(MAKE) --no-print-directory $(STAMP) web
	$(BIN)/python deploy/build_native.py --if-stale || \
		echo "the engine could not be compiled (mypyc needs gcc and Python's headers): it runs as Python source"
	$(BIN)/duel serve $(ARGS)

check: $(STAMP) $(WEB_STAMP)
	$(BIN)/ruff check engine protocol server tests bench deploy
	$(BIN)/ruff format --check engine protocol server tests bench deploy
	$(BIN)/mypy engine protocol server bench deploy/build_native.py deploy/run_suite.py
	cd web && node_modules/.bin/tsc --noEmit

# the suite on the compiled engine, then (DUEL_ENGINE=pure) the tests that change the engine's
# module globals, which only the Python source looks up (the `pure_engine` marker)
# (the checks and the compile step side by side: mypy and mypyc's code generator each use one core;
# the suite in two pytest processes side by side, each with its own Redis: deploy/run_suite.py)
test: system $(STAMP)
	$(MAKE) --no-print-directory -j2 --output-sync=target check web native $(PEER_STAMP)
	$(BIN)/python deploy/run_suite.py

# a rules change, quickly: the engine's tests, every scenario and the golden logs on the Python
# source (no Redis, no browser, no compile step)
test-engine: $(STAMP)
	DUEL_ENGINE=pure $(BIN)/pytest tests/engine tests/scenarios tests/golden tests/test_rulings_doc.py

# the secrecy tests at length (issue 8): the cheater over 300 random effect-heavy duels, and
# 300 duels over websockets checked frame by frame
secrecy: $(STAMP) native
	DUEL_CHEATER_EXAMPLES=300 $(BIN)/pytest tests/engine/test_secrecy.py
	DUEL_HIDDEN_INFO_DUELS=300 $(BIN)/pytest tests/server/test_server_hidden_info.py

# the rule invariants of issue 35 at length: 300 random positions from the whole card pool for
# each invariant, 60 actions from each (`make test` runs 25; tests/engine/test_rule_invariants.py)
.PHONY: invariants
invariants: $(STAMP)
	DUEL_ENGINE=pure DUEL_INVARIANT_EXAMPLES=300 $(BIN)/pytest -m pure_engine tests/engine/test_rule_invariants.py

# the fault tests of issue 15 at length (tests/faults; `make test` runs them short). Figures
# are printed as FAULT-FIGURES lines; docs/reliability.md records a run.
FAULT_ENV ?= DUEL_FAULT_ROUNDS=10 DUEL_FAULT_DUELS=8 DUEL_FAULT_KILL_EVERY=2 DUEL_FAULT_REDIS_DOWN=2 \
	DUEL_FAULT_LOST_DUELS=8 DUEL_FAULT_QUICK_PAIRS=8 DUEL_FAULT_LEAVERS=6 DUEL_FAULT_WRITERS=6 \
	DUEL_FAULT_RACES=6 DUEL_FAULT_TAKEOVER_TRIES=200 DUEL_FUZZ_EXAMPLES=3000 DUEL_FUZZ_INPUTS=100000 \
	DUEL_STATEFUL_EXAMPLES=60 DUEL_IDLE_CONNECTIONS=2000 DUEL_SLOW_CLIENTS=20 \
	DUEL_FAULT_STALL_S=10 DUEL_FAULT_CLOCK_DUELS=8 DUEL_FAULT_FULL_ROUNDS=10 DUEL_FAULT_FULL_DUELS=8 DUEL_FAULT_FULL_S=3 \
	DUEL_FAULT_FAILOVERS=4 DUEL_FAULT_FAILOVER_DUELS=8 \
	DUEL_FAULT_BOMB_MB=300 DUEL_FAULT_UPLOAD_ENTRIES=200000 DUEL_FAULT_UPLOADERS=4 \
	DUEL_FAULT_ABANDONED_BOTS=300 DUEL_FAULT_ADDRESS_LIMIT=256 DUEL_FAULT_CREATE_ATTEMPTS=2000
faults: $(STAMP) native
	mkdir -p artifacts
	DUEL_FAULTS=1 $(FAULT_ENV) $(BIN)/pytest -s -o timeout=3000 tests/faults > artifacts/faults.log 2>&1; status=$$?; \
		grep -E "FAULT-FIGURES|passed|failed|xfail" artifacts/faults.log; exit $$status

# fuzzing: 1,000,000 generated frames at the live server (while honest duels go on), then
# atheris (coverage-guided) on the codec and validator for FUZZ_RUNS inputs, if installed
# (pip install -e '.[fuzz]')
FUZZ_INPUTS ?= 1000000
FUZZ_RUNS ?= 1000000
fuzz: $(STAMP) native
	mkdir -p artifacts/fuzz
	DUEL_FUZZ_INPUTS=$(FUZZ_INPUTS) DUEL_FUZZ_CONNECTIONS=8 DUEL_FUZZ_EXAMPLES=2000 \
		$(BIN)/pytest -s -o timeout=7200 tests/faults/test_fault_fuzz.py
	$(BIN)/pip install -q atheris || echo "atheris does not install here: the codec fuzzer is skipped"
	if $(BIN)/python -c "import atheris" 2>/dev/null; then \
		cd artifacts/fuzz && PYTHONPATH=$(CURDIR) $(CURDIR)/$(BIN)/python -m tests.faults.fuzz_atheris \
		-runs=$(FUZZ_RUNS) -print_final_stats=1; fi

# boardgame.io, the peer of the benchmarks, from npm into var/bench-peer/ (not tracked)
PEER_STAMP := var/bench-peer/.installed
$(PEER_STAMP): bench/peer.py
	$(BIN)/python -m bench.peer --install-only

# every benchmark; the figures go into docs/performance.md (BENCH_ARGS=--quick: smaller)
bench: $(STAMP) $(PEER_STAMP) native
	$(BIN)/python -m bench.all $(BENCH_ARGS)

clean:
	rm -rf $(VENV) var .mypy_cache .ruff_cache .pytest_cache web/node_modules web/dist artifacts
