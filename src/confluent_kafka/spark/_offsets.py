"""Plan what a read covers: the partitions, their start and end offsets, and the offset ranges
that become Spark tasks.

Planning runs where Spark plans (the driver side), before any task starts, so that a retried
task reads exactly the same messages as the attempt it replaces.

End offsets are confirmed by a fetch: the high watermark that ListOffsets reports is wrong on
some Kafka-compatible brokers (one reports the base offset of the last record batch + 1), while
the one carried in every Fetch response is right. So the planner fetches from just below the
reported end and takes the high watermark of that response. On a broker that answers
ListOffsets correctly this costs one small fetch per partition and changes nothing.
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Dict, Iterable, List, Optional, Tuple

from .. import Consumer, KafkaError, KafkaException, TopicPartition
from ._options import DEFAULT_METADATA_TIMEOUT, EARLIEST, LATEST, OffsetSpec, ReadOptions, Subscription
from ._timestamps import TimestampSpec, offsets_from_lookup, wanted_timestamps

if TYPE_CHECKING:
    from ..admin import ClusterMetadata

TP = Tuple[str, int]

#: A read position for every partition, as Spark checkpoints it: ``{topic: {"0": offset}}``.
OffsetMap = Dict[str, Dict[str, int]]

#: Seconds for metadata, watermark and end-confirming requests unless the options say
#: (``ReadOptions.metadata_timeout``).
METADATA_TIMEOUT = DEFAULT_METADATA_TIMEOUT


@dataclass(frozen=True)
class OffsetRange:
    """The messages of one partition with ``start <= offset < end``: one Spark task's work."""

    topic: str
    partition: int
    start: int
    end: int

    @property
    def size(self) -> int:
        """How many offsets the range spans."""
        return max(0, self.end - self.start)


def to_offset_map(offsets: Dict[TP, int]) -> OffsetMap:
    """``{(topic, partition): offset}`` in the JSON-able form Spark checkpoints."""
    out: OffsetMap = {}
    for (topic, part), off in sorted(offsets.items()):
        out.setdefault(topic, {})[str(part)] = off
    return out


def from_offset_map(offsets: OffsetMap) -> Dict[TP, int]:
    """The inverse of :func:`to_offset_map`."""
    return {(topic, int(part)): int(off) for topic, parts in offsets.items() for part, off in parts.items()}


