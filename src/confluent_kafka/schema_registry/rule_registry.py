"""Where serdes find the executors and actions a schema's rules name by type.

A process-wide registry (:meth:`RuleRegistry.get_global_instance`) serves every serde made
without one of its own; the executors register themselves there with their ``register()``
class method (``CelExecutor.register()``).
"""

from __future__ import annotations

import threading
from typing import Dict, List, Optional

from attrs import define as _define

from .common.serde import RuleAction, RuleExecutor

__all__ = ["RuleOverride", "RuleRegistry"]


@_define(frozen=True)
class RuleOverride:
    """Replaces, for every rule of one type, what the schema says about its actions and
    whether it is disabled (None keeps the schema's value).

    :param type: the rule type, e.g. ``CEL``.
    :param on_success: the action to run on success.
    :param on_failure: the action to run on failure.
    :param disabled: whether rules of this type are skipped.
    """

    type: str
    on_success: Optional[str]
    on_failure: Optional[str]
    disabled: Optional[bool]


class RuleRegistry:
    """Rule executors and actions by type, and overrides by rule type. Thread-safe."""

    __slots__ = ["_rule_executors", "_rule_actions", "_rule_overrides", "_lock"]

    def __init__(self) -> None:
        self._rule_executors: Dict[str, RuleExecutor] = {}
        self._rule_actions: Dict[str, RuleAction] = {}
        self._rule_overrides: Dict[str, RuleOverride] = {}
        self._lock = threading.Lock()

    def register_executor(self, rule_executor: RuleExecutor) -> None:
        """Add (or replace) the executor for ``rule_executor.type()``.

        :param rule_executor: the executor.
        """
        with self._lock:
            self._rule_executors[rule_executor.type()] = rule_executor

    def get_executor(self, name: str) -> Optional[RuleExecutor]:
        """The executor for a rule type, or None.

        :param name: the rule type.
        :returns: the executor.
        """
        with self._lock:
            return self._rule_executors.get(name)

    def get_executors(self) -> List[RuleExecutor]:
        """Every registered executor.

        :returns: the executors.
        """
        with self._lock:
            return list(self._rule_executors.values())

    def register_action(self, rule_action: RuleAction) -> None:
        """Add (or replace) the action for ``rule_action.type()``.

        :param rule_action: the action.
        """
        with self._lock:
            self._rule_actions[rule_action.type()] = rule_action

    def get_action(self, name: str) -> Optional[RuleAction]:
        """The action of a type, or None.

        :param name: the action type.
        :returns: the action.
        """
        with self._lock:
            return self._rule_actions.get(name)

    def get_actions(self) -> List[RuleAction]:
        """Every registered action.

        :returns: the actions.
        """
        with self._lock:
            return list(self._rule_actions.values())

    def register_override(self, rule_override: RuleOverride) -> None:
        """Add (or replace) the override for ``rule_override.type``.

        :param rule_override: the override.
        """
        with self._lock:
            self._rule_overrides[rule_override.type] = rule_override

    def get_override(self, name: str) -> Optional[RuleOverride]:
        """The override for a rule type, or None.

        :param name: the rule type.
        :returns: the override.
        """
        with self._lock:
            return self._rule_overrides.get(name)

    def get_overrides(self) -> List[RuleOverride]:
        """Every registered override.

        :returns: the overrides.
        """
        with self._lock:
            return list(self._rule_overrides.values())

    def clear(self) -> None:
        """Forget every executor, action and override."""
        with self._lock:
            self._rule_executors.clear()
            self._rule_actions.clear()
            self._rule_overrides.clear()

    @staticmethod
    def get_global_instance() -> "RuleRegistry":
        """The process-wide registry used by serdes made without one.

        :returns: the registry.
        """
        return _global_instance

    @staticmethod
    def register_rule_executor(rule_executor: RuleExecutor) -> None:
        """Register an executor in the process-wide registry.

        :param rule_executor: the executor.
        """
        _global_instance.register_executor(rule_executor)

    @staticmethod
    def register_rule_action(rule_action: RuleAction) -> None:
        """Register an action in the process-wide registry.

        :param rule_action: the action.
        """
        _global_instance.register_action(rule_action)

    @staticmethod
    def register_rule_override(rule_override: RuleOverride) -> None:
        """Register an override in the process-wide registry.

        :param rule_override: the override.
        """
        _global_instance.register_override(rule_override)


_global_instance = RuleRegistry()
