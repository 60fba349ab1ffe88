"""The data-contract rule framework, with no I/O: what a rule executor and a rule action see
(:class:`RuleContext`, :class:`FieldContext`), their base classes, the built-in ``ERROR`` and
``NONE`` actions, and :class:`RuleRunner`, which runs a schema's rules in order for a serde.

The public names are re-exported by :mod:`confluent_kafka.schema_registry.common.serde` (and
so by :mod:`confluent_kafka.schema_registry.serde`), upstream's module for them.
"""

from __future__ import annotations

import abc
import contextvars
import logging
from enum import Enum
from typing import Any, Callable, Dict, List, Optional, Set

from ...serialization import MessageField, SerializationContext, SerializationError
from ..wildcard_matcher import wildcard_match
from .schema_registry_client import RegisteredSchema, Rule, RuleKind, RuleMode, RulePhase, RuleSet, Schema

log = logging.getLogger("confluent_kafka.schema_registry.common.serde")

#: Headers the DLQ action puts on a record it sends; a record read back carrying
#: ``__rule.name`` skips the rule that sent it.
DLQ_HEADER_PREFIX = "__rule."
DLQ_RULE_NAME_HEADER = DLQ_HEADER_PREFIX + "name"
DLQ_RULE_MODE_HEADER = DLQ_HEADER_PREFIX + "mode"
DLQ_RULE_SUBJECT_HEADER = DLQ_HEADER_PREFIX + "subject"
DLQ_RULE_TOPIC_HEADER = DLQ_HEADER_PREFIX + "topic"
DLQ_RULE_EXCEPTION_HEADER = DLQ_HEADER_PREFIX + "exception"

# The key of the record being (de)serialized, as the key serde last saw it in this thread or
# task, for the value serde's rule actions (the DLQ action sends it along). The value serde
# clears it when done, so it never leaks into the next record.
_ORIGINAL_KEY: "contextvars.ContextVar[Any]" = contextvars.ContextVar("sr_original_key", default=None)


def set_original_key(key: Any) -> None:
    """Remember the record's key for the value serde's rule actions.

    :param key: the key (as given to the key serializer, or the key bytes read).
    """
    _ORIGINAL_KEY.set(key)


def get_original_key() -> Any:
    """The key remembered by :func:`set_original_key`, or None.

    :returns: the key.
    """
    return _ORIGINAL_KEY.get()


def clear_original_key() -> None:
    """Forget the remembered key."""
    _ORIGINAL_KEY.set(None)


class FieldType(str, Enum):
    """The kind of a field a field-level rule visits."""

    RECORD = "RECORD"
    ENUM = "ENUM"
    ARRAY = "ARRAY"
    MAP = "MAP"
    COMBINED = "COMBINED"
    FIXED = "FIXED"
    STRING = "STRING"
    BYTES = "BYTES"
    INT = "INT"
    LONG = "LONG"
    FLOAT = "FLOAT"
    DOUBLE = "DOUBLE"
    BOOLEAN = "BOOLEAN"
    NULL = "NULL"


_PRIMITIVES = frozenset((FieldType.INT, FieldType.LONG, FieldType.FLOAT, FieldType.DOUBLE, FieldType.BOOLEAN,
                         FieldType.NULL, FieldType.STRING, FieldType.BYTES))


class FieldContext:
    """The field a field-level transform is applied to.

    ``name`` and ``full_name`` are the registered schema's names for the field (what rules and
    metadata tags refer to); ``containing_message`` is the application's record holding it, and
    ``field_descriptor`` the Protobuf ``FieldDescriptor`` of the application's class (None for
    Avro and JSON).

    :param containing_message: the record holding the field.
    :param full_name: the field's qualified name (``User.email``, ``$.email``).
    :param name: the field's name.
    :param field_type: its :class:`FieldType`.
    :param tags: its tags (inline ``confluent:tags`` and metadata tags).
    :param field_descriptor: the Protobuf field descriptor, if any.
    """

    __slots__ = ["containing_message", "full_name", "name", "field_type", "tags", "field_descriptor"]

    def __init__(self, containing_message: Any, full_name: str, name: str, field_type: FieldType, tags: Set[str],
                 field_descriptor: Any = None) -> None:
        self.containing_message = containing_message
        self.full_name = full_name
        self.name = name
        self.field_type = field_type
        self.tags = tags
        self.field_descriptor = field_descriptor

    def is_primitive(self) -> bool:
        """Whether the field holds a single scalar value (not a record, enum, array, map,
        union or fixed).

        :returns: True for int, long, float, double, boolean, null, string and bytes.
        """
        return self.field_type in _PRIMITIVES

    def type_name(self) -> str:
        """The field's type name, e.g. ``STRING``.

        :returns: the name.
        """
        return self.field_type.name


