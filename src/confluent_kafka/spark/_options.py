"""Parse the data source options, named as those of Spark's built-in Kafka source and sink.

Spark hands a Python data source its options with lower-cased keys, so every lookup here is by
the lower-cased name. Everything is checked on the driver, before any task starts, and a bad
option raises ValueError naming the option.
"""

from __future__ import annotations

import dataclasses
import json
import re
import uuid
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Tuple, Union

from ._partition_json import partition_values
from ._registry import RegistryOptions, ResolvedSchema, parse_registry_options, resolve_read, resolve_write
from ._timestamps import TimestampBounds, parse_strategy, parse_timestamps

#: Offsets in the JSON forms, as in Spark: -2 the earliest offset, -1 the latest.
EARLIEST = -2
LATEST = -1

#: ``"earliest"``, ``"latest"``, or explicit offsets ``{topic: {partition: offset}}``.
OffsetSpec = Union[str, Dict[str, Dict[int, int]]]

# Options that are Spark's but make no sense here (JVM deserializers, the JVM consumer's own
# offset management): refused with a reason rather than silently ignored.
_REFUSED = {
    "kafka.key.serializer": "keys are written as given (binary or string columns), or with keyFormat=avro, "
                            "json or protobuf",
    "kafka.value.serializer": "values are written as given (binary or string columns), or with valueFormat=avro, "
                              "json or protobuf",
    "kafka.key.deserializer": "keys are read as binary, or decoded with keyFormat=avro, json or protobuf",
    "kafka.value.deserializer": "values are read as binary, or decoded with valueFormat=avro, json or protobuf",
    "kafka.enable.auto.commit": "the source never commits offsets; Spark tracks them",
    "kafka.auto.offset.reset": "use startingOffsets instead",
}

# Where a batch read ends: Spark refuses these for streaming reads, and so does this source.
_ENDING_OPTIONS = ("endingOffsets", "endingTimestamp", "endingOffsetsByTimestamp")

# Options of reads only, refused for writes.
_READ_ONLY = ("subscribe", "subscribePattern", "assign", "startingOffsets", "startingTimestamp",
              "startingOffsetsByTimestamp", "startingOffsetsByTimestampStrategy") + _ENDING_OPTIONS

#: Seconds the planning of a read waits for the brokers unless a ``kafka.*`` timeout says.
DEFAULT_METADATA_TIMEOUT = 30.0

# librdkafka keys set by the writer itself.
_PRODUCER_FIXED: Dict[str, Any] = {"delivery.report.only.error": True}


def _lower(options: Mapping[str, Any]) -> Dict[str, str]:
    out: Dict[str, str] = {}
    for k, v in options.items():
        if v is None:
            continue
        out[str(k).lower()] = v if isinstance(v, str) else json.dumps(v) if isinstance(v, (dict, list)) else str(v)
    return out


def client_conf(options: Mapping[str, str]) -> Dict[str, str]:
    """The ``kafka.*`` options with the prefix removed: the librdkafka configuration."""
    conf: Dict[str, str] = {}
    for key, value in options.items():
        if not key.startswith("kafka."):
            continue
        if key in _REFUSED:
            raise ValueError(f"option {key!r} is not supported: {_REFUSED[key]}")
        conf[key[len("kafka."):]] = value
    # Cached clients sit idle between tasks and brokers close idle connections: not worth a log line.
    conf.setdefault("log.connection.close", "false")
    if not conf.get("bootstrap.servers"):
        raise ValueError("option 'kafka.bootstrap.servers' must be set")
    return conf


