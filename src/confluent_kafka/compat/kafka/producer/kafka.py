"""``kafka.producer.kafka``: :class:`KafkaProducer` over this package's librdkafka producer."""
from __future__ import annotations

import atexit
import functools
import logging
import threading
import time
import weakref
from typing import Any, Callable, Dict, List, Optional, Set, Tuple

import confluent_kafka as _ck
from confluent_kafka.compat import _bounds
from confluent_kafka.compat._partitioning import sticky_partitioning_ms
from confluent_kafka.compat.kafka import _config
from confluent_kafka.compat.kafka import errors as Errors
from confluent_kafka.compat.kafka._util import Stats, call, extras, translate_error
from confluent_kafka.compat.kafka.producer.future import SPEC, FutureRecordMetadata
from confluent_kafka.compat.kafka.partitioner import DefaultPartitioner, Partitioner, StickyPartitioner
from confluent_kafka.compat.kafka.serializer import Serializer

__all__ = ["KafkaProducer"]

log = logging.getLogger(__name__)

_BYTES = (bytes, bytearray, memoryview, type(None))


def _serializer(fn: Any) -> Optional[Callable[[str, Any, Any], Any]]:
    if fn is None:
        return None
    if isinstance(fn, Serializer) or callable(getattr(fn, "serialize", None)):
        return fn.serialize  # type: ignore[no-any-return]
    if callable(fn):
        return lambda topic, headers, data: fn(data)
    raise Errors.KafkaConfigurationError(f"a serializer must be callable or a Serializer, not {fn!r}")


def _close_at_exit(ref: "weakref.ReferenceType[KafkaProducer]") -> None:
    """At interpreter exit, deliver what a producer that was never closed still holds (as
    kafka-python's exit hook does)."""
    producer = ref()
    if producer is not None and not producer._closed:
        try:
            producer.close()
        except Exception:
            log.exception("closing a KafkaProducer at exit failed")


def _serve(ref: "weakref.ReferenceType[KafkaProducer]") -> None:
    """The background thread: serves delivery reports, as kafka-python's sender thread does."""
    while True:
        producer = ref()
        if producer is None or producer._stopping:
            return
        native, served = producer._producer, producer._served
        del producer
        try:
            native.poll(0.2)
        except Exception:  # a callback's exception: logged by Future, anything else here
            producer = ref()
            if producer is not None and not producer._stopping:  # else: closed meanwhile
                log.exception("delivery report handling failed")
            del producer
        with served:  # get() and a send() waiting for room look again
            served.notify_all()


def _idempotence(configs: Dict[str, Any], cfg: Dict[str, Any]) -> bool:
    """kafka-python 3.0's rule (KIP-679): idempotence is on by default, and turned off, with a
    warning, when the program passed an option it cannot work with; the same conflict raises when
    the program asked for idempotence (or transactions) itself. Updates ``cfg`` as kafka-python
    does and returns the value for ``enable.idempotence``."""
    explicit = "enable_idempotence" in configs
    if cfg["transactional_id"] is not None:
        if explicit and not cfg["enable_idempotence"]:
            raise Errors.KafkaConfigurationError("Cannot set transactional_id without enable_idempotence.")
        cfg["enable_idempotence"] = explicit = True
    if not cfg["enable_idempotence"]:
        return False
    conflicts = [(name, configs[name]) for name, bad in (
        ("acks", lambda v: v not in (-1, "all")),
        ("retries", lambda v: v == 0),
        ("max_in_flight_requests_per_connection", lambda v: v > 5)) if name in configs and bad(configs[name])]
    if conflicts:
        text = ", ".join(f"{name}={value!r}" for name, value in conflicts)
        if explicit:
            raise Errors.KafkaConfigurationError(f"enable_idempotence=True is incompatible with user-provided {text}")
        log.warning("KafkaProducer: Idempotence will be disabled because user-provided config conflicts with"
                    " idempotent defaults: %s", text)
        cfg["enable_idempotence"] = False
    elif cfg["api_version"] is not None and _config.version_tuple(cfg["api_version"]) < (0, 11):
        if explicit:
            raise Errors.KafkaConfigurationError(
                f"Idempotent/Transactional producer requires broker >= 0.11 (got api_version={cfg['api_version']})")
        log.warning("KafkaProducer: Idempotence will be disabled because broker api_version %s < (0, 11)",
                    cfg["api_version"])
        cfg["enable_idempotence"] = False
    return bool(cfg["enable_idempotence"])