class RuleContext:
    """What a rule executor or action is given: the rule, where it runs, the schemas, and (for
    field-level rules) the field being visited.

    :param enabled_env: the rule set's ``enableAt``.
    :param ser_ctx: the serialization context.
    :param source: the schema migrated from (migration rules), else None.
    :param target: the schema whose rules run.
    :param subject: the subject.
    :param rule_mode: the mode the rules run in (WRITE, READ, UPGRADE or DOWNGRADE).
    :param rule: the rule.
    :param index: its position in ``rules``.
    :param rules: the rules running, in order.
    :param inline_tags: tags declared in the schema, by field name.
    :param field_transformer: walks a record for a field-level rule.
    :param original_key: the record's key.
    :param original_value: the record's value as given (the bytes read, on READ).
    """

    __slots__ = ["enabled_env", "ser_ctx", "source", "target", "subject", "rule_mode", "rule", "index", "rules",
                 "inline_tags", "field_transformer", "original_key", "original_value", "_field_contexts"]

    def __init__(self, enabled_env: Optional[str], ser_ctx: SerializationContext, source: Optional[Schema],
                 target: Optional[Schema], subject: str, rule_mode: RuleMode, rule: Rule, index: int,
                 rules: List[Rule], inline_tags: Optional[Dict[str, Set[str]]], field_transformer: Any,
                 original_key: Any = None, original_value: Any = None) -> None:
        self.enabled_env = enabled_env
        self.ser_ctx = ser_ctx
        self.source = source
        self.target = target
        self.subject = subject
        self.rule_mode = rule_mode
        self.rule = rule
        self.index = index
        self.rules = rules
        self.inline_tags = inline_tags
        self.field_transformer = field_transformer
        self.original_key = original_key
        self.original_value = original_value
        self._field_contexts: List[FieldContext] = []

    def get_parameter(self, name: str) -> Optional[str]:
        """A rule parameter: the rule's own ``params``, else the target schema's metadata
        property of that name.

        :param name: the parameter.
        :returns: its value, or None.
        """
        params = self.rule.params
        if params is not None:
            value = params.params.get(name)
            if value is not None:
                return value
        metadata = self.target.metadata if self.target is not None else None
        if metadata is not None and metadata.properties is not None:
            value = metadata.properties.properties.get(name)
            if value is not None:
                return value
        return None

    def _get_inline_tags(self, name: str) -> Set[str]:
        if self.inline_tags is None:
            return set()
        return self.inline_tags.get(name, set())

    def current_field(self) -> Optional[FieldContext]:
        """The field being visited, or None at the top level.

        :returns: the field context.
        """
        return self._field_contexts[-1] if self._field_contexts else None

    def enter_field(self, containing_message: Any, full_name: str, name: str, field_type: FieldType,
                    tags: Optional[Set[str]], field_descriptor: Any = None) -> FieldContext:
        """Start visiting a field: its tags are ``tags`` (or the inline tags known by its
        name) plus the metadata tags whose pattern matches its full name.

        :param containing_message: the record holding the field.
        :param full_name: its qualified name.
        :param name: its name.
        :param field_type: its type.
        :param tags: its inline tags, or None to look them up.
        :param field_descriptor: the Protobuf field descriptor, if any.
        :returns: the new field context.
        """
        every = set(tags if tags is not None else self._get_inline_tags(full_name))
        every.update(self.get_tags(full_name))
        field_ctx = FieldContext(containing_message, full_name, name, field_type, every, field_descriptor)
        self._field_contexts.append(field_ctx)
        return field_ctx

    def get_tags(self, full_name: str) -> Set[str]:
        """The target schema's metadata tags whose pattern matches ``full_name``.

        :param full_name: a field's qualified name.
        :returns: the tags.
        """
        found: Set[str] = set()
        metadata = self.target.metadata if self.target is not None else None
        if metadata is not None and metadata.tags is not None:
            for pattern, tags in metadata.tags.tags.items():
                if wildcard_match(full_name, pattern):
                    found.update(tags)
        return found

    def exit_field(self) -> None:
        """Stop visiting the current field."""
        if self._field_contexts:
            self._field_contexts.pop()


