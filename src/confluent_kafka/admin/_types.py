"""What callers hand to :class:`~confluent_kafka.admin.AdminClient`: request types and enums.

Every enum's values are librdkafka's numeric codes, so ``ResourceType.TOPIC.value`` is the
number the C layer sends. Request types check their arguments when built, so a mistake is
reported where it was made, before anything reaches the network.
"""

from __future__ import annotations

from enum import Enum
from functools import total_ordering
from typing import Any, Dict, Iterable, List, Optional, Tuple, Union

__all__ = [
    "AclBinding",
    "AclBindingFilter",
    "AclOperation",
    "AclPermissionType",
    "AlterConfigOpType",
    "ConfigEntry",
    "ConfigResource",
    "ConfigSource",
    "ConsumerGroupState",
    "ConsumerGroupTopicPartitions",
    "ConsumerGroupType",
    "ElectionType",
    "IsolationLevel",
    "NewPartitions",
    "NewTopic",
    "OffsetSpec",
    "ResourcePatternType",
    "ResourceType",
    "ScramCredentialInfo",
    "ScramMechanism",
    "TopicCollection",
    "UserScramCredentialAlteration",
    "UserScramCredentialDeletion",
    "UserScramCredentialUpsertion",
]


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_str(value: object, what: str, allow_empty: bool = False) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a str, not {type(value).__name__}")
    if not allow_empty and not value:
        raise ValueError(f"{what} must not be empty")
    return value


def _check_int(value: object, what: str, minimum: Optional[int] = None) -> int:
    if not _is_int(value):
        raise TypeError(f"{what} must be an int, not {type(value).__name__}")
    assert isinstance(value, int)
    if minimum is not None and value < minimum:
        raise ValueError(f"{what} must be >= {minimum}, got {value}")
    return value


class _CodeEnum(Enum):
    """An enum of librdkafka codes that also accepts its member names (any case) and values."""

    @classmethod
    def _coerce(cls, value: object, what: str) -> Any:
        if isinstance(value, cls):
            return value
        if isinstance(value, str):
            try:
                return cls[value.upper()]
            except KeyError:
                names = ", ".join(m.name for m in cls)
                raise ValueError(f"{what} must be one of {names}, got {value!r}") from None
        if _is_int(value):
            try:
                return cls(value)
            except ValueError:
                raise ValueError(f"{what}: {value} is not a valid {cls.__name__}") from None
        raise TypeError(f"{what} must be a {cls.__name__}, not {type(value).__name__}")

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, type(self)):
            return NotImplemented
        return bool(self.value < other.value)


class ResourceType(_CodeEnum):
    """The kind of resource a config or ACL applies to."""

    UNKNOWN = 0
    ANY = 1
    TOPIC = 2
    GROUP = 3
    BROKER = 4
    TRANSACTIONAL_ID = 5


class ResourcePatternType(_CodeEnum):
    """How an ACL's resource name is matched."""

    UNKNOWN = 0
    ANY = 1
    MATCH = 2
    LITERAL = 3
    PREFIXED = 4


class AclOperation(_CodeEnum):
    """An operation an ACL allows or denies."""

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


class AclPermissionType(_CodeEnum):
    """Whether an ACL allows or denies its operation."""

    UNKNOWN = 0
    ANY = 1
    DENY = 2
    ALLOW = 3


class ConfigSource(_CodeEnum):
    """Where the value of a described config entry comes from."""

    UNKNOWN_CONFIG = 0
    DYNAMIC_TOPIC_CONFIG = 1
    DYNAMIC_BROKER_CONFIG = 2
    DYNAMIC_DEFAULT_BROKER_CONFIG = 3
    STATIC_BROKER_CONFIG = 4
    DEFAULT_CONFIG = 5
    GROUP_CONFIG = 8


class AlterConfigOpType(_CodeEnum):
    """What :meth:`AdminClient.incremental_alter_configs` does with one config entry."""

    SET = 0
    DELETE = 1
    APPEND = 2
    SUBTRACT = 3


