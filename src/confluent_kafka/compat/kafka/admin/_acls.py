"""``kafka.admin``'s ACL types: what an ACL applies to (:class:`ResourcePattern`), the ACL itself
(:class:`ACL`) and the filters that describe and delete ACLs match with (:class:`ACLFilter`,
:class:`ResourcePatternFilter`). The enums carry the Kafka protocol's numbers."""
from __future__ import annotations

from enum import IntEnum
from typing import Any, Iterable, Set

from confluent_kafka.compat.kafka.errors import IllegalArgumentError

__all__ = ["ACL", "ACLFilter", "ResourcePattern", "ResourcePatternFilter", "ACLOperation", "ResourceType",
           "ACLPermissionType", "ACLResourcePatternType", "valid_acl_operations"]


class ResourceType(IntEnum):
    """The kind of resource an ACL is about (``ANY`` only in a filter)."""

    UNKNOWN = 0
    ANY = 1
    TOPIC = 2
    GROUP = 3
    CLUSTER = 4
    TRANSACTIONAL_ID = 5
    DELEGATION_TOKEN = 6
    USER = 7


class ACLOperation(IntEnum):
    """The operation an ACL allows or denies (``ANY`` only in a filter)."""

    UNKNOWN = 0
    ANY = 1
    ALL = 2
    READ = 3
    WRITE = 4
    CREATE = 5
    DELETE = 6
    ALTER = 7
    DESCRIBE = 8
    CLUSTER_ACTION = 9
    DESCRIBE_CONFIGS = 10
    ALTER_CONFIGS = 11
    IDEMPOTENT_WRITE = 12
    CREATE_TOKENS = 13
    DESCRIBE_TOKENS = 14


class ACLPermissionType(IntEnum):
    """Whether an ACL allows or denies (``ANY`` only in a filter)."""

    UNKNOWN = 0
    ANY = 1
    DENY = 2
    ALLOW = 3


class ACLResourcePatternType(IntEnum):
    """How an ACL's resource name matches (KIP-290): literally or as a prefix. ``ANY`` and
    ``MATCH`` only in a filter."""

    UNKNOWN = 0
    ANY = 1
    MATCH = 2
    LITERAL = 3
    PREFIXED = 4


class ResourcePatternFilter:
    """Which resources a filter matches: resource type, name (None: any) and pattern type."""

    def __init__(self, resource_type: ResourceType, resource_name: Any, pattern_type: ACLResourcePatternType) -> None:
        self.resource_type = resource_type
        self.resource_name = resource_name
        self.pattern_type = pattern_type
        self.validate()

    def validate(self) -> None:
        """:raises IllegalArgumentError: the type or the pattern type is not one of the enums."""
        if not isinstance(self.resource_type, ResourceType):
            raise IllegalArgumentError("resource_type must be a ResourceType")
        if not isinstance(self.pattern_type, ACLResourcePatternType):
            raise IllegalArgumentError("pattern_type must be an ACLResourcePatternType")

    def __repr__(self) -> str:
        return (f"<ResourcePattern type={self.resource_type.name}, name={self.resource_name}, "
                f"pattern={self.pattern_type.name}>")

    def __eq__(self, other: Any) -> bool:
        return bool(self.resource_type == other.resource_type and self.resource_name == other.resource_name
                and self.pattern_type == other.pattern_type)

    def __hash__(self) -> int:
        return hash((self.resource_type, self.resource_name, self.pattern_type))


class ResourcePattern(ResourcePatternFilter):
    """The resource a concrete ACL applies to (no ``ANY`` type, no ``ANY``/``MATCH`` pattern)."""

    def __init__(self, resource_type: ResourceType, resource_name: Any,
                 pattern_type: ACLResourcePatternType = ACLResourcePatternType.LITERAL) -> None:
        super().__init__(resource_type, resource_name, pattern_type)
        self.validate()

    def validate(self) -> None:
        """:raises IllegalArgumentError: for a filter-only type or pattern type."""
        if self.resource_type == ResourceType.ANY:
            raise IllegalArgumentError("a ResourcePattern's resource_type cannot be ANY")
        if self.pattern_type in (ACLResourcePatternType.ANY, ACLResourcePatternType.MATCH):
            raise IllegalArgumentError(f"a ResourcePattern's pattern_type cannot be {self.pattern_type.name}")


class ACLFilter:
    """Which ACLs to describe or delete: principal and host (None: any), operation, permission type
    and a :class:`ResourcePatternFilter`."""

    def __init__(self, principal: Any, host: Any, operation: ACLOperation, permission_type: ACLPermissionType,
                 resource_pattern: ResourcePatternFilter) -> None:
        self.principal = principal
        self.host = host
        self.operation = operation
        self.permission_type = permission_type
        self.resource_pattern = resource_pattern
        self.validate()

    def validate(self) -> None:
        """:raises IllegalArgumentError: a field is not of its type."""
        if not isinstance(self.operation, ACLOperation):
            raise IllegalArgumentError("operation must be an ACLOperation")
        if not isinstance(self.permission_type, ACLPermissionType):
            raise IllegalArgumentError("permission_type must be an ACLPermissionType")
        if not isinstance(self.resource_pattern, ResourcePatternFilter):
            raise IllegalArgumentError("resource_pattern must be a ResourcePatternFilter")

    def __repr__(self) -> str:
        return (f"<ACL principal={self.principal}, resource={self.resource_pattern}, "
                f"operation={self.operation.name}, type={self.permission_type.name}, host={self.host}>")

    def __eq__(self, other: Any) -> bool:
        return bool(self.principal == other.principal and self.host == other.host
                and self.operation == other.operation and self.permission_type == other.permission_type
                and self.resource_pattern == other.resource_pattern)

    def __hash__(self) -> int:
        return hash((self.principal, self.host, self.operation, self.permission_type, self.resource_pattern))


class ACL(ACLFilter):
    """A concrete ACL: a principal may (or may not) do an operation on a :class:`ResourcePattern`
    from a host."""

    def __init__(self, principal: Any, host: Any, operation: ACLOperation, permission_type: ACLPermissionType,
                 resource_pattern: ResourcePattern) -> None:
        super().__init__(principal, host, operation, permission_type, resource_pattern)
        self.validate()

    def validate(self) -> None:
        """:raises IllegalArgumentError: for a filter-only operation or permission, or a pattern
            that is only a filter."""
        if self.operation == ACLOperation.ANY:
            raise IllegalArgumentError("an ACL's operation cannot be ANY")
        if self.permission_type == ACLPermissionType.ANY:
            raise IllegalArgumentError("an ACL's permission_type cannot be ANY")
        if not isinstance(self.resource_pattern, ResourcePattern):
            raise IllegalArgumentError("an ACL's resource_pattern must be a ResourcePattern")


def valid_acl_operations(int_vals: Iterable[int]) -> Set[ACLOperation]:
    """:returns: the concrete operations among protocol numbers (UNKNOWN, ANY and ALL left out)."""
    return {ACLOperation(v) for v in int_vals if v not in (0, 1, 2)}
