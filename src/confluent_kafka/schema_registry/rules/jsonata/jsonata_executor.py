"""The ``JSONATA`` rule executor: a JSONata expression applied to the record (as JSON data),
typically in UPGRADE/DOWNGRADE migration rules that move records between versions."""

from __future__ import annotations

import threading
from typing import Any, Dict

import jsonata  # type: ignore[import-untyped,unused-ignore]

from ...common.serde import RuleContext, RuleExecutor
from ...rule_registry import RuleRegistry

__all__ = ["JsonataExecutor"]


class JsonataExecutor(RuleExecutor):
    """Evaluates ``JSONATA`` rules; each expression is compiled once."""

    def __init__(self) -> None:
        self._compiled: Dict[str, Any] = {}
        self._lock = threading.Lock()

    def type(self) -> str:
        return "JSONATA"

    def transform(self, ctx: RuleContext, message: Any) -> Any:
        """Evaluate the rule's expression on ``message``.

        :param ctx: the rule context.
        :param message: the record, as JSON data.
        :returns: the expression's result.
        """
        expr = ctx.rule.expr
        with self._lock:
            compiled = self._compiled.get(expr)  # type: ignore[arg-type]
        if compiled is None:
            compiled = jsonata.Jsonata(expr)
            with self._lock:
                self._compiled[expr] = compiled  # type: ignore[index]
        return compiled.evaluate(message)

    @classmethod
    def register(cls) -> None:
        """Register a ``JSONATA`` executor in the global rule registry."""
        RuleRegistry.register_rule_executor(cls())
