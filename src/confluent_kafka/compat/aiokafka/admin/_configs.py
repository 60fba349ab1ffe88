"""DescribeConfigs / AlterConfigs results in the protocol's shapes, and AlterConfigs on a broker
that only has IncrementalAlterConfigs."""
from __future__ import annotations

from collections import defaultdict
from typing import Any, Dict, List, Optional, Tuple

import confluent_kafka.admin as _cka
from confluent_kafka.cimpl import KafkaError as _RdKafkaError
from confluent_kafka.compat._native_admin import item_code

from .config_resource import ConfigResource, ConfigResourceType

__all__ = ["by_broker", "described_entry", "incremental_changes", "native", "set_values", "status"]

# Where a value set on the resource itself comes from: what AlterConfigs replaces.
_SET_ON_RESOURCE = (_cka.ConfigSource.DYNAMIC_TOPIC_CONFIG.value, _cka.ConfigSource.DYNAMIC_BROKER_CONFIG.value)


def by_broker(resources: List[ConfigResource]) -> Tuple[Dict[int, List[ConfigResource]], List[ConfigResource]]:
    """Split resources as aiokafka sends them: one request per broker, one for every topic.

    :returns: ``({broker id: [resources]}, [topic resources])``.
    :raises ValueError: for a broker resource whose name is not a broker id.
    :raises TypeError: for an item that is not a :class:`ConfigResource`.
    """
    brokers: Dict[int, List[ConfigResource]] = defaultdict(list)
    topics: List[ConfigResource] = []
    for r in resources:
        if not isinstance(r, ConfigResource):
            raise TypeError(f"config_resources must hold ConfigResource objects, got {r!r}")
        if r.resource_type == ConfigResourceType.BROKER:
            brokers[int(r.name)].append(r)
        else:
            topics.append(r)
    return brokers, topics


def native(r: ConfigResource, **kwargs: Any) -> Any:
    """:returns: the native ``ConfigResource`` of the same type and name."""
    return _cka.ConfigResource(int(r.resource_type), str(r.name), **kwargs)


def status(err: Optional[_RdKafkaError]) -> Tuple[int, Optional[str]]:
    """:returns: ``(error_code, error_message)`` of a resource: ``(0, None)`` when it succeeded."""
    return (0, None) if err is None else (item_code(err), err.str())


def _source(entry: Any) -> int:
    """The protocol's number of an entry's source (a ConfigSource, or already its number)."""
    return int(getattr(entry.source, "value", entry.source))


def described_entry(entry: Any, include_synonyms: bool) -> Tuple[Any, ...]:
    """:returns: a native ``ConfigEntry`` as ``(config_names, config_value, read_only,
        config_source, is_sensitive, config_synonyms)``."""
    synonyms = [(s.name, s.value, _source(s)) for s in entry.synonyms.values()] if include_synonyms else []
    return (entry.name, entry.value, entry.is_read_only, _source(entry), entry.is_sensitive, synonyms)


def set_values(r: ConfigResource) -> Dict[str, str]:
    """:returns: the values to set on a resource, as strings.

    :raises TypeError: for configs that are not a dict, or a None value.
    """
    if not isinstance(r.configs, dict):
        raise TypeError(f"ConfigResource {r.name!r}: configs must be a dict of the values to set, got {r.configs!r}")
    for key, value in r.configs.items():
        if value is None:
            raise TypeError(f"ConfigResource {r.name!r}: config {key!r} has no value to set")
    return {str(k): str(v) for k, v in r.configs.items()}


def incremental_changes(wanted: Dict[str, str], current: Dict[str, Any]) -> List[Any]:
    """The IncrementalAlterConfigs changes that do what AlterConfigs does: set the given keys, and
    reset the other keys set on the resource to their defaults.

    :param wanted: ``{key: value}`` to set.
    :param current: the resource's native ``{key: ConfigEntry}``.
    :returns: native ``ConfigEntry`` changes.
    """
    changes = [_cka.ConfigEntry(k, v, incremental_operation=_cka.AlterConfigOpType.SET) for k, v in wanted.items()]
    for key, entry in current.items():
        if key not in wanted and _source(entry) in _SET_ON_RESOURCE and not entry.is_read_only:
            changes.append(_cka.ConfigEntry(key, None, incremental_operation=_cka.AlterConfigOpType.DELETE))
    return changes
