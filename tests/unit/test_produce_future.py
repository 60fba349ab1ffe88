"""Producer._produce_future(): a delivery resolves an asyncio future with a RecordMetadata built in C."""
from __future__ import annotations

import asyncio
import gc
from collections import namedtuple
from typing import Any, List

import pytest

from confluent_kafka import TIMESTAMP_LOG_APPEND_TIME, KafkaError, Producer

RM = namedtuple("RM", "topic partition tp offset timestamp timestamp_type log_start_offset")
TP = namedtuple("TP", "topic partition")


class NamedTupleWithDict(RM):  # no __slots__: instances get a __dict__
    pass


def _fallback(calls: List[Any]) -> Any:
    def fallback(fut: Any, err: Any, msg: Any) -> None:
        calls.append((err, msg))
        if not fut.done():
            fut.set_exception(RuntimeError(err.name()))
    return fallback


def _producer() -> Producer:
    return Producer({"test.mock.num.brokers": 1, "linger.ms": 1, "message.timeout.ms": 5000})


def test_success_resolves_with_the_named_tuple() -> None:
    async def main() -> None:
        p = _producer()
        calls: List[Any] = []
        spec = (RM, TP, _fallback(calls), (asyncio.InvalidStateError,))
        futs = [asyncio.get_running_loop().create_future() for _ in range(3)]
        p._produce_future(futs[0], spec, "t", b"v", None, 0)
        p._produce_future(futs[1], spec, "t", b"w", b"k", 0, 1234)
        p._produce_future(futs[2], spec, "t", b"x")
        futs[2].cancel()  # its report is dropped, not raised from flush()
        seen: List[Any] = []  # the same topic's report as a Message, for the timestamp type
        p._produce_with(None, lambda _o, err, msg: seen.append(msg), "t", b"y", None, 0)
        assert p.flush(10) == 0
        a, b = futs[0].result(), futs[1].result()
        assert type(a) is RM and type(a.tp) is TP
        assert (a.topic, a.partition, a.tp, a.log_start_offset) == ("t", 0, TP("t", 0), None)
        tstype, ts = seen[0].timestamp()
        assert a.timestamp_type == b.timestamp_type == (1 if tstype == TIMESTAMP_LOG_APPEND_TIME else 0)
        assert b.offset == a.offset + 1 and seen[0].offset() > b.offset
        assert isinstance(a.timestamp, int) and a.timestamp > 0  # the report's, as Message.timestamp()
        if tstype != TIMESTAMP_LOG_APPEND_TIME:
            assert b.timestamp == 1234
        assert calls == []
    asyncio.run(main())


def test_failure_goes_to_the_fallback() -> None:
    async def main() -> None:
        p = Producer({"bootstrap.servers": "127.0.0.1:1", "message.timeout.ms": 100})
        calls: List[Any] = []
        fut = asyncio.get_running_loop().create_future()
        p._produce_future(fut, (RM, TP, _fallback(calls), ()), "t", b"v")
        p.purge()
        p.flush(5)
        assert len(calls) == 1 and calls[0][0].code() == KafkaError._PURGE_QUEUE
        assert calls[0][1].value() == b"v"
        with pytest.raises(RuntimeError):
            fut.result()
    asyncio.run(main())


def test_an_exception_not_ignored_surfaces() -> None:
    async def main() -> None:
        p = _producer()
        fut = asyncio.get_running_loop().create_future()
        p._produce_future(fut, (RM, TP, _fallback([]), ()), "t", b"v", None, 0)
        fut.cancel()
        with pytest.raises(asyncio.InvalidStateError):
            p.flush(10)
    asyncio.run(main())


@pytest.mark.parametrize("spec", [
    None, (RM, TP, print), (RM, TP, print, [ValueError]), (int, TP, print, ()), (RM, TP, 1, ()),
    (RM, TP, print, (1,)), (RM, "TP", print, ()), (RM, TP, print, (), []), (RM, TP, print, (), {}, 1),
])
def test_bad_spec_raises_type_error(spec: Any) -> None:
    p = _producer()
    with pytest.raises(TypeError):
        p._produce_future(object(), spec, "t", b"v")
    assert len(p) == 0


def test_argument_count() -> None:
    p = _producer()
    with pytest.raises(TypeError):
        p._produce_future(object(), (RM, TP, print, ()))


def test_a_cache_shares_the_topic_partitions() -> None:
    async def main() -> None:
        p = _producer()
        cache: dict = {}
        spec = (RM, TP, _fallback([]), (asyncio.InvalidStateError,), cache)
        loop = asyncio.get_running_loop()
        futs = [loop.create_future() for _ in range(4)]
        for i, fut in enumerate(futs):
            p._produce_future(fut, spec, "t" if i < 3 else "u", b"v", None, 0)
        assert p.flush(10) == 0
        rms = [f.result() for f in futs]
        assert rms[0].tp is rms[1].tp is rms[2].tp == TP("t", 0)  # one object for the partition
        assert rms[3].tp == TP("u", 0) and rms[3].tp is not rms[0].tp
        assert cache == {"t": {0: TP("t", 0)}, "u": {0: TP("u", 0)}}
        assert cache["t"][0] is rms[0].tp
        assert [r.offset for r in rms[:3]] == [rms[0].offset, rms[0].offset + 1, rms[0].offset + 2]
    asyncio.run(main())


