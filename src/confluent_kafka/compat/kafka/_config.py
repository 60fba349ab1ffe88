"""The option table: every kafka-python option of KafkaConsumer, KafkaProducer and KafkaAdminClient,
with its documented default and what the facade does with it.

Each :class:`Option` is one of three kinds:

* ``librdkafka``: passed on as the librdkafka property ``target`` (converted where the value
  format differs). Options left out keep librdkafka's default, except :data:`OBSERVED_DEFAULTS`.
* ``facade``: handled by the facade's Python code (serializers, iteration timeout, ...);
  ``target`` says how.
* ``none``: no librdkafka equivalent. The kafka-python default is accepted (it changes nothing);
  any other value raises :class:`~confluent_kafka.compat.kafka.errors.KafkaConfigurationError`
  naming the option; ``target`` gives the reason.

docs/kafka_python.md prints this table; tests/facades/test_kafka_config.py checks the two agree.
"""
from __future__ import annotations

import math
import socket
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Tuple

from confluent_kafka.compat import _bounds
from confluent_kafka.compat.kafka.coordinator.assignors.range import RangePartitionAssignor
from confluent_kafka.compat.kafka.coordinator.assignors.roundrobin import RoundRobinPartitionAssignor
from confluent_kafka.compat.kafka.errors import KafkaConfigurationError
from confluent_kafka.compat.kafka.partitioner import DefaultPartitioner

__all__ = ["Option", "OPTIONS", "DEFAULTS", "OBSERVED_DEFAULTS", "option", "translate", "markdown_table",
           "version_tuple", "CONSUMER", "PRODUCER", "ADMIN"]

CONSUMER, PRODUCER, ADMIN = "consumer", "producer", "admin"

#: kafka-python's version this facade follows (its API, names and defaults).
KAFKA_PYTHON_VERSION = "3.0.12"


