"""What the kafka-python facade's clients share: error translation, librdkafka config extras."""
from __future__ import annotations

import json
import time
from typing import Any, Callable, Dict, Optional

import confluent_kafka as _ck
from confluent_kafka.compat.kafka import errors as Errors

_LOCAL: Dict[int, type] = {
    _ck.KafkaError._TIMED_OUT: Errors.KafkaTimeoutError,
    _ck.KafkaError._MSG_TIMED_OUT: Errors.KafkaTimeoutError,
    _ck.KafkaError._TIMED_OUT_QUEUE: Errors.KafkaTimeoutError,
    _ck.KafkaError._TRANSPORT: Errors.KafkaConnectionError,
    _ck.KafkaError._ALL_BROKERS_DOWN: Errors.KafkaConnectionError,
    _ck.KafkaError._UNKNOWN_TOPIC: Errors.for_code(3),
    _ck.KafkaError._UNKNOWN_PARTITION: Errors.for_code(3),
    _ck.KafkaError._INVALID_ARG: Errors.IllegalArgumentError,
    _ck.KafkaError._STATE: Errors.IllegalStateError,
    _ck.KafkaError._AUTO_OFFSET_RESET: Errors.NoOffsetForPartitionError,
    _ck.KafkaError._FENCED: Errors.for_code(90),
    _ck.KafkaError._NOT_IMPLEMENTED: Errors.IncompatibleBrokerVersion,
    _ck.KafkaError._UNSUPPORTED_FEATURE: Errors.IncompatibleBrokerVersion,
    _ck.KafkaError._PURGE_QUEUE: Errors.KafkaTimeoutError,
    _ck.KafkaError._PURGE_INFLIGHT: Errors.KafkaTimeoutError,
    _ck.KafkaError._DESTROY: Errors.Cancelled,
}


def translate_error(err: Any) -> Errors.KafkaError:
    """Turn a librdkafka error (KafkaError, or a KafkaException carrying one) into the kafka-python
    exception for it: broker codes by ``for_code``, local codes by their meaning.

    :param err: a ``confluent_kafka.KafkaError`` or ``KafkaException``.
    :returns: the kafka-python facade exception (not raised).
    """
    if isinstance(err, _ck.KafkaException):
        err = err.args[0] if err.args else None
    if not isinstance(err, _ck.KafkaError):
        return Errors.KafkaError(str(err))
    code = err.code()
    cls = Errors.for_code(code) if code >= 0 else _LOCAL.get(code, Errors.KafkaError)
    result: Errors.KafkaError = cls(err.str())
    return result


def call(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call a native client method, re-raising librdkafka errors as kafka-python's.

    :returns: what ``fn`` returns.
    """
    try:
        return fn(*args, **kwargs)
    except _ck.KafkaException as exc:
        raise translate_error(exc) from exc


def extras(config: Dict[str, Any], conf: Dict[str, Any], stats: Optional[Callable[[str], None]]) -> None:
    """Add the librdkafka settings that ``facade`` options need to ``conf``.

    :param config: the full kafka-python config.
    :param conf: the librdkafka config being built (changed in place).
    :param stats: the statistics callback when metrics are enabled.
    """
    provider = config.get("sasl_oauth_token_provider")
    if provider is not None:
        if not callable(getattr(provider, "token", None)):
            raise Errors.KafkaConfigurationError("sasl_oauth_token_provider must have a token() method")

        def oauth_cb(_config_str: Any) -> Any:
            return provider.token(), time.time() + 900.0

        conf["oauth_cb"] = oauth_cb
        conf.setdefault("sasl.mechanism", "OAUTHBEARER")
    if stats is not None and config.get("metrics_enabled", True):
        conf["statistics.interval.ms"] = 1000
        conf["stats_cb"] = stats


class Stats:
    """Keeps librdkafka's latest statistics JSON; :meth:`metrics` shapes it like kafka-python's."""

    def __init__(self, prefix: str) -> None:
        self.raw: Optional[str] = None
        self.prefix = prefix

    def __call__(self, raw: str) -> None:
        self.raw = raw

    def metrics(self, raw: bool, extra: Dict[str, float]) -> Dict[str, Any]:
        """:returns: ``{group: {name: value}}`` (``raw=True``: the librdkafka statistics dict)."""
        data = json.loads(self.raw) if self.raw else {}
        if raw:
            return data
        brokers = data.get("brokers", {})
        out: Dict[str, Dict[str, float]] = {
            f"{self.prefix}-metrics": {
                "request-total": float(data.get("tx", 0)),
                "response-total": float(data.get("rx", 0)),
                "outgoing-byte-total": float(data.get("tx_bytes", 0)),
                "incoming-byte-total": float(data.get("rx_bytes", 0)),
                "connection-count": float(sum(1 for b in brokers.values() if b.get("state") == "UP")),
                "message-queue-count": float(data.get("msg_cnt", 0)),
            },
        }
        out[f"{self.prefix}-metrics"].update(extra)
        return out
