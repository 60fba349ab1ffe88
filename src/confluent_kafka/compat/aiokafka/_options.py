"""The aiokafka options of the facade's clients and the librdkafka properties they become.

:data:`PRODUCER` and :data:`CONSUMER` list every keyword argument of aiokafka 0.14's
``AIOKafkaProducer`` / ``AIOKafkaConsumer`` once, as an :class:`Option`:

* ``kind == "property"``: passed to librdkafka as ``prop`` (converted by ``convert``);
* ``kind == "facade"``: done by the facade in Python (serializers, a custom partitioner, ...);
* ``kind == "none"``: no equivalent. The default value is accepted; any other raises
  :class:`UnsupportedOption` naming the option and the reason (``note``). Never silently ignored.

docs/aiokafka.md shows the same table; a test checks that the two agree.
"""
from __future__ import annotations

import math
import warnings
from typing import Any, Callable, Dict, NamedTuple, Optional, Tuple, Union

from .. import _bounds
from .errors import KafkaConfigurationError

__all__ = ["CONSUMER", "PRODUCER", "Option", "UnsupportedOption", "to_librdkafka"]


class UnsupportedOption(KafkaConfigurationError, ValueError):
    """An aiokafka option that has no equivalent in librdkafka was given a non-default value."""


class Option(NamedTuple):
    """One aiokafka keyword argument and what the facade does with it."""

    name: str
    kind: str  # "property", "facade" or "none"
    prop: Optional[str]  # the librdkafka property (kind "property")
    note: str
    convert: Optional[Callable[[Any], Any]] = None


def _ms(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"expected a number of milliseconds, got {value!r}")
    if value < 0:
        raise ValueError(f"expected a non-negative number of milliseconds, got {value!r}")
    return int(value)


def _millis(value: Any) -> Union[int, float]:
    """A time in ms as aiokafka takes it: any number (whole ms; an infinite one is kept for the
    clamp to librdkafka's range, which also takes a negative one to its least)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"expected a number of milliseconds, got {value!r}")
    if math.isnan(value):
        raise ValueError(f"expected a number of milliseconds, got {value!r}")
    return value if math.isinf(value) else int(value)


def _count(value: Any) -> int:
    """A size as aiokafka takes it: any int (clamped to librdkafka's range afterwards)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected an int, got {value!r}")
    count: int = value  # an int, as checked (mypy before 2.0 does not narrow Any by that check)
    return count


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"expected True or False, got {value!r}")
    return value


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected a str, got {value!r}")
    return value


def _servers(value: Any) -> str:
    if isinstance(value, str):
        servers = [value]
    elif isinstance(value, (list, tuple)) and value and all(isinstance(s, str) for s in value):
        servers = list(value)
    else:
        raise TypeError(f"bootstrap_servers must be a str or a list of str, got {value!r}")
    return ",".join(servers)


def _one_of(*allowed: str) -> Callable[[Any], str]:
    def check(value: Any) -> str:
        if value not in allowed:
            raise ValueError(f"expected one of {', '.join(map(repr, allowed))}, got {value!r}")
        return str(value)
    return check


def _compression(value: Any) -> str:
    if value not in ("gzip", "snappy", "lz4", "zstd"):
        raise ValueError("Invalid compression type!")
    return str(value)


def _offset_reset(value: Any) -> str:
    if value not in ("earliest", "latest", "none"):
        raise ValueError(f"auto_offset_reset must be 'earliest', 'latest' or 'none', got {value!r}")
    return "error" if value == "none" else str(value)


def _protocol(value: Any) -> str:
    allowed = ("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL")
    if value not in allowed:
        raise ValueError(f"security_protocol must be one of {', '.join(allowed)}, got {value!r}")
    return str(value).lower()


