"""The Kafka protocol responses some ``AIOKafkaAdminClient`` methods return, built from native results.

aiokafka hands back the decoded response of the request it sent. These classes have the same
names, fields and behaviour for a caller: attributes by field name, arrays as lists of plain
tuples (so ``for topic, code, message in response.topic_errors`` works), ``to_object()`` (the
same as nested dicts), ``get_item(name)``, ``API_KEY``/``API_VERSION``, equality and aiokafka's
repr. Each is the newest version aiokafka 0.14 knows, which is the one it uses with a current
Kafka broker.
"""
from __future__ import annotations

from typing import Any, ClassVar, Dict, Tuple

__all__ = ["AlterConfigsResponse_v1", "CreatePartitionsResponse_v1", "CreateTopicsResponse_v3",
           "DeleteTopicsResponse_v3", "DescribeConfigsResponse_v2", "DescribeGroupsResponse_v3", "Response"]

# A schema is a tuple of (field name, the schema of an array's entries, or None for a plain
# value) pairs; nested, so typed Any here.


def _plain(value: Any) -> str:
    if isinstance(value, bytes) and len(value) > 100:
        return repr(value[:100] + b"...")  # as aiokafka shows long byte strings
    return repr(value)


def _entry_repr(schema: Any, entry: Tuple[Any, ...]) -> str:
    parts = []
    for (name, sub), value in zip(schema, entry):
        parts.append(f"{name}={_array_repr(sub, value) if sub is not None else _plain(value)}")
    return "(" + ", ".join(parts) + ")"


def _array_repr(schema: Any, entries: Any) -> str:
    if entries is None:
        return "NULL"
    return "[" + ", ".join(_entry_repr(schema, e) for e in entries) + "]"


def _as_object(schema: Any, values: Any) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    for (name, sub), value in zip(schema, values):
        out[name] = [_as_object(sub, e) for e in value] if sub is not None else value
    return out


class Response:
    """A decoded protocol response: its fields in schema order, arrays as lists of tuples."""

    API_KEY: ClassVar[int]
    API_VERSION: ClassVar[int]
    FIELDS: ClassVar[Any]

    def __init__(self, *values: Any) -> None:
        if len(values) != len(self.FIELDS):
            raise ValueError("Args must be empty or mirror schema")
        for (name, _), value in zip(self.FIELDS, values):
            self.__dict__[name] = value

    def get_item(self, name: str) -> Any:
        """:returns: the value of field ``name``.

        :raises KeyError: for a name that is not a field.
        """
        if name not in (n for n, _ in self.FIELDS):
            raise KeyError(f"{name} is not in the schema")
        return self.__dict__[name]

    def to_object(self) -> Dict[str, Any]:
        """:returns: the response as a dict, each array entry a dict by field name."""
        return _as_object(self.FIELDS, [self.__dict__[n] for n, _ in self.FIELDS])

    def __repr__(self) -> str:
        inner = _entry_repr(self.FIELDS, tuple(self.__dict__[n] for n, _ in self.FIELDS))
        return type(self).__name__ + inner

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Response):
            return NotImplemented
        return self.FIELDS == other.FIELDS and all(
            self.__dict__[n] == other.__dict__[n] for n, _ in self.FIELDS)

    __hash__ = object.__hash__  # aiokafka's responses hash by identity too


_TOPIC_ERRORS: Any = (("topic", None), ("error_code", None), ("error_message", None))


class CreateTopicsResponse_v3(Response):
    """``throttle_time_ms`` and ``topic_errors``: ``(topic, error_code, error_message)`` per topic."""

    API_KEY = 19
    API_VERSION = 3
    FIELDS = (("throttle_time_ms", None), ("topic_errors", _TOPIC_ERRORS))


class DeleteTopicsResponse_v3(Response):
    """``throttle_time_ms`` and ``topic_error_codes``: ``(topic, error_code)`` per topic."""

    API_KEY = 20
    API_VERSION = 3
    FIELDS = (("throttle_time_ms", None), ("topic_error_codes", (("topic", None), ("error_code", None))))


class CreatePartitionsResponse_v1(Response):
    """``throttle_time_ms`` and ``topic_errors``: ``(topic, error_code, error_message)`` per topic."""

    API_KEY = 37
    API_VERSION = 1
    FIELDS = (("throttle_time_ms", None), ("topic_errors", _TOPIC_ERRORS))


class AlterConfigsResponse_v1(Response):
    """``throttle_time_ms`` and ``resources``: ``(error_code, error_message, resource_type,
    resource_name)`` per resource."""

    API_KEY = 33
    API_VERSION = 1
    FIELDS = (("throttle_time_ms", None),
              ("resources", (("error_code", None), ("error_message", None), ("resource_type", None),
                             ("resource_name", None))))


class DescribeConfigsResponse_v2(Response):
    """``throttle_time_ms`` and ``resources``: ``(error_code, error_message, resource_type,
    resource_name, config_entries)``; each entry ``(config_names, config_value, read_only,
    config_source, is_sensitive, config_synonyms)``, each synonym ``(config_name, config_value,
    config_source)``. (``config_names`` is the key's name: the protocol's field name as aiokafka
    spells it.)"""

    API_KEY = 32
    API_VERSION = 2
    FIELDS = (("throttle_time_ms", None),
              ("resources", (("error_code", None), ("error_message", None), ("resource_type", None),
                             ("resource_name", None),
                             ("config_entries", (("config_names", None), ("config_value", None), ("read_only", None),
                                                 ("config_source", None), ("is_sensitive", None),
                                                 ("config_synonyms", (("config_name", None), ("config_value", None),
                                                                      ("config_source", None))))))))


class DescribeGroupsResponse_v3(Response):
    """``throttle_time_ms`` and ``groups``: ``(error_code, group, state, protocol_type, protocol,
    members, authorized_operations)``; each member ``(member_id, client_id, client_host,
    member_metadata, member_assignment)``."""

    API_KEY = 15
    API_VERSION = 3
    FIELDS = (("throttle_time_ms", None),
              ("groups", (("error_code", None), ("group", None), ("state", None), ("protocol_type", None),
                          ("protocol", None),
                          ("members", (("member_id", None), ("client_id", None), ("client_host", None),
                                       ("member_metadata", None), ("member_assignment", None))),
                          ("authorized_operations", None))))
