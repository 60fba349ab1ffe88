"""``aiokafka.admin``: aiokafka 0.14's ``AIOKafkaAdminClient`` and its request types, over this
package's librdkafka admin client (see :mod:`.client`)."""
from __future__ import annotations

from .client import AIOKafkaAdminClient
from .new_partitions import NewPartitions
from .new_topic import NewTopic
from .records_to_delete import RecordsToDelete

__all__ = ["AIOKafkaAdminClient", "NewPartitions", "NewTopic", "RecordsToDelete"]
