"""SASL/SCRAM against a tansu broker started with ``--authentication``: wrong credentials fail
with an authentication error that never contains the password; right credentials would work,
but tansu 0.6 cannot be given a user it then accepts (see the xfail)."""

from __future__ import annotations

import subprocess
import time
import uuid
from typing import Any, Iterator, List

import pytest

from confluent_kafka import KafkaError, KafkaException, Producer

from clients import Reports
from tansu_broker import TansuBroker

pytestmark = pytest.mark.integration

PASSWORD = "Right-Pa55word-" + uuid.uuid4().hex[:6]


@pytest.fixture(scope="module")
def sasl_broker(tmp_path_factory: Any) -> Iterator[TansuBroker]:
    broker = TansuBroker(tmp_path_factory.mktemp("tansu-sasl"), authentication=True)
    broker.start()
    try:
        yield broker
    finally:
        broker.stop()


def sasl_conf(broker: TansuBroker, mechanism: str, user: str, password: str) -> dict:
    return {"bootstrap.servers": broker.bootstrap_servers, "security.protocol": "sasl_plaintext",
            "sasl.mechanism": mechanism, "sasl.username": user, "sasl.password": password,
            "message.timeout.ms": 4000, "log_level": 0}


@pytest.mark.parametrize("mechanism", ["SCRAM-SHA-256", "SCRAM-SHA-512"])
def test_wrong_credentials_fail_with_an_authentication_error(sasl_broker: TansuBroker,
                                                             mechanism: str) -> None:
    wrong = "Wrong-Pa55word-" + uuid.uuid4().hex[:6]
    errors: List[KafkaError] = []
    dr = Reports()
    p = Producer(sasl_conf(sasl_broker, mechanism, "mallory", wrong), error_cb=errors.append)
    try:
        with pytest.raises(KafkaException) as info:
            p.list_topics(timeout=5)
        p.produce("sasl-topic", b"x", on_delivery=dr)
        assert p.flush(30) == 0
        deadline = time.monotonic() + 10
        while not any(e.code() == KafkaError._AUTHENTICATION for e in errors):
            assert time.monotonic() < deadline, f"no authentication error: {errors}"
            p.poll(0.2)
    finally:
        p.close()
    auth = [e for e in errors if e.code() == KafkaError._AUTHENTICATION]
    assert "SASL" in str(auth[0]) and "authentication" in str(auth[0]).lower()
    assert [e.code() for e in dr.errors] == [KafkaError._MSG_TIMED_OUT]
    texts = [str(e) for e in errors] + [repr(e) for e in errors] + [str(info.value)]
    assert not [t for t in texts if wrong in t], "the password leaked into an error text"


@pytest.mark.xfail(strict=True, reason=(
    "tansu 0.6 gap: `tansu user create` cannot reach a broker started with --authentication "
    "(it closes the connection before any SASL exchange: 'early eof'), and a user created on a "
    "broker without it is neither used for SASL there nor kept by memory:// or s3:// storage "
    "across a restart (this build has no postgres:// storage: FeatureNotEnabled), so the broker "
    "answers unknown-user; strict, so a tansu that can do it "
    "turns this into a failure to act on"))
def test_right_credentials_work(sasl_broker: TansuBroker) -> None:
    created = subprocess.run(
        [str(sasl_broker.binary), "user", "create", "--broker",
         f"tcp://{sasl_broker.bootstrap_servers}", "--mechanism", "scram256", "alice", PASSWORD],
        capture_output=True, text=True, timeout=30)
    errors: List[KafkaError] = []
    p = Producer(sasl_conf(sasl_broker, "SCRAM-SHA-256", "alice", PASSWORD),
                 error_cb=errors.append)
    try:
        md = p.list_topics(timeout=10)
    finally:
        p.close()
    assert created.returncode == 0, created.stderr[-500:]
    assert md.brokers and not [e for e in errors if e.code() == KafkaError._AUTHENTICATION]
