# Osada — the two commands a newcomer needs are `make run` and `make test`.
# Both install what they need on first use (Python venv in .venv/, pinned
# packages from pyproject.toml, the MicroPython WebAssembly VM from package.json).

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.osada-installed
NPM_STAMP := node_modules/.osada-installed
# test processes for `make test` (pytest-xdist; a file's tests stay in one process,
# as some share a booted emulated Pico in order): one more than the cores, at most 8, as
# a file on the emulated Pico leaves its process waiting on Node.js's (measured on 2
# cores: 3 processes 4:55, 2 processes 6:01); TEST_WORKERS=0 runs them in one
TEST_WORKERS ?= $(shell $(PYTHON) -c 'import os; print(min(8, (os.cpu_count() or 2) + 1))' 2>/dev/null || echo 3)

.PHONY: help setup run test check bench firmware uf2 site flash hardware clean

help:
	@echo "make run    - play: the monitor on a Pico, or on the simulator if none (installs on first use)"
	@echo "make run WEB=1 [LAN=1] [CONTROL=1] - the live board in a browser (phones, a TV): http://localhost:8765/"
	@echo "make test   - run the whole test suite, CPython and real MicroPython (after make check)"
	@echo "make check  - lint (ruff) and static check: device code against the Pico's MicroPython stubs, host against CPython"
	@echo "make bench  - print speed/memory figures and write build/bench.json"
	@echo "make firmware - build the Pico bundle (.mpy files) into build/firmware/"
	@echo "make site   - build the static site build/site/: Osada in a browser, no install (serve the folder as it is)"
	@echo "make uf2    - build the one-file install build/osada-pico.uf2 (official MicroPython + app) for a Pico's RPI-RP2 drive"
	@echo "make flash [PORT=/dev/ttyACM0] [DRIVE=/media/you/RPI-RP2] [FIRMWARE=RPI_PICO-...uf2] - build and put it on a Pico"
	@echo "             (in BOOTSEL mode: MicroPython and the app in one file; else over serial onto its MicroPython)"
	@echo "             the official MicroPython UF2: FIRMWARE=path, else a cached copy, else downloaded once"
	@echo "make hardware - regenerate hardware/ (wiring, LED templates, BOM, power) from firmware/config.json"
	@echo "make setup  - only install (.venv/ and node_modules/)"
	@echo "make clean  - remove build output and installed environments"

setup: $(STAMP) $(NPM_STAMP)

# setup.py and the C sources: the forecast's compiled search, rebuilt when they change
$(STAMP): pyproject.toml setup.py $(wildcard host/osada/siege/forecast/csrc/*)
	@echo ">> creating Python environment in $(VENV)/ (first run only)"
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 9) else "Osada needs Python 3.9 or newer")'
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@$(PY) -m pip install --quiet --disable-pip-version-check --upgrade pip
	@echo ">> installing pinned Python packages (pyproject.toml)"
	@# (the editable install's warning about folders named as packages is about this very layout: not shown)
	@PYTHONWARNINGS=ignore:::setuptools.command.editable_wheel $(PY) -m pip install --quiet --disable-pip-version-check -e '.[dev,web]'
	@$(PY) -c 'from osada.siege.forecast import compiled; compiled.CORE or print(">> note: the threat forecast'"'"'s compiled search could not be built (a C compiler such as gcc or clang, and Python'"'"'s headers, are needed): the forecast runs in Python, slower")'
	@touch $@

$(NPM_STAMP): package.json package-lock.json
	@command -v node >/dev/null || { echo "error: Node.js (18 or newer) is needed to run the MicroPython VM; install it (e.g. apt-get install nodejs npm)"; exit 2; }
	@echo ">> installing the MicroPython WebAssembly VM (package.json)"
	@npm ci --no-audit --no-fund --loglevel=error
	@touch $@

# Playing and building need only the Python environment; Node.js (the MicroPython VM, the
# emulated Pico) is for `make test` and `make bench`.
# GAME=tank: the «Кубики» dice mode, on the simulator if no Pico (osada tank watch: the rolls with
# their odds, keys for the device's buttons; the game is switched back when it ends)
# GAME=warchest: War Chest's round tracker, the same way (osada warchest watch: the counts as they change)
# WEB=1: the live board in a browser (osada web --start-sim: http://localhost:8765/; LAN=1 for phones
# on the local network, with a QR code; CONTROL=1 prints a PIN for a page to press keys)
# GAME=victory: «День Победы»'s toss on the simulator's ring, in this terminal (osada victory sim;
# osada victory toss talks to it, or to a board)
run: $(STAMP)
ifeq ($(WEB),1)
	@$(VENV)/bin/osada web --start-sim $(if $(LAN),--lan) $(if $(CONTROL),--control)
else ifeq ($(GAME),tank)
	@$(VENV)/bin/osada tank watch --start-sim --switch
else ifeq ($(GAME),warchest)
	@$(VENV)/bin/osada warchest watch --start-sim --switch
else ifeq ($(GAME),victory)
	@$(VENV)/bin/osada victory sim
else
	@$(VENV)/bin/osada monitor --start-sim
endif

test: setup check
	@$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder --snapshot-report build/snapshot_report.html

check: $(STAMP)
	@$(PY) -m tests.static_check

bench: setup
	@mkdir -p build
	@$(PY) -m tests.bench

firmware: $(STAMP)
	@$(PY) -m osada.flash.deploy build

site: setup
	@$(PY) -m osada.site

uf2: $(STAMP)
	@$(PY) -m osada.flash.deploy uf2 $(if $(FIRMWARE),--firmware $(FIRMWARE))

flash: $(STAMP)
	@$(PY) -m osada.flash.deploy flash $(if $(PORT),--port $(PORT)) $(if $(DRIVE),--drive $(DRIVE)) $(if $(FIRMWARE),--firmware $(FIRMWARE))

hardware: $(STAMP)
	@$(PY) -m osada.buildguide

clean:
	rm -rf build $(VENV) node_modules .pytest_cache .hypothesis
