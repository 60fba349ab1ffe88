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
* ``registry_url`` (session): a Karapace Schema Registry on the session's broker (tests/registry
  and tests/spark use it).

Tests under tests/integration are marked ``integration``, tests under tests/mock ``mock``,
tests under tests/spark ``spark``.
"""
from __future__ import annotations

import os
import pathlib
import sys
import uuid

import pytest

TESTS_DIR = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(TESTS_DIR.parent / "scripts"))

from tansu_broker import TansuBroker  # noqa: E402

TIER_MARKERS = {"integration": "integration", "mock": "mock", "spark": "spark"}


def pytest_collection_modifyitems(config, items):
    for item in items:
        try:
            rel = pathlib.Path(item.path).resolve().relative_to(TESTS_DIR)
        except ValueError:
            continue
        marker = TIER_MARKERS.get(rel.parts[0]) if len(rel.parts) > 1 else None
        if marker:
            item.add_marker(marker)


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


# -- Schema Registry (Karapace) ---------------------------------------------------------------------

ROOT = TESTS_DIR.parent
# KARAPACE_HOME points elsewhere (e.g. from a git worktree, whose parent has no shared/).
KARAPACE = pathlib.Path(os.environ.get("KARAPACE_HOME") or ROOT.parent / "shared" / "vendor" / "karapace")


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="session")
def registry_url(kafka_bootstrap, tmp_path_factory):
    """The URL of a Karapace Schema Registry running on the session's tansu broker (skips when
    Karapace's source is not at ``../shared/vendor/karapace`` or ``KARAPACE_HOME``)."""
    import subprocess

    start = KARAPACE / "start.sh"
    if not start.exists():
        pytest.skip(f"Karapace is not at {KARAPACE} (../shared/vendor/karapace): the registry tier needs it")
    pytest.importorskip("fastavro", reason="the avro extra is not installed")
    port = _free_port()
    run_dir = tmp_path_factory.mktemp("karapace")
    tag = uuid.uuid4().hex[:8]
    env = dict(os.environ, KARAPACE_RUN=str(run_dir), KARAPACE_TOPIC_NAME=f"_schemas-{tag}",
               KARAPACE_GROUP_ID=f"schema-registry-{tag}", KARAPACE_READY_TIMEOUT="180")
    started = subprocess.run(["bash", str(start), kafka_bootstrap, str(port)], env=env, capture_output=True,
                             text=True, timeout=600)
    if started.returncode != 0:
        log = run_dir / f"karapace-{port}.log"
        tail = log.read_text()[-3000:] if log.exists() else ""
        subprocess.run(["bash", str(start), "stop", str(port)], env=env, capture_output=True, timeout=60)
        pytest.fail(f"Karapace did not start:\n{started.stderr[-3000:]}\n{tail}")
    try:
        yield started.stdout.strip().splitlines()[-1]
    finally:
        subprocess.run(["bash", str(start), "stop", str(port)], env=env, capture_output=True, timeout=60)
