"""Inline validation rules, with no I/O: CHECK constraints a schema declares on its records and
fields (Avro and JSON Schema: the ``confluent:rules`` property; Protobuf: the ``rules`` of the
``confluent.message_meta`` / ``confluent.field_meta`` options), the executor that evaluates
one, and how a serializer collects the failures of a whole record.

Each rule is an expression (CEL by default) over ``this``, the value it is declared on, that
yields True/False or a string (empty: passed; otherwise the failure message). A serializer
configured with ``validation.rules.execution`` walks the record before (or after) its domain
rules and raises one :class:`SerializationError` listing every failure.

The public names are re-exported by :mod:`confluent_kafka.schema_registry.serde`.
"""

from __future__ import annotations

import abc
from enum import Enum
from typing import Any, Dict, Iterable, List, Optional, Tuple

from ...serialization import SerializationError
from ._rule_framework import RuleError

__all__ = [
    "ValidationRulesExecution",
    "ValidationRule",
    "ValidationRuleError",
    "ValidationRuleExecutor",
    "VALIDATION_RULES_PROP",
    "parse_validation_rules",
    "default_validation_rule_executor",
    "evaluate_validation_rule",
]

#: The schema property (Avro) or keyword (JSON Schema) holding a list of inline rules.
VALIDATION_RULES_PROP = "confluent:rules"


class ValidationRulesExecution(str, Enum):
    """Whether a serializer evaluates inline validation rules, and when: before or after the
    schema's domain rules (transforms) run. A serializer that runs no domain rules validates
    once, whichever of the two is set."""

    DISABLED = "DISABLED"
    BEFORE_DOMAIN_RULES = "BEFORE_DOMAIN_RULES"
    AFTER_DOMAIN_RULES = "AFTER_DOMAIN_RULES"


class ValidationRule:
    """One inline CHECK constraint.

    :param name: the rule's name, reported when it fails.
    :param doc: what it checks, reported when it fails without a message of its own.
    :param expr: the expression evaluated with ``this`` bound to the value.
    :param sql: the constraint as SQL, kept for tools (and reported when there is no ``doc``).
    """

    __slots__ = ["name", "doc", "expr", "sql"]

    def __init__(self, name: Optional[str] = None, doc: Optional[str] = None, expr: Optional[str] = None,
                 sql: Optional[str] = None) -> None:
        self.name = name
        self.doc = doc
        self.expr = expr
        self.sql = sql

    def _key(self) -> Tuple[Optional[str], ...]:
        return self.name, self.doc, self.expr, self.sql

    def __eq__(self, other: Any) -> bool:
        if not isinstance(other, ValidationRule):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"ValidationRule{{name={self.name}, doc={self.doc}, expr={self.expr}, sql={self.sql}}}"


class ValidationRuleError:
    """One failed rule: which rule, where in the record (``addr.zip``, ``tags[2]``,
    ``$.items[0]`` for JSON), the message the rule returned, or the error evaluating it raised.

    :param rule: the rule.
    :param field_path: where it was evaluated; empty or None for the record itself.
    :param message: the failure text the rule returned, if it returned one.
    :param cause: the error raised evaluating the rule, if any.
    """

    __slots__ = ["rule", "field_path", "message", "cause"]

    def __init__(self, rule: ValidationRule, field_path: Optional[str] = None, message: Optional[str] = None,
                 cause: Optional[Exception] = None) -> None:
        self.rule = rule
        self.field_path = field_path
        self.message = message
        self.cause = cause

    def __eq__(self, other: Any) -> bool:
        if not isinstance(other, ValidationRuleError):
            return NotImplemented
        return (self.rule, self.field_path, self.message) == (other.rule, other.field_path, other.message)

    def __hash__(self) -> int:
        return hash((self.rule, self.field_path, self.message))

    def _detail(self) -> Any:
        # The rule's own message first, then what its author wrote about it.
        if self.message:
            return self.message
        rule = self.rule
        if rule is None:
            return None
        return rule.doc or rule.sql or rule.expr

    def __str__(self) -> str:
        where = self.field_path or "<root>"
        name = (self.rule.name if self.rule is not None else None) or "unnamed"
        text = f"{where}: {name}: {self._detail()}"
        if self.cause is not None:
            text += f" (caused by: {self.cause})"
        return text

    def __repr__(self) -> str:
        return f"ValidationRuleError({self})"


class ValidationRuleExecutor(metaclass=abc.ABCMeta):
    """Evaluates one inline rule against one value. Give a serializer your own with
    ``validation.rules.executor``; the default evaluates CEL."""

    @abc.abstractmethod
    def execute(self, rule: ValidationRule, schema: Any, message: Any) -> Any:
        """Evaluate ``rule`` with ``this`` bound to ``message``.

        :param rule: the rule.
        :param schema: the schema the value was read against (for Protobuf fields, its field
            descriptor, which says how to read the value).
        :param message: the value (never None: absent values are not validated).
        :returns: a bool (False: failed) or a str (non-empty: failed, with this text).
        :raises RuleError: when the rule cannot be evaluated (counted as a failure).
        """
        raise NotImplementedError()