class ConsumerGroupState(_CodeEnum):
    """The state of a consumer group."""

    UNKNOWN = 0
    PREPARING_REBALANCING = 1
    COMPLETING_REBALANCING = 2
    STABLE = 3
    DEAD = 4
    EMPTY = 5


class ConsumerGroupType(_CodeEnum):
    """The group protocol a consumer group uses (CONSUMER is KIP-848's)."""

    UNKNOWN = 0
    CONSUMER = 1
    CLASSIC = 2


class IsolationLevel(_CodeEnum):
    """Which offsets :meth:`AdminClient.list_offsets` may return."""

    READ_UNCOMMITTED = 0
    READ_COMMITTED = 1


class ElectionType(_CodeEnum):
    """The kind of leader election :meth:`AdminClient.elect_leaders` asks for."""

    PREFERRED = 0
    UNCLEAN = 1


class ScramMechanism(_CodeEnum):
    """A SASL/SCRAM hash mechanism."""

    UNKNOWN = 0
    SCRAM_SHA_256 = 1
    SCRAM_SHA_512 = 2


_Assignment = Optional[List[List[int]]]


def _check_assignment(value: object, what: str) -> _Assignment:
    if value is None:
        return None
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"{what} must be a list of lists of broker ids, not {type(value).__name__}")
    out: List[List[int]] = []
    for i, replicas in enumerate(value):
        if not isinstance(replicas, (list, tuple)):
            raise TypeError(f"{what}[{i}] must be a list of broker ids, not {type(replicas).__name__}")
        out.append([_check_int(b, f"{what}[{i}] broker id", 0) for b in replicas])
    return out


class NewTopic:
    """A topic to create with :meth:`AdminClient.create_topics`.

    :param topic: The topic name.
    :param num_partitions: Number of partitions; -1 (the default) uses the broker's default.
    :param replication_factor: Replicas per partition; -1 uses the broker's default. Must be
        -1 when ``replica_assignment`` is given.
    :param replica_assignment: Broker ids for each partition: ``replica_assignment[p]`` lists
        the replicas of partition ``p``, the first being the preferred leader.
    :param config: Topic configuration overrides (``{"cleanup.policy": "compact"}``).
    """

    def __init__(
        self,
        topic: str,
        num_partitions: int = -1,
        replication_factor: int = -1,
        replica_assignment: Optional[List[List[int]]] = None,
        config: Optional[Dict[str, str]] = None,
    ) -> None:
        self.topic = _check_str(topic, "NewTopic topic")
        self.num_partitions = _check_int(num_partitions, "NewTopic num_partitions")
        if self.num_partitions == 0 or self.num_partitions < -1:
            raise ValueError(f"NewTopic num_partitions must be >= 1 or -1, got {num_partitions}")
        self.replication_factor = _check_int(replication_factor, "NewTopic replication_factor")
        if self.replication_factor == 0 or self.replication_factor < -1:
            raise ValueError(f"NewTopic replication_factor must be >= 1 or -1, got {replication_factor}")
        self.replica_assignment = _check_assignment(replica_assignment, "NewTopic replica_assignment")
        if self.replica_assignment is not None and self.replication_factor != -1:
            raise ValueError("NewTopic replication_factor must be -1 when replica_assignment is given")
        if config is not None and not isinstance(config, dict):
            raise TypeError(f"NewTopic config must be a dict, not {type(config).__name__}")
        self.config: Dict[str, str] = {}
        for k, v in (config or {}).items():
            self.config[_check_str(k, "NewTopic config key")] = _check_str(
                v, f"NewTopic config value for {k!r}", allow_empty=True)

    def _spec(self) -> Tuple[str, int, int, _Assignment, Optional[Dict[str, str]]]:
        return (self.topic, self.num_partitions, self.replication_factor, self.replica_assignment,
                self.config or None)

    def __repr__(self) -> str:
        return (f"NewTopic(topic={self.topic!r}, num_partitions={self.num_partitions}, "
                f"replication_factor={self.replication_factor}, "
                f"replica_assignment={self.replica_assignment!r}, config={self.config!r})")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, NewTopic):
            return NotImplemented
        return self._spec() == other._spec()

    def __hash__(self) -> int:
        return hash(self.topic)