class OffsetPlanner:
    """Looks up partitions and offsets for one read's options; owns one consumer, made lazily.

    Not picklable state: Spark may pickle the objects holding a planner, so the consumer is
    dropped from the pickled form and made again where it is next needed.
    """

    def __init__(self, options: ReadOptions) -> None:
        self.options = options
        self._consumer: Optional[Consumer] = None

    def __getstate__(self) -> Dict[str, object]:
        return {"options": self.options, "_consumer": None}

    def _client(self) -> Consumer:
        if self._consumer is None:
            conf = self.options.consumer_conf()
            conf["enable.partition.eof"] = "true"
            self._consumer = Consumer(conf)
        return self._consumer

    def close(self) -> None:
        """Close the planning consumer (it is made again if the planner is used afterwards)."""
        if self._consumer is not None:
            consumer, self._consumer = self._consumer, None
            consumer.close()

    @property
    def timeout(self) -> float:
        """Seconds each lookup may take (``ReadOptions.metadata_timeout``)."""
        return self.options.metadata_timeout

    def _metadata(self, topic: Optional[str] = None) -> ClusterMetadata:
        """The cluster's metadata (for ``topic`` only, when given); a broker that cannot be
        reached fails naming the servers and the option that bounds the wait."""
        try:
            return self._client().list_topics(topic, timeout=self.timeout)
        except KafkaException as exc:
            err = exc.args[0] if exc.args and isinstance(exc.args[0], KafkaError) else None
            if err is None or err.code() not in (KafkaError._TRANSPORT, KafkaError._TIMED_OUT,
                                                 KafkaError._ALL_BROKERS_DOWN, KafkaError._RESOLVE):
                raise
            raise KafkaException(KafkaError(
                err.code(), f"no metadata from kafka.bootstrap.servers={self.options.conf.get('bootstrap.servers')!r} "
                            f"within {self.timeout:g} s (kafka.default.api.timeout.ms or "
                            f"kafka.socket.timeout.ms set the wait): {err.str()}")) from None

    # ---- partitions ------------------------------------------------------------------------

    def partitions(self) -> List[TP]:
        """Every partition the subscription covers now, sorted."""
        sub: Subscription = self.options.subscription
        md = self._metadata()
        found: List[TP] = []
        if sub.assign is not None:
            for topic, parts in sub.assign.items():
                have = md.topics.get(topic)
                known = set(have.partitions) if have is not None and have.error is None else set()
                missing = [p for p in parts if p not in known]
                if missing:
                    raise ValueError(f"option 'assign': topic {topic!r} has no partition(s) {missing}")
                found.extend((topic, p) for p in parts)
        else:
            if sub.topics is not None:
                wanted = [t for t in sub.topics]
                for t in wanted:
                    if t not in md.topics or md.topics[t].error is not None:
                        # Ask once by name: a broker may create it on request, as Kafka's own
                        # clients do for a subscribed topic that does not exist yet.
                        one = self._metadata(t)
                        md.topics.update(one.topics)
            else:
                regex = re.compile(sub.pattern or "")
                wanted = [t for t in md.topics if regex.fullmatch(t)]
            for t in wanted:
                meta = md.topics.get(t)
                if meta is None or meta.error is not None:
                    continue  # not there (yet): nothing to read from it
                found.extend((t, p) for p in meta.partitions)
        return sorted(set(found))

    # ---- offsets ---------------------------------------------------------------------------

    def watermarks(self, tps: Iterable[TP]) -> Dict[TP, Tuple[int, int]]:
        """``(low, high)`` of each partition, the high one confirmed by a fetch (its high watermark
        and the offsets it returns)."""
        c = self._client()
        marks: Dict[TP, Tuple[int, int]] = {}
        for t, p in tps:
            marks[(t, p)] = c.get_watermark_offsets(TopicPartition(t, p), timeout=self.timeout)
        check = [tp for tp, (lo, hi) in marks.items() if hi > lo]
        if not check:
            return marks
        c.assign([TopicPartition(t, p, marks[(t, p)][1] - 1) for t, p in check])
        seen: Dict[TP, int] = {}  # one past the last offset fetched: the end is at least that
        try:
            pending = set(check)
            deadline = time.monotonic() + self.timeout
            while pending:
                if time.monotonic() > deadline:
                    raise KafkaException(KafkaError(KafkaError._TIMED_OUT,
                                                    f"no fetch response for {sorted(pending)} within "
                                                    f"{self.timeout:g} s while looking up end offsets"))
                for m in c.consume(10_000, 0.5):
                    err = m.error()
                    if err is not None and err.code() != KafkaError._PARTITION_EOF:
                        raise KafkaException(err)
                    topic, part, off = m.topic(), m.partition(), m.offset()
                    if topic is None or part is None:
                        continue
                    pending.discard((topic, part))
                    if err is None and off is not None:
                        seen[(topic, part)] = max(seen.get((topic, part), 0), off + 1)
            for t, p in check:
                lo, hi = marks[(t, p)]
                _, fetched = c.get_watermark_offsets(TopicPartition(t, p), cached=True)
                marks[(t, p)] = (lo, max(hi, fetched, seen.get((t, p), 0)))
        finally:
            c.unassign()
        return marks

    def resolve(self, spec: OffsetSpec, tps: List[TP], marks: Dict[TP, Tuple[int, int]],
                default: int, what: str) -> Dict[TP, int]:
        """The offset ``spec`` (earliest, latest, or JSON) names for each partition in ``tps``;
        partitions the JSON leaves out get ``default`` (EARLIEST or LATEST)."""
        if isinstance(spec, str):
            chosen = {tp: EARLIEST if spec == "earliest" else LATEST for tp in tps}
        else:
            given = {(t, p): off for t, parts in spec.items() for p, off in parts.items()}
            unknown = sorted(set(given) - set(tps))
            if unknown:
                raise ValueError(f"option {what!r} names partitions the read does not cover: {unknown}")
            chosen = {tp: given.get(tp, default) for tp in tps}
        return {tp: marks[tp][0] if off == EARLIEST else marks[tp][1] if off == LATEST else off
                for tp, off in chosen.items()}

    def latest(self, tps: Optional[List[TP]] = None) -> Dict[TP, int]:
        """The end offset (confirmed high watermark) of every partition covered now."""
        tps = self.partitions() if tps is None else tps
        return {tp: hi for tp, (_, hi) in self.watermarks(tps).items()}

    def earliest(self, tps: List[TP]) -> Dict[TP, int]:
        """The first offset still stored in each partition."""
        c = self._client()
        return {(t, p): c.get_watermark_offsets(TopicPartition(t, p), timeout=self.timeout)[0] for t, p in tps}

    def by_timestamp(self, spec: TimestampSpec, tps: List[TP], marks: Dict[TP, Tuple[int, int]],
                     starting: bool, what: str) -> Dict[TP, int]:
        """The offsets a timestamp option names, for the partitions it covers (all of ``tps`` for
        a single timestamp): the first offset at or after each timestamp, looked up with
        ``offsets_for_times``; see :func:`offsets_from_lookup` for partitions with none."""
        wanted = wanted_timestamps(spec, tps, what)
        if not wanted:
            return {}
        answer = self._client().offsets_for_times(
            [TopicPartition(t, p, ms) for (t, p), ms in sorted(wanted.items())], timeout=self.timeout)
        found: Dict[TP, int] = {}
        for tp in answer:
            if tp.error is not None:
                raise KafkaException(tp.error)
            found[(tp.topic, tp.partition)] = tp.offset
        latest = {tp: marks[tp][1] for tp in wanted}
        return offsets_from_lookup(wanted, found, latest, starting, self.options.timestamps.strategy, what)

    def starting_offsets(self, tps: List[TP], marks: Dict[TP, Tuple[int, int]]) -> Dict[TP, int]:
        """Where the read starts in each partition. As in Spark, startingTimestamp wins over
        startingOffsetsByTimestamp, which wins over startingOffsets; partitions the per-partition
        JSON leaves out start as startingOffsets says."""
        return self._bounds(self.options.starting, self.options.timestamps.starting, tps, marks, True)

    def ending_offsets(self, tps: List[TP], marks: Dict[TP, Tuple[int, int]]) -> Dict[TP, int]:
        """Where a batch read ends in each partition: endingTimestamp, else
        endingOffsetsByTimestamp, else endingOffsets (the same ranking as for the start)."""
        return self._bounds(self.options.ending, self.options.timestamps.ending, tps, marks, False)

    def _bounds(self, offsets: OffsetSpec, stamps: Optional[TimestampSpec], tps: List[TP],
                marks: Dict[TP, Tuple[int, int]], starting: bool) -> Dict[TP, int]:
        side = "starting" if starting else "ending"
        if isinstance(stamps, int):
            return self.by_timestamp(stamps, tps, marks, starting, f"{side}Timestamp")
        chosen = self.resolve(offsets, tps, marks, EARLIEST if starting else LATEST, f"{side}Offsets")
        if stamps is not None:
            chosen.update(self.by_timestamp(stamps, tps, marks, starting, f"{side}OffsetsByTimestamp"))
        return chosen

    def batch_ranges(self) -> List[OffsetRange]:
        """The offset ranges of a batch read (from the starting to the ending options), split
        for ``minPartitions``."""
        tps = self.partitions()
        marks = self.watermarks(tps)
        starts = self.starting_offsets(tps, marks)
        ends = self.ending_offsets(tps, marks)
        return split_ranges(make_ranges(starts, ends), self.options.min_partitions)


