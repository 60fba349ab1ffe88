"""``aiokafka.admin.records_to_delete``: :class:`RecordsToDelete`, where
``AIOKafkaAdminClient.delete_records`` cuts a partition."""
from __future__ import annotations

__all__ = ["RecordsToDelete"]


class RecordsToDelete:
    """Delete every record of a partition before an offset.

    :param before_offset: the first offset to keep (-1: the partition's high watermark, i.e. every
        record).
    """

    def __init__(self, before_offset: int) -> None:
        self.before_offset = before_offset
