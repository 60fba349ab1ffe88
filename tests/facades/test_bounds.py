"""Numbers beyond librdkafka's bounds in both facades: the ranges the facades know
(compat/_bounds.py) are the librdkafka's in use, every bounded option of aiokafka's and
kafka-python's clients takes any number and passes the nearest value librdkafka allows, the
properties librdkafka checks against one another are settled, and an unchanged aiokafka program
with faust-streaming's producer timeout (1,200,000 ms) runs through the runner."""
from __future__ import annotations

import asyncio
import pathlib
import textwrap
from typing import Any, Callable, Dict, List, Tuple

import pytest

import confluent_kafka as ck
from confluent_kafka.admin import AdminClient
from confluent_kafka.compat import _bounds
from confluent_kafka.compat.aiokafka import AIOKafkaConsumer, AIOKafkaProducer, _options
from confluent_kafka.compat.aiokafka.consumer import consumer as aio_consumer_module
from confluent_kafka.compat.aiokafka.producer import producer as aio_producer_module
from confluent_kafka.compat.kafka import _config
from confluent_kafka.compat.kafka import errors as Errors

ROOT = pathlib.Path(__file__).resolve().parents[2]
NOWHERE = "127.0.0.1:1"
LOW, HIGH = -1, 10**12  # below every least (all are 0 or more), above every greatest

#: librdkafka's own least where the facades' is 1 (librdkafka reads 0 there as never)
_LIBRDKAFKA_LEAST = {prop: 0 for prop in _bounds.ZERO_IS_NEVER}


@pytest.mark.parametrize("prop", sorted(_bounds.RANGES))
def test_ranges_are_librdkafkas(prop: str) -> None:
    """librdkafka names its range of a property when it refuses a value outside it."""
    least, greatest = _bounds.RANGES[prop]
    if prop in _bounds.ZERO_IS_NEVER:
        assert least == 1  # the nearest to kafka-python's and aiokafka's "at once"
    least = _LIBRDKAFKA_LEAST.get(prop, least)
    with pytest.raises(ck.KafkaException, match=rf"outside allowed range {least}\.\.{greatest}\b"):
        ck.Producer({"bootstrap.servers": NOWHERE, prop: least - 1})


def _conf_given_to(monkeypatch: pytest.MonkeyPatch, cls: type, **kwargs: Any) -> Dict[str, Any]:
    """The librdkafka configuration a facade client is created with (librdkafka accepting it)."""
    module, name = ((aio_producer_module, "AIOProducer") if cls is AIOKafkaProducer
                    else (aio_consumer_module, "AIOConsumer"))
    real = getattr(module, name)
    seen: List[Dict[str, Any]] = []

    def record(conf: Dict[str, Any]) -> Any:
        seen.append(dict(conf))
        return real(conf)

    monkeypatch.setattr(module, name, record)
    client = cls(bootstrap_servers=NOWHERE, **kwargs)
    asyncio.run(client.stop())
    return seen[0]


def _bounded(table: Tuple[_options.Option, ...]) -> List[_options.Option]:
    return [o for o in table if o.prop in _bounds.RANGES]


# What a value below librdkafka's least becomes where librdkafka checks it against another
# property: at least message.max.bytes, at least the session timeout (aiokafka's 10,000 ms).
_AIO_LOW = {"fetch.max.bytes": 1_000_000, "max.poll.interval.ms": 10_000}
_AIO_EXTRA = {"transaction_timeout_ms": {"transactional_id": "t"}}  # passed on with a transactional id


@pytest.mark.parametrize("cls,opt", [(AIOKafkaProducer, o) for o in _bounded(_options.PRODUCER)]
                         + [(AIOKafkaConsumer, o) for o in _bounded(_options.CONSUMER)],
                         ids=lambda v: getattr(v, "__name__", getattr(v, "name", "")))
def test_aiokafka_number_outside_librdkafkas_range_is_clamped(monkeypatch: pytest.MonkeyPatch, cls: type,
                                                              opt: _options.Option) -> None:
    least, greatest = _bounds.RANGES[opt.prop]  # type: ignore[index]
    extra = _AIO_EXTRA.get(opt.name, {})
    assert _conf_given_to(monkeypatch, cls, **{opt.name: LOW}, **extra)[opt.prop] == _AIO_LOW.get(opt.prop, least)
    assert _conf_given_to(monkeypatch, cls, **{opt.name: HIGH}, **extra)[opt.prop] == greatest
    assert opt.note.startswith(_bounds.describe(opt.prop))  # type: ignore[arg-type]


def test_aiokafka_docs_give_each_range() -> None:
    text = (ROOT / "docs" / "aiokafka.md").read_text()
    for opt in _bounded(_options.PRODUCER) + _bounded(_options.CONSUMER):
        assert f"| `{opt.name}` | `{opt.prop}` | {opt.note} |" in text, opt.name


