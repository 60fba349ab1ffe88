"""What happens to a record whose handler keeps failing: the error run() raises, and the copy
written to a dead-letter topic."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

# Headers added to a dead-lettered record, after the record's own.
HEADER_ERROR = "parallel.error"
HEADER_ERROR_TYPE = "parallel.error.type"
HEADER_TOPIC = "parallel.topic"
HEADER_PARTITION = "parallel.partition"
HEADER_OFFSET = "parallel.offset"
HEADER_ATTEMPTS = "parallel.attempts"


class HandlerError(Exception):
    """A handler failed on a record for good, under ``on_failure="stop"``.

    ``run()`` raises it once the other records in process have finished and the offsets below the
    failed record are committed; nothing at or past it is committed, so a restart processes it
    again. The handler's exception is the ``__cause__``.
    """

    def __init__(self, message: Any, error: BaseException, attempts: int) -> None:
        self.record = message
        self.topic: str = message.topic()
        self.partition: int = message.partition()
        self.offset: int = message.offset()
        self.attempts = attempts
        self.error = error
        super().__init__(
            f"handler failed on {self.topic} [{self.partition}] at offset {self.offset} after "
            f"{attempts} attempt{'s' if attempts != 1 else ''}: {type(error).__name__}: {error}")

    def __reduce__(self) -> Tuple[Any, ...]:
        return (_rebuild, (type(self), self.args, dict(self.__dict__)))


def _rebuild(cls: type, args: Tuple[Any, ...], state: Dict[str, Any]) -> BaseException:
    """Unpickle an exception whose constructor takes other arguments than its text."""
    error: BaseException = Exception.__new__(cls)
    error.args = args
    error.__dict__.update(state)
    return error


class DeadLetterError(Exception):
    """A record could not be written to the dead-letter topic; its offset is not committed."""


def dead_letter_headers(message: Any, error: BaseException, attempts: int) -> List[Tuple[str, Optional[bytes]]]:
    """The record's own headers, then where it came from and why it failed."""
    headers = list(message.headers() or ())
    headers += [
        (HEADER_ERROR, f"{type(error).__name__}: {error}".encode("utf-8", "replace")),
        (HEADER_ERROR_TYPE, f"{type(error).__module__}.{type(error).__qualname__}".encode()),
        (HEADER_TOPIC, message.topic().encode()),
        (HEADER_PARTITION, str(message.partition()).encode()),
        (HEADER_OFFSET, str(message.offset()).encode()),
        (HEADER_ATTEMPTS, str(attempts).encode()),
    ]
    return headers
