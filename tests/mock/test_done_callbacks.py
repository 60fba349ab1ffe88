"""The done-callbacks of the futures the asyncio producers return (the aiokafka facade's send(),
confluent_kafka.aio's produce()) run as asyncio would run them, though the reports of one drain
schedule them as one loop callback (src/confluent_kafka/src/done_batch.c): on the loop, once
each, in delivery order, each in its own context; one that raises reaches the loop's exception
handler as from a handle; a loop in debug mode keeps a handle per callback. Checked on the
librdkafka mock cluster."""
from __future__ import annotations

import asyncio
import contextvars
import threading
from typing import Any, Awaitable, Callable, Dict, List, Tuple

import pytest

from confluent_kafka import Producer
from confluent_kafka.aio import AIOProducer
from confluent_kafka.aio._done_callbacks import run_done_callbacks
from confluent_kafka.compat.aiokafka import AIOKafkaProducer
from confluent_kafka.compat.aiokafka.producer.producer import _SPEC

pytestmark = pytest.mark.mock

N = 300  # fewer than send()'s serving interval: no report is served while the sends run
_VAR: "contextvars.ContextVar[int]" = contextvars.ContextVar("index")


@pytest.fixture
def topic(mock_cluster: Any, unique_topic: str) -> str:
    mock_cluster.create_topic(unique_topic, partitions=1)
    return unique_topic