#: ``transform(rule_ctx, field_ctx, value) -> new value`` (or a bool, for conditions).
FieldTransform = Callable[[RuleContext, FieldContext, Any], Any]

#: ``transformer(rule_ctx, field_transform, message) -> message``: walks a record, applying
#: the field transform to each field the rule's tags select.
FieldTransformer = Callable[[RuleContext, FieldTransform, Any], Any]


class RuleBase(metaclass=abc.ABCMeta):
    """What rule executors and actions have: a type name, configuration and closing."""

    def configure(self, client_conf: dict, rule_conf: dict) -> None:  # type: ignore[type-arg]
        """Called by each serde made with this executor or action in its registry.

        :param client_conf: the Schema Registry client's configuration.
        :param rule_conf: the serde's ``rule_conf``.
        """

    @abc.abstractmethod
    def type(self) -> str:
        """The rule (or action) type this handles, e.g. ``CEL``.

        :returns: the type.
        """
        raise NotImplementedError()

    def close(self) -> None:
        """Release what this holds."""


class RuleExecutor(RuleBase):
    """Runs a rule on a whole message."""

    @abc.abstractmethod
    def transform(self, ctx: RuleContext, message: Any) -> Any:
        """Run the rule.

        :param ctx: the rule context.
        :param message: the message.
        :returns: for a CONDITION, whether it holds; for a TRANSFORM, the new message.
        """
        raise NotImplementedError()


class FieldRuleExecutor(RuleExecutor):
    """Runs a rule on each field of a message that the rule's tags select."""

    @abc.abstractmethod
    def new_transform(self, ctx: RuleContext) -> FieldTransform:
        """The function applied to each selected field.

        :param ctx: the rule context.
        :returns: the field transform.
        """
        raise NotImplementedError()

    def transform(self, ctx: RuleContext, message: Any) -> Any:
        """Walk ``message`` with the serde's field transformer. Of several transforms of this
        kind with the same tags, only the first runs on write and the last on read.

        :param ctx: the rule context.
        :param message: the message.
        :returns: the message, transformed.
        """
        if ctx.rule_mode in (RuleMode.WRITE, RuleMode.UPGRADE):
            others = ctx.rules[:ctx.index]
        elif ctx.rule_mode in (RuleMode.READ, RuleMode.DOWNGRADE):
            others = ctx.rules[ctx.index + 1:]
        else:
            others = []
        if any(FieldRuleExecutor.are_transforms_with_same_tag(ctx.rule, other) for other in others):
            return message
        return ctx.field_transformer(ctx, self.new_transform(ctx), message)

    @staticmethod
    def are_transforms_with_same_tag(rule1: Rule, rule2: Rule) -> bool:
        """Whether two rules are transforms of the same type and mode over the same tags.

        :param rule1: a rule.
        :param rule2: another.
        :returns: True when they are.
        """
        return (bool(rule1.tags) and rule1.kind == RuleKind.TRANSFORM and rule1.kind == rule2.kind
                and rule1.mode == rule2.mode and rule1.type == rule2.type and rule1.tags == rule2.tags)


class RuleAction(RuleBase):
    """Runs after a rule: ``onSuccess`` or ``onFailure``."""

    @abc.abstractmethod
    def run(self, ctx: RuleContext, message: Any, ex: Optional[Exception]) -> None:
        """Act on the rule's outcome.

        :param ctx: the rule context.
        :param message: the message.
        :param ex: what made the rule fail, if it failed with an error.
        """
        raise NotImplementedError()


def _where(ser_ctx: Optional[SerializationContext]) -> str:
    if ser_ctx is None:
        return ""
    return f"topic {ser_ctx.topic!r} {ser_ctx.field}: "


