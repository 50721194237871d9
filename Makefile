# Every target builds the virtual environment it needs from nothing (Python 3.11+ and make).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
STACK  ?= inference-t4

.PHONY: plan test lint check bench docs clean

$(STAMP): pyproject.toml
	$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed, found " + sys.version.split()[0])'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e ".[test]"
	touch $(STAMP)

plan: $(STAMP)  ## offline plan of a shipped stack: make plan STACK=inference-t4
	$(BIN)/gpu-stacks plan $(STACK)

test: $(STAMP)  ## the whole test suite (what CI runs)
	$(BIN)/python -m pytest

lint: $(STAMP)  ## type-check the packages (mypy, skipping pulumi-azure-native's internals) and ruff
	$(BIN)/python -m mypy components fakeazure preflight policies
	$(BIN)/ruff check .

check: $(STAMP)  ## plan every shipped stack and give one verdict
	$(BIN)/gpu-stacks check

bench: $(STAMP)  ## benchmarks, on demand (see bench/README.md)
	$(BIN)/python bench/plan_bench.py
	$(BIN)/python bench/check_bench.py
	$(BIN)/python bench/policy_bench.py

docs: $(STAMP)  ## regenerate docs/components.md from the code, and the dated lines of docs/policies.md from the catalog (tests fail when stale)
	$(BIN)/python -m azure_gpu_stacks.components.docs
	$(BIN)/python -m azure_gpu_stacks.policies.docs

clean:
	rm -rf $(VENV) .pytest_cache *.egg-info
