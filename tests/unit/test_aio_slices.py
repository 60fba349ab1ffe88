"""confluent_kafka.aio._slices: how blocking librdkafka calls are run from the event loop."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import List

import pytest

from aio_support import run
from confluent_kafka import Consumer, KafkaError, KafkaException, TopicPartition
from confluent_kafka.aio import AIOProducer, _slices


def test_on_own_thread_returns_the_result_and_keeps_the_loop_running() -> None:
    ticks: List[float] = []
    callers: List[threading.Thread] = []

    def blocking() -> str:
        callers.append(threading.current_thread())
        time.sleep(0.3)
        return "done"

    async def main() -> str:
        async def tick() -> None:
            while True:
                ticks.append(time.monotonic())
                await asyncio.sleep(0.01)

        ticker = asyncio.ensure_future(tick())
        try:
            return await _slices.on_own_thread(blocking, "probe")
        finally:
            ticker.cancel()

    assert run(main) == "done"
    assert callers[0] is not threading.main_thread() and callers[0].name == "probe"
    assert len(ticks) >= 5  # the loop ran while the call blocked its thread
    callers[0].join(5)
    # Its own thread ended (not a count of all threads: another test's may end meanwhile).
    assert not callers[0].is_alive()
    assert callers[0] not in threading.enumerate()


def test_on_own_thread_raises_what_the_call_raised() -> None:
    err = KafkaException(KafkaError(KafkaError._STATE, "not now"))

    def failing() -> None:
        raise err

    async def main() -> None:
        with pytest.raises(KafkaException) as ei:
            await _slices.on_own_thread(failing, "probe")
        assert ei.value is err

    run(main)


def test_on_own_thread_cancelled_drops_the_result() -> None:
    release = threading.Event()
    finished = threading.Event()

    def blocking() -> int:
        release.wait(5)
        finished.set()
        return 1

    async def main() -> None:
        task = asyncio.ensure_future(_slices.on_own_thread(blocking, "probe"))
        await asyncio.sleep(0.02)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        release.set()
        for _ in range(500):
            if finished.is_set():
                break
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)  # the late result reaches a cancelled future: nothing raises

    run(main)
    assert finished.is_set()


def test_send_offsets_refuses_a_bad_timeout_before_any_thread_starts() -> None:
    async def main() -> None:
        p = AIOProducer({"bootstrap.servers": "127.0.0.1:1", "transactional.id": "unit"})
        try:
            before = threading.active_count()
            with pytest.raises(TypeError, match="must be real number, not str"):
                await p.send_offsets_to_transaction([], b"", "5")  # type: ignore[arg-type]
            assert threading.active_count() == before
        finally:
            await p.close(0)

    run(main)


def test_send_offsets_without_init_fails_with_librdkafkas_error() -> None:
    async def main() -> None:
        p = AIOProducer({"bootstrap.servers": "127.0.0.1:1", "transactional.id": "unit"})
        try:
            c = Consumer({"group.id": "g", "bootstrap.servers": "127.0.0.1:1"})
            md = c.consumer_group_metadata()
            c.close()
            with pytest.raises(KafkaException) as ei:
                await p.send_offsets_to_transaction([TopicPartition("t", 0, 1)], md, 1)
            assert ei.value.args[0].code() == KafkaError._STATE
        finally:
            await p.close(0)

    run(main)
