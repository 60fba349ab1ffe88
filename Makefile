# The commands a newcomer needs. On a fresh Debian machine:
#   make demo    build everything, then produce and consume 100,000 messages on a mock cluster
#   make test    build everything, then run the whole test suite (unit, mock, integration,
#                packaging, docs)
#   make karapace-rest-proxy  Karapace's REST proxy over this package vs over upstream (tests/registry)
#   make bench   compare this client with upstream confluent-kafka, kafka-python, aiokafka and
#                native librdkafka (bench/run.py; `make bench-quick` for a smoke run)
#   make soak    10 M messages produced and consumed, RSS sampled (bench/soak.py)
#   make bench-spark  the Spark data source against upstream's mapInArrow pattern (bench/spark_bench.py)
#   make bench-parallel  the parallel consumer against a poll loop and pyrallel-consumer (bench/parallel.py;
#                also part of `make bench`; FT_PYTHON=path/to/python3.13t adds free-threaded rows)
#   make docs    build the HTML documentation into build/docs
#   make sanitize  the unit and mock tiers under ASan/UBSan/LSan (scripts/sanitize.sh)
#   make tsan    the thread stress tests under ThreadSanitizer on a free-threaded CPython
#                (scripts/tsan.sh; TSAN_PYTHON=path/to/python3.13t, with pytest installed)
#   make wheel   sdist and a manylinux wheel with librdkafka bundled, in dist/ (no Docker needed)
#   make matrix  build and run the unit + mock tiers on CPython 3.10-3.15 and 3.13t-3.15t
#                (scripts/matrix.sh; interpreters pyenv lacks are built by scripts/install-python.sh)

SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
BENCH_VENV := .bench-venv
# The upstream wheel for the differential tier (tests/compat): same import name, own virtualenv.
COMPAT_VENV := .compat-venv
COMPAT_STAMP := $(COMPAT_VENV)/.deps-stamp
# Programs written for upstream (quixstreams) that tests/programs runs on both sides, each in a
# directory of its own next to the virtualenv's packages (tests/programs adds it to PYTHONPATH).
PROGRAMS_STAMP := $(VENV)/programs/.programs-stamp
COMPAT_PROGRAMS_STAMP := $(COMPAT_VENV)/programs/.programs-stamp
# FastStream's aiokafka broker on the real aiokafka (tests/programs/test_faststream.py).
BENCH_PROGRAMS_STAMP := $(BENCH_VENV)/programs/.programs-stamp
PROGRAMS_INPUTS := scripts/install-programs.sh tests/programs/requirements.txt tests/programs/quixstreams.txt
UPSTREAM_VERSION := 2.16.1
PYTEST_ARGS ?=
TEST_TIMEOUT ?= 1500
# Processes for the suite: most tests wait on brokers and timeouts, so two share CI's two cores well.
TEST_WORKERS ?= 2

export PKG_CONFIG_PATH := /usr/local/lib/pkgconfig$(if $(PKG_CONFIG_PATH),:$(PKG_CONFIG_PATH))

DEPS_STAMP := $(VENV)/.deps-stamp
BENCH_STAMP := $(BENCH_VENV)/.deps-stamp
OURS_BENCH_STAMP := $(VENV)/.bench-stamp
PEERS := confluent-kafka==$(UPSTREAM_VERSION) kafka-python==3.0.12 aiokafka==0.14.0
# Spark for upstream's side of bench-spark (the same versions as this project's test extra).
SPARK_PEERS := pyspark==4.3.0 'pandas>=2.2,<3' 'pyarrow>=15'
SPARK_BENCH_STAMP := $(BENCH_VENV)/.spark-stamp
# pyrallel-consumer, bench/parallel.py's peer, needs Python >= 3.12 and upstream confluent-kafka:
# a virtualenv of its own, on pyenv's 3.12 where there is one.
PYRALLEL_VENV := .pyrallel-venv
PYRALLEL_STAMP := $(PYRALLEL_VENV)/.deps-stamp
PYRALLEL_BASE_PYTHON ?= $(or $(lastword $(wildcard $(HOME)/.pyenv/versions/3.12.*/bin/python)),$(shell command -v python3.12))
PYRALLEL_PEERS := pyrallel-consumer==1.0.0 confluent-kafka==$(UPSTREAM_VERSION)

.PHONY: all deps build compat-venv programs demo test karapace-rest-proxy docs sanitize tsan bench bench-quick bench-native bench-spark bench-parallel pyrallel-venv soak wheel matrix clean

all: build

deps: $(DEPS_STAMP)

