"""The ``CEL`` rule executor: a rule's expression, in the Common Expression Language, evaluated
with the record bound to ``message``. A CONDITION's expression yields a bool; a TRANSFORM's
yields the new record. An expression ``guard; expr`` runs ``expr`` only when ``guard`` holds.

Register it once per process (``CelExecutor.register()``) or in a serde's own
:class:`~confluent_kafka.schema_registry.rule_registry.RuleRegistry`.
"""

from __future__ import annotations

import datetime
import logging
import threading
import uuid
from typing import Any, Dict, Optional, Set, Tuple

import celpy  # type: ignore[import-untyped,unused-ignore]
from celpy import celtypes  # type: ignore[import-untyped,unused-ignore]

from ...common.schema_registry_client import RuleKind, Schema
from ...common.serde import FieldContext, RuleContext, RuleExecutor
from ...rule_registry import RuleRegistry
from .cel_field_presence import InterpretedRunner
from .extra_func import EXTRA_FUNCS

try:  # a module of its own under upstream's name: CEL results written back into Protobuf messages
    from . import protobuf_result_writer
except ImportError:  # pragma: no cover - protobuf is optional
    protobuf_result_writer = None  # type: ignore[assignment]

__all__ = ["CelExecutor", "msg_to_cel", "field_value_to_cel"]

log = logging.getLogger(__name__)

#: An Avro ``date`` is an int counting days from 1970-01-01.
DAYS_SHIFT = datetime.date(1970, 1, 1).toordinal()


class CelExecutor(RuleExecutor):
    """Evaluates ``CEL`` rules on whole messages; compiled programs are cached per expression
    and schema."""

    def __init__(self) -> None:
        self._env = celpy.Environment(runner_class=InterpretedRunner)
        self._funcs = EXTRA_FUNCS
        self._programs: Dict[Tuple[str, str, Schema], Any] = {}
        self._lock = threading.Lock()

    def type(self) -> str:
        return "CEL"

    def transform(self, ctx: RuleContext, msg: Any) -> Any:
        """Evaluate the rule with ``message`` bound to ``msg``.

        :param ctx: the rule context.
        :param msg: the record.
        :returns: the condition's verdict, or the transformed record.
        """
        return self.execute(ctx, msg, {"message": msg_to_cel(msg)})

    def execute(self, ctx: RuleContext, msg: Any, args: Dict[str, Any]) -> Any:
        """Evaluate the rule's expression (after its guard, if any) with ``args`` bound.

        :param ctx: the rule context.
        :param msg: what a transform whose guard fails returns unchanged.
        :param args: the CEL variables.
        :returns: the verdict or the new value.
        """
        expr = ctx.rule.expr
        if expr is None:
            log.warning("Expression from rule %s is None", ctx.rule.name)
            return msg
        guard, sep, body = expr.partition(";")
        if sep:
            if guard.strip() and not self.execute_rule(ctx, guard, args):
                return True if ctx.rule.kind == RuleKind.CONDITION else msg
            expr = body
        result = self.execute_rule(ctx, expr, args)
        if ctx.rule.kind == RuleKind.CONDITION:
            return result
        return _write_back(result, msg)

    def execute_rule(self, ctx: RuleContext, expr: str, args: Dict[str, Any]) -> Any:
        """Compile (once) and evaluate ``expr``.

        :param ctx: the rule context (its target schema keys the program cache).
        :param expr: the expression.
        :param args: the CEL variables.
        :returns: the result (a CEL bool as a Python bool).
        :raises ValueError: when the rule has no target schema or schema type.
        """
        schema = ctx.target
        if schema is None:
            raise ValueError("Target schema is None")
        if schema.schema_type is None:
            raise ValueError("Target schema type is None")
        key = (expr, schema.schema_type, schema)
        with self._lock:
            program = self._programs.get(key)
        if program is None:
            program = self._env.program(self._env.compile(expr), functions=self._funcs)
            with self._lock:
                self._programs[key] = program
        if "now" in expr and "now" not in args:
            args["now"] = celtypes.TimestampType(datetime.datetime.now(tz=datetime.timezone.utc))
        result = program.evaluate(args)
        if isinstance(result, celtypes.BoolType):
            return bool(result)
        return result

    @classmethod
    def register(cls) -> None:
        """Register a ``CEL`` executor in the global rule registry."""
        RuleRegistry.register_rule_executor(cls())


