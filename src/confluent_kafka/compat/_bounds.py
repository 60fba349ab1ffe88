"""librdkafka's ranges of the numeric properties the facades set, and how a value outside one is
fitted into it.

kafka-python and aiokafka take any number for their sizes and timeouts, where librdkafka refuses a
value outside its range for each property: ``request.timeout.ms`` stops at 900,000 ms, and
faust-streaming's producer asks for 1,200,000. A facade passes the nearest value librdkafka takes
instead (:func:`clamp`), and settles the few properties librdkafka checks against one another
(:func:`fit`). docs/aiokafka.md and docs/kafka_python.md list the ranges;
tests/facades/test_bounds.py checks them against the librdkafka in use.
"""
from __future__ import annotations

import math
from typing import Any, Dict, Tuple

__all__ = ["RANGES", "ZERO_IS_NEVER", "clamp", "describe", "fit"]

_INT_MAX = 2_147_483_647

#: ``{property: (least, greatest)}``: what librdkafka (2.8 to 2.14) takes for each numeric
#: property a facade option becomes, except that the least is 1 where librdkafka reads 0 as
#: never (:data:`ZERO_IS_NEVER`).
RANGES: Dict[str, Tuple[int, int]] = {
    "auto.commit.interval.ms": (1, 86_400_000),
    "batch.size": (1, _INT_MAX),
    "connections.max.idle.ms": (1, _INT_MAX),
    "delivery.timeout.ms": (1, _INT_MAX),
    "fetch.max.bytes": (0, _INT_MAX - 512),
    "fetch.min.bytes": (1, 100_000_000),
    "fetch.wait.max.ms": (0, 300_000),
    "heartbeat.interval.ms": (1, 3_600_000),
    "linger.ms": (0, 900_000),
    "max.in.flight.requests.per.connection": (1, 1_000_000),
    "max.partition.fetch.bytes": (1, 1_000_000_000),
    "max.poll.interval.ms": (1, 86_400_000),
    "message.max.bytes": (1000, 1_000_000_000),
    "metadata.max.age.ms": (1, 86_400_000),
    "receive.message.max.bytes": (1000, _INT_MAX),
    "reconnect.backoff.max.ms": (0, 3_600_000),
    "reconnect.backoff.ms": (0, 3_600_000),
    "request.timeout.ms": (1, 900_000),
    "retries": (0, _INT_MAX),
    "retry.backoff.ms": (1, 300_000),
    "session.timeout.ms": (1, 3_600_000),
    "socket.receive.buffer.bytes": (0, 100_000_000),
    "socket.send.buffer.bytes": (0, 100_000_000),
    "socket.timeout.ms": (10, 300_000),
    "transaction.timeout.ms": (1000, _INT_MAX),
}

#: Properties whose 0 librdkafka reads as never (no auto-commit, idle connections kept, no
#: delivery timeout), where kafka-python and aiokafka read it as at once: their least is 1 ms.
ZERO_IS_NEVER = frozenset({"auto.commit.interval.ms", "connections.max.idle.ms", "delivery.timeout.ms"})

# librdkafka's defaults of the properties fit() compares, for those a facade leaves out.
_DEFAULTS = {"delivery.timeout.ms": 300_000, "fetch.max.bytes": 52_428_800, "max.poll.interval.ms": 300_000,
             "message.max.bytes": 1_000_000, "reconnect.backoff.max.ms": 10_000, "reconnect.backoff.ms": 100,
             "request.timeout.ms": 30_000, "session.timeout.ms": 45_000}


def clamp(prop: str, value: Any) -> Any:
    """``value`` for ``prop``, within librdkafka's range of it.

    :param prop: a librdkafka property.
    :param value: what the program gave (converted by the facade).
    :returns: the nearest end of the range for a number outside it (infinity included); any
        other value unchanged (librdkafka's own check reports what it cannot take).
    :raises ValueError: for NaN.
    """
    bounds = RANGES.get(prop)
    if bounds is None or isinstance(value, bool) or not isinstance(value, (int, float)):
        return value
    if math.isnan(value):
        raise ValueError(f"expected a number, got {value!r}")
    least, greatest = bounds
    if value < least:
        return least
    if value > greatest:
        return greatest
    return value


def describe(prop: str) -> str:
    """:returns: ``"clamped to least..greatest"`` for a property in :data:`RANGES`, as the option
    tables print it."""
    least, greatest = RANGES[prop]
    return f"clamped to {least}..{greatest}"


def fit(conf: Dict[str, Any], consumer: bool) -> None:
    """Settle, in place, the properties librdkafka checks against one another:

    * ``delivery.timeout.ms`` must exceed ``linger.ms``: a longer linger raises it to
      linger.ms + request.timeout.ms;
    * ``reconnect.backoff.ms`` may not exceed ``reconnect.backoff.max.ms``: it becomes that
      maximum (kafka-python caps each backoff at it, too);

    and for a consumer:

    * ``fetch.max.bytes`` at least ``message.max.bytes``;
    * ``receive.message.max.bytes``, when set, at least ``fetch.max.bytes`` + 512;
    * ``max.poll.interval.ms`` at least ``session.timeout.ms``.

    :param conf: librdkafka properties, their values already clamped.
    :param consumer: whether they configure a consumer.
    """
    def get(prop: str) -> Any:
        return conf.get(prop, _DEFAULTS.get(prop))

    def number(*values: Any) -> bool:
        return all(not isinstance(v, bool) and isinstance(v, (int, float)) for v in values)

    linger, delivery = conf.get("linger.ms"), get("delivery.timeout.ms")
    if number(linger, delivery) and delivery <= linger:
        timeout = get("request.timeout.ms")
        if number(timeout):
            conf["delivery.timeout.ms"] = clamp("delivery.timeout.ms", int(linger + timeout))
    backoff, backoff_max = get("reconnect.backoff.ms"), get("reconnect.backoff.max.ms")
    if number(backoff, backoff_max) and backoff > backoff_max:
        conf["reconnect.backoff.ms"] = backoff_max
    if not consumer:
        return
    fetch, largest = conf.get("fetch.max.bytes"), get("message.max.bytes")
    if number(fetch, largest) and fetch < largest:
        conf["fetch.max.bytes"] = largest
    receive, fetch = conf.get("receive.message.max.bytes"), get("fetch.max.bytes")
    if number(receive, fetch) and receive < fetch + 512:
        conf["receive.message.max.bytes"] = clamp("receive.message.max.bytes", fetch + 512)
    poll, session = get("max.poll.interval.ms"), get("session.timeout.ms")
    if number(poll, session) and poll < session:
        conf["max.poll.interval.ms"] = session
