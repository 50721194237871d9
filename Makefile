# Every target builds the virtual environment it needs from nothing (Python 3.11+ and make):
# uv (pinned, installed once into .tools/ with pip) creates .venv with exactly the versions in uv.lock.
#
# The interpreter .venv is made from: the system's /usr/bin/python3 where it is 3.11 or newer and has pip and
# venv, else python3 from PATH; `make <target> PYTHON=/path/to/python3` (or PYTHON in the environment) chooses.
# CPython's configure leaves profile-guided and link-time optimization off unless asked
# (docs.python.org/3/using/configure.html, "Performance options", observed 2026-11-28), and pyenv, whose shim is
# often first on PATH, builds it that way with libpython shared; Debian 12's /usr/bin/python3.11 is a static,
# optimized build: the same suite took 6-15 % less CPU on it than on pyenv's 3.11.7 (docs/testing.md).
SYSTEM_PYTHON := /usr/bin/python3
ifeq ($(origin PYTHON),undefined)
PYTHON := $(shell $(SYSTEM_PYTHON) -c 'import sys, ensurepip, pip, venv; sys.exit(sys.version_info < (3, 11))' \
	> /dev/null 2>&1 && echo $(SYSTEM_PYTHON) || echo python3)
endif
UV_VERSION := 0.13.9
UV         := .tools/bin/uv
VENV       := .venv
BIN        := $(VENV)/bin
STAMP      := $(VENV)/.installed-stamp
STACK      ?= inference-t4
# the whole suite on every core, as CI runs it: xdist groups keep a shared fixture on one worker (tests/conftest.py)
PYTEST_ARGS := -n auto --dist loadgroup --durations=20
# the rooms: the folders that install as azure_gpu_stacks.<room> (pyproject.toml, package-dir)
ROOMS      := catalog components engine fakeazure inputs policies sdk stack
# uv uses this machine's Python and never downloads one.
export UV_PYTHON := $(PYTHON)
export UV_PYTHON_DOWNLOADS := never

.PHONY: plan test lint check bench docs lock clean mutation

$(UV):
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed, found " + sys.version.split()[0])'
	@echo "setup: installing uv $(UV_VERSION) into .tools/ (once)"
	@$(PYTHON) -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --target .tools "uv==$(UV_VERSION)"

$(STAMP): pyproject.toml uv.lock | $(UV)
	@echo "setup: creating .venv from uv.lock with $(PYTHON) (first run only; 'make lock' after changing dependencies)"
	@$(UV) sync --locked
	@# uv installs no bytecode, and where PYTHONDONTWRITEBYTECODE is set (CI images often set it) every
	@# process then compiled the SDK modules it imports again, about 4 s of each start. Compiled here
	@# once: the modules a plan imports (parallel.preload), not all 10,000 files (uv --compile-bytecode).
	@echo "setup: compiling the SDK modules a plan imports (first run only)"
	@PYTHONDONTWRITEBYTECODE= $(BIN)/python -c "from azure_gpu_stacks.engine.run.parallel import preload; preload()"
	@# The suite imports every module of pulumi-azure-native (tests/fakeazure/test_every_provider_function.py) and
	@# plans import modules the preload does not (web, datafactory...), each time compiling them from source again:
	@# compiled once here, the whole package (28 CPU-s on two cores; docs/testing.md), not all of site-packages.
	@echo "setup: compiling pulumi-azure-native (first run only)"
	@PYTHONDONTWRITEBYTECODE= $(BIN)/python -m compileall -q -j 0 \
		"$$($(BIN)/python -c 'import os, pulumi_azure_native as p; print(os.path.dirname(p.__file__))')" > /dev/null
	@touch $(STAMP)

lock: | $(UV)  ## re-resolve uv.lock after a change to pyproject.toml's dependencies
	$(UV) lock

plan: $(STAMP)  ## offline plan of a shipped stack: make plan STACK=inference-t4
	$(BIN)/gpu-stacks plan $(STACK)

test: $(STAMP)  ## the whole test suite on every core (what CI runs; tests/conftest.py groups shared fixtures; docs/testing.md)
	@# Unless TMPDIR is set, the run's temporary files (pytest's tmp_path, the plans' own) go to a directory of
	@# its own on the memory filesystem /dev/shm where there is one, removed afterwards, interrupted or not: the
	@# suite makes and removes tens of thousands of files, and on an ext4 /tmp that cost 5-7 core-s of kernel
	@# time a run (docs/testing.md, "Twelfth session"). A short name: tests bind Unix sockets under tmp_path,
	@# whose paths may not exceed 107 bytes.
	@scratch=; if [ -z "$$TMPDIR" ] && scratch=$$(mktemp -d -p /dev/shm gst.XXXXXX 2>/dev/null); then \
		trap 'rm -rf "$$scratch"' EXIT; trap 'exit 130' INT; trap 'exit 143' TERM; export TMPDIR="$$scratch"; fi; \
		echo "$(BIN)/python -m pytest $(PYTEST_ARGS)$${scratch:+  (TMPDIR=$$scratch)}"; \
		$(BIN)/python -m pytest $(PYTEST_ARGS)

lint: $(STAMP)  ## type-check the packages (mypy, skipping pulumi-azure-native's internals), ruff, and the import contracts of ARCHITECTURE.md's rooms (import-linter, .importlinter)
	@# mypy and import-linter name each module from the tree: the repository root is the package (__init__.py),
	@# and the folder a checkout is in is often no valid package name (`git clone` makes `azure-gpu-stacks`,
	@# which mypy refuses outright). import-linter also finds the package by its name, and the installed one is an
	@# editable namespace it cannot read. So both read the root through a scratch directory where it is named
	@# azure_gpu_stacks, and mypy's lines name files from the root again.
	@root=$$(mktemp -d) && ln -s "$(CURDIR)" "$$root/azure_gpu_stacks" && \
		{ $(BIN)/python -m mypy $(addprefix "$$root"/azure_gpu_stacks/,$(ROOMS)) 2>&1; echo $$? > "$$root/mypy-status"; } \
			| sed "s|$$root/azure_gpu_stacks/||g" && \
		test "$$(cat "$$root/mypy-status")" = 0 && \
		$(BIN)/ruff format --check . && \
		$(BIN)/ruff check . && \
		PYTHONPATH="$$root" $(BIN)/lint-imports --no-cache; status=$$?; rm -rf "$$root"; exit $$status

check: $(STAMP)  ## plan every shipped stack and give one verdict
	$(BIN)/gpu-stacks check

bench: $(STAMP)  ## benchmarks, on demand (see bench/README.md)
	$(BIN)/python bench/plan_bench.py
	$(BIN)/python bench/check_bench.py
	$(BIN)/python bench/policy_bench.py
	$(BIN)/python bench/isolation_bench.py

docs: $(STAMP)  ## regenerate docs/components.md and docs/commands/ from the code, and the dated lines of docs/policies.md from the catalog (tests fail when stale)
	$(BIN)/python -m azure_gpu_stacks.components.docs
	$(BIN)/python -m azure_gpu_stacks.policies.docs
	$(BIN)/python -m azure_gpu_stacks.engine.commands.reference

mutation: $(STAMP)  ## mutation testing (mutmut) of the verdict, pricing, policies and the fake's models: make mutation [TARGETS="verdict pricing"]; not part of `make test` (docs/mutation.md)
	$(BIN)/python scripts/mutation.py $(TARGETS)

clean:
	rm -rf $(VENV) .tools .pytest_cache *.egg-info