def _count_handles(loop: asyncio.AbstractEventLoop) -> Dict[Any, int]:
    """Count the loop handles scheduled from here on, by callback (the futures' own scheduling
    looks call_soon up on the loop, so an instance attribute sees it)."""
    counts: Dict[Any, int] = {}
    call_soon = loop.call_soon

    def counting(callback: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        counts[callback] = counts.get(callback, 0) + 1
        return call_soon(callback, *args, **kwargs)

    loop.call_soon = counting  # type: ignore[method-assign]
    return counts


async def _facade_sends(bootstrap: str, topic: str, body: Callable[[Callable[[bytes], Awaitable[Any]]], Awaitable[Any]]) -> Any:
    producer = AIOKafkaProducer(bootstrap_servers=bootstrap, linger_ms=200)
    await producer.start()
    try:
        return await body(lambda value: producer.send(topic, value))
    finally:
        await producer.stop()


async def _aio_produces(bootstrap: str, topic: str, body: Callable[[Callable[[bytes], Awaitable[Any]]], Awaitable[Any]]) -> Any:
    async with AIOProducer({"bootstrap.servers": bootstrap, "linger.ms": 200}) as producer:
        return await body(lambda value: producer.produce(topic, value))


def _offset(result: Any) -> int:
    """A RecordMetadata's offset (the facade) or a Message's (confluent_kafka.aio)."""
    return result.offset if isinstance(result.offset, int) else result.offset()


@pytest.fixture(params=[_facade_sends, _aio_produces], ids=["aiokafka-facade", "confluent_kafka.aio"])
def producing(request: Any) -> Any:
    return request.param


async def _send_with_callbacks(producing: Any, bootstrap: str, topic: str,
                               callback_for: Callable[[int], Callable[[Any], None]]) -> List[Any]:
    """N sends in one request (a long linger), a done-callback on each future in a context whose
    _VAR is the future's index, then the deliveries awaited."""
    async def body(send: Callable[[bytes], Awaitable[Any]]) -> List[Any]:
        futs = []
        for i in range(N):
            fut = await send(b"v%d" % i)
            ctx = contextvars.copy_context()
            ctx.run(_VAR.set, i)
            fut.add_done_callback(callback_for(i), context=ctx)
            futs.append(fut)
        await asyncio.gather(*futs)
        await asyncio.sleep(0)  # the callbacks' loop callback, scheduled before gather's wake-up
        return futs

    return await producing(bootstrap, topic, body)


def test_callbacks_run_once_each_in_order_and_context_from_one_loop_callback(producing: Any, mock_cluster: Any,
                                                                            topic: str) -> None:
    ran: List[Tuple[int, Any, int, int]] = []

    def on_done(fut: Any) -> None:
        ran.append((_VAR.get(), fut, _offset(fut.result()), threading.get_ident()))

    async def main() -> Tuple[List[Any], Dict[Any, int]]:
        counts = _count_handles(asyncio.get_running_loop())
        return await _send_with_callbacks(producing, mock_cluster.bootstrap_servers, topic, lambda i: on_done), counts

    futs, counts = asyncio.run(main())
    loop_thread = threading.get_ident()
    assert [(i, offset, thread) for i, _, offset, thread in ran] == [(i, i, loop_thread) for i in range(N)]
    assert all(fut is futs[i] for i, fut, _, _ in ran)
    assert counts.get(on_done, 0) == 0, "a done-callback was scheduled as a handle of its own"
    assert 1 <= counts[run_done_callbacks] <= 3, counts


def test_a_callback_that_raises_is_reported_as_asyncio_reports_it(producing: Any, mock_cluster: Any, topic: str) -> None:
    ran: List[int] = []

    def on_done(fut: Any) -> None:
        ran.append(_VAR.get())
        if _VAR.get() % 100 == 7:
            raise ValueError(f"callback {_VAR.get()}")

    async def main() -> Tuple[List[Dict[str, Any]], Dict[str, Any]]:
        loop = asyncio.get_running_loop()
        reported: List[Dict[str, Any]] = []
        loop.set_exception_handler(lambda _loop, context: reported.append(context))
        await _send_with_callbacks(producing, mock_cluster.bootstrap_servers, topic, lambda i: on_done)
        # What asyncio itself reports for the same callback on a future it settles.
        plain = loop.create_future()
        ctx = contextvars.copy_context()
        ctx.run(_VAR.set, 7)
        plain.add_done_callback(on_done, context=ctx)
        plain.set_result(None)
        await asyncio.sleep(0)
        return reported[:-1], reported[-1]

    reported, asyncio_own = asyncio.run(main())
    assert ran == list(range(N)) + [7]
    assert [str(c["exception"]) for c in reported] == ["callback 7", "callback 107", "callback 207"]
    for context in reported:
        assert set(context) == set(asyncio_own) == {"message", "exception", "handle"}
        assert context["message"].split("(")[0] == asyncio_own["message"].split("(")[0]
        assert context["message"].startswith("Exception in callback ")
        assert type(context["handle"]) is type(asyncio_own["handle"]) is asyncio.Handle
        assert context["handle"]._callback is on_done


def test_a_loop_in_debug_mode_keeps_a_handle_per_callback(producing: Any, mock_cluster: Any, topic: str) -> None:
    """Debug mode times each handle to warn of slow callbacks: every callback keeps its own."""
    ran: List[int] = []

    def on_done(fut: Any) -> None:
        ran.append(_VAR.get())

    async def main() -> Dict[Any, int]:
        counts = _count_handles(asyncio.get_running_loop())
        await _send_with_callbacks(producing, mock_cluster.bootstrap_servers, topic, lambda i: on_done)
        return counts

    counts = asyncio.run(main(), debug=True)
    assert ran == list(range(N))
    assert counts[on_done] == N
    assert run_done_callbacks not in counts


def test_keyboard_interrupt_leaves_the_other_callbacks_for_the_next_run(producing: Any, mock_cluster: Any, topic: str) -> None:
    ran: List[int] = []
    interrupted: List[int] = []

    def on_done(fut: Any) -> None:
        if _VAR.get() == 5 and not interrupted:
            interrupted.append(5)
            raise KeyboardInterrupt
        ran.append(_VAR.get())

    loop = asyncio.new_event_loop()
    try:
        with pytest.raises(KeyboardInterrupt):
            loop.run_until_complete(_send_with_callbacks(producing, mock_cluster.bootstrap_servers, topic, lambda i: on_done))
        assert ran == list(range(5))
        loop.run_until_complete(asyncio.sleep(0))
        assert ran == list(range(5)) + list(range(6, N))
    finally:
        for task in asyncio.all_tasks(loop):
            task.cancel()
        loop.run_until_complete(asyncio.sleep(0.3))
        loop.close()


class _Callable:
    """A callback whose equality is its own code: left in its future (taking it out would run that
    code), so set_result() schedules it as usual."""

    def __init__(self, ran: List[int]) -> None:
        self.ran = ran

    def __call__(self, fut: Any) -> None:
        self.ran.append(_VAR.get())

    def __eq__(self, other: object) -> bool:
        raise AssertionError("compared")

    __hash__ = object.__hash__


def test_callbacks_left_in_their_futures_keep_the_order(producing: Any, mock_cluster: Any, topic: str) -> None:
    ran: List[int] = []

    def on_done(fut: Any) -> None:
        ran.append(_VAR.get())

    objects = [_Callable(ran) for _ in range(N)]

    async def main() -> Dict[Any, int]:
        counts = _count_handles(asyncio.get_running_loop())
        await _send_with_callbacks(producing, mock_cluster.bootstrap_servers, topic,
                                   lambda i: objects[i] if i % 3 == 0 else on_done)
        return counts

    counts = asyncio.run(main())
    assert ran == list(range(N))
    assert sum(counts.get(o, 0) for o in objects) == N // 3
    assert counts.get(on_done, 0) == 0


def test_specs_with_a_bad_batching_item_are_refused(mock_cluster: Any, topic: str) -> None:
    native = Producer({"bootstrap.servers": mock_cluster.bootstrap_servers})
    loop = asyncio.new_event_loop()
    try:
        for bad in [(asyncio.Future,), (asyncio.Future, 42), ("not a class", run_done_callbacks)]:
            with pytest.raises(TypeError, match=r"spec\[5\] must be \(future class, runner callable\)"):
                native._produce_future(loop.create_future(), _SPEC[:5] + (bad,), topic, b"v")
            with pytest.raises(TypeError, match=r"spec\[2\] must be \(future class, runner callable\)"):
                native._produce_awaited(loop.create_future(), (print, (), bad), topic, b"v")
        with pytest.raises(TypeError, match=r"spec\[1\] must hold exception classes"):
            native._produce_awaited(loop.create_future(), (print, (42,), (asyncio.Future, print)), topic, b"v")
        with pytest.raises(TypeError, match=r"spec must be \(fallback callable"):
            native._produce_awaited(loop.create_future(), (print, ()), topic, b"v")
        assert len(native) == 0
    finally:
        loop.close()


def test_an_awaited_message_shows_what_a_report_shows(mock_cluster: Any, topic: str) -> None:
    """confluent_kafka.aio's futures are set to the Message in C: it carries what a delivery
    callback's Message carries, latency included."""
    seen: List[Any] = []

    async def main() -> Any:
        async with AIOProducer({"bootstrap.servers": mock_cluster.bootstrap_servers}) as producer:
            await producer.produce(topic, b"seen", key=b"k", headers=[("h", b"1")],
                                   on_delivery=lambda err, msg: seen.append(msg))
            return await (await producer.produce(topic, b"v", key=b"k", headers=[("h", b"1")]))

    msg = asyncio.run(main())
    first = seen[0]
    assert (msg.topic(), msg.partition(), msg.offset(), msg.key(), msg.value(), msg.headers(), msg.error()) == \
        (topic, 0, 1, b"k", b"v", [("h", b"1")], None)
    assert msg.latency() is not None and msg.latency() >= 0 and first.latency() is not None
    assert msg.leader_epoch() == first.leader_epoch()
    assert msg.timestamp()[0] == first.timestamp()[0]