class NewPartitions:
    """Grow a topic to ``new_total_count`` partitions with :meth:`AdminClient.create_partitions`.

    :param topic: The topic name.
    :param new_total_count: The partition count after the change (greater than the current one).
    :param replica_assignment: Broker ids for each *new* partition, in order.
    """

    def __init__(self, topic: str, new_total_count: int,
                 replica_assignment: Optional[List[List[int]]] = None) -> None:
        self.topic = _check_str(topic, "NewPartitions topic")
        self.new_total_count = _check_int(new_total_count, "NewPartitions new_total_count", 1)
        self.replica_assignment = _check_assignment(replica_assignment, "NewPartitions replica_assignment")

    def _spec(self) -> Tuple[str, int, _Assignment]:
        return (self.topic, self.new_total_count, self.replica_assignment)

    def __repr__(self) -> str:
        return (f"NewPartitions(topic={self.topic!r}, new_total_count={self.new_total_count}, "
                f"replica_assignment={self.replica_assignment!r})")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, NewPartitions):
            return NotImplemented
        return self._spec() == other._spec()

    def __hash__(self) -> int:
        return hash(self.topic)


class ConfigEntry:
    """One configuration property: as described by the broker, or as an incremental change.

    :param name: The property name.
    :param value: Its value (None when deleted, sensitive or unset).
    :param source: Where the value comes from (:class:`ConfigSource`).
    :param is_read_only: The property cannot be changed.
    :param is_default: The value is the default.
    :param is_sensitive: The value is sensitive and not disclosed.
    :param is_synonym: This entry is a synonym of another one.
    :param synonyms: Synonym entries, by name.
    :param incremental_operation: For :meth:`AdminClient.incremental_alter_configs`: what to do
        with the value (:class:`AlterConfigOpType`).
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
        self.name = _check_str(name, "ConfigEntry name")
        if value is not None and not isinstance(value, str):
            raise TypeError(f"ConfigEntry value must be a str or None, not {type(value).__name__}")
        self.value = value
        self.source: ConfigSource = ConfigSource._coerce(source, "ConfigEntry source")
        self.is_read_only = bool(is_read_only)
        self.is_default = bool(is_default)
        self.is_sensitive = bool(is_sensitive)
        self.is_synonym = bool(is_synonym)
        self.synonyms: Dict[str, ConfigEntry] = dict(synonyms or {})
        self.incremental_operation: Optional[AlterConfigOpType] = (
            None if incremental_operation is None
            else AlterConfigOpType._coerce(incremental_operation, "ConfigEntry incremental_operation"))

    def __repr__(self) -> str:
        text = f"ConfigEntry({self.name}={self.value!r}"
        if self.incremental_operation is not None:
            text += f", op={self.incremental_operation.name}"
        else:
            text += f", source={self.source.name}"
        return text + ")"

    def __str__(self) -> str:
        return f"{self.name}={self.value}"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ConfigEntry):
            return NotImplemented
        return (self.name, self.value, self.source, self.incremental_operation) == (
            other.name, other.value, other.source, other.incremental_operation)

    def __hash__(self) -> int:
        return hash((self.name, self.value))


@total_ordering
class ConfigResource:
    """A resource whose configuration is described or altered: a topic, broker or group.

    Instances compare and hash by ``(restype, name)``, so they key the dicts of futures
    :meth:`AdminClient.describe_configs` and friends return.

    :param restype: A :class:`ResourceType`, or its name (``"topic"``) or value.
    :param name: The resource name (a broker's id as a string for BROKER).
    :param set_config: For :meth:`AdminClient.alter_configs`: the full configuration to set.
    :param described_configs: Unused on input; kept for signature compatibility.
    :param error: Unused on input; kept for signature compatibility.
    :param incremental_configs: For :meth:`AdminClient.incremental_alter_configs`: a list of
        :class:`ConfigEntry` with ``incremental_operation`` set.
    """

    def __init__(
        self,
        restype: Union[ResourceType, str, int],
        name: str,
        set_config: Optional[Dict[str, str]] = None,
        described_configs: Optional[Dict[str, ConfigEntry]] = None,
        error: Any = None,
        incremental_configs: Optional[List[ConfigEntry]] = None,
    ) -> None:
        self.restype: ResourceType = ResourceType._coerce(restype, "ConfigResource restype")
        if self.restype in (ResourceType.UNKNOWN, ResourceType.ANY):
            raise ValueError(f"ConfigResource restype must name a concrete resource, not {self.restype.name}")
        self.name = _check_str(name, "ConfigResource name")
        self.set_config_dict: Dict[str, str] = {}
        if set_config is not None:
            if not isinstance(set_config, dict):
                raise TypeError(f"ConfigResource set_config must be a dict, not {type(set_config).__name__}")
            for k, v in set_config.items():
                self.set_config(k, v)
        self.incremental_configs: List[ConfigEntry] = []
        for entry in incremental_configs or []:
            self.add_incremental_config(entry)
        self.configs = described_configs
        self.error = error

    def set_config(self, name: str, value: str, overwrite: bool = True) -> None:
        """Set one property for :meth:`AdminClient.alter_configs`."""
        _check_str(name, "config name")
        _check_str(value, f"config value for {name!r}", allow_empty=True)
        if not overwrite and name in self.set_config_dict:
            return
        self.set_config_dict[name] = value

    def add_incremental_config(self, config_entry: ConfigEntry) -> None:
        """Add one change for :meth:`AdminClient.incremental_alter_configs`."""
        if not isinstance(config_entry, ConfigEntry):
            raise TypeError(f"incremental config must be a ConfigEntry, not {type(config_entry).__name__}")
        if config_entry.incremental_operation is None:
            raise ValueError(f"ConfigEntry {config_entry.name!r} has no incremental_operation")
        self.incremental_configs.append(config_entry)

    def _key(self) -> Tuple[int, str]:
        return (self.restype.value, self.name)

    def __repr__(self) -> str:
        return f"ConfigResource({self.restype.name},{self.name})"

    def __hash__(self) -> int:
        return hash(self._key())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ConfigResource):
            return NotImplemented
        return self._key() == other._key()

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, ConfigResource):
            return NotImplemented
        return self._key() < other._key()

    def __len__(self) -> int:
        return len(self.set_config_dict)


def _opt_str(value: object, what: str) -> Optional[str]:
    if value is None:
        return None
    return _check_str(value, what, allow_empty=True)


class AclBinding:
    """An ACL: ``principal`` on ``host`` may (or may not) do ``operation`` on a resource.

    Enum fields accept the enum member, its name, or its value.
    """

    _filter = False

    def __init__(
        self,
        restype: Union[ResourceType, str, int],
        name: Optional[str],
        resource_pattern_type: Union[ResourcePatternType, str, int],
        principal: Optional[str],
        host: Optional[str],
        operation: Union[AclOperation, str, int],
        permission_type: Union[AclPermissionType, str, int],
    ) -> None:
        kind = type(self).__name__
        self.restype: ResourceType = ResourceType._coerce(restype, f"{kind} restype")
        self.name = _opt_str(name, f"{kind} name")
        self.resource_pattern_type: ResourcePatternType = ResourcePatternType._coerce(
            resource_pattern_type, f"{kind} resource_pattern_type")
        self.principal = _opt_str(principal, f"{kind} principal")
        self.host = _opt_str(host, f"{kind} host")
        self.operation: AclOperation = AclOperation._coerce(operation, f"{kind} operation")
        self.permission_type: AclPermissionType = AclPermissionType._coerce(
            permission_type, f"{kind} permission_type")
        if not self._filter:
            for field, value in (("name", self.name), ("principal", self.principal), ("host", self.host)):
                if value is None:
                    raise ValueError(f"AclBinding {field} must not be None (only filters match any)")
            for field, enum_value in (("restype", self.restype), ("resource_pattern_type",
                                      self.resource_pattern_type), ("operation", self.operation),
                                      ("permission_type", self.permission_type)):
                if enum_value.name in ("ANY", "UNKNOWN", "MATCH"):
                    raise ValueError(f"AclBinding {field} must not be {enum_value.name} "
                                     "(only filters match any)")
        else:
            for field, enum_value in (("restype", self.restype), ("resource_pattern_type",
                                      self.resource_pattern_type), ("operation", self.operation),
                                      ("permission_type", self.permission_type)):
                if enum_value.name == "UNKNOWN":
                    raise ValueError(f"AclBindingFilter {field} must not be UNKNOWN")

    def _spec(self) -> Tuple[int, Optional[str], int, Optional[str], Optional[str], int, int]:
        return (self.restype.value, self.name, self.resource_pattern_type.value, self.principal, self.host,
                self.operation.value, self.permission_type.value)

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(restype={self.restype.name}, name={self.name!r}, "
                f"resource_pattern_type={self.resource_pattern_type.name}, principal={self.principal!r}, "
                f"host={self.host!r}, operation={self.operation.name}, "
                f"permission_type={self.permission_type.name})")

    def __hash__(self) -> int:
        return hash(self._spec())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, AclBinding):
            return NotImplemented
        return type(self) is type(other) and self._spec() == other._spec()

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, AclBinding):
            return NotImplemented
        return tuple(str(x) for x in self._spec()) < tuple(str(x) for x in other._spec())


class AclBindingFilter(AclBinding):
    """An :class:`AclBinding` pattern for :meth:`AdminClient.describe_acls` and
    :meth:`AdminClient.delete_acls`: None and the ANY members match anything."""

    _filter = True


class OffsetSpec:
    """Which offset :meth:`AdminClient.list_offsets` looks up for a partition.

    Build one with :meth:`earliest`, :meth:`latest`, :meth:`max_timestamp` or
    :meth:`for_timestamp`.
    """

    EARLIEST = -2
    LATEST = -1
    MAX_TIMESTAMP = -3

    def __init__(self, value: int) -> None:
        self._value = _check_int(value, "OffsetSpec value", -3)

    @classmethod
    def earliest(cls) -> "OffsetSpec":
        """The first offset still in the log."""
        return cls(cls.EARLIEST)

    @classmethod
    def latest(cls) -> "OffsetSpec":
        """The offset the next message will get (the high watermark)."""
        return cls(cls.LATEST)

    @classmethod
    def max_timestamp(cls) -> "OffsetSpec":
        """The offset of the message with the largest timestamp."""
        return cls(cls.MAX_TIMESTAMP)

    @classmethod
    def for_timestamp(cls, timestamp: int) -> "OffsetSpec":
        """The first offset whose timestamp (milliseconds since the epoch) is >= timestamp."""
        return cls(_check_int(timestamp, "OffsetSpec timestamp", 0))

    def __repr__(self) -> str:
        names = {self.EARLIEST: "earliest", self.LATEST: "latest", self.MAX_TIMESTAMP: "max_timestamp"}
        if self._value in names:
            return f"OffsetSpec.{names[self._value]}()"
        return f"OffsetSpec.for_timestamp({self._value})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, OffsetSpec):
            return NotImplemented
        return self._value == other._value

    def __hash__(self) -> int:
        return hash(self._value)


class TopicCollection:
    """The topics :meth:`AdminClient.describe_topics` describes, by name."""

    def __init__(self, topic_names: Iterable[str]) -> None:
        if isinstance(topic_names, (str, bytes)) or not isinstance(topic_names, (list, tuple, set, frozenset)):
            raise TypeError(f"TopicCollection topic_names must be a list of str, not {type(topic_names).__name__}")
        self.topic_names: List[str] = [_check_str(t, "topic name") for t in topic_names]

    def __repr__(self) -> str:
        return f"TopicCollection({self.topic_names!r})"


class ConsumerGroupTopicPartitions:
    """A consumer group and (some of) its partitions, with their committed offsets.

    Input of :meth:`AdminClient.list_consumer_group_offsets` (partitions None: all of them) and
    :meth:`AdminClient.alter_consumer_group_offsets`; also what their futures resolve to.
    """

    def __init__(self, group_id: str, topic_partitions: Optional[List[Any]] = None) -> None:
        self.group_id = _check_str(group_id, "group_id")
        if topic_partitions is not None and not isinstance(topic_partitions, list):
            raise TypeError("topic_partitions must be a list of TopicPartition or None, not "
                            f"{type(topic_partitions).__name__}")
        self.topic_partitions = topic_partitions

    def __repr__(self) -> str:
        return (f"ConsumerGroupTopicPartitions(group_id={self.group_id!r}, "
                f"topic_partitions={self.topic_partitions!r})")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ConsumerGroupTopicPartitions):
            return NotImplemented
        return (self.group_id, self.topic_partitions) == (other.group_id, other.topic_partitions)

    def __hash__(self) -> int:
        return hash(self.group_id)


class ScramCredentialInfo:
    """A SCRAM mechanism and its iteration count."""

    def __init__(self, mechanism: Union[ScramMechanism, str, int], iterations: int) -> None:
        self.mechanism: ScramMechanism = ScramMechanism._coerce(mechanism, "ScramCredentialInfo mechanism")
        self.iterations = _check_int(iterations, "ScramCredentialInfo iterations", 1)

    def __repr__(self) -> str:
        return f"ScramCredentialInfo(mechanism={self.mechanism.name}, iterations={self.iterations})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ScramCredentialInfo):
            return NotImplemented
        return (self.mechanism, self.iterations) == (other.mechanism, other.iterations)

    def __hash__(self) -> int:
        return hash((self.mechanism, self.iterations))


class UserScramCredentialAlteration:
    """Base class of the changes :meth:`AdminClient.alter_user_scram_credentials` applies."""

    def __init__(self, user: str) -> None:
        self.user = _check_str(user, f"{type(self).__name__} user")


class UserScramCredentialUpsertion(UserScramCredentialAlteration):
    """Create or replace ``user``'s credential for one SCRAM mechanism.

    :param password: The password (bytes; str is encoded as UTF-8).
    :param salt: The salt; None lets librdkafka pick a random one.
    """

    def __init__(self, user: str, scram_credential_info: ScramCredentialInfo,
                 password: Union[bytes, str], salt: Optional[Union[bytes, str]] = None) -> None:
        super().__init__(user)
        if not isinstance(scram_credential_info, ScramCredentialInfo):
            raise TypeError("scram_credential_info must be a ScramCredentialInfo, not "
                            f"{type(scram_credential_info).__name__}")
        self.scram_credential_info = scram_credential_info
        if isinstance(password, str):
            password = password.encode()
        if not isinstance(password, bytes):
            raise TypeError(f"password must be bytes, not {type(password).__name__}")
        if not password:
            raise ValueError("password must not be empty")
        self.password = password
        if isinstance(salt, str):
            salt = salt.encode()
        if salt is not None and not isinstance(salt, bytes):
            raise TypeError(f"salt must be bytes or None, not {type(salt).__name__}")
        self.salt = salt

    def _spec(self) -> Tuple[Any, ...]:
        info = self.scram_credential_info
        return (self.user, info.mechanism.value, info.iterations, self.password, self.salt)

    def __repr__(self) -> str:
        return f"UserScramCredentialUpsertion(user={self.user!r}, {self.scram_credential_info!r})"


class UserScramCredentialDeletion(UserScramCredentialAlteration):
    """Delete ``user``'s credential for one SCRAM mechanism."""

    def __init__(self, user: str, mechanism: Union[ScramMechanism, str, int]) -> None:
        super().__init__(user)
        self.mechanism: ScramMechanism = ScramMechanism._coerce(mechanism, "UserScramCredentialDeletion mechanism")

    def _spec(self) -> Tuple[Any, ...]:
        return (self.user, self.mechanism.value)

    def __repr__(self) -> str:
        return f"UserScramCredentialDeletion(user={self.user!r}, mechanism={self.mechanism.name})"