def _metadata_timeout(conf: Dict[str, str]) -> float:
    """Seconds the planning of a read waits for the brokers: ``kafka.default.api.timeout.ms``
    (the Java client's name, taken out of ``conf``: librdkafka has no such key), else
    ``kafka.socket.timeout.ms``, else :data:`DEFAULT_METADATA_TIMEOUT`."""
    for key in ("default.api.timeout.ms", "socket.timeout.ms"):
        raw = conf.pop(key, None) if key == "default.api.timeout.ms" else conf.get(key)
        if raw is None:
            continue
        try:
            value = int(raw)
        except ValueError:
            raise ValueError(f"option 'kafka.{key}' must be an integer, not {raw!r}") from None
        if value <= 0:
            raise ValueError(f"option 'kafka.{key}' must be positive, not {value}")
        return value / 1000.0
    return DEFAULT_METADATA_TIMEOUT


def _bool(options: Mapping[str, str], name: str, default: bool) -> bool:
    raw = options.get(name.lower())
    if raw is None:
        return default
    if raw.strip().lower() in ("true", "1", "yes"):
        return True
    if raw.strip().lower() in ("false", "0", "no"):
        return False
    raise ValueError(f"option {name!r} must be true or false, not {raw!r}")


def _positive_int(options: Mapping[str, str], name: str) -> Optional[int]:
    raw = options.get(name.lower())
    if raw is None:
        return None
    try:
        value = int(raw)
    except ValueError:
        raise ValueError(f"option {name!r} must be an integer, not {raw!r}") from None
    if value <= 0:
        raise ValueError(f"option {name!r} must be positive, not {value}")
    return value


def _offsets(options: Mapping[str, str], name: str, default: str, allowed: Tuple[str, ...],
             allowed_numbers: Tuple[int, ...]) -> OffsetSpec:
    raw = options.get(name.lower())
    if raw is None:
        return default
    word = raw.strip().lower()
    if word in ("earliest", "latest"):
        if word not in allowed:
            raise ValueError(f"option {name!r} cannot be {word!r} here (allowed: {', '.join(allowed)}, or JSON)")
        return word
    try:
        parsed = json.loads(raw)
    except ValueError:
        raise ValueError(f"option {name!r} must be {' or '.join(allowed)} or JSON like "
                         f'{{"topic": {{"0": 42}}}}, not {raw!r}') from None

    def offset(off: object, topic: str, p: int) -> int:
        if not isinstance(off, int) or isinstance(off, bool) or (off < 0 and off not in allowed_numbers):
            raise ValueError(f"option {name!r}: offset {off!r} of {topic}[{p}] is not valid here "
                             f"(a non-negative offset, or {' / '.join(map(str, allowed_numbers))})")
        return off

    return partition_values(parsed, name, "offsets", offset)


@dataclass(frozen=True)
class Subscription:
    """Which topics and partitions a read covers (exactly one of the three forms)."""

    topics: Optional[Tuple[str, ...]] = None
    pattern: Optional[str] = None
    assign: Optional[Dict[str, Tuple[int, ...]]] = None

    @classmethod
    def parse(cls, options: Mapping[str, str]) -> "Subscription":
        """The one of ``subscribe`` / ``subscribePattern`` / ``assign`` that is set."""
        given = [k for k in ("subscribe", "subscribepattern", "assign") if options.get(k)]
        if len(given) != 1:
            raise ValueError("exactly one of the options 'subscribe', 'subscribePattern' and 'assign' must be set"
                             + (f" (got {', '.join(given)})" if given else ""))
        if given[0] == "subscribe":
            topics = tuple(t.strip() for t in options["subscribe"].split(",") if t.strip())
            if not topics:
                raise ValueError("option 'subscribe' names no topic")
            return cls(topics=topics)
        if given[0] == "subscribepattern":
            try:
                re.compile(options["subscribepattern"])
            except re.error as exc:
                raise ValueError(f"option 'subscribePattern' is not a valid regular expression: {exc}") from None
            return cls(pattern=options["subscribepattern"])
        raw = options["assign"]
        try:
            parsed = json.loads(raw)
        except ValueError:
            parsed = None
        if not isinstance(parsed, dict) or not all(
                isinstance(v, list) and all(isinstance(p, int) and not isinstance(p, bool) and p >= 0 for p in v)
                for v in parsed.values()):
            raise ValueError(f'option \'assign\' must be JSON like {{"topic": [0, 1]}}, not {raw!r}')
        return cls(assign={t: tuple(v) for t, v in parsed.items()})

    def named_topics(self) -> Optional[List[str]]:
        """The topics ``subscribe`` or ``assign`` name; None for ``subscribePattern``."""
        if self.topics is not None:
            return list(self.topics)
        if self.assign is not None:
            return sorted(self.assign)
        return None


