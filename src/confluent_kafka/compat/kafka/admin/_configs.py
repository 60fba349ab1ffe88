"""``kafka.admin``'s config types: :class:`ConfigResource` and the enums of the Kafka protocol's
config APIs."""
from __future__ import annotations

from enum import IntEnum
from typing import Any, Optional, Union

from confluent_kafka.compat.kafka.admin._enums import EnumHelper

__all__ = ["AlterConfigOp", "ConfigFilterType", "ConfigResource", "ConfigResourceType", "ConfigType",
           "ConfigSourceType"]


class AlterConfigOp(EnumHelper, IntEnum):
    """What an incremental alter does with a config key."""

    SET = 0
    DELETE = 1
    APPEND = 2
    SUBTRACT = 3


class ConfigResourceType(EnumHelper, IntEnum):
    """Kinds of config resource, with the Kafka protocol's numbers."""

    UNKNOWN = 0
    TOPIC = 2
    BROKER = 4
    BROKER_LOGGER = 8
    CLIENT_METRICS = 16
    GROUP = 32


class ConfigType(EnumHelper, IntEnum):
    """The type of a config value, as DescribeConfigs reports it."""

    UNKNOWN = 0
    BOOLEAN = 1
    STRING = 2
    INT = 3
    SHORT = 4
    LONG = 5
    DOUBLE = 6
    LIST = 7
    CLASS = 8
    PASSWORD = 9


class ConfigSourceType(EnumHelper, IntEnum):
    """Where a config value comes from."""

    UNKNOWN = 0
    DYNAMIC_TOPIC_CONFIG = 1
    DYNAMIC_BROKER_CONFIG = 2
    DYNAMIC_DEFAULT_BROKER_CONFIG = 3
    STATIC_BROKER_CONFIG = 4
    DEFAULT_CONFIG = 5
    DYNAMIC_BROKER_LOGGER_CONFIG = 6
    DYNAMIC_CLIENT_METRICS_CONFIG = 7
    DYNAMIC_GROUP_CONFIG = 8

    def is_modified(self) -> bool:
        """:returns: whether a value from this source differs from the defaults (it was set)."""
        return self.value not in (3, 4, 5)

    @classmethod
    def dynamic_for_resource_type(cls, resource_type: ConfigResourceType) -> "ConfigSourceType":
        """:returns: the source a value set dynamically on a resource of this kind reports.

        :raises RuntimeError: for a resource type this enum does not know.
        """
        table = {ConfigResourceType.UNKNOWN: cls.UNKNOWN, ConfigResourceType.TOPIC: cls.DYNAMIC_TOPIC_CONFIG,
                 ConfigResourceType.BROKER: cls.DYNAMIC_BROKER_CONFIG,
                 ConfigResourceType.BROKER_LOGGER: cls.DYNAMIC_BROKER_LOGGER_CONFIG,
                 ConfigResourceType.CLIENT_METRICS: cls.DYNAMIC_CLIENT_METRICS_CONFIG,
                 ConfigResourceType.GROUP: cls.DYNAMIC_GROUP_CONFIG}
        for kind, source in table.items():
            if resource_type is kind:
                return source
        raise RuntimeError(f"Unrecognized resource type {resource_type}")


class ConfigFilterType(EnumHelper, IntEnum):
    """Which configs :meth:`KafkaAdminClient.describe_configs` returns."""

    ALL = 0
    DYNAMIC = 1
    MODIFIED = 2
    DEFAULT = 3
    STATIC = 4

    def should_skip(self, config_source: ConfigSourceType) -> bool:
        """:returns: whether a config from ``config_source`` is left out by this filter."""
        if self is ConfigFilterType.MODIFIED:
            return not config_source.is_modified()
        if self is ConfigFilterType.DEFAULT:
            return config_source.is_modified()
        if self is ConfigFilterType.STATIC:
            return config_source is not ConfigSourceType.STATIC_BROKER_CONFIG
        return False


class ConfigResource:
    """A resource whose configs to describe, alter or reset.

    :param resource_type: a :class:`ConfigResourceType` or its name (``'topic'``).
    :param name: the resource's name (a broker's id for BROKER).
    :param configs: the keys to describe (a list, or a dict whose keys count), or the values to
        set: ``{key: value}`` or ``{key: (AlterConfigOp, value)}``. None: every key.
    """

    def __init__(self, resource_type: Union[str, ConfigResourceType], name: str, configs: Optional[Any] = None) -> None:
        if not isinstance(resource_type, ConfigResourceType):
            resource_type = ConfigResourceType[str(resource_type).upper()]
        self.resource_type = resource_type
        self.name = name
        self.configs = configs

    def __str__(self) -> str:
        return f"ConfigResource {self.name}={self.resource_type}"

    def __repr__(self) -> str:
        return f"ConfigResource({self.resource_type}, {self.name}, {self.configs})"