def rule_failure_text(ctx: RuleContext, ex: Optional[BaseException]) -> str:
    """What a failed rule's SerializationError says: where, which rule, and why.

    :param ctx: the rule context.
    :param ex: the cause, if any.
    :returns: the text.
    """
    rule = ctx.rule
    kind = rule.kind.value if rule.kind is not None else "rule"
    mode = ctx.rule_mode.value if ctx.rule_mode is not None else "?"
    why = str(ex) if ex is not None and str(ex) else (type(ex).__name__ if ex is not None
                                                       else "it returned no message")
    return (f"{_where(ctx.ser_ctx)}{kind} rule {rule.name!r} (type {rule.type}, {mode}, subject "
            f"{ctx.subject!r}) failed: {why}")


class ErrorAction(RuleAction):
    """The ``ERROR`` action: fail the (de)serialization with a SerializationError whose cause
    is the rule's error."""

    def type(self) -> str:
        return "ERROR"

    def run(self, ctx: RuleContext, message: Any, ex: Optional[Exception]) -> None:
        """Raise.

        :raises ~confluent_kafka.serialization.SerializationError: always, from ``ex``.
        """
        if ex is None:
            raise SerializationError(rule_failure_text(ctx, None))
        raise SerializationError(rule_failure_text(ctx, ex)) from ex


class NoneAction(RuleAction):
    """The ``NONE`` action: do nothing."""

    def type(self) -> str:
        return "NONE"

    def run(self, ctx: RuleContext, message: Any, ex: Optional[Exception]) -> None:
        """Nothing."""


class RuleError(Exception):
    """A data-contract rule failed."""


class RuleConditionError(RuleError):
    """A CONDITION rule was not met.

    :param rule: the rule.
    """

    def __init__(self, rule: Rule) -> None:
        super().__init__(RuleConditionError.error_message(rule))

    @staticmethod
    def error_message(rule: Rule) -> str:
        """The rule's ``doc``, else its expression, else its name.

        :param rule: the rule.
        :returns: the text.
        """
        if rule.doc:
            return str(rule.doc)
        if rule.expr:
            return f"Rule expr failed: {rule.expr}"
        return f"Rule failed: {rule.name}"


def _keeps_field_result(ctx: RuleContext, result: Any) -> bool:
    """What a field-level rule's result means for its field: True, the result replaces the field
    (a TRANSFORM); False, the field stays (a CONDITION, which fails the rule when ``result`` is
    False)."""
    if ctx.rule.kind != RuleKind.CONDITION:
        return True
    if result is False:
        raise RuleConditionError(ctx.rule)
    return False


class Migration:
    """A step between two registered versions, for migration rules.

    :param rule_mode: UPGRADE or DOWNGRADE.
    :param source: the version migrated from.
    :param target: the version migrated to.
    """

    __slots__ = ["rule_mode", "source", "target"]

    def __init__(self, rule_mode: RuleMode, source: Optional[RegisteredSchema],
                 target: Optional[RegisteredSchema]) -> None:
        self.rule_mode = rule_mode
        self.source = source
        self.target = target


def _header_value(headers: Any, name: str) -> Any:
    if isinstance(headers, dict):
        return headers.get(name)
    found = None
    for key, value in headers:
        if key == name:
            found = value  # the last one wins
    return found


def has_rules(rule_set: Optional[RuleSet], phase: RulePhase, mode: RuleMode) -> bool:
    """Whether ``rule_set`` has rules of ``phase`` that run in ``mode``.

    :param rule_set: the rule set.
    :param phase: MIGRATION, DOMAIN or ENCODING.
    :param mode: the mode.
    :returns: True when it has.
    """
    if rule_set is None:
        return False
    rules = {RulePhase.MIGRATION: rule_set.migration_rules, RulePhase.DOMAIN: rule_set.domain_rules,
             RulePhase.ENCODING: rule_set.encoding_rules}.get(phase) or []
    if mode in (RuleMode.UPGRADE, RuleMode.DOWNGRADE):
        return any(r.mode in (mode, RuleMode.UPDOWN) for r in rules)
    if mode in (RuleMode.WRITE, RuleMode.READ):
        return any(r.mode in (mode, RuleMode.WRITEREAD) for r in rules)
    return any(r.mode == mode for r in rules)


def _applies(rule: Rule, rule_mode: RuleMode) -> bool:
    if rule.mode == RuleMode.WRITEREAD:
        return rule_mode in (RuleMode.READ, RuleMode.WRITE)
    if rule.mode == RuleMode.UPDOWN:
        return rule_mode in (RuleMode.UPGRADE, RuleMode.DOWNGRADE)
    return rule.mode == rule_mode


