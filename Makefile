# The two commands of the contract:
#   make reproduce   set up .venv and run the full reproduction, then build the report
#   make test        set up .venv and run the test suite (slow cases excluded)
PYTHON ?= python3
VENV   := .venv
BIN    := $(CURDIR)/$(VENV)/bin
CORES  ?= 8
# e.g. make reproduce CONFIG=config/quick.yaml
CONFIG ?=
REPORT ?= reports/report.html

# Rules call `puzzlelab` and `python` from PATH: the project's .venv comes first.
export PATH := $(BIN):$(PATH)

SNAKEMAKE = $(BIN)/snakemake $(if $(CONFIG),--configfile $(CONFIG),)

.PHONY: reproduce test test-all venv report lint format clean

$(VENV)/.installed: pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

venv: $(VENV)/.installed

reproduce: venv
	$(SNAKEMAKE) --cores $(CORES)
	mkdir -p $(dir $(REPORT))
	$(SNAKEMAKE) --report $(REPORT)
	@echo "report: $(REPORT)"

report: venv
	mkdir -p $(dir $(REPORT))
	$(SNAKEMAKE) --report $(REPORT)

test: venv
	$(BIN)/python -m pytest -m "not slow"

test-all: venv
	$(BIN)/python -m pytest

lint: venv
	$(BIN)/snakemake --lint
	$(BIN)/snakefmt --check Snakefile rules/

format: venv
	$(BIN)/snakefmt Snakefile rules/

clean:
	rm -rf results reports .snakemake .numba_cache
