"""What programs and instrumentation read of aiokafka's internal client.

aiokafka's clients hold an ``AIOKafkaClient`` (``producer.client``, ``consumer._client``) that
owns the connections and the metadata; here librdkafka does. Tracing and metrics integrations
(OpenTelemetry's aiokafka instrumentation among them) read its bootstrap servers and client id
on every send and fetch, and wait on a topic's metadata through it: those are provided. The
rest of aiokafka's client (connections, requests, cluster metadata) is not.
"""
from __future__ import annotations

from typing import Any, Awaitable, Callable, Set


class ClientView:
    """The facade's stand-in for a client's ``AIOKafkaClient``."""

    def __init__(self, bootstrap_servers: Any, client_id: str,
                 wait_on_metadata: Callable[[str], Awaitable[Set[int]]]) -> None:
        self._bootstrap_servers = bootstrap_servers  # as the program gave it: a str or a list
        self._client_id = client_id
        self._metadata_of = wait_on_metadata

    async def _wait_on_metadata(self, topic: str) -> Set[int]:
        """Wait until the topic's partitions are known (the broker may create it), as aiokafka's does.

        :returns: the topic's partition ids.
        :raises ~.errors.KafkaTimeoutError: when they are not known within the request timeout.
        """
        return await self._metadata_of(topic)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} client_id={self._client_id!r} bootstrap_servers={self._bootstrap_servers!r}>"
