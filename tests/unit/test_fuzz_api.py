"""Property-based fuzzing of the public API: constructors and methods of Producer, Consumer,
AdminClient, MockCluster and the value types get wrong types, None, huge and negative numbers,
invalid unicode, enormous values and headers, and made-up configurations. Only documented
exceptions (tests/fuzzing.py: DOCUMENTED) may come out; a crash ends the run, a hang fails.

``CFL_FUZZ_EXAMPLES`` sets the examples per test (default 40); the number of calls made is
printed at the end of the run."""

from __future__ import annotations

from typing import Any, Callable, Dict, Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from confluent_kafka import Consumer, KafkaError, Message, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewPartitions, NewTopic
from confluent_kafka.testing import MockCluster

from fuzzing import (BAD_TEXT, FUZZ_SETTINGS, anything, blobs, fuzz_call, huge_ints,
                     short_timeouts, text)

QUIET = {"log_level": 0, "bootstrap.servers": "127.0.0.1:1"}

CONFIG_KEYS = ["bootstrap.servers", "client.id", "acks", "linger.ms", "batch.size",
               "queue.buffering.max.messages", "message.max.bytes", "compression.type",
               "enable.idempotence", "transactional.id", "group.id", "auto.offset.reset",
               "enable.auto.commit", "session.timeout.ms", "isolation.level", "error_cb",
               "on_delivery", "stats_cb", "throttle_cb", "logger", "on_commit",
               "statistics.interval.ms", "default.topic.config", "partitioner", "retries",
               "sasl.mechanism", "sasl.username", "sasl.password", "security.protocol",
               "consumer_timeout_ms", "socket.timeout.ms", "debug", "plugin.library.paths"]
config_key = st.one_of(st.sampled_from(CONFIG_KEYS), text)
config_value = st.one_of(anything, st.sampled_from(["all", "-1", "0", "none", "zstd", "earliest",
                                                    "read_committed", "true", "9" * 30]))
# Keys whose valid values make a constructor wait (an OAuth callback waits for its first
# token) or load code are left out of the random draws.
configs = st.dictionaries(config_key.filter(lambda k: k != "plugin.library.paths"), config_value,
                          max_size=6)

headers = st.one_of(
    st.none(), anything,
    st.lists(st.tuples(text, st.one_of(blobs, text, st.none(), anything)), max_size=5),
    st.dictionaries(text, st.one_of(blobs, st.none()), max_size=5),
    st.just([("h", b"v")] * 20_000),  # enormous header lists
    st.just([("k" * 100_000, b"v" * 100_000)]),
)


def close_quietly(client: Any) -> None:
    if isinstance(client, Producer):
        fuzz_call("cleanup", client.purge)
    fuzz_call("cleanup", client.close)


@pytest.fixture(scope="module")
def producer() -> Iterator[Producer]:
    p = Producer({"log_level": 0})  # no broker: messages only queue, nothing blocks
    yield p
    p.purge()
    p.close()


@pytest.fixture(scope="module")
def consumer() -> Iterator[Consumer]:
    c = Consumer({**QUIET, "group.id": "fuzz"})
    yield c
    c.close()


def upstream_topic_config_error(cls: Any, *args: Any, **kwargs: Any) -> Any:
    """Make a client; a ``default.topic.config`` that is not a mapping raises AttributeError.

    Upstream reads the value's ``.keys()`` and so raises AttributeError; this package does the
    same (tests/compat/scenarios/config.py pins it), so that one exception is expected here.
    """
    try:
        return cls(*args, **kwargs)
    except AttributeError as e:
        assert "has no attribute 'keys'" in str(e), e
        confs = [a for a in args if isinstance(a, dict)] + [kwargs]
        assert any(not hasattr(c.get("default.topic.config", {}), "keys") for c in confs), e
        return None


@FUZZ_SETTINGS
@given(conf=configs, kwargs=configs)
def test_client_constructors(conf: Dict[Any, Any], kwargs: Dict[Any, Any]) -> None:
    for cls in (Producer, Consumer, AdminClient):
        merged = {**QUIET, **conf}
        if cls is Consumer:
            merged.setdefault("group.id", "fuzz")
        str_kwargs = {k: v for k, v in kwargs.items() if isinstance(k, str) and k.isidentifier()}
        client = fuzz_call(f"{cls.__name__}()", upstream_topic_config_error, cls, merged, **str_kwargs)
        if client is not None:
            close_quietly(client)
        client = fuzz_call(f"{cls.__name__}()", upstream_topic_config_error, cls,
                           conf if conf else anything)
        if client is not None:
            close_quietly(client)


@FUZZ_SETTINGS
@given(topic=st.one_of(text, anything), value=st.one_of(blobs, text, anything),
       key=st.one_of(blobs, text, anything), partition=st.one_of(st.integers(-5, 5), huge_ints, anything),
       timestamp=st.one_of(st.integers(0, 2**41), huge_ints, anything), hdrs=headers,
       on_delivery=st.one_of(st.none(), st.just(lambda e, m: None), anything))