def test_aiokafka_infinity_is_the_greatest_and_nan_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _conf_given_to(monkeypatch, AIOKafkaProducer, request_timeout_ms=float("inf"))["request.timeout.ms"] \
        == 900_000
    with pytest.raises(ValueError, match="request_timeout_ms"):
        AIOKafkaProducer(bootstrap_servers=NOWHERE, request_timeout_ms=float("nan"))


def test_aiokafka_properties_librdkafka_checks_together(monkeypatch: pytest.MonkeyPatch) -> None:
    conf = _conf_given_to(monkeypatch, AIOKafkaConsumer, session_timeout_ms=1_000_000, fetch_max_bytes=10)
    assert (conf["session.timeout.ms"], conf["max.poll.interval.ms"], conf["fetch.max.bytes"]) \
        == (1_000_000, 1_000_000, 1_000_000)
    conf = _conf_given_to(monkeypatch, AIOKafkaProducer, linger_ms=1_200_000, request_timeout_ms=40_000)
    assert (conf["linger.ms"], conf["delivery.timeout.ms"]) == (900_000, 940_000)
    conf = _conf_given_to(monkeypatch, AIOKafkaProducer, linger_ms=5)
    assert "delivery.timeout.ms" not in conf  # librdkafka's own, well above linger.ms


def test_aiokafka_own_waits_take_the_clamped_timeout() -> None:
    """A negative timeout would be librdkafka's 'no limit' for the facade's own metadata waits."""
    producer = AIOKafkaProducer(bootstrap_servers=NOWHERE, request_timeout_ms=-5)
    consumer = AIOKafkaConsumer(bootstrap_servers=NOWHERE, request_timeout_ms=-5)
    try:
        assert (producer._request_timeout, consumer._request_timeout) == (0.001, 0.01)
    finally:
        asyncio.run(producer.stop())
        asyncio.run(consumer.stop())


# ---- kafka-python ------------------------------------------------------------------------------

def _native(client: str, conf: Dict[str, Any]) -> None:
    """Create (and close) the librdkafka client a facade client of ``client`` would be: librdkafka
    accepts ``conf``."""
    if client == _config.CONSUMER:
        ck.Consumer({**conf, "bootstrap.servers": NOWHERE, "group.id": "g"}).close()
    elif client == _config.PRODUCER:
        ck.Producer({**conf, "bootstrap.servers": NOWHERE}).flush(0)
    else:
        AdminClient({**conf, "bootstrap.servers": NOWHERE})


# kafka-python refuses these timeouts alone (consumer: fetch_max_wait_ms < request_timeout_ms <
# connections_max_idle_ms; producer: delivery_timeout_ms >= linger_ms + request_timeout_ms): the
# partners it accepts them with.
_KP_PARTNERS: Dict[Tuple[str, str, int], Dict[str, Any]] = {
    ("consumer", "fetch_max_wait_ms", HIGH): {"request_timeout_ms": 2 * HIGH, "connections_max_idle_ms": 3 * HIGH},
    ("consumer", "request_timeout_ms", HIGH): {"connections_max_idle_ms": 2 * HIGH},
    ("consumer", "request_timeout_ms", LOW): {"fetch_max_wait_ms": LOW - 1},
    ("consumer", "connections_max_idle_ms", LOW): {"request_timeout_ms": LOW - 1, "fetch_max_wait_ms": LOW - 2},
    ("producer", "request_timeout_ms", HIGH): {"delivery_timeout_ms": 2 * HIGH},
    ("producer", "linger_ms", HIGH): {"delivery_timeout_ms": 2 * HIGH},
    ("producer", "delivery_timeout_ms", LOW): {"linger_ms": LOW, "request_timeout_ms": LOW - 1},
}
# Where librdkafka checks the property against another: at least message.max.bytes, the session
# timeout (librdkafka's 45,000 ms, kafka-python's too), fetch.max.bytes + 512; the reconnect
# backoff at most its maximum (kafka-python's 30,000 ms).
_KP_LOW = {("consumer", "fetch.max.bytes"): 1_000_000, ("consumer", "max.poll.interval.ms"): 45_000,
           ("consumer", "receive.message.max.bytes"): 52_428_800 + 512}
_KP_HIGH = {"reconnect.backoff.ms": 30_000}


@pytest.mark.parametrize("row", [o for o in _config.OPTIONS.values()
                                 if o.kind == "librdkafka" and o.target in _bounds.RANGES],
                         ids=lambda o: f"{o.client}-{o.name}")