def test_reports_stay_out_of_the_garbage_collector() -> None:
    """RecordMetadata and TopicPartition hold only str, int and None: no cycle can go through them."""
    async def main() -> None:
        p = _producer()
        fut = asyncio.get_running_loop().create_future()
        p._produce_future(fut, (RM, TP, _fallback([]), ()), "t", b"v", None, 0)
        assert p.flush(10) == 0
        rm = fut.result()
        assert not gc.is_tracked(rm) and not gc.is_tracked(rm.tp)

        class Open(NamedTupleWithDict):  # a named tuple with an instance dict may hold anything
            pass
        fut = asyncio.get_running_loop().create_future()
        p._produce_future(fut, (Open, TP, _fallback([]), ()), "t", b"v", None, 0)
        assert p.flush(10) == 0
        assert gc.is_tracked(fut.result())
    asyncio.run(main())


# ---- the memo one drain of reports shares ---------------------------------------------------

def test_reports_of_interleaved_partitions_get_their_own_topic_partition() -> None:
    """Consecutive reports share the last TopicPartition only while the partition stays the same."""
    async def main() -> None:
        p = _producer()
        spec = (RM, TP, _fallback([]), (asyncio.InvalidStateError,), {})
        loop = asyncio.get_running_loop()
        futs = [loop.create_future() for _ in range(12)]
        for i, fut in enumerate(futs):
            p._produce_future(fut, spec, "t" if i < 9 else "u", b"v", None, i % 3)
        assert p.flush(10) == 0
        for i, fut in enumerate(futs):
            rm = fut.result()
            assert (rm.topic, rm.partition, rm.tp) == ("t" if i < 9 else "u", i % 3, TP(rm.topic, i % 3))
            assert rm.tp is spec[4][rm.topic][i % 3]
        offsets = [f.result().offset for f in futs[:9]]
        assert offsets[3:6] == [o + 1 for o in offsets[:3]] and offsets[6:9] == [o + 2 for o in offsets[:3]]
    asyncio.run(main())


def test_set_result_overridden_by_a_subclass_or_an_instance_is_called() -> None:
    """The report calls what fut.set_result finds: a subclass's method, or one set on the instance."""
    seen: List[Any] = []

    class Recording(asyncio.Future):  # type: ignore[type-arg]
        def set_result(self, result: Any) -> None:
            seen.append(("subclass", result.offset))
            super().set_result(result)

    async def main() -> None:
        p = _producer()
        spec = (RM, TP, _fallback([]), (asyncio.InvalidStateError,))
        loop = asyncio.get_running_loop()
        plain, sub, shadowed, plain2 = (loop.create_future(), Recording(loop=loop), loop.create_future(),
                                        loop.create_future())
        shadowed.set_result = lambda result: seen.append(("instance", result.offset))  # type: ignore[method-assign]
        for fut in (plain, sub, shadowed, plain2):
            p._produce_future(fut, spec, "t", b"v", None, 0)
        assert p.flush(10) == 0
        first = plain.result().offset
        assert seen == [("subclass", first + 1), ("instance", first + 2)]
        assert sub.result().offset == first + 1 and not shadowed.done() and plain2.result().offset == first + 3
    asyncio.run(main())


# ---- _send_future(): the aiokafka facade's common send() in one call ------------------------

def _send(p: Producer, loop: Any, spec: Any, value: Any = b"v", key: Any = None, partition: Any = None,
          timestamp: Any = None, headers: Any = None, limit: Any = 100) -> Any:
    return p._send_future((asyncio.Future, {"loop": loop}, spec, limit), "t", value, key, partition, timestamp,
                          headers)


def test_send_future_makes_the_future_and_produces() -> None:
    async def main() -> None:
        p = _producer()
        loop = asyncio.get_running_loop()
        spec = (RM, TP, _fallback([]), (asyncio.InvalidStateError,), {})
        futs = [_send(p, loop, spec), _send(p, loop, spec, None, b"k"), _send(p, loop, spec, b"v" * 60, b"k" * 40),
                _send(p, loop, spec, timestamp=1234)]
        assert all(type(f) is asyncio.Future and f.get_loop() is loop and not f.done() for f in futs)
        assert len(p) == 4
        assert p.flush(10) == 0
        rms = [f.result() for f in futs]
        assert all(type(r) is RM and r.tp == TP("t", r.partition) for r in rms)
    asyncio.run(main())