@dataclass(frozen=True)
class ReadOptions:
    """Everything a batch or streaming read needs, checked."""

    conf: Dict[str, str]
    subscription: Subscription
    starting: OffsetSpec
    ending: OffsetSpec
    min_partitions: Optional[int]
    max_offsets_per_trigger: Optional[int]
    include_headers: bool
    fail_on_data_loss: bool
    poll_timeout: float
    timestamps: TimestampBounds = field(default_factory=TimestampBounds)
    group_id: str = field(default_factory=lambda: f"spark-kafka-source-{uuid.uuid4().hex}")
    #: Schema Registry decoding of the key and value (valueFormat / keyFormat avro), if any.
    registry: Optional[RegistryOptions] = None
    #: The reader schemas of the decoded columns, fixed where the query was planned.
    schemas: Optional[Dict[str, ResolvedSchema]] = None
    #: Seconds to wait for metadata and offsets while a read is planned.
    metadata_timeout: float = DEFAULT_METADATA_TIMEOUT

    @classmethod
    def parse(cls, options: Mapping[str, Any], streaming: Optional[bool]) -> "ReadOptions":
        """Check the options of ``spark.read`` (``streaming=False``) or ``spark.readStream``
        (``True``); with None (at ``load()``, where either may follow) everything but what
        depends on that."""
        o = _lower(options)
        if "topic" in o:
            raise ValueError("option 'topic' is for writing; reads take 'subscribe', 'subscribePattern' or 'assign'")
        conf = client_conf(o)
        metadata_timeout = _metadata_timeout(conf)
        if streaming is None:
            starting = _offsets(o, "startingOffsets", "latest", ("earliest", "latest"), (EARLIEST, LATEST))
            ending: OffsetSpec = _offsets(o, "endingOffsets", "latest", ("latest",), (LATEST,))
        elif streaming:
            for name in _ENDING_OPTIONS:
                if name.lower() in o:
                    raise ValueError(f"option {name!r} is for batch reads only")
            starting = _offsets(o, "startingOffsets", "latest", ("earliest", "latest"), (EARLIEST, LATEST))
            ending = "latest"
        else:
            starting = _offsets(o, "startingOffsets", "earliest", ("earliest",), (EARLIEST,))
            ending = _offsets(o, "endingOffsets", "latest", ("latest",), (LATEST,))
        # Timestamps take precedence over startingOffsets / endingOffsets (see _timestamps).
        timestamps = TimestampBounds(starting=parse_timestamps(o, "starting"),
                                     ending=None if streaming else parse_timestamps(o, "ending"),
                                     strategy=parse_strategy(o))
        timeout_ms = _positive_int(o, "kafkaConsumer.pollTimeoutMs")
        group = conf.pop("group.id", None)
        return cls(conf=conf, subscription=Subscription.parse(o), starting=starting, ending=ending,
                   min_partitions=_positive_int(o, "minPartitions"),
                   max_offsets_per_trigger=_positive_int(o, "maxOffsetsPerTrigger"),
                   include_headers=_bool(o, "includeHeaders", False),
                   fail_on_data_loss=_bool(o, "failOnDataLoss", True),
                   poll_timeout=(timeout_ms or 120_000) / 1000.0, timestamps=timestamps,
                   registry=parse_registry_options(o, read=True),
                   group_id=group or f"spark-kafka-source-{uuid.uuid4().hex}",
                   metadata_timeout=metadata_timeout)

    def with_schemas(self, schemas: Optional[Dict[str, ResolvedSchema]] = None) -> "ReadOptions":
        """These options with the reader schemas of the decoded columns: ``schemas`` when given
        (looked up earlier in the planning), else looked up in the registry now."""
        if self.registry is None:
            return self
        if schemas is None:
            schemas = resolve_read(self.registry, self.subscription.named_topics())
        return dataclasses.replace(self, schemas=schemas)

    def consumer_conf(self) -> Dict[str, str]:
        """Configuration of the consumers that read offset ranges (assign only, no commits)."""
        conf = dict(self.conf)
        conf.update({
            "group.id": self.group_id,
            "enable.auto.commit": "false",
            "enable.auto.offset.store": "false",
            # An offset that is gone (retention) is data loss: fail, or skip to the earliest.
            "auto.offset.reset": "error" if self.fail_on_data_loss else "earliest",
        })
        return conf


