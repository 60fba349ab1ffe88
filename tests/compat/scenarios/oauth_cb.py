"""oauth_cb failures: what the constructor raises, and whether librdkafka asks again later.

No broker: the token refresh runs on librdkafka's own timer (127.0.0.1:1 refuses connections).
"""
from __future__ import annotations

import sys
import time
from typing import Any

from confluent_kafka import KafkaException, Producer

CONF = {"bootstrap.servers": "127.0.0.1:1", "security.protocol": "sasl_plaintext",
        "sasl.mechanisms": "OAUTHBEARER", "sasl.oauthbearer.config": "scope=x", "log_level": 0}


class Quiet(Exception):
    """str() is empty."""


def scenario_first_token_failure_raises_kafka_exception() -> Any:
    def oauth_cb(config: str) -> Any:
        raise ValueError("no token")

    try:
        Producer(dict(CONF, oauth_cb=oauth_cb))
    except KafkaException as exc:
        err = exc.args[0]
        return {"raises": "KafkaException", "code": err.code(), "name": err.name(),
                "fatal": err.fatal(), "retriable": err.retriable()}
    except Exception as exc:  # noqa: BLE001 - the type is the observation
        return {"raises": type(exc).__name__}
    return {"raises": None}


def scenario_refresh_retried_after_exception_with_empty_text() -> Any:
    calls: list[str] = []
    saved = sys.unraisablehook
    sys.unraisablehook = lambda unraisable: None  # ours reports it there; not compared
    try:
        def oauth_cb(config: str) -> Any:
            calls.append(config)
            if len(calls) == 2:
                raise Quiet()
            return "token", time.time() + 1.5, "alice"

        p = Producer(dict(CONF, oauth_cb=oauth_cb))
        deadline = time.monotonic() + 25
        while len(calls) < 3 and time.monotonic() < deadline:
            p.poll(0.5)
        p.close()
    finally:
        sys.unraisablehook = saved
    return {"called again": len(calls) >= 3, "configs": sorted(set(calls))}