# -- Python values to CEL ------------------------------------------------------------------------


def msg_to_cel(msg: Any) -> Any:
    """A record as CEL sees it: a Protobuf message as a map of its fields, dicts and lists as
    CEL maps and lists, scalars as CEL scalars. A ``google.protobuf.Timestamp`` is a CEL timestamp;
    a ``confluent.type.Decimal`` or ``confluent.type.Variant`` is a map of its fields that the
    decimal and variant libraries (and ``string``, ``double``, ``==``) take as the one value it
    holds.

    :param msg: the record.
    :returns: the CEL value.
    """
    if _is_proto_message(msg):
        return _proto_message_to_cel(msg)
    return _value_to_cel(msg)


def field_value_to_cel(field_ctx: FieldContext, field_value: Any) -> Any:
    """A field's value as CEL sees it, converted by its Protobuf type when it has one.

    :param field_ctx: the field.
    :param field_value: its value.
    :returns: the CEL value.
    """
    if field_ctx.field_descriptor is not None:
        return _proto_scalar_to_cel(field_value, field_ctx.field_descriptor)
    return _value_to_cel(field_value)


def _value_to_cel(value: Any) -> Any:
    if isinstance(value, dict):
        return celtypes.MapType({_value_to_cel(k): _value_to_cel(v) for k, v in value.items()})
    if isinstance(value, list):
        return celtypes.ListType([_value_to_cel(v) for v in value])
    if isinstance(value, str):
        return celtypes.StringType(value)
    if isinstance(value, (bytes, bytearray)):
        return celtypes.BytesType(bytes(value))
    if isinstance(value, bool):  # before int: a bool is an int
        return celtypes.BoolType(value)
    if isinstance(value, int):
        return celtypes.IntType(value)
    if isinstance(value, float):
        return celtypes.DoubleType(value)
    if isinstance(value, datetime.datetime):
        return celtypes.TimestampType(value)
    if isinstance(value, datetime.timedelta):
        return celtypes.DurationType(value)
    if isinstance(value, datetime.date):
        return celtypes.IntType(value.toordinal() - DAYS_SHIFT)
    if isinstance(value, uuid.UUID):
        return celtypes.StringType(str(value))
    return value  # None, Avro (name, value) unions, decimals, times: as they are


def _is_proto_message(value: Any) -> bool:
    try:
        from google.protobuf.message import Message  # type: ignore[import-untyped,unused-ignore]
    except ImportError:  # pragma: no cover - protobuf is optional
        return False
    return isinstance(value, Message)


_WRAPPERS = frozenset("google.protobuf." + n for n in (
    "StringValue", "BytesValue", "Int32Value", "Int64Value", "UInt32Value", "UInt64Value", "FloatValue",
    "DoubleValue", "BoolValue"))


def _proto_message_to_cel(msg: Any) -> Any:
    name = msg.DESCRIPTOR.full_name
    if name in _WRAPPERS:
        return _proto_field_to_cel(msg, msg.DESCRIPTOR.fields_by_name["value"])
    if name == "google.protobuf.Timestamp":
        return celtypes.TimestampType(msg.ToDatetime(tzinfo=datetime.timezone.utc))
    if name == "google.protobuf.Duration":
        return celtypes.DurationType(msg.ToTimedelta())
    out = ProtoFields()
    for fd in msg.DESCRIPTOR.fields:
        if fd.containing_oneof is not None and not msg.HasField(fd.name):
            continue
        if not _is_repeated_fd(fd) and fd.message_type is not None and not msg.HasField(fd.name):
            out.unset.add(fd.name)
        out[celtypes.StringType(fd.name)] = _proto_field_to_cel(msg, fd)
    if name in _SINGLE_VALUES:
        # A decimal or variant: still a map of its fields (``m.amount.scale`` reads), but the
        # decimal and variant libraries, ``string``, ``double`` and ``==`` take it as one value.
        out.msg = msg
    return out


