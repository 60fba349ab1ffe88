"""Kafka broker error codes as exception classes, shared by the kafka-python and aiokafka facades.

Both libraries expose one exception class per broker error code (``errno``, ``message``,
``description``, ``retriable``, ``invalid_metadata``), but they name some of them differently,
flag a few differently and arrange the bases differently (kafka-python derives retriable codes
from ``RetriableError``/``InvalidMetadataError`` and authorization codes from
``AuthorizationError``; aiokafka sets flags on flat subclasses of ``BrokerResponseError``).

This module holds the facts once, as a table (:data:`BROKER_CODES`), and builds each facade's
classes from it with :func:`build_broker_errors`. The ``description`` of every class is
librdkafka's own text for the code, so the wording matches what the rest of this package reports.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, NamedTuple, Optional, Tuple, Type, TypeVar, cast

from confluent_kafka.cimpl import KafkaError as _RdKafkaError

__all__ = ["BrokerCode", "BROKER_CODES", "broker_error_str", "build_broker_errors", "describe", "error_class",
           "error_str", "make_for_code"]

_E = TypeVar("_E", bound=BaseException)


class BrokerCode(NamedTuple):
    """One broker error code as each facade names and flags it.

    ``kafka_flags`` / ``aiokafka_flags`` are strings of letters: ``r`` retriable, ``m`` invalid
    metadata (refresh metadata and retry), ``a`` an authorization failure (kafka-python files
    those under ``AuthorizationError``). ``aiokafka_name`` is None where aiokafka has no class for
    the code; ``"="`` in the aiokafka columns means "same as kafka-python".
    """

    errno: int
    kafka_name: str
    message: str
    kafka_flags: str
    aiokafka_name: Optional[str]
    aiokafka_message: Optional[str]
    aiokafka_flags: Optional[str]


BROKER_CODES: Tuple[BrokerCode, ...] = tuple(BrokerCode(*row) for row in (
    (-1, 'UnknownError', 'UNKNOWN', '', '=', '=', ''),
    (0, 'NoError', 'NO_ERROR', '', '=', '=', ''),
    (1, 'OffsetOutOfRangeError', 'OFFSET_OUT_OF_RANGE', '', '=', '=', ''),
    (2, 'CorruptRecordError', 'CORRUPT_MESSAGE', '', 'CorruptRecordException', '=', ''),
    (3, 'UnknownTopicOrPartitionError', 'UNKNOWN_TOPIC_OR_PARTITION', 'rm', '=', '=', 'rm'),
    (4, 'InvalidFetchRequestError', 'INVALID_FETCH_SIZE', '', '=', '=', ''),
    (5, 'LeaderNotAvailableError', 'LEADER_NOT_AVAILABLE', 'rm', '=', '=', 'rm'),
    (6, 'NotLeaderForPartitionError', 'NOT_LEADER_FOR_PARTITION', 'rm', '=', '=', 'rm'),
    (7, 'RequestTimedOutError', 'REQUEST_TIMED_OUT', 'r', '=', '=', 'r'),
    (8, 'BrokerNotAvailableError', 'BROKER_NOT_AVAILABLE', '', '=', '=', ''),
    (9, 'ReplicaNotAvailableError', 'REPLICA_NOT_AVAILABLE', 'rm', '=', '=', ''),
    (10, 'MessageSizeTooLargeError', 'MESSAGE_SIZE_TOO_LARGE', '', '=', '=', ''),
    (11, 'StaleControllerEpochError', 'STALE_CONTROLLER_EPOCH', '', '=', '=', ''),
    (12, 'OffsetMetadataTooLargeError', 'OFFSET_METADATA_TOO_LARGE', '', '=', '=', ''),
    (13, 'NetworkExceptionError', 'NETWORK_EXCEPTION', 'rm', 'StaleLeaderEpochCodeError', 'STALE_LEADER_EPOCH_CODE', ''),
    (14, 'CoordinatorLoadInProgressError', 'COORDINATOR_LOAD_IN_PROGRESS', 'r', 'GroupLoadInProgressError', '=', 'r'),
    (15, 'CoordinatorNotAvailableError', 'COORDINATOR_NOT_AVAILABLE', 'r', 'GroupCoordinatorNotAvailableError', '=', 'r'),
    (16, 'NotCoordinatorError', 'NOT_COORDINATOR', 'r', 'NotCoordinatorForGroupError', '=', 'r'),
    (17, 'InvalidTopicError', 'INVALID_TOPIC', '', '=', '=', ''),
    (18, 'RecordListTooLargeError', 'RECORD_LIST_TOO_LARGE', '', '=', '=', ''),
    (19, 'NotEnoughReplicasError', 'NOT_ENOUGH_REPLICAS', 'r', '=', '=', 'r'),
    (20, 'NotEnoughReplicasAfterAppendError', 'NOT_ENOUGH_REPLICAS_AFTER_APPEND', 'r', '=', '=', 'r'),
    (21, 'InvalidRequiredAcksError', 'INVALID_REQUIRED_ACKS', '', '=', '=', ''),
    (22, 'IllegalGenerationError', 'ILLEGAL_GENERATION', '', '=', '=', ''),
    (23, 'InconsistentGroupProtocolError', 'INCONSISTENT_GROUP_PROTOCOL', '', '=', '=', ''),
    (24, 'InvalidGroupIdError', 'INVALID_GROUP_ID', '', '=', '=', ''),
    (25, 'UnknownMemberIdError', 'UNKNOWN_MEMBER_ID', '', '=', '=', ''),
    (26, 'InvalidSessionTimeoutError', 'INVALID_SESSION_TIMEOUT', '', '=', '=', ''),
    (27, 'RebalanceInProgressError', 'REBALANCE_IN_PROGRESS', '', '=', '=', ''),
    (28, 'InvalidCommitOffsetSizeError', 'INVALID_COMMIT_OFFSET_SIZE', '', '=', '=', ''),
    (29, 'TopicAuthorizationFailedError', 'TOPIC_AUTHORIZATION_FAILED', 'a', '=', '=', ''),
    (30, 'GroupAuthorizationFailedError', 'GROUP_AUTHORIZATION_FAILED', 'a', '=', '=', ''),
    (31, 'ClusterAuthorizationFailedError', 'CLUSTER_AUTHORIZATION_FAILED', 'a', '=', '=', ''),
    (32, 'InvalidTimestampError', 'INVALID_TIMESTAMP', '', '=', '=', ''),
    (33, 'UnsupportedSaslMechanismError', 'UNSUPPORTED_SASL_MECHANISM', '', '=', '=', ''),
    (34, 'IllegalSaslStateError', 'ILLEGAL_SASL_STATE', '', '=', '=', ''),
    (35, 'UnsupportedVersionError', 'UNSUPPORTED_VERSION', '', '=', '=', ''),
    (36, 'TopicAlreadyExistsError', 'TOPIC_ALREADY_EXISTS', '', '=', '=', ''),
    (37, 'InvalidPartitionsError', 'INVALID_PARTITIONS', '', '=', '=', ''),
    (38, 'InvalidReplicationFactorError', 'INVALID_REPLICATION_FACTOR', '', '=', '=', ''),
    (39, 'InvalidReplicationAssignmentError', 'INVALID_REPLICATION_ASSIGNMENT', '', '=', '=', ''),
    (40, 'InvalidConfigurationError', 'INVALID_CONFIG', '', '=', '=', ''),
    (41, 'NotControllerError', 'NOT_CONTROLLER', 'r', '=', '=', 'r'),
    (42, 'InvalidRequestError', 'INVALID_REQUEST', '', '=', '=', ''),
    (43, 'UnsupportedForMessageFormatError', 'UNSUPPORTED_FOR_MESSAGE_FORMAT', '', '=', '=', ''),
    (44, 'PolicyViolationError', 'POLICY_VIOLATION', '', '=', '=', ''),
    (45, 'OutOfOrderSequenceNumberError', 'OUT_OF_ORDER_SEQUENCE_NUMBER', '', 'OutOfOrderSequenceNumber', '=', ''),
    (46, 'DuplicateSequenceNumberError', 'DUPLICATE_SEQUENCE_NUMBER', '', 'DuplicateSequenceNumber', '=', ''),
    (47, 'InvalidProducerEpochError', 'INVALID_PRODUCER_EPOCH', '', 'InvalidProducerEpoch', '=', ''),
    (48, 'InvalidTxnStateError', 'INVALID_TXN_STATE', '', 'InvalidTxnState', '=', ''),
    (49, 'InvalidProducerIdMappingError', 'INVALID_PRODUCER_ID_MAPPING', '', 'InvalidProducerIdMapping', '=', ''),
    (50, 'InvalidTransactionTimeoutError', 'INVALID_TRANSACTION_TIMEOUT', '', 'InvalidTransactionTimeout', '=', ''),
    (51, 'ConcurrentTransactionsError', 'CONCURRENT_TRANSACTIONS', 'r', 'ConcurrentTransactions', '=', ''),
    (52, 'TransactionCoordinatorFencedError', 'TRANSACTION_COORDINATOR_FENCED', '', 'TransactionCoordinatorFenced', '=', ''),
    (53, 'TransactionalIdAuthorizationFailedError', 'TRANSACTIONAL_ID_AUTHORIZATION_FAILED', 'a', 'TransactionalIdAuthorizationFailed', '=', ''),
    (54, 'SecurityDisabledError', 'SECURITY_DISABLED', '', 'SecurityDisabled', '=', ''),
    (55, 'OperationNotAttemptedError', 'OPERATION_NOT_ATTEMPTED', '', 'OperationNotAttempted', '=', ''),
    (56, 'KafkaStorageError', 'KAFKA_STORAGE_ERROR', 'rm', '=', '=', 'rm'),
    (57, 'LogDirNotFoundError', 'LOG_DIR_NOT_FOUND', '', 'LogDirNotFound', '=', ''),
    (58, 'SaslAuthenticationFailedError', 'SASL_AUTHENTICATION_FAILED', '', 'SaslAuthenticationFailed', '=', ''),
    (59, 'UnknownProducerIdError', 'UNKNOWN_PRODUCER_ID', '', 'UnknownProducerId', '=', ''),
    (60, 'ReassignmentInProgressError', 'REASSIGNMENT_IN_PROGRESS', '', 'ReassignmentInProgress', '=', ''),
    (61, 'DelegationTokenAuthDisabledError', 'DELEGATION_TOKEN_AUTH_DISABLED', '', 'DelegationTokenAuthDisabled', '=', ''),
    (62, 'DelegationTokenNotFoundError', 'DELEGATION_TOKEN_NOT_FOUND', '', 'DelegationTokenNotFound', '=', ''),
    (63, 'DelegationTokenOwnerMismatchError', 'DELEGATION_TOKEN_OWNER_MISMATCH', '', 'DelegationTokenOwnerMismatch', '=', ''),
    (64, 'DelegationTokenRequestNotAllowedError', 'DELEGATION_TOKEN_REQUEST_NOT_ALLOWED', '', 'DelegationTokenRequestNotAllowed', '=', ''),
    (65, 'DelegationTokenAuthorizationFailedError', 'DELEGATION_TOKEN_AUTHORIZATION_FAILED', 'a', 'DelegationTokenAuthorizationFailed', '=', ''),
    (66, 'DelegationTokenExpiredError', 'DELEGATION_TOKEN_EXPIRED', '', 'DelegationTokenExpired', '=', ''),
    (67, 'InvalidPrincipalTypeError', 'INVALID_PRINCIPAL_TYPE', '', 'InvalidPrincipalType', '=', ''),
    (68, 'NonEmptyGroupError', 'NON_EMPTY_GROUP', '', 'NonEmptyGroup', '=', ''),
    (69, 'GroupIdNotFoundError', 'GROUP_ID_NOT_FOUND', '', 'GroupIdNotFound', '=', ''),
    (70, 'FetchSessionIdNotFoundError', 'FETCH_SESSION_ID_NOT_FOUND', 'r', 'FetchSessionIdNotFound', '=', ''),
    (71, 'InvalidFetchSessionEpochError', 'INVALID_FETCH_SESSION_EPOCH', 'r', 'InvalidFetchSessionEpoch', '=', ''),
    (72, 'ListenerNotFoundError', 'LISTENER_NOT_FOUND', 'rm', 'ListenerNotFound', '=', ''),
    (73, 'TopicDeletionDisabledError', 'TOPIC_DELETION_DISABLED', '', None, None, None),
    (74, 'FencedLeaderEpochError', 'FENCED_LEADER_EPOCH', 'rm', None, None, None),
    (75, 'UnknownLeaderEpochError', 'UNKNOWN_LEADER_EPOCH', 'rm', None, None, None),
    (76, 'UnsupportedCompressionTypeError', 'UNSUPPORTED_COMPRESSION_TYPE', '', None, None, None),
    (77, 'StaleBrokerEpochError', 'STALE_BROKER_EPOCH', '', None, None, None),
    (78, 'OffsetNotAvailableError', 'OFFSET_NOT_AVAILABLE', 'r', None, None, None),
    (79, 'MemberIdRequiredError', 'MEMBER_ID_REQUIRED', '', 'MemberIdRequired', '=', ''),
    (80, 'PreferredLeaderNotAvailableError', 'PREFERRED_LEADER_NOT_AVAILABLE', 'rm', None, None, None),
    (81, 'GroupMaxSizeReachedError', 'GROUP_MAX_SIZE_REACHED', '', None, None, None),
    (82, 'FencedInstanceIdError', 'FENCED_INSTANCE_ID', '', None, None, None),
    (83, 'EligibleLeadersNotAvailableError', 'ELIGIBLE_LEADERS_NOT_AVAILABLE', 'rm', None, None, None),
    (84, 'ElectionNotNeededError', 'ELECTION_NOT_NEEDED', 'rm', None, None, None),
    (85, 'NoReassignmentInProgressError', 'NO_REASSIGNMENT_IN_PROGRESS', '', None, None, None),
    (86, 'GroupSubscribedToTopicError', 'GROUP_SUBSCRIBED_TO_TOPIC', '', None, None, None),
    (87, 'InvalidRecordError', 'INVALID_RECORD', '', None, None, None),
    (88, 'UnstableOffsetCommitError', 'UNSTABLE_OFFSET_COMMIT', 'r', None, None, None),
    (89, 'ThrottlingQuotaExceededError', 'THROTTLING_QUOTA_EXCEEDED', 'r', None, None, None),
    (90, 'ProducerFencedError', 'PRODUCER_FENCED', '', None, None, None),
    (91, 'ResourceNotFoundError', 'RESOURCE_NOT_FOUND', '', None, None, None),
    (92, 'DuplicateResourceError', 'DUPLICATE_RESOURCE', '', None, None, None),
    (93, 'UnacceptableCredentialError', 'UNACCEPTABLE_CREDENTIAL', '', None, None, None),
    (94, 'InconsistentVoterSetError', 'INCONSISTENT_VOTER_SET', '', None, None, None),
    (95, 'InvalidUpdateVersionError', 'INVALID_UPDATE_VERSION', '', None, None, None),
    (96, 'FeatureUpdateFailedError', 'FEATURE_UPDATE_FAILED', '', None, None, None),
    (97, 'PrincipalDeserializationFailureError', 'PRINCIPAL_DESERIALIZATION_FAILURE', '', None, None, None),
    (98, 'SnapshotNotFoundError', 'SNAPSHOT_NOT_FOUND', '', None, None, None),
    (99, 'PositionOutOfRangeError', 'POSITION_OUT_OF_RANGE', '', None, None, None),
    (100, 'UnknownTopicIdError', 'UNKNOWN_TOPIC_ID', 'rm', None, None, None),
    (101, 'DuplicateBrokerRegistrationError', 'DUPLICATE_BROKER_REGISTRATION', '', None, None, None),
    (102, 'BrokerIdNotRegisteredError', 'BROKER_ID_NOT_REGISTERED', '', None, None, None),
    (103, 'InconsistentTopicIdError', 'INCONSISTENT_TOPIC_ID', 'rm', None, None, None),
    (104, 'InconsistentClusterIdError', 'INCONSISTENT_CLUSTER_ID', '', None, None, None),
    (105, 'TransactionalIdNotFoundError', 'TRANSACTIONAL_ID_NOT_FOUND', '', None, None, None),
    (106, 'FetchSessionTopicIdError', 'FETCH_SESSION_TOPIC_ID_ERROR', 'r', None, None, None),
    (107, 'IneligibleReplicaError', 'INELIGIBLE_REPLICA', '', None, None, None),
    (108, 'NewLeaderElectedError', 'NEW_LEADER_ELECTED', '', None, None, None),
    (109, 'OffsetMovedToTieredStorageError', 'OFFSET_MOVED_TO_TIERED_STORAGE', '', None, None, None),
    (110, 'FencedMemberEpochError', 'FENCED_MEMBER_EPOCH', '', None, None, None),
    (111, 'UnreleasedInstanceIdError', 'UNRELEASED_INSTANCE_ID', '', None, None, None),
    (112, 'UnsupportedAssignorError', 'UNSUPPORTED_ASSIGNOR', '', None, None, None),
    (113, 'StaleMemberEpochError', 'STALE_MEMBER_EPOCH', '', None, None, None),
    (114, 'MismatchedEndpointTypeError', 'MISMATCHED_ENDPOINT_TYPE', '', None, None, None),
    (115, 'UnsupportedEndpointTypeError', 'UNSUPPORTED_ENDPOINT_TYPE', '', None, None, None),
    (116, 'UnknownControllerIdError', 'UNKNOWN_CONTROLLER_ID', '', None, None, None),
    (117, 'UnknownSubscriptionIdError', 'UNKNOWN_SUBSCRIPTION_ID', '', None, None, None),
    (118, 'TelemetryTooLargeError', 'TELEMETRY_TOO_LARGE', '', None, None, None),
    (119, 'InvalidRegistrationError', 'INVALID_REGISTRATION', '', None, None, None),
    (120, 'TransactionAbortableError', 'TRANSACTION_ABORTABLE', '', None, None, None),
    (121, 'InvalidRecordStateError', 'INVALID_RECORD_STATE', '', None, None, None),
    (122, 'ShareSessionNotFoundError', 'SHARE_SESSION_NOT_FOUND', 'r', None, None, None),
    (123, 'InvalidShareSessionEpochError', 'INVALID_SHARE_SESSION_EPOCH', 'r', None, None, None),
    (124, 'FencedStateEpochError', 'FENCED_STATE_EPOCH', '', None, None, None),
    (125, 'InvalidVoterKeyError', 'INVALID_VOTER_KEY', '', None, None, None),
    (126, 'DuplicateVoterError', 'DUPLICATE_VOTER', '', None, None, None),
    (127, 'VoterNotFoundError', 'VOTER_NOT_FOUND', '', None, None, None),
))


def describe(errno: int) -> str:
    """Return librdkafka's human-readable text for broker error code ``errno``.

    :param errno: a Kafka protocol error code (-1 .. ).
    :returns: the text, without librdkafka's ``"Broker: "`` prefix.
    """
    if errno == -1:
        return "The server experienced an unexpected error when processing the request."
    if errno == 0:
        return "Success."
    text = _RdKafkaError(errno).str()
    return text[len("Broker: "):] if text.startswith("Broker: ") else text


def error_str(self: BaseException) -> str:
    """``str()`` of both facades' ``KafkaError``: the class name, then ``": "`` and the message
    where there is one.

    :param self: the error.
    :returns: the text.
    """
    if not self.args:
        return type(self).__name__
    return f"{type(self).__name__}: {BaseException.__str__(self)}"


def broker_error_str(self: Any) -> str:
    """``str()`` of both facades' ``BrokerResponseError``: ``[Error <errno>]`` before
    :func:`error_str`.

    :param self: the error.
    :returns: the text.
    """
    return f"[Error {self.errno}] {error_str(self)}"


def error_class(module: str, name: str, doc: str, flags: str, base: Type[_E], *more: type, **attrs: Any) -> Type[_E]:
    """A facade exception class.

    :param module: the facade module it belongs to (its ``__module__``).
    :param name: its name.
    :param doc: its docstring.
    :param flags: ``r`` retriable, ``m`` invalid metadata (see :class:`BrokerCode`).
    :param base: its first base; ``more``: any further bases.
    :param attrs: further class attributes.
    :returns: the class.
    """
    namespace: Dict[str, Any] = {"__module__": module, "__qualname__": name, "__doc__": doc,
                                 "retriable": "r" in flags, "invalid_metadata": "m" in flags, **attrs}
    return cast(Type[_E], type(name, (base, *more), namespace))


def build_broker_errors(
    flavour: str,
    namespace: Dict[str, Any],
    broker_base: type,
    *,
    retriable_base: Optional[type] = None,
    invalid_metadata_base: Optional[type] = None,
    authorization_base: Optional[type] = None,
) -> Dict[int, type]:
    """Create one exception class per broker error code and put it in ``namespace``.

    :param flavour: ``"kafka"`` (kafka-python names, flags and bases) or ``"aiokafka"`` (aiokafka
        names and flags; codes aiokafka lacks are skipped).
    :param namespace: the facade module's ``globals()``; each class is stored under its name
        and gets that module as ``__module__``.
    :param broker_base: the facade's ``BrokerResponseError``.
    :param retriable_base: if given, retriable codes also derive from it (kafka-python's
        ``RetriableError``).
    :param invalid_metadata_base: if given, codes that invalidate metadata derive from it
        (kafka-python's ``InvalidMetadataError``) instead of ``retriable_base``.
    :param authorization_base: if given, authorization codes derive from it instead of
        ``broker_base`` (kafka-python's ``AuthorizationError``).
    :returns: ``{errno: class}``.
    :raises ValueError: for an unknown flavour.
    """
    if flavour not in ("kafka", "aiokafka"):
        raise ValueError(f"unknown flavour {flavour!r}")
    module = namespace.get("__name__", __name__)
    by_code: Dict[int, type] = {}
    for code in BROKER_CODES:
        if flavour == "kafka":
            name, message, flags = code.kafka_name, code.message, code.kafka_flags
        else:
            if code.aiokafka_name is None:
                continue
            name = code.kafka_name if code.aiokafka_name == "=" else code.aiokafka_name
            message = code.message if code.aiokafka_message == "=" else str(code.aiokafka_message)
            flags = code.aiokafka_flags or ""
        bases: Tuple[type, ...]
        if "a" in flags and authorization_base is not None:
            bases = (authorization_base,)
        elif "m" in flags and invalid_metadata_base is not None:
            bases = (invalid_metadata_base, broker_base)
        elif "r" in flags and retriable_base is not None:
            bases = (retriable_base, broker_base)
        else:
            bases = (broker_base,)
        cls = error_class(module, name, f"Broker error {code.errno} ({message}): {describe(code.errno)}", flags,
                          *bases, errno=code.errno, message=message, description=describe(code.errno))
        namespace[name] = cls
        by_code[code.errno] = cls
    return by_code


def make_for_code(by_code: Dict[int, type], unknown: type) -> Callable[[int], type]:
    """Build a facade's ``for_code(errno)``.

    :param by_code: the mapping :func:`build_broker_errors` returned.
    :param unknown: the facade's ``UnknownError``; a code missing from the table gets a fresh
        ``UnrecognizedBrokerError`` subclass of it carrying that ``errno``, so the code is kept.
    :returns: the function.
    """

    def for_code(error_code: int) -> type:
        """Return the exception class for broker error code ``error_code``.

        :param error_code: a Kafka protocol error code.
        :returns: its class; an ``UnrecognizedBrokerError`` subclass of ``UnknownError`` with
            that ``errno`` for a code this table does not know.
        """
        cls = by_code.get(error_code)
        if cls is not None:
            return cls
        return type("UnrecognizedBrokerError", (unknown,), {"errno": error_code, "__module__": unknown.__module__})

    return for_code