@pytest.mark.parametrize("kwargs", [
    {"value": "text"}, {"value": bytearray(b"v")}, {"key": "k"}, {"key": memoryview(b"k")},
    {"value": None, "key": None}, {"partition": 0}, {"headers": []}, {"headers": [("h", b"v")]},
    {"value": b"v" * 101}, {"value": b"v" * 60, "key": b"k" * 41}, {"limit": 100.0}, {"limit": True},
])
def test_send_future_declines_anything_but_the_common_call(kwargs: Any) -> None:
    """None, having made no future and produced nothing: the facade's full path handles the call."""
    made: List[Any] = []

    class Counted(asyncio.Future):  # type: ignore[type-arg]
        def __init__(self, **kw: Any) -> None:
            made.append(self)
            super().__init__(**kw)

    async def main() -> None:
        p = _producer()
        loop = asyncio.get_running_loop()
        spec = (RM, TP, _fallback([]), ())
        args = {"value": b"v", "key": None, "partition": None, "timestamp": None, "headers": None, "limit": 100}
        args.update(kwargs)
        assert p._send_future((Counted, {"loop": loop}, spec, args["limit"]), "t", args["value"], args["key"],
                              args["partition"], args["timestamp"], args["headers"]) is None
        assert made == [] and len(p) == 0
    asyncio.run(main())


def test_send_future_errors() -> None:
    async def main() -> None:
        p = _producer()
        loop = asyncio.get_running_loop()
        spec = (RM, TP, _fallback([]), ())
        with pytest.raises(TypeError):
            p._send_future((asyncio.Future, {"loop": loop}, spec, 100), "t", b"v")  # type: ignore[call-arg]
        for bad in [(1, {"loop": loop}, spec, 100), (asyncio.Future, [("loop", loop)], spec, 100),
                    (asyncio.Future, {"loop": loop}, spec), [asyncio.Future, {"loop": loop}, spec, 100], None]:
            with pytest.raises(TypeError):
                p._send_future(bad, "t", b"v", None, None, None, None)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            _send(p, loop, (RM, TP, print))
        with pytest.raises(TypeError):  # the future's own constructor refuses the keyword
            p._send_future((asyncio.Future, {"nope": 1}, spec, 100), "t", b"v", None, None, None, None)
        with pytest.raises(TypeError, match="topic"):
            p._send_future((asyncio.Future, {"loop": loop}, spec, 100), 1, b"v", None, None, None,  # type: ignore[arg-type]
                           None)
        with pytest.raises(TypeError):
            _send(p, loop, spec, timestamp="now")
        with pytest.raises(ValueError):
            _send(p, loop, spec, timestamp=-5)
        assert len(p) == 0
        p.close()
        with pytest.raises(RuntimeError):
            _send(p, loop, spec)
    asyncio.run(main())


def test_send_future_full_queue_raises_buffer_error() -> None:
    async def main() -> None:
        p = Producer({"bootstrap.servers": "127.0.0.1:1", "queue.buffering.max.messages": 1,
                      "message.timeout.ms": 100})
        loop = asyncio.get_running_loop()
        spec = (RM, TP, _fallback([]), ())
        assert _send(p, loop, spec) is not None
        with pytest.raises(BufferError):
            _send(p, loop, spec)
        p.purge()
        p.flush(5)
    asyncio.run(main())


# ---- what a producer remembers between calls ------------------------------------------------

BAD_SPECS = [None, (RM, TP, print), (RM, TP, print, [ValueError]), (int, TP, print, ()), (RM, TP, 1, ()),
             (RM, TP, print, (1,)), (RM, "TP", print, ()), (RM, TP, print, (), []), (RM, TP, print, (), {}, 1)]


def test_a_spec_once_valid_vouches_for_no_other() -> None:
    """A producer skips checking the spec it already found valid, and only that one."""
    async def main() -> None:
        p = _producer()
        loop = asyncio.get_running_loop()
        good = (RM, TP, _fallback([]), (asyncio.InvalidStateError,))
        for _ in range(2):
            p._produce_future(loop.create_future(), good, "t", b"v", None, 0)
        for spec in BAD_SPECS:
            with pytest.raises(TypeError):
                p._produce_future(loop.create_future(), spec, "t", b"v", None, 0)
            with pytest.raises(TypeError):
                _send(p, loop, spec)
        assert len(p) == 2
        assert p.flush(10) == 0
    asyncio.run(main())


class Name(str):
    pass


def test_messages_go_to_the_topic_named_whichever_object_names_it() -> None:
    """produce() remembers the last topic object's librdkafka handle: alternating topics, and equal
    names given as other objects (a str subclass too), each reach their own topic."""
    p = _producer()
    names = ["topic-a", "topic-b", "topic-a", "topic-a", "".join(["topic-", "b"]), Name("topic-c"), "topic-a",
             Name("topic-b"), "topic-c"]
    offsets: List[Any] = []
    for i, name in enumerate(names):
        p.produce(name, b"%d" % i, partition=0,
                  on_delivery=lambda err, msg: offsets.append((err, str(msg.topic()), msg.offset())))
    assert p.flush(10) == 0
    assert all(err is None for err, _, _ in offsets)
    per_topic: dict = {}
    for _, topic, offset in offsets:
        per_topic.setdefault(topic, []).append(offset)
    assert per_topic == {"topic-a": [0, 1, 2, 3], "topic-b": [0, 1, 2], "topic-c": [0, 1]}