def make_ranges(starts: Dict[TP, int], ends: Dict[TP, int]) -> List[OffsetRange]:
    """One range per partition in ``ends``; a partition without a start starts at 0 (a partition
    that appeared since the start was taken: everything in it is new)."""
    out = []
    for tp in sorted(ends):
        start, end = starts.get(tp, 0), ends[tp]
        if start > end:
            raise ValueError(f"{tp[0]}[{tp[1]}]: starting offset {start} is after the ending offset {end}")
        out.append(OffsetRange(tp[0], tp[1], start, end))
    return out


def split_ranges(ranges: List[OffsetRange], min_partitions: Optional[int]) -> List[OffsetRange]:
    """Drop empty ranges; with ``min_partitions``, cut large ranges so that there are at least
    that many, each partition getting pieces in proportion to its size."""
    ranges = [r for r in ranges if r.size > 0]
    total = sum(r.size for r in ranges)
    if not min_partitions or len(ranges) >= min_partitions or total == 0:
        return ranges
    out: List[OffsetRange] = []
    for r in ranges:
        pieces = min(r.size, max(1, math.ceil(r.size * min_partitions / total)))
        step = r.size / pieces
        bounds = [r.start + round(i * step) for i in range(pieces)] + [r.end]
        out.extend(OffsetRange(r.topic, r.partition, a, b) for a, b in zip(bounds, bounds[1:]) if b > a)
    return out


def limit_offsets(starts: Dict[TP, int], ends: Dict[TP, int], max_rows: Optional[int]) -> Dict[TP, int]:
    """Ends moved back so that at most ``max_rows`` offsets lie between starts and ends, shared
    among the partitions in proportion to what each has (maxOffsetsPerTrigger)."""
    avail = {tp: max(0, end - starts.get(tp, 0)) for tp, end in ends.items()}
    total = sum(avail.values())
    if max_rows is None or total <= max_rows:
        return dict(ends)
    out = {}
    budget = max_rows
    for tp in sorted(ends):
        take = min(avail[tp], budget, avail[tp] * max_rows // total)
        budget -= take
        out[tp] = starts.get(tp, 0) + take
    # Hand what rounding left over to the partitions with the most left, so progress is made.
    for tp in sorted(ends, key=lambda tp: avail[tp] - (out[tp] - starts.get(tp, 0)), reverse=True):
        if budget <= 0:
            break
        more = min(budget, ends[tp] - out[tp])
        out[tp] += more
        budget -= more
    return out