def test_kafka_python_number_outside_librdkafkas_range_is_clamped(row: _config.Option) -> None:
    least, greatest = _bounds.RANGES[row.target]
    for value, want in ((LOW, _KP_LOW.get((row.client, row.target), least)),
                        (HIGH, _KP_HIGH.get(row.target, greatest))):
        conf, config = _config.translate(row.client, {row.name: value,
                                                      **_KP_PARTNERS.get((row.client, row.name, value), {})})
        assert conf[row.target] == want, value
        assert config[row.name] == value  # .config keeps what the program gave, as kafka-python's
        _native(row.client, conf)


@pytest.mark.parametrize("client,configs,match", [
    ("consumer", {"request_timeout_ms": 1_200_000}, "connections_max_idle_ms"),
    ("consumer", {"fetch_max_wait_ms": 30_000}, "connections_max_idle_ms"),
    ("consumer", {"group_id": "g", "heartbeat_interval_ms": 45_000}, "Heartbeat interval"),
    ("producer", {"linger_ms": 1_000_000}, "delivery_timeout_ms"),
    ("producer", {"delivery_timeout_ms": 1000}, "delivery_timeout_ms"),
])
def test_kafka_python_refuses_the_timeouts_kafka_python_refuses(client: str, configs: Dict[str, Any],
                                                                 match: str) -> None:
    with pytest.raises(Errors.KafkaConfigurationError, match=match):
        _config.translate(client, configs)


def test_kafka_python_accepts_what_librdkafka_checks_together() -> None:
    conf, _ = _config.translate("consumer", {"receive_message_max_bytes": 1000, "fetch_max_bytes": 10,
                                             "max_poll_interval_ms": 1000})
    assert (conf["receive.message.max.bytes"], conf["fetch.max.bytes"], conf["max.poll.interval.ms"]) \
        == (1_000_000 + 512, 1_000_000, 45_000)
    _native("consumer", conf)
    conf, _ = _config.translate("producer", {"reconnect_backoff_ms": 100_000})
    assert (conf["reconnect.backoff.ms"], conf["reconnect.backoff.max.ms"]) == (30_000, 30_000)
    conf, _ = _config.translate("producer", {"reconnect_backoff_ms": 100, "reconnect_backoff_max_ms": 50})
    assert (conf["reconnect.backoff.ms"], conf["reconnect.backoff.max.ms"]) == (50, 50)
    _native("producer", conf)
    conf, _ = _config.translate("producer", {"retries": 10**12, "batch_size": 0})
    assert (conf["retries"], conf["batch.size"]) == (2_147_483_647, 1)


def test_kafka_python_transactional_delivery_timeout_stays_within_librdkafkas() -> None:
    from confluent_kafka.compat.kafka import KafkaProducer

    producer = KafkaProducer(bootstrap_servers=NOWHERE, transactional_id="t", transaction_timeout_ms=10**12,
                             delivery_timeout_ms=10**12)
    producer.close(timeout=0)


def test_kafka_python_docs_give_each_range() -> None:
    table = _config.markdown_table()
    for o in _config.OPTIONS.values():
        if o.kind == "librdkafka" and o.target in _bounds.RANGES:
            assert f"`{o.target}` ({_bounds.describe(o.target)}) |" in table, o.name


# ---- an unchanged program through the runner -----------------------------------------------

FAUST_TIMEOUTS = textwrap.dedent("""
    import asyncio
    import sys

    from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition

    BOOTSTRAP, TOPIC = sys.argv[1], sys.argv[2]

    async def main():
        # faust-streaming's defaults: producer_request_timeout 1200 s, broker_request_timeout 90 s
        producer = AIOKafkaProducer(bootstrap_servers=BOOTSTRAP, request_timeout_ms=1_200_000)
        await producer.start()
        md = await producer.send_and_wait(TOPIC, b"sent with a 1200 s request timeout", partition=0)
        await producer.stop()
        consumer = AIOKafkaConsumer(bootstrap_servers=BOOTSTRAP, request_timeout_ms=1_200_000,
                                    session_timeout_ms=1_000_000, auto_offset_reset="earliest")
        await consumer.start()
        consumer.assign([TopicPartition(TOPIC, 0)])
        record = await asyncio.wait_for(consumer.getone(), 30)
        await consumer.stop()
        print(md.offset, record.offset, record.value.decode())

    asyncio.run(main())
""")


@pytest.mark.mock
def test_unchanged_program_with_faust_timeouts_runs(mock_cluster: Any, unique_topic: str,
                                                    run_unchanged: Callable[..., Any]) -> None:
    mock_cluster.create_topic(unique_topic, partitions=1)
    proc = run_unchanged(FAUST_TIMEOUTS, mock_cluster.bootstrap_servers, unique_topic)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.splitlines() == ["0 0 sent with a 1200 s request timeout"]
