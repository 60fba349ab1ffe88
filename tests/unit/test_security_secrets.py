"""Passwords and tokens never appear in reprs, log lines or exception texts, whatever the
configuration mistake around them."""

from __future__ import annotations

import logging
import time
from typing import Any, Dict, List

import pytest

from confluent_kafka import Consumer, KafkaError, Producer
from confluent_kafka.admin import AdminClient

SECRET = "Hunter2-s3cr3t-VALUE"

SECRET_KEYS = ["sasl.password", "ssl.key.password", "ssl.keystore.password",
               "sasl.oauthbearer.client.secret", "ssl.key.pem"]
MISTAKES: List[Dict[str, Any]] = [
    {"no.such.key": 1},
    {"acks": "not-a-number"},
    {"security.protocol": "nope"},
    {"sasl.mechanism": "NOPE", "security.protocol": "sasl_plaintext"},
    {"ssl.key.location": "/nonexistent/key.pem", "security.protocol": "ssl"},
    {"sasl.oauthbearer.method": "oidc", "sasl.mechanism": "OAUTHBEARER",
     "security.protocol": "sasl_plaintext"},
]


def texts_of(exc: BaseException) -> List[str]:
    out = [str(exc), repr(exc)]
    for arg in exc.args:
        out += [str(arg), repr(arg)]
    return out


@pytest.mark.parametrize("secret_key", SECRET_KEYS)
@pytest.mark.parametrize("mistake", MISTAKES, ids=lambda m: ",".join(m))
@pytest.mark.parametrize("cls", [Producer, Consumer, AdminClient], ids=lambda c: c.__name__)
def test_secrets_stay_out_of_errors_and_reprs(cls: type, mistake: Dict[str, Any],
                                              secret_key: str) -> None:
    conf = {"bootstrap.servers": "127.0.0.1:1", "group.id": "g", "log_level": 0,
            secret_key: SECRET, **mistake}
    try:
        client = cls(conf)
    except Exception as exc:  # noqa: BLE001 - any failure text is checked
        leaked = [t for t in texts_of(exc) if SECRET in t]
        assert not leaked, leaked
        return
    try:
        assert SECRET not in repr(client) and SECRET not in str(client)
    finally:
        client.close()


def test_secrets_stay_out_of_debug_logs_and_error_callbacks() -> None:
    lines: List[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(record.getMessage())

    log = logging.getLogger("test_security_secrets")
    log.setLevel(logging.DEBUG)
    log.addHandler(Collect())
    errors: List[KafkaError] = []
    p = Producer({"bootstrap.servers": "127.0.0.1:1", "security.protocol": "sasl_plaintext",
                  "sasl.mechanism": "PLAIN", "sasl.username": "user", "sasl.password": SECRET,
                  "debug": "conf,security,broker,generic", "logger": log,
                  "error_cb": errors.append})
    try:
        deadline = time.monotonic() + 10
        while not errors and time.monotonic() < deadline:  # poll() returns once it served a log
            p.poll(0.2)
        p.set_sasl_credentials("user", SECRET + "-new")
        p.poll(0.5)
    finally:
        p.close()
    assert any("sasl.password" in line for line in lines), "the configuration was not logged"
    leaked = [line for line in lines if SECRET in line]
    assert not leaked, leaked[:3]
    assert errors, "no connection error was reported"
    assert not [e for e in errors if SECRET in str(e) or SECRET in repr(e)]