class _Cluster:
    """The cluster view a custom partitioner gets (partition ids cached per topic)."""

    def __init__(self, producer: "KafkaProducer") -> None:
        self._producer = producer

    def topics(self) -> Set[str]:
        """:returns: the topics whose partitions are known so far."""
        return set(self._producer._partitions)

    def partitions_for_topic(self, topic: str) -> Set[int]:
        """:returns: the partition ids of ``topic`` (fetched once, then cached)."""
        parts = self._producer._partitions.get(topic)
        if parts is None:
            parts = sorted(self._producer.partitions_for(topic))
            self._producer._partitions[topic] = parts
        return set(parts)

    def available_partitions_for_topic(self, topic: str) -> Set[int]:
        """:returns: the same ids (librdkafka routes around unavailable leaders itself)."""
        return self.partitions_for_topic(topic)


class KafkaProducer:
    """kafka-python's ``KafkaProducer``, running on librdkafka.

    ``KafkaProducer(**configs)`` takes kafka-python's options (docs/kafka_python.md maps each to
    librdkafka). :meth:`send` returns a future at once; a background thread settles it when the
    broker acknowledges the record, running its callbacks/errbacks there.

    :raises KafkaConfigurationError: for an unknown option or one with no librdkafka equivalent.
    """

    DEFAULT_CONFIG = _config.DEFAULTS[_config.PRODUCER]

    def __init__(self, **configs: Any) -> None:
        conf, self.config = _config.translate(_config.PRODUCER, configs)
        cfg = self.config
        conf["enable.idempotence"] = _idempotence(configs, cfg)
        if conf["enable.idempotence"] and conf.get("retries", 1) < 1:
            conf["retries"] = 1  # kafka-python keeps idempotence for a negative retries; librdkafka's needs one
        if cfg["transactional_id"] is not None and "delivery_timeout_ms" not in configs:
            # librdkafka refuses a record timeout above the transaction's (kafka-python's defaults
            # are 120 s and 60 s): a record left out of a transaction then fails with it.
            conf["delivery.timeout.ms"] = min(conf["delivery.timeout.ms"],
                                              _bounds.clamp("transaction.timeout.ms", cfg["transaction_timeout_ms"]))
        self._stats = Stats("producer")
        extras(cfg, conf, self._stats if cfg["metrics_enabled"] else None)
        self._key_ser = _serializer(cfg["key_serializer"])
        self._value_ser = _serializer(cfg["value_serializer"])
        part = cfg["partitioner"]
        self._partitioner = None if type(part) in (DefaultPartitioner, StickyPartitioner) else part
        if self._partitioner is not None and not (
                callable(getattr(self._partitioner, "partition", None)) or callable(self._partitioner)):
            raise Errors.KafkaConfigurationError("partitioner must be a kafka.partitioner.Partitioner")
        conf["partitioner"] = "murmur2_random"
        sticky = sticky_partitioning_ms(cfg["linger_ms"]) if self._partitioner is None else None
        if sticky is not None:
            conf["sticky.partitioning.linger.ms"] = sticky
        self._max_block = cfg["max_block_ms"] / 1000.0
        self._producer = call(_ck.Producer, conf)
        # produce() that makes the record's future and settles it in C on delivery
        self._produce: Callable[..., FutureRecordMetadata] = self._producer._produce_record
        self._transactional = cfg["transactional_id"] is not None
        self._closed = False
        self._stopping = False
        self._sent = 0
        self._partitions: Dict[str, List[int]] = {}
        self._served = threading.Condition()  # notified by the background thread after each poll
        self._thread = threading.Thread(target=_serve, args=(weakref.ref(self),),
                                        name="kafka-python-facade-sender", daemon=True)
        self._thread.start()
        self._at_exit = functools.partial(_close_at_exit, weakref.ref(self))
        atexit.register(self._at_exit)

    def _wait(self, future: FutureRecordMetadata, timeout: Optional[float]) -> None:
        """Return once ``future`` is settled; KafkaTimeoutError after ``timeout`` seconds."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while not future.is_done:
            left = 0.1 if deadline is None else min(0.1, deadline - time.monotonic())
            if left <= 0:
                raise Errors.KafkaTimeoutError(f"Timeout after waiting for {timeout} secs.")
            self._wait_served(left, lambda: future.is_done)

    def _wait_served(self, seconds: float, done: Callable[[], bool]) -> None:
        """Wait up to ``seconds`` for the delivery reports to be served, or less once ``done()``.

        The background thread serves them, and wakes the waiters after each batch. Polling here as
        well would race it for each report and, on losing, sleep out the poll's timeout. The
        background thread itself (get() in a callback), or a caller after close(), polls instead.
        """
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            with self._served:
                if not done():  # checked under the lock: a batch served since is not missed
                    self._served.wait(seconds)
        else:
            self._producer.poll(seconds)

    def send(self, topic: str, value: Any = None, key: Any = None, headers: Optional[List[Any]] = None,
             partition: Optional[int] = None, timestamp_ms: Optional[int] = None) -> FutureRecordMetadata:
        """Queue a record; the returned future settles when the broker acknowledges it.

        :param topic: the destination topic.
        :param value: the value (serialized by ``value_serializer``; bytes without one).
        :param key: the key (serialized by ``key_serializer``); it picks the partition.
        :param headers: a list of ``(str, bytes)``.
        :param partition: a partition, instead of the partitioner's choice.
        :param timestamp_ms: the record timestamp (default: now).
        :returns: a :class:`FutureRecordMetadata`.
        :raises IllegalStateError: once closed.
        :raises ValueError: with neither key nor value.
        :raises TypeError: for bad headers or unserialized non-bytes key/value.
        :raises KafkaTimeoutError: when the local queue stays full for ``max_block_ms``.
        """
        if self._closed:
            raise Errors.IllegalStateError("KafkaProducer already closed!")
        if value is None and key is None:
            raise ValueError("Need at least one: key or value")
        given_key, given_value = key, value
        hsize = -1
        if headers is not None:
            if not isinstance(headers, list):
                raise TypeError("headers must be list-type")
            for item in headers:
                if not (isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str)
                        and isinstance(item[1], bytes)):
                    raise TypeError("All headers items must be (str, bytes) tuples")
            if headers:
                hsize = sum(len(k.encode()) + len(v) for k, v in headers)
            else:
                headers = None
        if self._key_ser is not None or self._value_ser is not None:
            given = headers if headers is not None else []   # serializers may add headers
            if self._key_ser is not None:
                key = self._key_ser(topic, given, key)
            if self._value_ser is not None:
                value = self._value_ser(topic, given, value)
            if given and headers is None:
                headers = given
                hsize = sum(len(k.encode()) + len(v) for k, v in headers)
        if type(key) not in _BYTES:
            raise TypeError(f"Unsupported type for serialized key: {type(key)}")
        if type(value) not in _BYTES:
            raise TypeError(f"Unsupported type for serialized value: {type(value)}")
        if partition is None:
            partition = -1 if self._partitioner is None else self._choose(topic, given_key, key, given_value, value)
        elif not isinstance(partition, int) or partition < 0:
            raise TypeError(f"partition must be an int >= 0, not {partition!r}")
        args = (timestamp_ms, -1 if key is None else len(key), -1 if value is None else len(value), hsize)
        try:
            future = self._produce(FutureRecordMetadata, SPEC, self._wait, args, topic, value, key, partition,
                                   timestamp_ms, headers)
        except BufferError:
            future = self._produce_blocking(args, topic, value, key, partition, timestamp_ms, headers)
        except _ck.KafkaException as exc:
            return FutureRecordMetadata(self._wait, args).failure(translate_error(exc))
        self._sent += 1
        return future

    def _produce_blocking(self, args: Tuple[Any, ...], topic: str, value: Any, key: Any, partition: int,
                          timestamp_ms: Optional[int], headers: Optional[List[Any]]) -> FutureRecordMetadata:
        deadline = time.monotonic() + self._max_block
        while True:
            self._wait_served(0.05, lambda: False)  # room is made by the reports served
            try:
                return self._produce(FutureRecordMetadata, SPEC, self._wait, args, topic, value, key, partition,
                                     timestamp_ms, headers)
            except BufferError:
                if time.monotonic() >= deadline:
                    raise Errors.KafkaTimeoutError(
                        f"Failed to allocate memory within the configured max blocking time {self._max_block * 1000:.0f} ms")

    def _choose(self, topic: str, key: Any, key_bytes: Any, value: Any, value_bytes: Any) -> int:
        part = self._partitioner
        if isinstance(part, Partitioner):
            chosen = part.partition(topic, key, key_bytes, value, value_bytes, _Cluster(self))
        elif callable(getattr(part, "partition", None)):  # the older partition(topic, key_bytes, cluster)
            chosen = part.partition(topic, key_bytes, _Cluster(self))  # type: ignore[union-attr]
        else:  # the oldest form: partitioner(key_bytes, all_partitions, available)
            parts = sorted(_Cluster(self).partitions_for_topic(topic))
            chosen = part(key_bytes, parts, parts)  # type: ignore[misc]
        if chosen is None:
            raise ValueError(f"Partitioner did not assign a partition for topic {topic}!")
        return int(chosen)

    def flush(self, timeout: Optional[float] = None) -> None:
        """Wait until every queued record is acknowledged or failed.

        :param timeout: seconds (None: as long as it takes).
        :raises KafkaTimeoutError: if records remain after ``timeout``.
        """
        if self._closed:
            return  # close() delivered or failed every record
        left = self._producer.flush(-1 if timeout is None else timeout)
        if left:
            raise Errors.KafkaTimeoutError(f"Timeout after waiting for {timeout} secs.")

    def close(self, timeout: Optional[float] = None, null_logger: bool = False) -> None:
        """Flush (up to ``timeout`` seconds), fail what is left, and release the client.

        :raises ValueError: for a negative timeout.
        """
        if self._closed:
            return
        if timeout is not None and timeout < 0:
            raise ValueError(f"Invalid timeout: {timeout}")
        self._closed = True
        left = self._producer.flush(-1 if timeout is None else timeout)
        if left:
            self._producer.purge()
            self._producer.poll(0)
        self._stopping = True
        atexit.unregister(self._at_exit)
        if threading.current_thread() is not self._thread:
            # Closing the native client wakes the background thread's poll at once, and that
            # thread then ends; a close() in a callback leaves both to end after it.
            self._producer.close()
            self._thread.join()
        for ser in (self.config["key_serializer"], self.config["value_serializer"]):
            if isinstance(ser, Serializer):
                ser.close()

    def partitions_for(self, topic: str) -> Set[int]:
        """The partition ids of ``topic`` (waiting up to ``max_block_ms`` for metadata).

        :raises KafkaTimeoutError: when the topic's metadata does not arrive in time.
        :raises IllegalStateError: once closed (kafka-python waits out ``max_block_ms`` then).
        """
        if self._closed:
            raise Errors.IllegalStateError("KafkaProducer already closed!")
        deadline = time.monotonic() + self._max_block
        while True:
            md = call(self._producer.list_topics, topic, timeout=max(0.1, deadline - time.monotonic()))
            tm = md.topics.get(topic)
            if tm is not None and tm.error is None and tm.partitions:
                return set(tm.partitions)
            if time.monotonic() >= deadline:
                raise Errors.KafkaTimeoutError(f"Failed to update metadata after {self._max_block:.1f} secs.")
            time.sleep(0.1)

    def bootstrap_connected(self) -> bool:
        """:returns: True if a broker answers a metadata request within 5 seconds (False once closed)."""
        if self._closed:
            return False
        try:
            self._producer.list_topics(timeout=5.0)
            return True
        except _ck.KafkaException:
            return False

    def metrics(self, raw: bool = False) -> Optional[Dict[str, Any]]:
        """Client metrics.

        :param raw: return librdkafka's statistics dict itself.
        :returns: ``{group: {name: value}}`` from librdkafka's statistics (None when
            ``metrics_enabled`` is False).
        """
        if not self.config["metrics_enabled"]:
            return None
        return self._stats.metrics(raw, {"record-send-total": float(self._sent)})

    # ---- transactions ----------------------------------------------------------------------

    def _need_txn(self) -> None:
        if self._closed:
            raise Errors.IllegalStateError("KafkaProducer already closed!")
        if not self._transactional:
            raise Errors.IllegalStateError("Transactional method invoked on a non-transactional producer.")

    def init_transactions(self) -> None:
        """Register the ``transactional_id`` with the cluster (once, before the first transaction)."""
        self._need_txn()
        call(self._producer.init_transactions, self._max_block)

    def begin_transaction(self) -> None:
        """Start a transaction."""
        self._need_txn()
        call(self._producer.begin_transaction)

    def send_offsets_to_transaction(self, offsets: Dict[Any, Any], group_metadata: Any) -> None:
        """Commit consumer offsets as part of the transaction.

        :param offsets: ``{TopicPartition: OffsetAndMetadata}``.
        :param group_metadata: the consumer's ``group_metadata()``.
        """
        self._need_txn()
        native = getattr(group_metadata, "native", None)
        if native is None:
            raise Errors.IllegalArgumentError("group_metadata must come from KafkaConsumer.group_metadata()")
        tps = [_ck.TopicPartition(tp[0], tp[1], om[0] if isinstance(om, tuple) else int(om))
               for tp, om in offsets.items()]
        call(self._producer.send_offsets_to_transaction, tps, native, self._max_block)

    def commit_transaction(self) -> None:
        """Commit the transaction (flushing its records first)."""
        self._need_txn()
        call(self._producer.commit_transaction, self._max_block)

    def abort_transaction(self) -> None:
        """Abort the transaction; its records fail with TransactionAbortedError-like errors."""
        self._need_txn()
        call(self._producer.abort_transaction, self._max_block)

    def __enter__(self) -> "KafkaProducer":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        self._stopping = True