class RuleRunner:
    """Runs a schema's rules for a serde: which rules, in which order, with which executor,
    and which action follows. Pure logic: executors and actions do their own work."""

    _rule_registry: Any
    _registry: Any

    def _init_rules(self, rule_conf: Optional[Dict[str, Any]], rule_registry: Any) -> None:
        from ..rule_registry import RuleRegistry

        self._rule_registry = rule_registry if rule_registry else RuleRegistry.get_global_instance()
        client_conf = self._registry.config() if self._registry is not None else {}
        for executor in self._rule_registry.get_executors():
            executor.configure(client_conf, rule_conf if rule_conf else {})
        for action in self._rule_registry.get_actions():
            action.configure(client_conf, rule_conf if rule_conf else {})

    def _execute_rules(self, ser_ctx: SerializationContext, subject: str, rule_mode: RuleMode,
                       source: Optional[Schema], target: Optional[Schema], message: Any,
                       inline_tags: Optional[Dict[str, Set[str]]], field_transformer: Optional[FieldTransformer],
                       original_message: Any = None) -> Any:
        return self._execute_rules_with_phase(ser_ctx, subject, RulePhase.DOMAIN, rule_mode, source, target, message,
                                              inline_tags, field_transformer, original_message)

    def _execute_rules_with_phase(self, ser_ctx: SerializationContext, subject: str, rule_phase: RulePhase,
                                  rule_mode: RuleMode, source: Optional[Schema], target: Optional[Schema],
                                  message: Any, inline_tags: Optional[Dict[str, Set[str]]],
                                  field_transformer: Optional[FieldTransformer], original_message: Any = None) -> Any:
        if message is None or target is None:
            return message
        if original_message is None:
            original_message = message
        enabled_env: Optional[str] = None
        rules: List[Rule] = []
        if rule_mode == RuleMode.UPGRADE:
            if target.rule_set is not None:
                enabled_env = target.rule_set.enable_at
                rules = list(target.rule_set.migration_rules or [])
        elif rule_mode == RuleMode.DOWNGRADE:
            if source is not None and source.rule_set is not None:
                enabled_env = source.rule_set.enable_at
                rules = list(reversed(source.rule_set.migration_rules or []))
        elif target.rule_set is not None:
            enabled_env = target.rule_set.enable_at
            rules = list((target.rule_set.encoding_rules if rule_phase == RulePhase.ENCODING
                          else target.rule_set.domain_rules) or [])
            if rule_mode == RuleMode.READ:
                rules.reverse()  # read rules undo write rules: last first
        if not rules:
            return message

        is_key = ser_ctx is not None and ser_ctx.field == MessageField.KEY
        original_key = original_message if is_key else get_original_key()
        original_value = None if is_key else original_message

        for index, rule in enumerate(rules):
            ctx = RuleContext(enabled_env, ser_ctx, source, target, subject, rule_mode, rule, index, rules,
                              inline_tags, field_transformer, original_key, original_value)
            if self._is_disabled(ctx, rule) or self._is_dlq_replay(ctx, rule) or not _applies(rule, rule_mode):
                continue
            if rule.type is None:
                self._run_action(ctx, rule_mode, rule, self._get_on_failure(rule), message,
                                 RuleError(f"Rule type is None for rule {rule.name}"), "ERROR")
                return message
            executor = self._rule_registry.get_executor(rule.type.upper())
            if executor is None:
                self._run_action(ctx, rule_mode, rule, self._get_on_failure(rule), message,
                                 RuleError(f"Could not find rule executor of type {rule.type}"), "ERROR")
                return message
            try:
                result = executor.transform(ctx, message)
                if rule.kind == RuleKind.CONDITION:
                    if not result:
                        raise RuleConditionError(rule)
                elif rule.kind == RuleKind.TRANSFORM:
                    message = result
                failed = message is None
                self._run_action(ctx, rule_mode, rule,
                                 self._get_on_failure(rule) if failed else self._get_on_success(rule),
                                 message, None, "ERROR" if failed else "NONE")
            except SerializationError:
                raise
            except Exception as exc:  # noqa: BLE001 - the rule's failure, handed to its action
                self._run_action(ctx, rule_mode, rule, self._get_on_failure(rule), message, exc, "ERROR")
        return message

    def _override(self, rule: Rule) -> Any:
        return self._rule_registry.get_override(rule.type) if rule.type is not None else None

    def _get_on_success(self, rule: Rule) -> Optional[str]:
        override = self._override(rule)
        if override is not None and override.on_success is not None:
            return str(override.on_success)
        return rule.on_success

    def _get_on_failure(self, rule: Rule) -> Optional[str]:
        override = self._override(rule)
        if override is not None and override.on_failure is not None:
            return str(override.on_failure)
        return rule.on_failure

    def _is_disabled(self, ctx: RuleContext, rule: Rule) -> Optional[bool]:
        if rule.type is None:
            return rule.disabled
        override = self._override(rule)
        if override is not None and override.disabled is not None:
            return bool(override.disabled)
        enabled_env = ctx.enabled_env if ctx.enabled_env is not None else "ALL"
        if enabled_env not in ("ALL", "CLIENT"):
            return True
        return rule.disabled

    def _is_dlq_replay(self, ctx: RuleContext, rule: Rule) -> bool:
        headers = ctx.ser_ctx.headers if ctx.ser_ctx is not None else None
        if not headers or rule.name is None:
            return False
        value = _header_value(headers, DLQ_RULE_NAME_HEADER)
        if value is None:
            return False
        if isinstance(value, (bytes, bytearray)):
            try:
                value = bytes(value).decode("utf-8")
            except UnicodeDecodeError:
                return False
        return bool(value == rule.name)

    def _run_action(self, ctx: RuleContext, rule_mode: RuleMode, rule: Rule, action: Optional[str], message: Any,
                    ex: Optional[Exception], default_action: str) -> None:
        name = self._get_rule_action_name(rule, rule_mode, action) or default_action
        rule_action = self._get_rule_action(ctx, name)
        if rule_action is None:
            log.error("Could not find rule action of type %s", name)
            raise RuleError(f"Could not find rule action of type {name}")
        try:
            rule_action.run(ctx, message, ex)
        except SerializationError:
            raise
        except Exception as exc:  # noqa: BLE001 - a broken action must not hide the record's fate
            log.warning("Could not run post-rule action %s: %s", name, exc)

    def _get_rule_action_name(self, rule: Rule, rule_mode: RuleMode, action_name: Optional[str]) -> Optional[str]:
        if not action_name:
            return None
        # "WRITE_ACTION,READ_ACTION" for rules that run both ways.
        if rule.mode in (RuleMode.WRITEREAD, RuleMode.UPDOWN) and "," in action_name:
            parts = action_name.split(",")
            if rule_mode in (RuleMode.WRITE, RuleMode.UPGRADE):
                return parts[0]
            if rule_mode in (RuleMode.READ, RuleMode.DOWNGRADE):
                return parts[1]
        return action_name

    def _get_rule_action(self, ctx: RuleContext, action_name: str) -> Optional[RuleAction]:
        if action_name == "ERROR":
            return ErrorAction()
        if action_name == "NONE":
            return NoneAction()
        found: Optional[RuleAction] = self._rule_registry.get_action(action_name)
        return found

    def _has_rules(self, rule_set: Optional[RuleSet], phase: RulePhase, mode: RuleMode) -> bool:
        return has_rules(rule_set, phase, mode)

    def _execute_migrations(self, ser_ctx: SerializationContext, subject: str, migrations: List[Migration],
                            message: Any) -> Any:
        for migration in migrations:
            if migration.source is not None and migration.target is not None:
                message = self._execute_rules_with_phase(ser_ctx, subject, RulePhase.MIGRATION, migration.rule_mode,
                                                         migration.source.schema, migration.target.schema, message,
                                                         None, None)
        return message

    def _close_rule_registry(self) -> None:
        from ..rule_registry import RuleRegistry

        registry = getattr(self, "_rule_registry", None)
        if registry is None or registry is RuleRegistry.get_global_instance():
            return  # the global registry's members serve every serde of the process
        for action in registry.get_actions():
            try:
                action.close()
            except Exception as exc:  # noqa: BLE001 - one failure must not skip the rest
                log.warning("Error closing rule action %s: %s", type(action).__name__, exc)
        for executor in registry.get_executors():
            try:
                executor.close()
            except Exception as exc:  # noqa: BLE001
                log.warning("Error closing rule executor %s: %s", type(executor).__name__, exc)