# System packages, librdkafka, then the project (editable, with the test and packaging extras)
# in .venv.
$(DEPS_STAMP): pyproject.toml setup.py scripts/install-system-deps.sh scripts/install-librdkafka.sh scripts/debian-mirror.sh
	scripts/install-system-deps.sh $(PYTHON)
	scripts/install-librdkafka.sh scripts/debian-mirror.sh
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check 'setuptools>=77'
	$(PY) -m pip install -q --disable-pip-version-check -e '.[test,packaging]'
	touch $@

# Rebuild the extension in place whenever a C source or header is newer than it.
build: deps
	scripts/build-ext.sh $(PY)

demo: build
	$(PY) examples/roundtrip.py

# The whole suite is bounded: a hang is interrupted (SIGINT, so fixtures still stop the broker)
# after TEST_TIMEOUT seconds, and tracebacks of any test running over 5 minutes are dumped.
test: build $(COMPAT_STAMP) $(PROGRAMS_STAMP) $(COMPAT_PROGRAMS_STAMP) $(BENCH_STAMP) $(BENCH_PROGRAMS_STAMP) $(PYRALLEL_STAMP)
	timeout --foreground --signal=INT --kill-after=60 $(TEST_TIMEOUT) \
	    $(PY) -m pytest -p no:cacheprovider -ra -o faulthandler_timeout=300 -n $(TEST_WORKERS) \
	    tests $(PYTEST_ARGS)

# Karapace's REST proxy over this package and over the upstream wheel, driven by the same HTTP
# script (tests/registry/test_karapace_rest_proxy.py; about a minute, so not in `make test`).
karapace-rest-proxy: build
	KARAPACE_REST_PROXY=1 $(PY) -m pytest -p no:cacheprovider -ra tests/registry/test_karapace_rest_proxy.py

# When the wheel cannot be installed (no registry), the stamp is not made and tests/compat skips,
# saying so; the rest of the suite still runs.
compat-venv: $(COMPAT_STAMP)
$(COMPAT_STAMP): Makefile
	@test -x $(COMPAT_VENV)/bin/python || $(PYTHON) -m venv $(COMPAT_VENV)
	@$(COMPAT_VENV)/bin/python -m pip install -q --disable-pip-version-check \
	    'confluent-kafka[avro,json,protobuf,schemaregistry,rules]==$(UPSTREAM_VERSION)' \
	    && touch $@ || echo "compat-venv: upstream confluent-kafka $(UPSTREAM_VERSION) not installed; tests/compat will skip" >&2

# The programs of tests/programs/requirements.txt and their pinned dependencies for the three
# interpreters (ours, upstream's, the real aiokafka's), with --no-deps for quixstreams itself (it
# pins confluent-kafka<2.13). When they cannot be installed, the stamps are not made and
# tests/programs skips, saying so.
programs: $(PROGRAMS_STAMP) $(COMPAT_PROGRAMS_STAMP) $(BENCH_PROGRAMS_STAMP)
$(PROGRAMS_STAMP): $(DEPS_STAMP) $(PROGRAMS_INPUTS)
	@scripts/install-programs.sh $(PY) $(VENV)/programs
$(COMPAT_PROGRAMS_STAMP): $(COMPAT_STAMP) $(PROGRAMS_INPUTS)
	@scripts/install-programs.sh $(COMPAT_VENV)/bin/python $(COMPAT_VENV)/programs
$(BENCH_PROGRAMS_STAMP): $(BENCH_STAMP) $(PROGRAMS_INPUTS)
	@scripts/install-programs.sh $(BENCH_VENV)/bin/python $(BENCH_VENV)/programs

# The same build the tests run: any Sphinx warning is an error.
docs: build
	$(PY) -m sphinx -W --keep-going -b html docs build/docs

# The wheel a user installs, made on this machine: see scripts/build-wheel.sh.
wheel: deps
	scripts/build-wheel.sh $(PY) dist

# CPython 3.10-3.15 and the free-threaded 3.13t-3.15t, each in build/matrix/py3.X[t]; prints a
# results table. pyenv's interpreters where it has them, else scripts/install-python.sh builds them
# once into ~/.cache/confluent-kafka-pythons. Not part of `make test`.
matrix: deps
	scripts/matrix.sh

# The peers live in their own virtualenv: upstream has this project's import name.
$(BENCH_STAMP): Makefile
	test -x $(BENCH_VENV)/bin/python || $(PYTHON) -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/python -m pip install -q --disable-pip-version-check $(PEERS)
	touch $@

# pyarrow (Arrow rows) and matplotlib (--plot) for this project's side of the benchmarks.
$(OURS_BENCH_STAMP): $(DEPS_STAMP)
	$(PY) -m pip install -q --disable-pip-version-check -e '.[test,bench]'
	touch $@