def test_produce(producer: Producer, topic: Any, value: Any, key: Any, partition: Any,
                 timestamp: Any, hdrs: Any, on_delivery: Any) -> None:
    fuzz_call("Producer.produce", producer.produce, topic, value, key, partition=partition,
              timestamp=timestamp, headers=hdrs, on_delivery=on_delivery)
    fuzz_call("Producer.produce", producer.produce, topic, value=value, key=key)
    fuzz_call("Producer.purge", producer.purge)
    assert fuzz_call("Producer.poll", producer.poll, 0) is not None  # serve the purged reports


@FUZZ_SETTINGS
@given(timeout=short_timeouts, arg=anything, flags=st.tuples(anything, anything, anything),
       batch=st.one_of(anything, st.lists(st.dictionaries(
           st.sampled_from(["value", "key", "partition", "timestamp", "headers", "junk"]),
           anything, max_size=4), max_size=5)))
def test_producer_methods(producer: Producer, timeout: Any, arg: Any, flags: Any, batch: Any) -> None:
    fuzz_call("Producer.poll", producer.poll, timeout)
    fuzz_call("Producer.flush", producer.flush, timeout)
    fuzz_call("Producer.purge", producer.purge, *flags)
    fuzz_call("Producer.purge", producer.purge, in_queue=True, in_flight=True, blocking=flags[2])
    fuzz_call("Producer.produce_batch", producer.produce_batch, "fuzz", batch)
    fuzz_call("Producer.produce_batch", producer.produce_batch, arg, [{"value": b"x"}])
    fuzz_call("Producer.purge", producer.purge)
    fuzz_call("Producer.init_transactions", producer.init_transactions, timeout)
    fuzz_call("Producer.begin_transaction", producer.begin_transaction)
    fuzz_call("Producer.send_offsets_to_transaction", producer.send_offsets_to_transaction,
              arg, arg, timeout)
    fuzz_call("Producer.list_topics", producer.list_topics, arg, timeout=timeout)
    fuzz_call("Producer.set_sasl_credentials", producer.set_sasl_credentials, arg, arg)
    fuzz_call("Producer.__len__", len, producer)
    producer.poll(0)


partitions_arg = st.one_of(
    anything,
    st.lists(st.builds(TopicPartition, st.text(min_size=1, max_size=10), st.integers(-1, 3),
                       st.integers(-3, 10)), max_size=4),
    st.lists(anything, max_size=3))


@FUZZ_SETTINGS
@given(timeout=short_timeouts, arg=anything, parts=partitions_arg,
       num=st.one_of(st.integers(-3, 5), huge_ints, anything),
       topics=st.one_of(anything, st.lists(st.one_of(text, anything), max_size=3)))
def test_consumer_methods(consumer: Consumer, timeout: Any, arg: Any, parts: Any, num: Any,
                          topics: Any) -> None:
    c = consumer
    fuzz_call("Consumer.subscribe", c.subscribe, topics)
    fuzz_call("Consumer.subscribe", c.subscribe, ["fuzz"], on_assign=arg)
    fuzz_call("Consumer.unsubscribe", c.unsubscribe)
    fuzz_call("Consumer.poll", c.poll, timeout)
    fuzz_call("Consumer.consume", c.consume, num, 0)
    fuzz_call("Consumer.consume", c.consume, 1, timeout)
    fuzz_call("Consumer.assign", c.assign, parts)
    fuzz_call("Consumer.incremental_assign", c.incremental_assign, parts)
    fuzz_call("Consumer.incremental_unassign", c.incremental_unassign, parts)
    fuzz_call("Consumer.pause", c.pause, parts)
    fuzz_call("Consumer.resume", c.resume, parts)
    fuzz_call("Consumer.seek", c.seek, arg)
    fuzz_call("Consumer.position", c.position, parts)
    fuzz_call("Consumer.committed", c.committed, parts, timeout)
    fuzz_call("Consumer.commit", c.commit, offsets=parts, asynchronous=True)
    fuzz_call("Consumer.commit", c.commit, message=arg, asynchronous=True)
    fuzz_call("Consumer.store_offsets", c.store_offsets, offsets=parts)
    fuzz_call("Consumer.store_offsets", c.store_offsets, message=arg)
    fuzz_call("Consumer.get_watermark_offsets", c.get_watermark_offsets, arg, timeout, True)
    fuzz_call("Consumer.offsets_for_times", c.offsets_for_times, parts, timeout)
    fuzz_call("Consumer.list_topics", c.list_topics, arg, timeout=timeout)
    fuzz_call("Consumer.unassign", c.unassign)


@FUZZ_SETTINGS
@given(a=anything, b=anything, c=anything, d=anything, e=anything,
       reason=st.one_of(text, st.just("r" * 1_000_000)))
