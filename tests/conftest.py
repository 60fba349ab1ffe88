"""Shared fixtures for every test tier.

* ``kafka_bootstrap`` (session): "host:port" of a Kafka-compatible broker. A tansu broker is
  started on a free loopback port for the session, unless ``KAFKA_BOOTSTRAP_SERVERS`` names
  an existing cluster, in which case nothing is started.
* ``unique_topic``: a fresh topic name per test.
* ``consumer_conf``: a consumer configuration for ``kafka_bootstrap`` with a fresh group id and
  the short session timeout that keeps group joins fast (tansu takes about half of
  ``session.timeout.ms`` to complete a join). It is a dict; calling it returns a copy with
  overrides merged in: ``consumer_conf({"enable.auto.commit": False})``.
* ``mock_cluster``: a 3-broker librdkafka mock cluster, closed after the test.
* ``registry_url`` (session): a Karapace Schema Registry on ``kafka_bootstrap``
  (tests/registry_support.py; tests/registry, tests/spark and tests/programs share it). It runs
  over this package; ``karapace`` (session) is its handle (pid, restart()).

Tests under tests/integration, tests/programs and tests/facades are marked ``integration``, tests under
tests/mock ``mock``, tests under tests/spark ``spark``.
"""
from __future__ import annotations

import importlib.util
import os
import pathlib
import sys
import uuid

import pytest

TESTS_DIR = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(TESTS_DIR.parent / "scripts"))

from tansu_broker import TansuBroker  # noqa: E402
# registry_url (Karapace), here so that tests/registry and tests/programs share one per session.
from registry_support import karapace, registry_url  # noqa: E402,F401

# tests/programs runs programs written for upstream (quixstreams) against the tansu broker.
TIER_MARKERS = {"integration": "integration", "mock": "mock", "spark": "spark", "programs": "integration",
                "facades": "integration"}


# `make test` spreads the suite over processes (pytest-xdist). A session fixture is made once per
# process, so the tiers sharing an expensive one are one unit of work each: the Karapace registry
# (spark, registry, programs), upstream's interpreter runs (compat), the built wheel (packaging),
# the Sphinx build (docs). Other tests go file by file, keeping module fixtures single too.
SHARED_SESSION_UNITS = {"spark": "registry", "registry": "registry", "programs": "registry",
                        "compat": "compat", "packaging": "packaging", "docs": "docs"}


def work_unit(nodeid: str) -> str:
    """The unit of work a test belongs to: its tier's shared unit, or its file."""
    path = nodeid.split("::", 1)[0]
    parts = path.split("/")
    tier = parts[1] if len(parts) > 2 and parts[0] == "tests" else ""
    return SHARED_SESSION_UNITS.get(tier, path)


def pytest_collection_modifyitems(config, items):
    for item in items:
        try:
            rel = pathlib.Path(item.path).resolve().relative_to(TESTS_DIR)
        except ValueError:
            continue
        marker = TIER_MARKERS.get(rel.parts[0]) if len(rel.parts) > 1 else None
        if marker:
            item.add_marker(marker)


if importlib.util.find_spec("xdist") is not None:
    def pytest_xdist_make_scheduler(config, log):
        """Hands each worker whole units of work (``work_unit``)."""
        from xdist.scheduler import LoadScopeScheduling

        class UnitScheduling(LoadScopeScheduling):
            def _split_scope(self, nodeid: str) -> str:
                return work_unit(nodeid)

        return UnitScheduling(config, log)


def pytest_terminal_summary(terminalreporter):
    """Prints the lines tests left as a ``summary`` property (read from every worker's reports)."""
    for report in terminalreporter.stats.get("passed", []):
        for name, value in getattr(report, "user_properties", ()):
            if name == "summary":
                terminalreporter.write_line(str(value))


@pytest.fixture(scope="session")
def kafka_bootstrap(tmp_path_factory):
    external = os.environ.get("KAFKA_BOOTSTRAP_SERVERS")
    if external:
        yield external
        return
    broker = TansuBroker(log_dir=tmp_path_factory.mktemp("tansu"))
    broker.start()
    try:
        yield broker.bootstrap_servers
    finally:
        broker.stop()


@pytest.fixture
def unique_topic():
    return f"test-{uuid.uuid4().hex}"


class ConsumerConf(dict):
    """A consumer config dict; calling it returns a copy with the given keys merged over it."""

    def __call__(self, overrides: dict | None = None, **kwargs) -> dict:
        conf = dict(self)
        conf.update(overrides or {})
        conf.update(kwargs)
        return conf


@pytest.fixture
def consumer_conf(kafka_bootstrap):
    return ConsumerConf({
        "bootstrap.servers": kafka_bootstrap,
        "group.id": f"test-group-{uuid.uuid4().hex}",
        "auto.offset.reset": "earliest",
        "session.timeout.ms": 6000,
        "heartbeat.interval.ms": 1000,
    })


@pytest.fixture
def mock_cluster():
    from confluent_kafka.testing import MockCluster

    cluster = MockCluster(num_brokers=3)
    try:
        yield cluster
    finally:
        cluster.close()