# rdkbench (bench/native/rdkbench.c): librdkafka alone, the native rows of the benchmark tables.
bench-native: deps
	@command -v cmake >/dev/null || { echo "bench-native: cmake not found (apt-get install cmake)" >&2; exit 1; }
	cmake -S . -B build/bench -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build build/bench --target rdkbench

BENCH_ARGS ?=
bench: build bench-native $(BENCH_STAMP) $(OURS_BENCH_STAMP) $(PYRALLEL_STAMP)
	$(PY) bench/run.py --upstream-python $(BENCH_VENV)/bin/python --native build/bench/rdkbench \
	    --plot build/bench/throughput.png $(BENCH_ARGS)
	$(PARALLEL_BENCH) $(PARALLEL_BENCH_ARGS)

bench-quick: build bench-native $(BENCH_STAMP) $(OURS_BENCH_STAMP) $(PYRALLEL_STAMP)
	$(PY) bench/run.py --upstream-python $(BENCH_VENV)/bin/python --native build/bench/rdkbench --quick \
	    --repeat 1 $(BENCH_ARGS)
	$(PARALLEL_BENCH) --quick $(PARALLEL_BENCH_ARGS)

# When pyrallel-consumer cannot be installed, the stamp is not made and bench/parallel.py skips
# its rows, saying so.
pyrallel-venv: $(PYRALLEL_STAMP)
$(PYRALLEL_STAMP): Makefile
	@{ test -x $(PYRALLEL_VENV)/bin/python || $(or $(PYRALLEL_BASE_PYTHON),false) -m venv $(PYRALLEL_VENV); } \
	    && $(PYRALLEL_VENV)/bin/python -m pip install -q --disable-pip-version-check $(PYRALLEL_PEERS) \
	    && touch $@ || echo "pyrallel-venv: pyrallel-consumer not installed (it needs Python >= 3.12;" \
	    "PYRALLEL_BASE_PYTHON='$(PYRALLEL_BASE_PYTHON)'); bench/parallel.py will skip its rows" >&2

# The parallel consumer (bench/parallel.py, about 4 minutes); FT_PYTHON adds free-threaded CPU rows
# (by default the 3.13t interpreter `MATRIX_VERSIONS=3.13t scripts/matrix.sh` leaves, if there is one),
# GIL_PYTHON the GIL build of the same version (build/matrix/py3.13).
FT_PYTHON ?= $(wildcard build/matrix/py3.13t/venv/bin/python)
GIL_PYTHON ?= $(wildcard build/matrix/py3.13/venv/bin/python)
PARALLEL_BENCH_ARGS ?=
PARALLEL_BENCH = $(PY) bench/parallel.py --pyrallel-python $(PYRALLEL_VENV)/bin/python $(if $(FT_PYTHON),--ft-python $(FT_PYTHON)) $(if $(GIL_PYTHON),--gil-python $(GIL_PYTHON))
bench-parallel: build $(PYRALLEL_STAMP)
	$(PARALLEL_BENCH) $(PARALLEL_BENCH_ARGS)

# pyspark in the peers' virtualenv too: upstream's pattern runs under upstream's interpreter.
$(SPARK_BENCH_STAMP): $(BENCH_STAMP)
	$(BENCH_VENV)/bin/python -m pip install -q --disable-pip-version-check $(SPARK_PEERS)
	touch $@

SPARK_BENCH_ARGS ?=
bench-spark: build $(SPARK_BENCH_STAMP)
	$(PY) bench/spark_bench.py --upstream-python $(BENCH_VENV)/bin/python $(SPARK_BENCH_ARGS)

soak: build
	$(PY) bench/soak.py

clean:
	rm -rf build dist $(VENV) $(BENCH_VENV) $(COMPAT_VENV) $(PYRALLEL_VENV) src/*.egg-info src/confluent_kafka/*.so
	find . -name __pycache__ -type d -prune -exec rm -rf {} +

# The unit and mock tiers against an ASan/UBSan/LSan build of the extension (scripts/sanitize.sh;
# needs cmake). Not part of `make test`: it takes several minutes.
sanitize: build
	scripts/sanitize.sh $(PY) $(PYTEST_ARGS)

# tests/mock/test_threads_stress.py against a ThreadSanitizer build of the extension, on a
# free-threaded interpreter (python3.13t or later, with pytest: its own virtualenv, since this
# one has a GIL). Fails on any report whose racing access is in src/confluent_kafka/src.
# Not part of `make test`: it needs that interpreter and takes about a minute.
TSAN_PYTHON ?=
tsan:
	scripts/tsan.sh "$(TSAN_PYTHON)" $(PYTEST_ARGS)
