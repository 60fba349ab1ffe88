"""ACL bindings and the enums they are made of."""

from __future__ import annotations

import functools
from enum import Enum
from typing import Any, Dict, List, Tuple, Union

from .. import cimpl
from ._resource import ResourcePatternType, ResourceType
from ._util import check_not_none, check_strings, string_type, to_enum

__all__ = ["AclBinding", "AclBindingFilter", "AclOperation", "AclPermissionType", "string_type"]


class AclOperation(Enum):
    """An operation that an ACL binding allows or denies."""

    UNKNOWN = cimpl.ACL_OPERATION_UNKNOWN  #: Not known, or not set.
    ANY = cimpl.ACL_OPERATION_ANY  #: In a filter: any operation.
    ALL = cimpl.ACL_OPERATION_ALL  #: Every operation.
    READ = cimpl.ACL_OPERATION_READ  #: Read.
    WRITE = cimpl.ACL_OPERATION_WRITE  #: Write.
    CREATE = cimpl.ACL_OPERATION_CREATE  #: Create.
    DELETE = cimpl.ACL_OPERATION_DELETE  #: Delete.
    ALTER = cimpl.ACL_OPERATION_ALTER  #: Alter.
    DESCRIBE = cimpl.ACL_OPERATION_DESCRIBE  #: Describe.
    CLUSTER_ACTION = cimpl.ACL_OPERATION_CLUSTER_ACTION  #: Cluster action.
    DESCRIBE_CONFIGS = cimpl.ACL_OPERATION_DESCRIBE_CONFIGS  #: Describe configurations.
    ALTER_CONFIGS = cimpl.ACL_OPERATION_ALTER_CONFIGS  #: Alter configurations.
    IDEMPOTENT_WRITE = cimpl.ACL_OPERATION_IDEMPOTENT_WRITE  #: Idempotent write.

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, AclOperation):
            return NotImplemented
        return bool(self.value < other.value)


class AclPermissionType(Enum):
    """Whether an ACL binding allows or denies its operation."""

    UNKNOWN = cimpl.ACL_PERMISSION_TYPE_UNKNOWN  #: Not known, or not set.
    ANY = cimpl.ACL_PERMISSION_TYPE_ANY  #: In a filter: either.
    DENY = cimpl.ACL_PERMISSION_TYPE_DENY  #: Deny the operation.
    ALLOW = cimpl.ACL_PERMISSION_TYPE_ALLOW  #: Allow the operation.

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, AclPermissionType):
            return NotImplemented
        return bool(self.value < other.value)


_AclTuple = Tuple[Any, Any, Any, Any, Any, Any, Any]


@functools.total_ordering
class AclBinding:
    """An ACL: ``principal`` connecting from ``host`` is allowed or denied ``operation`` on the
    resources of type ``restype`` whose name matches ``name``. Given to
    :meth:`AdminClient.create_acls`; :meth:`AdminClient.describe_acls` and
    :meth:`AdminClient.delete_acls` return them.

    Each enum argument also takes the member's name (any case) or its value.

    :param restype: The resource type (not ANY).
    :param name: The resource name (a broker's id for BROKER).
    :param resource_pattern_type: How ``name`` matches (LITERAL or PREFIXED).
    :param principal: The principal, such as ``"User:alice"``.
    :param host: The host the principal connects from (``"*"``: any).
    :param operation: The operation (not ANY).
    :param permission_type: ALLOW or DENY.
    :raises ValueError: A required argument is None, a name or value names no member, or a
        member is one only a filter may use.
    :raises TypeError: A string argument is not a str.
    """

    def __init__(
        self,
        restype: Union[ResourceType, str, int],
        name: str,
        resource_pattern_type: Union[ResourcePatternType, str, int],
        principal: str,
        host: str,
        operation: Union[AclOperation, str, int],
        permission_type: Union[AclPermissionType, str, int],
    ) -> None:
        self.restype: ResourceType = restype  # type: ignore[assignment]  # converted by _check()
        self.name = name
        self.resource_pattern_type: ResourcePatternType = resource_pattern_type  # type: ignore[assignment]
        self.principal = principal
        self.host = host
        self.operation: AclOperation = operation  # type: ignore[assignment]
        self.permission_type: AclPermissionType = permission_type  # type: ignore[assignment]
        self._check()
        # The values, for the C layer.
        self.restype_int = int(self.restype.value)
        self.resource_pattern_type_int = int(self.resource_pattern_type.value)
        self.operation_int = int(self.operation.value)
        self.permission_type_int = int(self.permission_type.value)

    def _required(self) -> List[str]:
        return ["restype", "name", "resource_pattern_type", "principal", "host", "operation", "permission_type"]

    def _refused(self) -> Dict[str, List[Enum]]:
        return {"restype": [ResourceType.ANY],
                "resource_pattern_type": [ResourcePatternType.ANY, ResourcePatternType.MATCH],
                "operation": [AclOperation.ANY], "permission_type": [AclPermissionType.ANY]}

    def _check(self) -> None:
        check_not_none(self, self._required())
        check_strings(self, ["name", "principal", "host"])
        self.restype = to_enum(self.restype, ResourceType)
        self.resource_pattern_type = to_enum(self.resource_pattern_type, ResourcePatternType)
        self.operation = to_enum(self.operation, AclOperation)
        self.permission_type = to_enum(self.permission_type, AclPermissionType)
        for attr, refused in self._refused().items():
            member = getattr(self, attr)
            if member in refused:
                raise ValueError(f"Cannot use enum {attr}, value {member.name} in this class")

    def _to_tuple(self) -> _AclTuple:
        return (self.restype, self.name, self.resource_pattern_type, self.principal, self.host, self.operation,
                self.permission_type)

    def __repr__(self) -> str:
        return "%s(%s,%s,%s,%s,%s,%s,%s)" % ((type(self).__name__,) + self._to_tuple())

    def __hash__(self) -> int:
        return hash(self._to_tuple())

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, AclBinding):
            return NotImplemented
        return self._to_tuple() < other._to_tuple()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, AclBinding):
            return NotImplemented
        return self._to_tuple() == other._to_tuple()


class AclBindingFilter(AclBinding):
    """Matches ACL bindings, for :meth:`AdminClient.describe_acls` and
    :meth:`AdminClient.delete_acls`. ``name``, ``principal`` and ``host`` match anything when
    None; the enums match anything when ANY, and ``resource_pattern_type=MATCH`` selects the
    LITERAL, wildcard and PREFIXED bindings that apply to ``name``. UNKNOWN is refused.

    Takes the parameters of :class:`AclBinding`.
    """

    def _required(self) -> List[str]:
        return ["restype", "resource_pattern_type", "operation", "permission_type"]

    def _refused(self) -> Dict[str, List[Enum]]:
        return {"restype": [ResourceType.UNKNOWN], "resource_pattern_type": [ResourcePatternType.UNKNOWN],
                "operation": [AclOperation.UNKNOWN], "permission_type": [AclPermissionType.UNKNOWN]}