def _mechanism(value: Any) -> str:
    allowed = ("PLAIN", "GSSAPI", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER")
    if value not in allowed:
        raise ValueError(f"sasl_mechanism must be one of {', '.join(allowed)}, got {value!r}")
    return str(value)


def _assignors(value: Any) -> str:
    names = {"RoundRobinPartitionAssignor": "roundrobin", "RangePartitionAssignor": "range",
             "roundrobin": "roundrobin", "range": "range"}
    items = value if isinstance(value, (list, tuple)) else (value,)
    found = []
    for item in items:
        name = item if isinstance(item, str) else getattr(item, "__name__", type(item).__name__)
        if name == "StickyPartitionAssignor":
            raise UnsupportedOption(
                "partition_assignment_strategy StickyPartitionAssignor: librdkafka has no eager sticky "
                "assignor (its cooperative-sticky tells a rebalance listener only of the partitions that "
                "move); use RangePartitionAssignor or RoundRobinPartitionAssignor")
        if name not in names:
            raise UnsupportedOption(
                f"partition_assignment_strategy {name}: librdkafka assigns with 'range' or 'roundrobin' "
                f"(RangePartitionAssignor, RoundRobinPartitionAssignor); it cannot run a Python assignor")
        found.append(names[name])
    if not found:
        raise ValueError("partition_assignment_strategy is empty")
    return ",".join(found)


def _bounded(name: str, prop: str, convert: Callable[[Any], Any], note: str = "") -> Option:
    """A numeric option passed on as ``prop``: :func:`to_librdkafka` clamps its value to
    librdkafka's range, which the note gives first."""
    return Option(name, "property", prop, _bounds.describe(prop) + (f"; {note}" if note else ""), convert)


_COMMON: Tuple[Option, ...] = (
    Option("loop", "facade", None, "deprecated in aiokafka; accepted with a DeprecationWarning, the "
           "client uses the running loop"),
    Option("bootstrap_servers", "property", "bootstrap.servers", "a list is joined with commas", _servers),
    Option("client_id", "property", "client.id", "", _text),
    _bounded("metadata_max_age_ms", "metadata.max.age.ms", _millis),
    _bounded("retry_backoff_ms", "retry.backoff.ms", _millis),
    Option("api_version", "facade", None, "a no-op in aiokafka 0.14 too (deprecated, with a warning); "
           "librdkafka asks the broker which versions it supports"),
    Option("security_protocol", "property", "security.protocol", "", _protocol),
    Option("ssl_context", "facade", None, "a context from this facade's helpers.create_ssl_context() becomes "
           "ssl.ca.location / ssl.certificate.location / ssl.key.location / ssl.key.password; any "
           "other SSLContext is refused (librdkafka makes its own TLS connections from files)"),
    _bounded("connections_max_idle_ms", "connections.max.idle.ms", _millis),
    Option("sasl_mechanism", "property", "sasl.mechanism", "set when security_protocol is SASL_*", _mechanism),
    Option("sasl_plain_username", "property", "sasl.username", "", _text),
    Option("sasl_plain_password", "property", "sasl.password", "", _text),
    Option("sasl_kerberos_service_name", "property", "sasl.kerberos.service.name",
           "set when sasl_mechanism is GSSAPI", _text),
    Option("sasl_kerberos_domain_name", "none", None, "librdkafka names the Kerberos principal after the "
           "broker's host name; it has no setting for another domain"),
    Option("sasl_oauth_token_provider", "none", None, "librdkafka's OAUTHBEARER token refresh calls a plain "
           "function from its own poll, not an asyncio coroutine; use confluent_kafka's oauth_cb"),
)

PRODUCER: Tuple[Option, ...] = _COMMON + (
    _bounded("request_timeout_ms", "request.timeout.ms", _millis),
    Option("acks", "property", "acks", "0, 1 or 'all' (-1); default 1, or 'all' with idempotence"),
    Option("key_serializer", "facade", None, "called on each key before it is sent"),
    Option("value_serializer", "facade", None, "called on each value before it is sent"),
    Option("compression_type", "property", "compression.type", "gzip, snappy, lz4, zstd or None", _compression),
    _bounded("max_batch_size", "batch.size", _count, "aiokafka's default, 16384, leaves librdkafka's "
             "1000000: librdkafka sends one partition per request where aiokafka sends a batch of each, so "
             "its batches must be larger to carry as much per round trip; create_batch() holds 16384"),
    Option("partitioner", "facade", None, "the default, or any plain DefaultPartitioner() (Java's murmur2), is "
           "librdkafka's murmur2_random, which keeps records without a key on one partition for 10 ms (or "
           "twice linger_ms) where aiokafka picks one at random for each; another partitioner(key, "
           "all_partitions, available) runs in Python before each send"),
    _bounded("max_request_size", "message.max.bytes", _count, "send() refuses a larger record by the value "
             "given, as aiokafka does"),
    _bounded("linger_ms", "linger.ms", _millis, "with max.in.flight.requests.per.connection 5: the next "
             "batches fill while requests are in flight, as aiokafka's do while its one request is out; "
             "from 300000 (librdkafka's delivery.timeout.ms) on, delivery.timeout.ms becomes linger_ms + "
             "request_timeout_ms, as librdkafka needs it longer than linger.ms"),
    Option("enable_idempotence", "property", "enable.idempotence", "also keeps the order of records across "
           "retried requests (librdkafka keeps up to five in flight in order)", _flag),
    Option("transactional_id", "property", "transactional.id", "also turns on idempotence, as in aiokafka",
           _text),
    _bounded("transaction_timeout_ms", "transaction.timeout.ms", _millis, "set with transactional_id"),
)

CONSUMER: Tuple[Option, ...] = _COMMON + (
    Option("group_id", "property", "group.id", "None: no group (no commits); the facade assigns every "
           "partition of the given topics itself, as aiokafka does", _text),
    Option("group_instance_id", "property", "group.instance.id", "", _text),
    Option("key_deserializer", "facade", None, "called on each record's key"),
    Option("value_deserializer", "facade", None, "called on each record's value"),
    _bounded("fetch_max_wait_ms", "fetch.wait.max.ms", _millis),
    _bounded("fetch_max_bytes", "fetch.max.bytes", _count, "at least 1000000 (message.max.bytes, which "
             "librdkafka requires); the broker sends at least one batch whatever the limit"),
    _bounded("fetch_min_bytes", "fetch.min.bytes", _count),
    _bounded("max_partition_fetch_bytes", "max.partition.fetch.bytes", _count),
    _bounded("request_timeout_ms", "socket.timeout.ms", _millis, "librdkafka's timeout of a network request"),
    Option("auto_offset_reset", "property", "auto.offset.reset", "'none' is librdkafka's 'error' "
           "(getone()/getmany() raise OffsetOutOfRangeError)", _offset_reset),
    Option("enable_auto_commit", "property", "enable.auto.commit", "", _flag),
    _bounded("auto_commit_interval_ms", "auto.commit.interval.ms", _millis),
    Option("check_crcs", "property", "check.crcs", "", _flag),
    Option("partition_assignment_strategy", "property", "partition.assignment.strategy",
           "RangePartitionAssignor is 'range', RoundRobinPartitionAssignor 'roundrobin'; others are refused",
           _assignors),
    _bounded("max_poll_interval_ms", "max.poll.interval.ms", _millis, "at least session_timeout_ms, which "
             "librdkafka requires"),
    Option("rebalance_timeout_ms", "none", None, "librdkafka uses max.poll.interval.ms as the rebalance "
           "timeout; set max_poll_interval_ms"),
    _bounded("session_timeout_ms", "session.timeout.ms", _millis),
    _bounded("heartbeat_interval_ms", "heartbeat.interval.ms", _millis),
    Option("consumer_timeout_ms", "none", None, "how long aiokafka's background fetch task waits for data; "
           "librdkafka fetches in its own threads, fetch_max_wait_ms bounds the broker's wait"),
    Option("max_poll_records", "facade", None, "the number of records getmany() returns when it is not "
           "given max_records"),
    Option("exclude_internal_topics", "facade", None, "topics() leaves out names starting with '__'; "
                                                       "librdkafka never matches internal topics by pattern"),
    Option("isolation_level", "property", "isolation.level", "",
           _one_of("read_uncommitted", "read_committed")),
    Option("client_rack", "property", "client.rack", "", _text),
)


# AIOKafkaAdminClient takes the options every client shares and a request timeout; the admin
# client's calls get their timeouts one by one, so the timeout is the facade's to pass on.
ADMIN: Tuple[Option, ...] = _COMMON + (
    Option("request_timeout_ms", "facade", None, "each call's request_timeout, and the broker's timeout of a "
           "create, delete or partition call made without timeout_ms (as in aiokafka)"),
)


def to_librdkafka(options: Tuple[Option, ...], values: Dict[str, Any], defaults: Dict[str, Any],
                  client: str) -> Dict[str, Any]:
    """librdkafka properties for the ``kind == "property"`` options.

    Every such option is set, its aiokafka default included, so that a facade client behaves as
    aiokafka's does (librdkafka's own defaults differ: linger.ms, batch.size, session.timeout.ms,
    isolation.level, ...), and Nagle's algorithm is off, as on asyncio's connections. None
    leaves the property to librdkafka. A number outside librdkafka's range of its property
    becomes the nearest end of the range, and properties librdkafka checks against one another
    are settled (:mod:`.._bounds`). An option of kind ``"none"``
    with a value other than its default raises.

    :param options: :data:`PRODUCER` or :data:`CONSUMER`.
    :param values: the constructor's keyword values (defaults filled in), by aiokafka name.
    :param defaults: the constructor's defaults, by aiokafka name.
    :param client: the class name, for error messages.
    :returns: the librdkafka configuration dict.
    :raises UnsupportedOption: for an option without an equivalent set to a non-default value.
    :raises TypeError: for a value of the wrong type.
    :raises ValueError: for a value out of range.
    """
    # asyncio turns Nagle's algorithm off on every TCP connection it makes (TCP_NODELAY), so
    # aiokafka's requests leave at once; librdkafka's connections keep it on unless told.
    conf: Dict[str, Any] = {"socket.nagle.disable": True}
    for opt in options:
        value = values.get(opt.name)
        if opt.kind == "none":
            default = defaults.get(opt.name)
            if not (value is default or (type(value) is type(default) and value == default)):
                raise UnsupportedOption(
                    f"{client}({opt.name}={value!r}): no equivalent in librdkafka: {opt.note}")
            continue
        if value is None or opt.kind != "property" or opt.convert is None:
            continue
        try:
            conf[opt.prop] = _bounds.clamp(opt.prop, opt.convert(value))  # type: ignore[arg-type,index]
        except UnsupportedOption:
            raise
        except (TypeError, ValueError) as e:
            raise type(e)(f"{client}({opt.name}=...): {e}") from None
    _bounds.fit(conf, consumer=options is CONSUMER)
    return conf


def arguments(given: Dict[str, Any], *positional: str) -> Dict[str, Any]:
    """A constructor's keyword arguments, from its ``locals()``; warns as aiokafka does when
    ``loop`` or ``api_version`` is given.

    :param given: the constructor's ``locals()``.
    :param positional: names of its other arguments, left out (``self`` always is).
    :returns: ``{option: value}``.
    """
    values = {name: value for name, value in given.items() if name != "self" and name not in positional}
    for name in ("loop", "api_version"):
        if values.get(name) is not None:
            warnings.warn(f"The `{name}` parameter is deprecated in aiokafka and has no effect here.",
                          DeprecationWarning, stacklevel=3)
    return values
