"""Configuration resources and entries, for describing and altering configurations."""

from __future__ import annotations

import functools
from enum import Enum
from typing import Any, Dict, List, Optional, Union

from .. import cimpl
from ._resource import ResourceType

__all__ = ["AlterConfigOpType", "ConfigEntry", "ConfigResource", "ConfigSource"]


class AlterConfigOpType(Enum):
    """What :meth:`AdminClient.incremental_alter_configs` does with one configuration entry."""

    SET = cimpl.ALTER_CONFIG_OP_TYPE_SET  #: Set the value.
    DELETE = cimpl.ALTER_CONFIG_OP_TYPE_DELETE  #: Revert to the default value.
    APPEND = cimpl.ALTER_CONFIG_OP_TYPE_APPEND  #: Add the values to a list-type entry.
    SUBTRACT = cimpl.ALTER_CONFIG_OP_TYPE_SUBTRACT  #: Remove the values from a list-type entry.


class ConfigSource(Enum):
    """Where the value of a described configuration entry comes from."""

    UNKNOWN_CONFIG = cimpl.CONFIG_SOURCE_UNKNOWN_CONFIG  #: Not known.
    DYNAMIC_TOPIC_CONFIG = cimpl.CONFIG_SOURCE_DYNAMIC_TOPIC_CONFIG  #: Set on the topic.
    DYNAMIC_BROKER_CONFIG = cimpl.CONFIG_SOURCE_DYNAMIC_BROKER_CONFIG  #: Set dynamically on this broker.
    #: Set dynamically as the default of every broker.
    DYNAMIC_DEFAULT_BROKER_CONFIG = cimpl.CONFIG_SOURCE_DYNAMIC_DEFAULT_BROKER_CONFIG
    STATIC_BROKER_CONFIG = cimpl.CONFIG_SOURCE_STATIC_BROKER_CONFIG  #: The broker's configuration file.
    DEFAULT_CONFIG = cimpl.CONFIG_SOURCE_DEFAULT_CONFIG  #: The built-in default.
    GROUP_CONFIG = cimpl.CONFIG_SOURCE_GROUP_CONFIG  #: Set on the group.


class ConfigEntry:
    """One configuration property. :meth:`AdminClient.describe_configs` returns these; for
    :meth:`AdminClient.incremental_alter_configs` you make them with ``incremental_operation``.

    :param name: The property name.
    :param value: Its value (None when unset or sensitive; ignored by a DELETE operation).
    :param source: Where the value comes from.
    :param is_read_only: Whether the property cannot be changed.
    :param is_default: Whether the value is the default.
    :param is_sensitive: Whether the value is withheld because it is sensitive.
    :param is_synonym: Whether this entry is a synonym of another one.
    :param synonyms: The synonyms of this entry, by name.
    :param incremental_operation: What :meth:`AdminClient.incremental_alter_configs` does.
    """

    def __init__(
        self,
        name: str,
        value: Optional[str],
        source: ConfigSource = ConfigSource.UNKNOWN_CONFIG,
        is_read_only: bool = False,
        is_default: bool = False,
        is_sensitive: bool = False,
        is_synonym: bool = False,
        synonyms: Optional[Dict[str, "ConfigEntry"]] = None,
        incremental_operation: Optional[AlterConfigOpType] = None,
    ) -> None:
        self.name = name
        """The property name."""
        self.value = value
        """Its value, or None when unset or sensitive."""
        self.source = source
        """Where the value comes from (:class:`ConfigSource`)."""
        self.is_read_only = bool(is_read_only)
        """Whether the property cannot be changed."""
        self.is_default = bool(is_default)
        """Whether the value is the default."""
        self.is_sensitive = bool(is_sensitive)
        """Whether the value is withheld because it is sensitive."""
        self.is_synonym = bool(is_synonym)
        """Whether this entry is a synonym of another one."""
        self.synonyms: Dict[str, ConfigEntry] = {} if synonyms is None else synonyms
        """The synonyms of this entry (other names and sources of the same setting), by name."""
        self.incremental_operation = incremental_operation
        """The :class:`AlterConfigOpType` for :meth:`AdminClient.incremental_alter_configs`."""

    def __repr__(self) -> str:
        return f'ConfigEntry({self.name}="{self.value}")'

    def __str__(self) -> str:
        return f'{self.name}="{self.value}"'


@functools.total_ordering
class ConfigResource:
    """A resource that has a configuration, and what to do with it: the key of the futures that
    :meth:`AdminClient.describe_configs`, :meth:`AdminClient.alter_configs` and
    :meth:`AdminClient.incremental_alter_configs` return. Equal, and hashed, by type and name.

    :param restype: The resource type: a :class:`ResourceType`, its name (any case) or value.
    :param name: The resource name (a broker's id for BROKER).
    :param set_config: For :meth:`AdminClient.alter_configs`: the configuration to set (copied).
    :param described_configs: Filled in by the client.
    :param error: Filled in by the client.
    :param incremental_configs: For :meth:`AdminClient.incremental_alter_configs`: the
        :class:`ConfigEntry` changes, each with its ``incremental_operation``.
    :raises ValueError: ``name`` is None, or ``restype`` names no resource type.
    """

    Type = ResourceType

    def __init__(
        self,
        restype: Union[ResourceType, str, int],
        name: str,
        set_config: Optional[Dict[str, str]] = None,
        described_configs: Optional[Dict[str, ConfigEntry]] = None,
        error: Optional[Any] = None,
        incremental_configs: Optional[List[ConfigEntry]] = None,
    ) -> None:
        if name is None:
            raise ValueError("Expected resource name to be a string")
        if isinstance(restype, str):
            try:
                restype = ResourceType[restype.upper()]
            except KeyError:
                raise ValueError(f'Unknown resource type "{restype}": should be a ConfigResource.Type') from None
        elif isinstance(restype, int):
            restype = ResourceType(restype)
        self.restype: Any = restype
        self.restype_int = int(self.restype.value)
        self.name = name
        self.set_config_dict: Dict[str, str] = set_config.copy() if set_config is not None else {}
        self.incremental_configs: List[ConfigEntry] = list(incremental_configs or [])
        self.configs = described_configs
        self.error = error

    def __repr__(self) -> str:
        if self.error is not None:
            return f"ConfigResource({self.restype},{self.name},{self.error!r})"
        return f"ConfigResource({self.restype},{self.name})"

    def __hash__(self) -> int:
        return hash((self.restype, self.name))

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, ConfigResource):
            return NotImplemented
        # Upstream's order: a smaller type sorts first; otherwise the names decide.
        if self.restype < other.restype:
            return True
        return bool(self.name.__lt__(other.name))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ConfigResource):
            return NotImplemented
        return bool(self.restype == other.restype and self.name == other.name)

    def __len__(self) -> int:
        """The number of entries set with :meth:`set_config`."""
        return len(self.set_config_dict)

    def set_config(self, name: str, value: str, overwrite: bool = True) -> None:
        """Set one property for :meth:`AdminClient.alter_configs`, which reverts every property
        it is not given to its default.

        :param name: The property name.
        :param value: Its value.
        :param overwrite: When False, keep a value already set for ``name``.
        """
        if not overwrite and name in self.set_config_dict:
            return
        self.set_config_dict[name] = value

    def add_incremental_config(self, config_entry: ConfigEntry) -> None:
        """Add one change for :meth:`AdminClient.incremental_alter_configs`.

        :param config_entry: The entry, with its ``incremental_operation`` set.
        """
        self.incremental_configs.append(config_entry)
