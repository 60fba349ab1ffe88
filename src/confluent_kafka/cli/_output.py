"""What the command-line tool shows a person: colours (only on a terminal), notes and errors on
stderr, aligned tables, and progress bars (with tqdm when it is installed)."""

from __future__ import annotations

import importlib
import logging
import os
import re
import sys
from typing import Any, Iterable, List, Optional, Sequence, TextIO

__all__ = ["Console", "Progress", "colour_wanted", "librdkafka_logger", "table"]

_CODES = {"red": "31", "green": "32", "yellow": "33", "blue": "34", "cyan": "36", "bold": "1", "dim": "2"}


def colour_wanted(stream: TextIO, mode: str = "auto") -> bool:
    """Whether to colour ``stream``: ``always``/``never``, or for ``auto`` only a terminal,
    and not when ``NO_COLOR`` is set (https://no-color.org) or ``TERM`` is ``dumb``."""
    if mode == "always":
        return True
    if mode == "never" or os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    if os.environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class Console:
    """Writes notes, warnings and errors to stderr, and styles text for stdout."""

    def __init__(self, colour_mode: str = "auto", quiet: bool = False,
                 err: Optional[TextIO] = None, out: Optional[TextIO] = None) -> None:
        self.err = err if err is not None else sys.stderr
        self.out = out if out is not None else sys.stdout
        self.quiet = quiet
        self.colour_mode = colour_mode
        self._err_colour = colour_wanted(self.err, colour_mode)
        self._out_colour = colour_wanted(self.out, colour_mode)

    @staticmethod
    def _paint(text: str, style: str, on: bool) -> str:
        if not on or not text:
            return text
        codes = ";".join(_CODES[s] for s in style.split())
        return f"\033[{codes}m{text}\033[0m"

    def style(self, text: str, style: str) -> str:
        """``text`` styled for stdout (unchanged unless stdout gets colours)."""
        return self._paint(text, style, self._out_colour)

    def note(self, text: str) -> None:
        """An informational line on stderr (suppressed by ``--quiet``)."""
        if not self.quiet:
            print(self._paint(text, "dim", self._err_colour), file=self.err, flush=True)

    def success(self, text: str) -> None:
        """A line reporting finished work on stderr (suppressed by ``--quiet``)."""
        if not self.quiet:
            print(self._paint(text, "green", self._err_colour), file=self.err, flush=True)

    def warn(self, text: str) -> None:
        """A warning on stderr (always shown)."""
        print(self._paint("warning: ", "yellow bold", self._err_colour) + text, file=self.err, flush=True)

    def error(self, text: str) -> None:
        """An error on stderr (always shown)."""
        print(self._paint("error: ", "red bold", self._err_colour) + text, file=self.err, flush=True)

    def progress(self, description: str, total: Optional[float] = None, unit: str = "msg",
                 show: bool = True) -> "Progress":
        """A progress bar on stderr, shown only when ``show``, stderr is a terminal and not ``--quiet``."""
        show = show and not self.quiet and _isatty(self.err)
        return Progress(description, total, unit, self.err if show else None)


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class Progress:
    """A progress bar that is a no-op when hidden or when tqdm is not installed."""

    def __init__(self, description: str, total: Optional[float], unit: str, stream: Optional[TextIO]) -> None:
        self._bar: Any = None
        if stream is None:
            return
        try:  # optional: pip install 'confluent-kafka[cli]'
            tqdm: Any = importlib.import_module("tqdm").tqdm
        except ImportError:
            return
        self._bar = tqdm(total=total, desc=description, unit=unit, unit_scale=True, file=stream,
                         leave=False, dynamic_ncols=True, mininterval=0.2)

    def update(self, n: float = 1) -> None:
        """Advance by ``n``."""
        if self._bar is not None:
            self._bar.update(n)

    def close(self) -> None:
        """Remove the bar from the terminal."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def table(console: Console, header: Sequence[str], rows: Iterable[Sequence[Any]]) -> List[str]:
    """Rows aligned under a (bold) header, as lines ready to print on stdout."""
    text_rows = [[("" if v is None else str(v)) for v in row] for row in rows]
    widths = [len(h) for h in header]
    for row in text_rows:
        widths = [max(w, len(v)) for w, v in zip(widths, row)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()

    return [console.style(line(header), "bold")] + [line(r) for r in text_rows]


_THREAD_PREFIX = re.compile(r"^[A-Z_]+: \[thrd:[^\]]*\]: ")


class _ConsoleHandler(logging.Handler):
    """Shows librdkafka's warnings and errors as one-line warnings (hidden by ``--quiet``)."""

    def __init__(self, console: Console) -> None:
        super().__init__(logging.WARNING)
        self.console = console

    def emit(self, record: logging.LogRecord) -> None:
        if not self.console.quiet:
            self.console.warn(_THREAD_PREFIX.sub("", record.getMessage()))


def librdkafka_logger(console: Console) -> logging.Logger:
    """A logger for the ``logger`` client setting that routes librdkafka's log to ``console``
    instead of its raw ``%3|...`` lines on stderr."""
    logger = logging.getLogger("confluent_kafka.cli.librdkafka")
    logger.propagate = False
    logger.setLevel(logging.WARNING)
    for h in list(logger.handlers):
        logger.removeHandler(h)
    logger.addHandler(_ConsoleHandler(console))
    return logger
