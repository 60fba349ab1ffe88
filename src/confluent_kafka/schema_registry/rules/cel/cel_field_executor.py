"""The ``CEL_FIELD`` rule executor: a CEL expression evaluated on each field of a record that
the rule's tags select (every field when it names none), with ``value``, ``name``,
``fullName``, ``typeName``, ``tags`` and the containing ``message`` bound. Only fields holding
one scalar value (string, bytes, int, long, float, double, boolean, null) are evaluated."""

from __future__ import annotations

from typing import Any

from celpy import celtypes  # type: ignore[import-untyped,unused-ignore]

from ...common.serde import FieldContext, FieldRuleExecutor, FieldTransform, RuleContext
from ...rule_registry import RuleRegistry
from .cel_executor import CelExecutor, field_value_to_cel, msg_to_cel

__all__ = ["CelFieldExecutor"]


class CelFieldExecutor(FieldRuleExecutor):
    """Evaluates ``CEL_FIELD`` rules field by field."""

    def __init__(self) -> None:
        self._executor = CelExecutor()

    def type(self) -> str:
        return "CEL_FIELD"

    def new_transform(self, ctx: RuleContext) -> FieldTransform:
        return self._field_transform

    def _field_transform(self, ctx: RuleContext, field_ctx: FieldContext, field_value: Any) -> Any:
        if not field_ctx.is_primitive():
            return field_value
        args = {
            "value": field_value_to_cel(field_ctx, field_value),
            "fullName": celtypes.StringType(field_ctx.full_name),
            "name": celtypes.StringType(field_ctx.name),
            "typeName": celtypes.StringType(field_ctx.type_name()),
            "tags": celtypes.ListType([celtypes.StringType(tag) for tag in field_ctx.tags]),
            "message": msg_to_cel(field_ctx.containing_message),
        }
        return self._executor.execute(ctx, field_value, args)

    @classmethod
    def register(cls) -> None:
        """Register a ``CEL_FIELD`` executor in the global rule registry."""
        RuleRegistry.register_rule_executor(cls())