class ProtoFields(celtypes.MapType):  # type: ignore[misc,unused-ignore]
    """A Protobuf message as CEL sees it: a map of its fields, knowing which singular message
    fields are unset, so that ``has(m.f)`` is false for them."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        #: The names of the unset singular message fields.
        self.unset: Set[str] = set()
        #: The message itself, for the types CEL also takes as one value (decimal, variant).
        self.msg: Any = None


#: Message types CEL takes as one value besides a map of their fields.
_SINGLE_VALUES = frozenset(("confluent.type.Decimal", "confluent.type.Variant"))

#: Message types an unset field of which still reads as a value, the empty message's (a decimal
#: zero, the epoch, an absent variant), as the other clients give it.
_DEFAULT_WHEN_UNSET = _SINGLE_VALUES | {"google.protobuf.Timestamp"}


def _is_map_fd(fd: Any) -> bool:
    return fd.message_type is not None and fd.message_type.GetOptions().map_entry


def _is_repeated_fd(fd: Any) -> bool:
    flag = getattr(fd, "is_repeated", None)
    if flag is not None:
        return bool(flag)
    return bool(fd.label == fd.LABEL_REPEATED)


def _proto_field_to_cel(msg: Any, fd: Any) -> Any:
    if not _is_repeated_fd(fd) and fd.message_type is not None and not msg.HasField(fd.name):
        if fd.message_type.full_name in _DEFAULT_WHEN_UNSET:
            return _proto_message_to_cel(getattr(msg, fd.name))
        return None
    return _proto_field_value_to_cel(getattr(msg, fd.name), fd)


def _proto_field_value_to_cel(value: Any, fd: Any) -> Any:
    """A field's whole value (a repeated field's list, a map field's map) as CEL sees it."""
    if _is_repeated_fd(fd):
        if _is_map_fd(fd):
            key_fd, value_fd = fd.message_type.fields_by_name["key"], fd.message_type.fields_by_name["value"]
            return celtypes.MapType({_proto_scalar_to_cel(k, key_fd): _proto_scalar_to_cel(v, value_fd)
                                     for k, v in value.items()})
        return celtypes.ListType([_proto_scalar_to_cel(v, fd) for v in value])
    return _proto_scalar_to_cel(value, fd)


def _proto_scalar_to_cel(value: Any, fd: Any) -> Any:
    from google.protobuf.descriptor import FieldDescriptor as F  # type: ignore[import-untyped,unused-ignore]

    kind = fd.type
    if kind in (F.TYPE_MESSAGE, F.TYPE_GROUP):
        return _proto_message_to_cel(value)
    if kind == F.TYPE_BOOL:
        return celtypes.BoolType(value)
    if kind == F.TYPE_BYTES:
        return celtypes.BytesType(value)
    if kind == F.TYPE_STRING:
        return celtypes.StringType(value)
    if kind in (F.TYPE_FLOAT, F.TYPE_DOUBLE):
        return celtypes.DoubleType(value)
    if kind in (F.TYPE_UINT32, F.TYPE_UINT64, F.TYPE_FIXED32, F.TYPE_FIXED64):
        return celtypes.UintType(value)
    return celtypes.IntType(value)  # signed integers and enums


# -- CEL results back to Python ------------------------------------------------------------------


def _to_python(value: Any) -> Any:
    """A CEL result as plain Python data (dict, list, str, bytes, bool, int, float), so the
    serializers and codecs downstream see the types they expect (a CEL bool is an int
    subclass, which a JSON encoder would write as 1)."""
    if isinstance(value, dict):
        return {_to_python(k): _to_python(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return tuple(_to_python(v) for v in value)  # an Avro (name, value) union, kept
    if isinstance(value, list):
        return [_to_python(v) for v in value]
    if isinstance(value, celtypes.BoolType):
        return bool(value)
    if isinstance(value, (celtypes.IntType, celtypes.UintType)):
        return int(value)
    if isinstance(value, celtypes.DoubleType):
        return float(value)
    if isinstance(value, celtypes.StringType):
        return str(value)
    if isinstance(value, celtypes.BytesType):
        return bytes(value)
    return value


def _write_back(result: Any, msg: Any) -> Any:
    if _is_proto_message(msg):
        if _is_proto_message(result):
            return result
        if isinstance(result, dict):
            return protobuf_result_writer.convert(result, msg)
    return _to_python(result)