class _Named:
    """A placeholder default that prints as kafka-python's own default object."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


DEFAULT_SELECTOR = _Named("selectors.DefaultSelector")
DEFAULT_CLIENT = _Named("KafkaNetClient")
DEFAULT_PARTITIONER = DefaultPartitioner()
DEFAULT_ASSIGNORS = (RangePartitionAssignor, RoundRobinPartitionAssignor)
DEFAULT_SOCKET_OPTIONS = [(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)]


def _default_commit_callback(offsets: Any, response: Any) -> bool:
    return True


class Option(NamedTuple):
    """One kafka-python option for one kind of client."""

    name: str
    client: str
    default: Any
    kind: str          # "librdkafka" | "facade" | "none"
    target: str        # librdkafka property, or how the facade handles it, or why there is none
    convert: Optional[Callable[[Any], Any]] = None


# ---- value conversions ---------------------------------------------------------------------

def _servers(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return ",".join(value)
    raise KafkaConfigurationError(f"bootstrap_servers must be a str or a list of str, not {value!r}")


def _offset_reset(value: Any) -> str:
    mapped = {"earliest": "earliest", "smallest": "earliest", "latest": "latest",
              "largest": "latest", "none": "error"}.get(value)
    if mapped is None:
        raise KafkaConfigurationError(f"auto_offset_reset must be 'earliest', 'latest' or 'none', not {value!r}")
    return mapped


def _acks(value: Any) -> str:
    if value in ("all", -1, "-1"):
        return "all"
    if value in (0, 1, "0", "1"):
        return str(value)
    raise KafkaConfigurationError(f"acks must be 0, 1, -1 or 'all', not {value!r}")


def _compression(value: Any) -> str:
    if value is None:
        return "none"
    if value in ("gzip", "snappy", "lz4", "zstd"):
        return str(value)
    raise KafkaConfigurationError(f"compression_type must be None, 'gzip', 'snappy', 'lz4' or 'zstd', not {value!r}")


def _hostname_check(value: Any) -> str:
    return "https" if value else "none"


def _isolation(value: Any) -> str:
    if value not in ("read_uncommitted", "read_committed"):
        raise KafkaConfigurationError(f"isolation_level must be 'read_uncommitted' or 'read_committed', not {value!r}")
    return str(value)


def _dns_lookup(value: Any) -> str:
    if value not in ("use_all_dns_ips", "resolve_canonical_bootstrap_servers_only"):
        raise KafkaConfigurationError(f"client_dns_lookup has no librdkafka equivalent for {value!r}")
    return str(value)


def version_tuple(value: Any) -> Tuple[int, ...]:
    """``api_version`` as a tuple of ints: (2, 8, 0) or "2.8.0"."""
    if isinstance(value, str):
        value = tuple(int(p) for p in value.split("."))
    if not isinstance(value, tuple) or not all(isinstance(p, int) for p in value):
        raise KafkaConfigurationError(f"api_version must be a tuple of ints such as (2, 8, 0), not {value!r}")
    return value


def _api_version(value: Any) -> str:
    return ".".join(str(p) for p in version_tuple(value))


def _nagle(value: Any) -> bool:
    nodelay = [o for o in value or () if tuple(o[:2]) == (socket.IPPROTO_TCP, socket.TCP_NODELAY)]
    if len(nodelay) != len(list(value or ())):
        raise KafkaConfigurationError(
            f"socket_options={value!r}: only (IPPROTO_TCP, TCP_NODELAY, x) maps to librdkafka "
            "(socket.nagle.disable); other socket options have no equivalent")
    return bool(nodelay and nodelay[-1][2])


def _assignors(value: Any) -> str:
    names: List[str] = []
    for assignor in value if isinstance(value, (list, tuple)) else (value,):
        name = getattr(assignor, "name", assignor)
        if name not in ("range", "roundrobin", "cooperative-sticky"):
            raise KafkaConfigurationError(
                f"partition_assignment_strategy: {assignor!r} has no librdkafka equivalent "
                "(librdkafka offers range, roundrobin and cooperative-sticky, not eager sticky or custom assignors)")
        names.append(str(name))
    if "cooperative-sticky" in names and len(set(names)) > 1:
        # kafka-python's words: a consumer must know before joining whether a rebalance is eager
        raise KafkaConfigurationError(
            f"Specified partition_assignment_strategy assignors {names} do not support a common "
            "RebalanceProtocol. Mixing EAGER and COOPERATIVE assignors in a single consumer is not supported.")
    return ",".join(names)


def is_cooperative(conf: Dict[str, Any]) -> bool:
    """:returns: whether the librdkafka properties ``conf`` make rebalances cooperative."""
    return conf.get("partition.assignment.strategy") == "cooperative-sticky"


# ---- the table -----------------------------------------------------------------------------

_C, _P, _A = CONSUMER, PRODUCER, ADMIN
_ALL = (_C, _P, _A)


def _rows(clients: Tuple[str, ...], name: str, default: Any, kind: str, target: str,
          convert: Optional[Callable[[Any], Any]] = None) -> List[Option]:
    return [Option(name, c, default, kind, target, convert) for c in clients]


_NO_SELECTOR = "librdkafka does its own network I/O in its own threads"
_TABLE: List[Option] = [
    *_rows(_ALL, "bootstrap_servers", "localhost", "librdkafka", "bootstrap.servers", _servers),
    *_rows((_C, _A), "client_id", f"kafka-python-{KAFKA_PYTHON_VERSION}", "librdkafka", "client.id"),
    *_rows((_P,), "client_id", None, "librdkafka", "client.id"),
    *_rows((_C,), "client_rack", "", "librdkafka", "client.rack"),
    *_rows((_C,), "group_id", None, "librdkafka", "group.id"),
    *_rows((_C,), "group_instance_id", None, "librdkafka", "group.instance.id"),
    *_rows((_C,), "key_deserializer", None, "facade", "applied to each record's key in poll() and iteration"),
    *_rows((_C,), "value_deserializer", None, "facade", "applied to each record's value in poll() and iteration"),
    *_rows((_P,), "key_serializer", None, "facade", "applied to the key in send()"),
    *_rows((_P,), "value_serializer", None, "facade", "applied to the value in send()"),
    *_rows((_C,), "enable_incremental_fetch_sessions", True, "none",
           "librdkafka has no switch for fetch sessions"),
    *_rows((_C,), "fetch_max_wait_ms", 500, "librdkafka", "fetch.wait.max.ms"),
    *_rows((_C,), "fetch_min_bytes", 1, "librdkafka", "fetch.min.bytes"),
    *_rows((_C,), "fetch_max_bytes", 52428800, "librdkafka", "fetch.max.bytes"),
    *_rows((_C,), "max_partition_fetch_bytes", 1048576, "librdkafka", "max.partition.fetch.bytes"),
    *_rows((_C, _A), "request_timeout_ms", 30000, "librdkafka", "socket.timeout.ms"),
    *_rows((_P,), "request_timeout_ms", 30000, "librdkafka", "request.timeout.ms"),
    *_rows(_ALL, "retry_backoff_ms", 100, "librdkafka", "retry.backoff.ms"),
    *_rows(_ALL, "reconnect_backoff_ms", 50, "librdkafka", "reconnect.backoff.ms"),
    *_rows(_ALL, "reconnect_backoff_max_ms", 30000, "librdkafka", "reconnect.backoff.max.ms"),
    *_rows(_ALL, "max_in_flight_requests_per_connection", 5, "librdkafka",
           "max.in.flight.requests.per.connection"),
    *_rows((_C,), "auto_offset_reset", "latest", "librdkafka", "auto.offset.reset", _offset_reset),
    *_rows((_C,), "enable_auto_commit", True, "librdkafka", "enable.auto.commit"),
    *_rows((_C,), "auto_commit_interval_ms", 5000, "librdkafka", "auto.commit.interval.ms"),
    *_rows((_C,), "default_offset_commit_callback", _default_commit_callback, "facade",
           "called as callback(offsets, response) by commit_async() without a callback"),
    *_rows((_C,), "check_crcs", True, "librdkafka", "check.crcs"),
    *_rows((_C,), "isolation_level", "read_uncommitted", "librdkafka", "isolation.level", _isolation),
    *_rows((_C, _P), "allow_auto_create_topics", True, "librdkafka", "allow.auto.create.topics"),
    *_rows(_ALL, "metadata_max_age_ms", 300000, "librdkafka", "metadata.max.age.ms"),
    *_rows(_ALL, "client_dns_lookup", "use_all_dns_ips", "librdkafka", "client.dns.lookup", _dns_lookup),
    *_rows((_C,), "partition_assignment_strategy", DEFAULT_ASSIGNORS, "librdkafka",
           "partition.assignment.strategy", _assignors),
    *_rows((_C,), "max_poll_records", 500, "facade", "the most records one poll() returns"),
    *_rows((_C,), "max_poll_interval_ms", 300000, "librdkafka", "max.poll.interval.ms"),
    *_rows((_C,), "session_timeout_ms", 45000, "librdkafka", "session.timeout.ms"),
    *_rows((_C,), "heartbeat_interval_ms", 3000, "librdkafka", "heartbeat.interval.ms"),
    *_rows(_ALL, "receive_buffer_bytes", None, "librdkafka", "socket.receive.buffer.bytes"),
    *_rows(_ALL, "send_buffer_bytes", None, "librdkafka", "socket.send.buffer.bytes"),
    *_rows(_ALL, "receive_message_max_bytes", 100_000_000, "librdkafka", "receive.message.max.bytes"),
    *_rows(_ALL, "socket_options", DEFAULT_SOCKET_OPTIONS, "librdkafka", "socket.nagle.disable", _nagle),
    *_rows((_C,), "consumer_timeout_ms", float("inf"), "facade",
           "iteration stops after this long without a record"),
    *_rows(_ALL, "security_protocol", "PLAINTEXT", "librdkafka", "security.protocol"),
    *_rows(_ALL, "ssl_context", None, "none",
           "librdkafka does TLS with OpenSSL itself and cannot use a Python ssl.SSLContext: "
           "give ssl_cafile/ssl_certfile/ssl_keyfile instead"),
    *_rows(_ALL, "ssl_check_hostname", True, "librdkafka", "ssl.endpoint.identification.algorithm",
           _hostname_check),
    *_rows(_ALL, "ssl_cafile", None, "librdkafka", "ssl.ca.location"),
    *_rows(_ALL, "ssl_certfile", None, "librdkafka", "ssl.certificate.location"),
    *_rows(_ALL, "ssl_keyfile", None, "librdkafka", "ssl.key.location"),
    *_rows(_ALL, "ssl_crlfile", None, "librdkafka", "ssl.crl.location"),
    *_rows(_ALL, "ssl_password", None, "librdkafka", "ssl.key.password"),
    *_rows((_C, _P), "ssl_ciphers", None, "librdkafka", "ssl.cipher.suites"),
    *_rows(_ALL, "api_version", None, "librdkafka", "broker.version.fallback", _api_version),
    *_rows(_ALL, "bootstrap_timeout_ms", 30000, "none",
           "librdkafka connects in the background and never blocks the constructor"),
    *_rows(_ALL, "connections_max_idle_ms", 540000, "librdkafka", "connections.max.idle.ms"),
    *_rows(_ALL, "metric_reporters", [], "none", "librdkafka reports metrics as statistics JSON, "
           "not through reporter classes: read metrics() or pass a stats_cb to the native client"),
    *_rows((_C, _P), "metrics_enabled", True, "facade",
           "metrics() reads librdkafka's statistics (statistics.interval.ms=1000) when True"),
    *_rows(_ALL, "metrics_num_samples", 2, "none", "librdkafka's statistics have no sample windows"),
    *_rows(_ALL, "metrics_sample_window_ms", 30000, "none", "librdkafka's statistics have no sample windows"),
    *_rows((_C,), "metric_group_prefix", "consumer", "facade", "prefix of the metric group names in metrics()"),
    *_rows(_ALL, "selector", DEFAULT_SELECTOR, "none", _NO_SELECTOR),
    *_rows((_C,), "exclude_internal_topics", True, "none",
           "librdkafka has no switch; topics() leaves out internal topics (names starting with '__')"),
    *_rows(_ALL, "sasl_mechanism", None, "librdkafka", "sasl.mechanism"),
    *_rows(_ALL, "sasl_plain_username", None, "librdkafka", "sasl.username"),
    *_rows(_ALL, "sasl_plain_password", None, "librdkafka", "sasl.password"),
    *_rows(_ALL, "sasl_kerberos_name", None, "none",
           "librdkafka takes the principal from sasl.kerberos.principal and a keytab, not a gssapi Name"),
    *_rows(_ALL, "sasl_kerberos_service_name", "kafka", "librdkafka", "sasl.kerberos.service.name"),
    *_rows(_ALL, "sasl_kerberos_domain_name", None, "none",
           "librdkafka always uses the broker's host name for Kerberos"),
    *_rows(_ALL, "sasl_oauth_token_provider", None, "facade",
           "its token() is called from librdkafka's oauthbearer token refresh (oauth_cb); "
           "tokens are refreshed every 15 minutes"),
    *_rows(_ALL, "proxy_url", None, "none", "librdkafka has no proxy support"),
    *_rows(_ALL, "socks5_proxy", None, "none", "librdkafka has no proxy support"),
    *_rows(_ALL, "kafka_client", DEFAULT_CLIENT, "none", "the network client is librdkafka"),
    *_rows((_P,), "enable_idempotence", True, "librdkafka", "enable.idempotence"),
    *_rows((_P,), "transactional_id", None, "librdkafka", "transactional.id"),
    *_rows((_P,), "transaction_timeout_ms", 60000, "librdkafka", "transaction.timeout.ms"),
    *_rows((_P,), "delivery_timeout_ms", 120000, "librdkafka", "delivery.timeout.ms"),
    *_rows((_P,), "acks", -1, "librdkafka", "acks", _acks),
    *_rows((_P,), "compression_type", None, "librdkafka", "compression.type", _compression),
    *_rows((_P,), "retries", float("inf"), "librdkafka", "retries"),
    *_rows((_P,), "batch_size", 16384, "librdkafka", "batch.size"),
    *_rows((_P,), "linger_ms", 0, "librdkafka", "linger.ms"),
    *_rows((_P,), "partitioner", DEFAULT_PARTITIONER, "facade",
           "DefaultPartitioner/StickyPartitioner run as librdkafka's murmur2_random (the Java client's "
           "hash, like kafka-python's), which keeps records without a key on one partition for 10 ms (or "
           "twice linger_ms), as StickyPartitioner keeps them per batch (DefaultPartitioner picks one at "
           "random for each); any other Partitioner's partition() is called in send()"),
    *_rows((_P,), "max_block_ms", 60000, "facade",
           "send() waits this long for room in librdkafka's queue before KafkaTimeoutError"),
    *_rows((_P,), "max_request_size", 1048576, "librdkafka", "message.max.bytes"),
]

#: ``{(client, name): Option}`` for every client kind.
OPTIONS: Dict[Tuple[str, str], Option] = {(o.client, o.name): o for o in _TABLE}
#: ``{client: {name: default}}``: kafka-python's documented defaults, in its order.
DEFAULTS: Dict[str, Dict[str, Any]] = {c: {o.name: o.default for o in _TABLE if o.client == c} for c in _ALL}


def option(client: str, name: str) -> Option:
    """Return the table row of ``name`` for ``client``.

    :raises KeyError: for an option the client does not have.
    """
    return OPTIONS[(client, name)]


def _same(a: Any, b: Any) -> bool:
    try:
        return a is b or bool(a == b)
    except Exception:
        return False


#: Options whose kafka-python default is passed to librdkafka when the program leaves them out,
#: because librdkafka's own default would change what the program sees: how long ``send().get()``
#: takes (``linger_ms``: librdkafka waits 5 ms; ``socket_options``: Nagle's algorithm), the order of
#: retried records, when a stuck record fails, and which transactional records a consumer reads.
#: ``enable_idempotence`` follows kafka-python's own rule (``KafkaProducer``). Every other option
#: left out keeps librdkafka's default: they size requests and buffers, which only throughput sees.
OBSERVED_DEFAULTS: Dict[str, Tuple[str, ...]] = {
    PRODUCER: ("linger_ms", "max_in_flight_requests_per_connection", "delivery_timeout_ms", "socket_options"),
    CONSUMER: ("isolation_level", "socket_options"),
    ADMIN: ("socket_options",),
}


def translate(client: str, configs: Dict[str, Any]) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """Check kafka-python keyword arguments and map them to librdkafka.

    :param client: ``"consumer"``, ``"producer"`` or ``"admin"``.
    :param configs: the keyword arguments the program passed.
    :returns: ``(librdkafka_conf, config)``: the librdkafka properties for the options given and
        for :data:`OBSERVED_DEFAULTS`, and the full kafka-python config (defaults merged), as
        kafka-python's ``.config``. A number outside librdkafka's range of its property becomes
        the nearest end of the range, and properties librdkafka checks against one another are
        settled (:mod:`confluent_kafka.compat._bounds`).
    :raises KafkaConfigurationError: naming unknown options, options whose value has no
        librdkafka equivalent, values that cannot be converted, or timeouts kafka-python refuses
        together.
    """
    defaults = DEFAULTS[client]
    unknown = set(configs).difference(defaults)
    if unknown:
        if client == PRODUCER:  # kafka-python's producer reports them as ValueError
            raise ValueError(f"Unrecognized configs: { {k: configs[k] for k in sorted(unknown)} }")
        raise KafkaConfigurationError(f"Unrecognized configs: {set(sorted(unknown))}")
    config = dict(defaults)
    config.update(configs)
    conf: Dict[str, Any] = {}
    for name, value in configs.items():
        row = OPTIONS[(client, name)]
        if row.kind == "none":
            if not _same(value, row.default):
                raise KafkaConfigurationError(
                    f"{name}={value!r} is not supported by the kafka-python facade: {row.target}")
        elif row.kind == "librdkafka" and value is not None:
            try:
                conf[row.target] = _bounds.clamp(row.target, row.convert(value) if row.convert else value)
            except KafkaConfigurationError:
                raise
            except (TypeError, ValueError) as exc:
                raise KafkaConfigurationError(f"{name}={value!r}: {exc}") from exc
    for name in OBSERVED_DEFAULTS.get(client, ()):
        if name not in configs:
            row = OPTIONS[(client, name)]
            conf[row.target] = row.convert(row.default) if row.convert else row.default
    _refuse_as_kafka_python(client, config)
    if "reconnect_backoff_ms" in configs and "reconnect_backoff_max_ms" not in configs:
        conf["reconnect.backoff.max.ms"] = config["reconnect_backoff_max_ms"]  # kafka-python's cap, not librdkafka's
    _bounds.fit(conf, consumer=client == CONSUMER)
    return conf, config


def _refuse_as_kafka_python(client: str, config: Dict[str, Any]) -> None:
    """Raise where kafka-python's constructors refuse a combination of timeouts (numbers only).

    :raises KafkaConfigurationError: in kafka-python's words.
    """
    try:
        if client == CONSUMER:
            idle, request, wait = (config["connections_max_idle_ms"], config["request_timeout_ms"],
                                   config["fetch_max_wait_ms"])
            if not wait < request < idle:
                raise KafkaConfigurationError(
                    f"connections_max_idle_ms ({idle}) must be larger than request_timeout_ms ({request}) "
                    f"which must be larger than fetch_max_wait_ms ({wait}).")
            heartbeat, session = config["heartbeat_interval_ms"], config["session_timeout_ms"]
            if config["group_id"] is not None and heartbeat >= session:
                raise KafkaConfigurationError(
                    f"Heartbeat interval must be lower than the session timeout ({heartbeat} v {session})")
        elif client == PRODUCER:
            if config["delivery_timeout_ms"] < config["linger_ms"] + config["request_timeout_ms"]:
                raise KafkaConfigurationError("Must set delivery_timeout_ms higher than linger_ms + request_timeout_ms")
    except TypeError:
        pass  # not numbers: librdkafka's check of the property reports the one that is not


def markdown_table() -> str:
    """The option table as Markdown, one row per option (clients merged where the row is the same).

    :returns: the table text that docs/kafka_python.md holds between its ``option-table`` markers.
    """
    merged: Dict[Tuple[str, str, str], List[str]] = {}
    order: List[Tuple[str, str, str]] = []
    for o in _TABLE:
        key = (o.name, o.kind, o.target)
        if key not in merged:
            merged[key] = []
            order.append(key)
        merged[key].append(o.client)
    lines = ["| option | clients | default | kind | librdkafka property, or how it is handled |",
             "|---|---|---|---|---|"]
    for name, kind, target in order:
        row = OPTIONS[(merged[(name, kind, target)][0], name)]
        default = "inf" if isinstance(row.default, float) and math.isinf(row.default) else repr(row.default)
        if row.default is DEFAULT_PARTITIONER:
            default = "DefaultPartitioner()"
        elif row.default is DEFAULT_ASSIGNORS:
            default = "(RangePartitionAssignor, RoundRobinPartitionAssignor)"
        elif callable(row.default) and not isinstance(row.default, _Named):
            default = "(returns True)"
        shown = f"`{target}`" if kind == "librdkafka" else target
        if kind == "librdkafka" and target in _bounds.RANGES:
            shown += f" ({_bounds.describe(target)})"
        lines.append(f"| `{name}` | {', '.join(merged[(name, kind, target)])} | `{default}` | {kind} | {shown} |")
    return "\n".join(lines) + "\n"