def test_value_types(a: Any, b: Any, c: Any, d: Any, e: Any, reason: str) -> None:
    tp = fuzz_call("TopicPartition()", TopicPartition, a, b, c, d, e)
    if tp is not None:
        repr(tp), hash(tp), tp == tp  # noqa: B018
    fuzz_call("TopicPartition()", TopicPartition, "t", partition=b, offset=c, metadata=d,
              leader_epoch=e)
    err = fuzz_call("KafkaError()", KafkaError, a, b, c)
    if err is not None:
        str(err), repr(err), err.code(), err.name(), err.fatal()  # noqa: B018
    fuzz_call("KafkaError()", KafkaError, KafkaError._FAIL, reason)
    msg = fuzz_call("Message()", Message, value=a, key=b, topic=c, partition=d, offset=e,
                    headers=a, timestamp=b, error=c)
    if msg is not None:
        repr(msg), msg.value(), msg.key(), msg.topic()  # noqa: B018
        # Message() keeps headers as given and converts them when read: a TypeError then.
        fuzz_call("Message.headers", msg.headers)
        fuzz_call("Message.__len__", len, msg)
    fuzz_call("Message.set_value", Message().set_value, a)
    fuzz_call("Message.set_headers", Message().set_headers, a)


@pytest.fixture(scope="module")
def fuzzed_cluster() -> Iterator[MockCluster]:
    with MockCluster(2) as mc:
        yield mc


@FUZZ_SETTINGS
@given(name=st.one_of(text, anything), n=st.one_of(st.integers(-2, 4), huge_ints, anything),
       arg=anything, errors=st.one_of(anything, st.lists(st.one_of(st.integers(-200, 100),
                                                                     huge_ints, anything),
                                                           max_size=4)))
def test_mock_cluster(fuzzed_cluster: MockCluster, name: Any, n: Any, arg: Any,
                      errors: Any) -> None:
    if not isinstance(n, int) or not 0 < n <= 4:  # valid sizes start real brokers: slow
        fuzz_call("MockCluster()", MockCluster, n)
    mc = fuzzed_cluster
    fuzz_call("MockCluster.create_topic", mc.create_topic, name, n, n)
    fuzz_call("MockCluster.create_topic", mc.create_topic, name, partitions=arg)
    fuzz_call("MockCluster.broker_down", mc.broker_down, n)
    fuzz_call("MockCluster.broker_up", mc.broker_up, n)
    fuzz_call("MockCluster.set_rtt", mc.set_rtt, n, arg)
    fuzz_call("MockCluster.set_rtt", mc.set_rtt, 1, n)
    fuzz_call("MockCluster.push_request_errors", mc.push_request_errors, n, errors)
    fuzz_call("MockCluster.clear_request_errors", mc.clear_request_errors, n)
    fuzz_call("MockCluster.set_partition_leader", mc.set_partition_leader, name, n, n)
    fuzz_call("MockCluster.set_coordinator", mc.set_coordinator, arg, name, n)
    fuzz_call("MockCluster.set_coordinator", mc.set_coordinator, "group", name, n)


@pytest.fixture(scope="module")
def admin() -> Iterator[AdminClient]:
    a = AdminClient(QUIET)
    yield a
    a.close()


@FUZZ_SETTINGS
@given(name=st.one_of(text, anything), n=st.one_of(st.integers(-2, 4), huge_ints, anything),
       arg=anything, timeout=short_timeouts)
def test_admin_requests(admin: AdminClient, name: Any, n: Any, arg: Any, timeout: Any) -> None:
    topic = fuzz_call("NewTopic()", NewTopic, name, n, n, arg, arg)
    fuzz_call("NewPartitions()", NewPartitions, name, n, arg)
    def upstream_attribute_error(call: Callable[[], Any]) -> Callable[[], Any]:
        # create_topics/create_partitions read .topic of each item first, as upstream does, so
        # an item of another type raises AttributeError there and here.
        def run() -> Any:
            try:
                return call()
            except AttributeError as e:
                assert "has no attribute 'topic'" in str(e), e
                return None
        return run

    calls: Dict[str, Callable[[], Any]] = {
        "create_topics": upstream_attribute_error(lambda: admin.create_topics([topic] if topic else arg,
                                                                              request_timeout=timeout)),
        "delete_topics": lambda: admin.delete_topics(arg, operation_timeout=timeout),
        "create_partitions": upstream_attribute_error(lambda: admin.create_partitions(arg)),
        "describe_configs": lambda: admin.describe_configs(arg),
        "list_groups": lambda: admin.list_groups(timeout=timeout),
        "delete_consumer_groups": lambda: admin.delete_consumer_groups(arg),
        "list_topics": lambda: admin.list_topics(topic=arg, timeout=timeout),
    }
    for what, call in calls.items():
        result = fuzz_call(f"AdminClient.{what}", call)
        # Futures against an unreachable broker: never waited on, only cancelled or dropped.
        for fut in (result.values() if isinstance(result, dict) else []):
            fut.cancel()


def test_bad_text_everywhere(producer: Producer) -> None:
    """Every text argument with surrogates, NULs and enormous strings, exhaustively."""
    for s in BAD_TEXT:
        fuzz_call("bad text", producer.produce, s, b"v")
        fuzz_call("bad text", producer.produce, "t", s, s, headers=[(s, s)])
        fuzz_call("bad text", TopicPartition, s)
        fuzz_call("bad text", Producer, {s: s, **QUIET})
        fuzz_call("bad text", Consumer, {"group.id": s, **QUIET})
    producer.purge()
    producer.poll(0)
