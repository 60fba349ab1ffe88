"""The result of :meth:`AdminClient.delete_records`."""

from __future__ import annotations

__all__ = ["DeletedRecords"]


class DeletedRecords:
    """A partition after :meth:`AdminClient.delete_records`.

    :param low_watermark: The partition's new low watermark (its first offset).
    """

    def __init__(self, low_watermark: int) -> None:
        self.low_watermark = low_watermark