def parse_validation_rules(prop_value: Any) -> List[ValidationRule]:
    """The rules of a ``confluent:rules`` value: a list of objects with ``name``, ``doc``,
    ``expr`` and ``sql``. Anything else (and any entry that is not an object) is ignored.

    :param prop_value: the property's value.
    :returns: the rules, possibly none.
    """
    if not isinstance(prop_value, list):
        return []
    return [ValidationRule(entry.get("name"), entry.get("doc"), entry.get("expr"), entry.get("sql"))
            for entry in prop_value if isinstance(entry, dict)]


def default_validation_rule_executor() -> ValidationRuleExecutor:
    """The CEL executor, made on first use (CEL is an optional dependency).

    :returns: a new :class:`~confluent_kafka.schema_registry.rules.cel.cel_validator.CelValidator`.
    :raises ValueError: when the CEL dependencies are not installed.
    """
    try:
        from ..rules.cel.cel_validator import CelValidator
    except ImportError as exc:
        raise ValueError("The default validation rule executor requires the CEL dependencies; install them with "
                         "`pip install confluent-kafka[rules]`, or set validation.rules.executor to a "
                         "ValidationRuleExecutor instance.") from exc
    return CelValidator()


def evaluate_validation_rule(executor: ValidationRuleExecutor, rule: ValidationRule, schema: Any, value: Any,
                             path: str, out: List[ValidationRuleError]) -> None:
    """Evaluate one rule and append a :class:`ValidationRuleError` to ``out`` if it fails. A
    :class:`RuleError` from the executor counts as a failure (the walk goes on).

    :param executor: evaluates the rule.
    :param rule: the rule.
    :param schema: passed to the executor.
    :param value: the value ``this`` is bound to.
    :param path: where the value is in the record.
    :param out: the failures so far.
    :raises ~confluent_kafka.serialization.SerializationError: when the rule yields neither a bool nor a str.
    """
    try:
        result = executor.execute(rule, schema, value)
    except RuleError as exc:
        out.append(ValidationRuleError(rule, path, None, exc))
        return
    if isinstance(result, bool):
        if not result:
            out.append(ValidationRuleError(rule, path, None, None))
    elif isinstance(result, str):
        if result:
            out.append(ValidationRuleError(rule, path, result, None))
    else:
        raise SerializationError("Validation rule '{}' resolved to an unexpected type: {}".format(
            rule.name or "unnamed", type(result).__name__))


def declared_rules(node: Dict[str, Any]) -> List[ValidationRule]:
    """The inline rules an Avro or JSON Schema node (a record, field or property) declares
    under :data:`VALIDATION_RULES_PROP`."""
    return parse_validation_rules(node.get(VALIDATION_RULES_PROP))


def evaluate_rules(executor: ValidationRuleExecutor, rules: Iterable[ValidationRule], schema: Any, value: Any,
                   path: str, fail_fast: bool, out: List[ValidationRuleError]) -> bool:
    """Evaluate ``rules`` on one value in turn (see :func:`evaluate_validation_rule`).

    :returns: True to stop the walk: ``fail_fast`` and a rule failed.
    """
    for rule in rules:
        evaluate_validation_rule(executor, rule, schema, value, path, out)
        if fail_fast and out:
            return True
    return False


def validation_settings(conf: dict) -> Tuple[ValidationRulesExecution, bool, Optional[ValidationRuleExecutor]]:  # type: ignore[type-arg]
    """Pop ``validation.rules.execution``, ``validation.rules.fail.fast`` and
    ``validation.rules.executor`` from ``conf`` and check them. With validation on and no
    executor given, the default one is made now, so a missing dependency shows when the
    serializer is made rather than on the first record.

    :param conf: the serializer configuration (the keys are removed).
    :returns: (when, fail fast, executor).
    :raises ValueError: for a value of the wrong type, or no CEL for the default executor.
    """
    raw = conf.pop("validation.rules.execution", ValidationRulesExecution.DISABLED)
    try:
        execution = ValidationRulesExecution(raw)
    except ValueError:
        raise ValueError("validation.rules.execution must be one of {}".format(
            ", ".join(m.value for m in ValidationRulesExecution)))
    fail_fast = conf.pop("validation.rules.fail.fast", False)
    if not isinstance(fail_fast, bool):
        raise ValueError("validation.rules.fail.fast must be a boolean value")
    executor = conf.pop("validation.rules.executor", None)
    if execution == ValidationRulesExecution.DISABLED:
        return execution, fail_fast, executor
    if executor is None:
        executor = default_validation_rule_executor()
    if not isinstance(executor, ValidationRuleExecutor):
        raise ValueError("validation.rules.executor must be a ValidationRuleExecutor instance")
    return execution, fail_fast, executor


def raise_violations(violations: List[ValidationRuleError]) -> None:
    """Raise one :class:`SerializationError` listing every failure (nothing if none).

    :param violations: the failures.
    :raises ~confluent_kafka.serialization.SerializationError: when there is at least one.
    """
    if not violations:
        return
    count = len(violations)
    lines = ["Validation rule failed ({} violation{}):".format(count, "" if count == 1 else "s")]
    lines.extend(f"  - {violation}" for violation in violations)
    raise SerializationError("\n".join(lines))
