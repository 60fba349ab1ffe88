# The commands a newcomer needs. On a fresh Debian machine:
#   make demo    build everything, then produce and consume 100,000 messages on a mock cluster
#   make test    build everything, then run the whole test suite (unit, mock, integration)
#   make bench   compare this client with upstream confluent-kafka and native librdkafka

SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
BENCH_VENV := .bench-venv
UPSTREAM_VERSION := 2.16.1
PYTEST_ARGS ?=
TEST_TIMEOUT ?= 1500

export PKG_CONFIG_PATH := /usr/local/lib/pkgconfig$(if $(PKG_CONFIG_PATH),:$(PKG_CONFIG_PATH))

DEPS_STAMP := $(VENV)/.deps-stamp
BENCH_STAMP := $(BENCH_VENV)/.deps-stamp

.PHONY: all deps build demo test sanitize bench bench-quick bench-native clean

all: build

deps: $(DEPS_STAMP)

# System packages, librdkafka, then the project (editable, with test extras) in .venv.
$(DEPS_STAMP): pyproject.toml setup.py scripts/install-system-deps.sh scripts/install-librdkafka.sh
	scripts/install-system-deps.sh $(PYTHON)
	scripts/install-librdkafka.sh
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check 'setuptools>=77'
	$(PY) -m pip install -q --disable-pip-version-check -e '.[test]'
	touch $@

# Rebuild the extension in place whenever a C source or header is newer than it.
build: deps
	scripts/build-ext.sh $(PY)

demo: build
	$(PY) examples/roundtrip.py

# The whole suite is bounded: a hang is interrupted (SIGINT, so fixtures still stop the broker)
# after TEST_TIMEOUT seconds, and tracebacks of any test running over 5 minutes are dumped.
test: build
	timeout --foreground --signal=INT --kill-after=60 $(TEST_TIMEOUT) \
	    $(PY) -m pytest -p no:cacheprovider -ra -o faulthandler_timeout=300 tests $(PYTEST_ARGS)

$(BENCH_STAMP):
	test -x $(BENCH_VENV)/bin/python || $(PYTHON) -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/python -m pip install -q --disable-pip-version-check confluent-kafka==$(UPSTREAM_VERSION)
	touch $@

# rdkbench (bench/native/rdkbench.c): librdkafka alone, the native rows of the benchmark tables.
bench-native: deps
	@command -v cmake >/dev/null || { echo "bench-native: cmake not found (apt-get install cmake)" >&2; exit 1; }
	cmake -S . -B build/bench -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build build/bench --target rdkbench

bench: build bench-native $(BENCH_STAMP)
	$(PY) bench/run.py --upstream-python $(BENCH_VENV)/bin/python --native build/bench/rdkbench

bench-quick: build bench-native $(BENCH_STAMP)
	$(PY) bench/run.py --upstream-python $(BENCH_VENV)/bin/python --native build/bench/rdkbench --quick

clean:
	rm -rf build $(VENV) $(BENCH_VENV) src/*.egg-info src/confluent_kafka/*.so
	find . -name __pycache__ -type d -prune -exec rm -rf {} +

# The unit and mock tiers against an ASan/UBSan/LSan build of the extension (scripts/sanitize.sh;
# needs cmake). Not part of `make test`: it takes several minutes.
sanitize: build
	scripts/sanitize.sh $(PY) $(PYTEST_ARGS)
