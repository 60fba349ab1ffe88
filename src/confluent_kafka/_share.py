"""The KIP-932 share consumer's names (upstream 2.16), for a librdkafka without its API.

The share consumer (``ShareConsumer``, ``DeserializingShareConsumer``) is built on the
``rd_kafka_share_*`` API that librdkafka 2.15.0 introduced; this package is built against an
older librdkafka, so constructing one raises :class:`NotImplementedError` saying so. What does not
need librdkafka is here as upstream has it, so code that imports these names, catches the
exceptions or uses :class:`~confluent_kafka.AcknowledgeType` and
:class:`~confluent_kafka.Messages` runs unchanged: the value types live in ``_model``; the
exceptions, the ``SHARE_ACKNOWLEDGE_TYPE_*`` constants and ``ShareConsumer`` are installed in
``confluent_kafka.cimpl``, where upstream's C extension defines them.
"""
from __future__ import annotations

from types import ModuleType
from typing import Any, Callable, List, NoReturn, Optional

from . import cimpl
from ._model import AcknowledgeType, Messages

__all__ = [
    "ConcurrentModificationException",
    "IllegalStateException",
    "SHARE_ACKNOWLEDGE_TYPE_ACCEPT",
    "SHARE_ACKNOWLEDGE_TYPE_REJECT",
    "SHARE_ACKNOWLEDGE_TYPE_RELEASE",
    "SHARE_CONSUMER_LIBRDKAFKA",
    "ShareConsumer",
]

#: The librdkafka release that introduced the share consumer API (as a preview).
SHARE_CONSUMER_LIBRDKAFKA = "2.15.0"

SHARE_ACKNOWLEDGE_TYPE_ACCEPT: int = AcknowledgeType.ACCEPT.value
SHARE_ACKNOWLEDGE_TYPE_RELEASE: int = AcknowledgeType.RELEASE.value
SHARE_ACKNOWLEDGE_TYPE_REJECT: int = AcknowledgeType.REJECT.value


class ConcurrentModificationException(RuntimeError):
    """A share consumer was used from more than one thread at a time."""

    __module__ = "confluent_kafka.cimpl"


class IllegalStateException(RuntimeError):
    """A share consumer call that its state does not allow (for example after close())."""

    __module__ = "confluent_kafka.cimpl"


def _unavailable(what: str) -> NoReturn:
    raise NotImplementedError(
        f"{what} needs the share consumer API (KIP-932) of librdkafka {SHARE_CONSUMER_LIBRDKAFKA} or "
        f"later; this confluent_kafka is built against librdkafka {cimpl.BUILD_LIBRDKAFKA_VERSION}, "
        "which does not have it")


class ShareConsumer:
    """A member of a share group (KIP-932): records of the subscribed topics are shared out
    among the members, each acquired by one of them until acknowledged.

    Not available in this build (see the module documentation): the constructor raises
    :class:`NotImplementedError`. The methods mirror upstream's so that code naming them
    still imports and type-checks.

    :param conf: the configuration (``group.id``, ``bootstrap.servers``, ...).
    :raises NotImplementedError: always, naming the librdkafka version the API needs.
    """

    __module__ = "confluent_kafka.cimpl"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        _unavailable(type(self).__name__)

    def subscribe(self, topics: List[str]) -> None:
        """Subscribe to ``topics`` (replacing the current subscription)."""
        _unavailable("ShareConsumer.subscribe()")

    def unsubscribe(self) -> None:
        """Drop the subscription."""
        _unavailable("ShareConsumer.unsubscribe()")

    def subscription(self) -> List[str]:
        """The subscribed topics."""
        _unavailable("ShareConsumer.subscription()")

    def poll(self, timeout: float = -1) -> Messages:
        """The next batch of acquired records (empty when ``timeout`` passes first)."""
        _unavailable("ShareConsumer.poll()")

    def acknowledge(self, message: cimpl.Message, ack_type: AcknowledgeType = AcknowledgeType.ACCEPT) -> None:
        """Record how the broker should treat ``message`` (explicit acknowledgement mode)."""
        _unavailable("ShareConsumer.acknowledge()")

    def acknowledge_offset(self, topic: str, partition: int, offset: int,
                           ack_type: AcknowledgeType = AcknowledgeType.ACCEPT) -> None:
        """Like :meth:`acknowledge`, for a record known by topic, partition and offset."""
        _unavailable("ShareConsumer.acknowledge_offset()")

    def commit_async(self) -> None:
        """Send the pending acknowledgements without waiting."""
        _unavailable("ShareConsumer.commit_async()")

    def commit_sync(self, timeout: float = 60) -> Any:
        """Send the pending acknowledgements and wait for the broker's answer."""
        _unavailable("ShareConsumer.commit_sync()")

    def set_acknowledgement_commit_callback(self, callback: Optional[Callable[..., Any]]) -> None:
        """Call ``callback`` with the outcome of each acknowledgement commit."""
        _unavailable("ShareConsumer.set_acknowledgement_commit_callback()")

    def set_sasl_credentials(self, username: str, password: str) -> None:
        """Replace the SASL username and password."""
        _unavailable("ShareConsumer.set_sasl_credentials()")

    def close(self) -> None:
        """Commit pending acknowledgements and leave the share group."""
        _unavailable("ShareConsumer.close()")

    def __enter__(self) -> "ShareConsumer":
        _unavailable("ShareConsumer")

    def __exit__(self, *exc: Any) -> None:
        _unavailable("ShareConsumer")


def _install(module: ModuleType) -> None:
    """Put the names upstream's C extension defines into ``module`` (``confluent_kafka.cimpl``)."""
    for name in ("ConcurrentModificationException", "IllegalStateException", "ShareConsumer",
                 "SHARE_ACKNOWLEDGE_TYPE_ACCEPT", "SHARE_ACKNOWLEDGE_TYPE_RELEASE",
                 "SHARE_ACKNOWLEDGE_TYPE_REJECT"):
        if not hasattr(module, name):  # a librdkafka-backed implementation would win
            setattr(module, name, globals()[name])


_install(cimpl)
