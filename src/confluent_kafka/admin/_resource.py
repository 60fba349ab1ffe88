"""The kinds of Kafka resources, and how an ACL's resource name is matched."""

from __future__ import annotations

from enum import Enum

from .. import cimpl

__all__ = ["ResourcePatternType", "ResourceType"]


class ResourceType(Enum):
    """A kind of resource that configurations and ACLs apply to."""

    UNKNOWN = cimpl.RESOURCE_UNKNOWN  #: Not known, or not set.
    ANY = cimpl.RESOURCE_ANY  #: In a filter: any kind of resource.
    TOPIC = cimpl.RESOURCE_TOPIC  #: A topic, named by the topic name.
    GROUP = cimpl.RESOURCE_GROUP  #: A consumer group, named by its group.id.
    BROKER = cimpl.RESOURCE_BROKER  #: A broker, named by its broker id.
    TRANSACTIONAL_ID = cimpl.RESOURCE_TRANSACTIONAL_ID  #: A transactional id.

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, ResourceType):
            return NotImplemented
        return bool(self.value < other.value)


class ResourcePatternType(Enum):
    """How the resource name of an ACL binding is matched."""

    UNKNOWN = cimpl.RESOURCE_PATTERN_UNKNOWN  #: Not known, or not set.
    ANY = cimpl.RESOURCE_PATTERN_ANY  #: In a filter: any pattern type.
    MATCH = cimpl.RESOURCE_PATTERN_MATCH  #: In a filter: the bindings whose pattern matches the name.
    LITERAL = cimpl.RESOURCE_PATTERN_LITERAL  #: The name is taken literally.
    PREFIXED = cimpl.RESOURCE_PATTERN_PREFIXED  #: The name is a prefix.

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, ResourcePatternType):
            return NotImplemented
        return bool(self.value < other.value)
