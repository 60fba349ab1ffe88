"""The ``DLQ`` rule action: when a rule fails, the record is sent to a dead-letter topic (its
key and value, the original headers and ``__rule.*`` headers naming the rule, mode, subject,
topic and error), and the (de)serialization still fails with a SerializationError.

On write the value is the record as JSON (fields tagged by an encryption rule redacted); on
read it is the bytes read, unchanged. A record carrying ``__rule.name`` skips that rule when it
is read back, so a DLQ can be replayed.

Configuration (the action's ``conf``, or ``dlq.*`` and ``producer`` keys of a serde's
``rule_conf``): ``dlq.topic`` (or the rule's ``dlq.topic`` parameter), ``dlq.auto.flush``
(flush after each record), ``dlq.redact.rule.types`` (default ``ENCRYPT,ENCRYPT_PAYLOAD``),
``producer`` (a ready :class:`~confluent_kafka.Producer`); every other key configures the
producer the action makes.
"""

from __future__ import annotations

import copy
import json
import logging
import struct
import threading
import uuid
from typing import Any, Callable, Dict, List, Optional, Set, Tuple, Union

from ....serialization import SerializationError
from ...common.schema_registry_client import Rule, RuleKind
from ...common.serde import (
    DLQ_HEADER_PREFIX,
    DLQ_RULE_EXCEPTION_HEADER,
    DLQ_RULE_MODE_HEADER,
    DLQ_RULE_NAME_HEADER,
    DLQ_RULE_SUBJECT_HEADER,
    DLQ_RULE_TOPIC_HEADER,
    FieldContext,
    FieldRuleExecutor,
    FieldTransform,
    FieldType,
    RuleAction,
    RuleContext,
)
from ...rule_registry import RuleRegistry

__all__ = ["FieldRedactionExecutor", "DlqAction"]

log = logging.getLogger(__name__)

_INT64 = (-(2 ** 63), 2 ** 63 - 1)


class FieldRedactionExecutor(FieldRuleExecutor):
    """Replaces tagged string and bytes fields with ``<REDACTED>`` (used by :class:`DlqAction`
    so encrypted fields never reach a DLQ in clear)."""

    TYPE = "REDACT"
    REDACTED_STRING = "<REDACTED>"
    REDACTED_BYTES = REDACTED_STRING.encode("utf-8")

    def type(self) -> str:
        return self.TYPE

    def new_transform(self, ctx: RuleContext) -> FieldTransform:
        def redact(ctx: RuleContext, field_ctx: FieldContext, value: Any) -> Any:
            if value is None:
                return None
            if field_ctx.field_type == FieldType.STRING:
                return self.REDACTED_STRING
            if field_ctx.field_type == FieldType.BYTES:
                return self.REDACTED_BYTES
            return value

        return redact

    @classmethod
    def register(cls) -> "FieldRedactionExecutor":
        """Register one in the global rule registry.

        :returns: the executor.
        """
        executor = cls()
        RuleRegistry.register_rule_executor(executor)
        return executor


