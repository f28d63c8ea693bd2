# The two commands of the contract:
#   make reproduce   set up .venv, print the plan (jobs, CPU-hours, wall time), run the full
#                    reproduction, then build reports/report.html
#   make test        set up .venv and run the test suite (slow cases excluded)
# Both take CONFIG=config/quick.yaml (the smoke run) and CORES=N.
PYTHON ?= python3
VENV   := .venv
BIN    := $(CURDIR)/$(VENV)/bin
CORES  ?= 8
CONFIG ?=
REPORT ?= reports/report.html
# make test: test files spread over this many processes (pytest-xdist; CI has 2 cores)
TEST_WORKERS ?= 2
PYTEST_WORKERS = $(if $(filter 1,$(TEST_WORKERS)),,-n $(TEST_WORKERS) --dist loadfile)

# Rules call `puzzlelab` and `python` from PATH: the project's .venv comes first.
export PATH := $(BIN):$(PATH)

CONFIGARG = $(if $(CONFIG),--configfile $(CONFIG),)
SNAKEMAKE = $(BIN)/snakemake

.PHONY: reproduce plan test test-timed test-all venv report verify reference part experiments lint format clean

$(VENV)/.installed: pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

venv: $(VENV)/.installed

# Interrupted? Run the same command again: finished work is kept, a stale lock is cleared.
reproduce: venv plan
	$(SNAKEMAKE) --cores $(CORES) $(CONFIGARG)
	mkdir -p $(dir $(REPORT))
	$(SNAKEMAKE) --report $(REPORT) $(CONFIGARG)
	@echo "report: $(REPORT)"

plan: venv
	$(BIN)/puzzlelab lab plan --cores $(CORES) $(CONFIGARG)

report: venv
	mkdir -p $(dir $(REPORT))
	$(SNAKEMAKE) --report $(REPORT) $(CONFIGARG)

# Compare results/ byte for byte with the committed manifest of the same config.
verify: venv
	$(BIN)/puzzlelab lab verify $(CONFIGARG)

# After a finished run: reference/<label>/ (manifest, measured cost per job, scorecard).
reference: venv
	$(BIN)/puzzlelab lab reference $(CONFIGARG)
	$(BIN)/puzzlelab lab readme

# A run too long for one sitting, in parts: run some experiments, then merge them into
# reference/<label>/ (the others stay as committed), e.g. make part EXPERIMENTS="beam_width beam_factory"
part: venv
	@test -n "$(EXPERIMENTS)" || { echo 'make part EXPERIMENTS="NAME ..." (see make experiments)'; exit 2; }
	$(SNAKEMAKE) $(EXPERIMENTS) --cores $(CORES) $(CONFIGARG)
	$(BIN)/puzzlelab lab reference --part $(EXPERIMENTS) $(CONFIGARG)
	$(BIN)/puzzlelab lab readme

experiments: venv
	@PUZZLELAB_LIST_EXPERIMENTS=1 $(SNAKEMAKE) --dry-run --quiet $(CONFIGARG)

test: venv
	$(BIN)/python -m pytest -m "not slow" $(PYTEST_WORKERS)

# `make test` timed, for README.md's table (reference/tests.json, then `puzzlelab lab readme`).
test-timed: venv
	$(BIN)/python -m puzzlelab.lab.timed_tests reference/tests.json -- -m "not slow" $(PYTEST_WORKERS)
	$(BIN)/puzzlelab lab readme

# Everything, with 10,000 fuzz cases per parser family.
test-all: venv
	PUZZLELAB_FUZZ=slow $(BIN)/python -m pytest $(PYTEST_WORKERS)

lint: venv
	$(BIN)/ruff check src tests
	$(BIN)/snakemake --lint
	$(BIN)/snakefmt --check Snakefile rules/

format: venv
	$(BIN)/snakefmt Snakefile rules/

clean:
	rm -rf results reports .snakemake .numba_cache
