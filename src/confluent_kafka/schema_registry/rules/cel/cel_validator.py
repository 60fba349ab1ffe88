"""The default executor of inline validation rules: each rule's expression evaluated in CEL with
``this`` bound to the value it is declared on and ``now`` to the current time. A rule yields a
bool (False: failed) or a string (non-empty: failed, with that text)."""

from __future__ import annotations

import datetime
import threading
from typing import Any, Dict

import celpy  # type: ignore[import-untyped,unused-ignore]
from celpy import celtypes  # type: ignore[import-untyped,unused-ignore]
from celpy.celparser import CELParseError  # type: ignore[import-untyped,unused-ignore]
from celpy.evaluation import CELEvalError  # type: ignore[import-untyped,unused-ignore]

from ...common._rule_framework import RuleError
from ...common._validation import ValidationRule, ValidationRuleExecutor
from .cel_executor import _proto_field_value_to_cel, _value_to_cel, msg_to_cel
from .cel_field_presence import InterpretedRunner
from .extra_func import EXTRA_FUNCS

__all__ = ["CelValidator"]


class CelValidator(ValidationRuleExecutor):
    """Evaluates inline validation rules in CEL. Compiled programs are cached by expression
    (CEL here is dynamically typed, so one program serves every value shape)."""

    def __init__(self) -> None:
        self._env = celpy.Environment(runner_class=InterpretedRunner)
        self._funcs = EXTRA_FUNCS
        self._programs: Dict[str, Any] = {}
        self._lock = threading.Lock()

    def execute(self, rule: ValidationRule, schema: Any, message: Any) -> Any:
        """Evaluate ``rule`` with ``this`` bound to ``message``.

        :param rule: the rule.
        :param schema: a Protobuf field descriptor for a Protobuf field's value (it says how to
            read the value); otherwise unused.
        :param message: the value (never None).
        :returns: the rule's bool or string.
        :raises RuleError: when the value is None, the rule has no expression, the expression
            does not compile or fails, or yields neither a bool nor a string.
        """
        name = rule.name or "unnamed"
        if message is None:
            raise RuleError(f"Validation rule '{name}' received a null value; walkers must enforce "
                            "skip-on-null before invoking the executor.")
        if not rule.expr:
            raise RuleError(f"Validation rule '{name}' has no expression")
        try:
            this = _to_cel(schema, message)
        except Exception as exc:
            raise RuleError(f"Could not convert value for validation rule '{name}'") from exc
        try:
            program = self._program(rule.expr)
        except CELParseError as exc:
            raise RuleError(f"Could not compile validation rule '{name}'") from exc
        now = celtypes.TimestampType(datetime.datetime.now(datetime.timezone.utc))
        try:
            result = program.evaluate({"this": this, "now": now})
        except CELEvalError as exc:
            detail = f" ({rule.doc})" if rule.doc else ""
            raise RuleError(f"Could not execute validation rule '{name}'{detail}") from exc
        # A CEL int is a Python int and a CEL bool is an int subclass: test the bool type itself.
        if isinstance(result, (bool, celtypes.BoolType)):
            return bool(result)
        if isinstance(result, str):
            return str(result)
        raise RuleError(f"Validation rule '{name}' must return bool or string; got {type(result).__name__}")

    def _program(self, expr: str) -> Any:
        with self._lock:
            program = self._programs.get(expr)
        if program is None:
            program = self._env.program(self._env.compile(expr), functions=self._funcs)
            with self._lock:
                self._programs[expr] = program
        return program


def _to_cel(schema: Any, value: Any) -> Any:
    if hasattr(value, "DESCRIPTOR") and hasattr(value, "ListFields"):
        return msg_to_cel(value)
    if _is_field_descriptor(schema):
        return _proto_field_value_to_cel(value, schema)
    return _value_to_cel(value)


def _is_field_descriptor(schema: Any) -> bool:
    try:
        from google.protobuf.descriptor import FieldDescriptor  # type: ignore[import-untyped,unused-ignore]
    except ImportError:  # pragma: no cover - protobuf is optional
        return False
    return isinstance(schema, FieldDescriptor)