class DlqAction(RuleAction):
    """Sends a record whose rule failed to a dead-letter topic, then fails the call.

    :param conf: ``dlq.topic``, ``dlq.auto.flush``, ``dlq.redact.rule.types``, ``producer``,
        and producer settings.
    """

    TYPE = "DLQ"
    DLQ_TOPIC = "dlq.topic"
    DLQ_AUTO_FLUSH = "dlq.auto.flush"
    DLQ_REDACT_RULE_TYPES = "dlq.redact.rule.types"
    DLQ_REDACT_RULE_TYPES_DEFAULT = "ENCRYPT,ENCRYPT_PAYLOAD"
    PRODUCER = "producer"

    HEADER_PREFIX = DLQ_HEADER_PREFIX
    RULE_NAME = DLQ_RULE_NAME_HEADER
    RULE_MODE = DLQ_RULE_MODE_HEADER
    RULE_SUBJECT = DLQ_RULE_SUBJECT_HEADER
    RULE_TOPIC = DLQ_RULE_TOPIC_HEADER
    RULE_EXCEPTION = DLQ_RULE_EXCEPTION_HEADER

    def __init__(self, conf: Optional[Dict[str, Any]] = None) -> None:
        self._conf: Dict[str, Any] = dict(conf) if conf else {}
        self._lock = threading.Lock()
        self._topic: Optional[str] = None
        self._auto_flush = False
        self._redact_rule_types: List[str] = []
        self._producer: Any = None
        self._parse_conf()

    def type(self) -> str:
        return self.TYPE

    def configure(self, client_conf: Dict[str, Any], rule_conf: Dict[str, Any]) -> None:
        """Take the ``dlq.*`` and ``producer`` keys of a serde's ``rule_conf``.

        :param client_conf: unused.
        :param rule_conf: the serde's rule configuration.
        """
        with self._lock:
            for key, value in (rule_conf or {}).items():
                if key == self.PRODUCER or key.startswith("dlq."):
                    self._conf[key] = value
            self._parse_conf()

    def _parse_conf(self) -> None:
        self._topic = self._conf.get(self.DLQ_TOPIC)
        auto_flush = self._conf.get(self.DLQ_AUTO_FLUSH)
        if auto_flush is not None:
            self._auto_flush = str(auto_flush).lower() == "true"
        types = self._conf.get(self.DLQ_REDACT_RULE_TYPES)
        if types is None:
            types = self.DLQ_REDACT_RULE_TYPES_DEFAULT
        self._redact_rule_types = [t.strip() for t in str(types).split(",")]
        if self._conf.get(self.PRODUCER) is not None:
            self._producer = self._conf[self.PRODUCER]

    @staticmethod
    def _base_producer_conf() -> Dict[str, Any]:
        return {"enable.idempotence": False, "acks": "all", "max.in.flight.requests.per.connection": 1,
                "message.timeout.ms": 0}

    def _get_producer(self) -> Any:
        if self._producer is None:
            with self._lock:
                if self._producer is None:
                    from .... import Producer

                    conf = self._base_producer_conf()
                    conf.update((k, v) for k, v in self._conf.items() if k != self.PRODUCER and not k.startswith("dlq."))
                    self._producer = Producer(conf)
        return self._producer

    def run(self, ctx: RuleContext, message: Any, ex: Optional[Exception]) -> None:
        """Send the record to the DLQ topic and raise.

        :raises ~confluent_kafka.serialization.SerializationError: always (``Rule failed: NAME``, from ``ex``); also
            when no
            topic is configured.
        """
        topic = self._topic or ctx.get_parameter(self.DLQ_TOPIC)
        if not topic:
            raise SerializationError("Could not send to DLQ as no topic is configured")
        try:
            producer = self._get_producer()
            producer.produce(topic, key=self._convert_to_bytes(ctx, ctx.original_key),
                             value=self._convert_to_bytes(ctx, ctx.original_value),
                             headers=self._populate_headers(ctx, ex), on_delivery=self._on_delivery(topic))
            producer.poll(0)
            if self._auto_flush:
                producer.flush()
        except Exception as exc:  # noqa: BLE001 - the record's own failure is what the caller sees
            log.error("Could not produce message to DLQ topic %s: %s", topic, exc)
        text = f"Rule failed: {ctx.rule.name}"
        if ex is not None:
            raise SerializationError(text) from ex
        raise SerializationError(text)

    @staticmethod
    def _on_delivery(topic: str) -> Callable[[Any, Any], None]:
        def delivered(err: Any, msg: Any) -> None:
            if err is not None:
                log.error("Could not produce message to DLQ topic %s: %s", topic, err)
            else:
                log.info("Sent message to DLQ topic %s", topic)

        return delivered

    def _convert_to_bytes(self, ctx: RuleContext, value: Any) -> Optional[bytes]:
        if value is None:
            return None
        if isinstance(value, (bytes, bytearray, memoryview)):
            return bytes(value)
        if isinstance(value, str):
            return value.encode("utf-8")
        if isinstance(value, uuid.UUID):
            return str(value).encode("utf-8")
        if isinstance(value, int) and not isinstance(value, bool) and _INT64[0] <= value <= _INT64[1]:
            return struct.pack(">q", value)
        if isinstance(value, float):
            return struct.pack(">d", value)
        return self._convert_to_json_bytes(ctx, value)

    def _convert_to_json_bytes(self, ctx: RuleContext, value: Any) -> bytes:
        value = self._redact_fields(ctx, value)
        if hasattr(value, "DESCRIPTOR"):
            from google.protobuf import json_format  # type: ignore[import-untyped,unused-ignore]

            text: str = json_format.MessageToJson(value)
            return text.encode("utf-8")
        return json.dumps(value, default=self._json_default).encode("utf-8")

    @staticmethod
    def _json_default(obj: Any) -> str:
        if isinstance(obj, (bytes, bytearray)):
            return bytes(obj).decode("latin-1")
        return str(obj)

    def _redact_fields(self, ctx: RuleContext, value: Any) -> Any:
        rules = self._get_rules_to_redact(ctx)
        if not rules:
            return value
        try:
            tags = self._get_tags_to_redact(rules)
            rule = Rule("redact", None, RuleKind.TRANSFORM, ctx.rule_mode, self.TYPE, sorted(tags), None, None, None,
                        None, False)
            redact_ctx = RuleContext(ctx.enabled_env, ctx.ser_ctx, ctx.source, ctx.target, ctx.subject,
                                     ctx.rule_mode, rule, 0, [rule], ctx.inline_tags, ctx.field_transformer,
                                     ctx.original_key, ctx.original_value)
            return FieldRedactionExecutor().transform(redact_ctx, copy.deepcopy(value))
        except Exception as exc:  # noqa: BLE001 - send unredacted rather than lose the record
            log.error("Could not redact fields: %s", exc)
            return value

    def _get_rules_to_redact(self, ctx: RuleContext) -> List[Rule]:
        return [rule for rule in (ctx.rules or []) if rule.type in self._redact_rule_types]

    @staticmethod
    def _get_tags_to_redact(rules: List[Rule]) -> Set[str]:
        return {tag for rule in rules for tag in (rule.tags or [])}

    def _populate_headers(self, ctx: RuleContext, ex: Optional[Exception]) -> List[Tuple[str, Union[str, bytes, None]]]:
        headers: List[Tuple[str, Union[str, bytes, None]]] = []
        incoming = ctx.ser_ctx.headers if ctx.ser_ctx is not None else None
        if incoming:
            pairs = incoming.items() if isinstance(incoming, dict) else incoming
            headers.extend((k, self._to_header_bytes(v)) for k, v in pairs)
        headers.append((self.RULE_NAME, self._to_header_bytes(ctx.rule.name)))
        headers.append((self.RULE_MODE, self._to_header_bytes(ctx.rule_mode.value if ctx.rule_mode else None)))
        headers.append((self.RULE_SUBJECT, self._to_header_bytes(ctx.subject)))
        headers.append((self.RULE_TOPIC, self._to_header_bytes(ctx.ser_ctx.topic if ctx.ser_ctx else None)))
        if ex is not None:
            headers.append((self.RULE_EXCEPTION, self._to_header_bytes(str(ex))))
        return headers

    @staticmethod
    def _to_header_bytes(value: Any) -> Optional[bytes]:
        if value is None:
            return None
        if isinstance(value, (bytes, bytearray)):
            return bytes(value)
        return str(value).encode("utf-8")

    def close(self) -> None:
        """Flush and forget the producer (outside the lock: a flush may wait long)."""
        with self._lock:
            producer, self._producer = self._producer, None
        if producer is not None:
            producer.flush()

    @classmethod
    def register(cls, conf: Optional[Dict[str, Any]] = None) -> "DlqAction":
        """Register one in the global rule registry.

        :param conf: its configuration.
        :returns: the action.
        """
        action = cls(conf)
        RuleRegistry.register_rule_action(action)
        return action