@dataclass(frozen=True)
class WriteOptions:
    """Everything a batch or streaming write needs, checked."""

    conf: Dict[str, str]
    topic: Optional[str]
    transactional_id_prefix: Optional[str]
    flush_timeout: float
    #: Schema Registry encoding of the key and value (valueFormat / keyFormat avro), if any.
    registry: Optional[RegistryOptions] = None
    #: The writer schemas of the encoded columns, fixed on the driver.
    schemas: Optional[Dict[str, ResolvedSchema]] = None
    #: The Spark types of the encoded columns.
    column_types: Optional[Dict[str, Any]] = None

    @classmethod
    def parse(cls, options: Mapping[str, Any]) -> "WriteOptions":
        """Check the options of ``df.write`` / ``df.writeStream`` (or of :func:`write`)."""
        o = _lower(options)
        for name in _READ_ONLY:
            if name.lower() in o:
                raise ValueError(f"option {name!r} is for reading, not writing")
        conf = client_conf(o)
        conf.pop("default.api.timeout.ms", None)  # the Java consumer's; a producer has no use for it
        if "transactional.id" in conf:
            raise ValueError("set 'transactionalIdPrefix' instead of 'kafka.transactional.id': "
                             "each task needs its own transactional id")
        prefix = o.get("transactionalidprefix") or None
        if prefix is not None:
            conf["enable.idempotence"] = "true"
        conf.update(_PRODUCER_FIXED)
        timeout_ms = _positive_int(o, "flushTimeoutMs")
        if timeout_ms is None:
            # Long enough for every message to get its final delivery report.
            delivery = conf.get("message.timeout.ms") or conf.get("delivery.timeout.ms") or "300000"
            try:
                timeout_ms = int(delivery) + 30_000
            except ValueError:
                raise ValueError(f"option 'kafka.message.timeout.ms' must be an integer, not {delivery!r}") from None
        topic = o.get("topic") or None
        return cls(conf=conf, topic=topic, transactional_id_prefix=prefix, flush_timeout=timeout_ms / 1000.0,
                   registry=parse_registry_options(o, read=False))

    def encoded_columns(self) -> Tuple[str, ...]:
        """The columns this write encodes with the registry (``key``, ``value``)."""
        return tuple(f.field for f in self.registry.fields()) if self.registry is not None else ()

    def with_schemas(self, column_types: Dict[str, Any]) -> "WriteOptions":
        """These options with the writer schemas of the encoded columns, looked up (or
        registered) now; ``column_types`` are the Spark types of the DataFrame's columns by
        lower-cased name.

        :raises ValueError: when a column does not fit its schema.
        """
        if self.registry is None:
            return self
        from ._codecs import check_writable

        types = {name: column_types[name] for name in self.encoded_columns() if name in column_types}
        schemas = resolve_write(self.registry, self.topic, types)
        for name, resolved in schemas.items():
            check_writable(resolved, types[name])
        return dataclasses.replace(self, schemas=schemas, column_types=types)

