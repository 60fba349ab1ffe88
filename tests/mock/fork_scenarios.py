"""fork(): what the child inherits raises a clear RuntimeError (never hangs), dropping it is
harmless, and a client made in the child works."""

from __future__ import annotations

import os
import signal
import time
from typing import Callable, Dict

import pytest

from confluent_kafka import Consumer, Producer
from confluent_kafka.admin import AdminClient
from confluent_kafka.testing import MockCluster

# fork() copies every thread-held lock of the parent; a pytest process that has run hundreds of
# clients (and Spark, asyncio loops) is not a parent these scenarios can fork safely. So this
# module is not collected with the others (its name does not start with test_):
# test_fault_fork_isolated.py runs it in a fresh interpreter.
pytestmark = [pytest.mark.mock, pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork()")]

CHILD_TIMEOUT = 60.0


def in_child(body: Callable[[], int]) -> int:
    """Run ``body`` in a forked child and return its exit code; a child that hangs is killed
    and fails the test. The child never returns into pytest."""
    pid = os.fork()
    if pid == 0:
        code = 99
        try:
            import faulthandler
            faulthandler.dump_traceback_later(CHILD_TIMEOUT - 5, exit=False)  # where it hangs
            signal.alarm(int(CHILD_TIMEOUT))  # a hang ends as SIGALRM, not as a stuck test run
            code = body()
        except BaseException as exc:  # noqa: BLE001 - reported through the exit code
            os.write(2, f"child: {exc!r}\n".encode())
            code = 98
        finally:
            os._exit(code)
    deadline = time.monotonic() + CHILD_TIMEOUT + 10
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            assert os.WIFEXITED(status), f"child killed by signal {os.WTERMSIG(status)} (hang or crash)"
            return os.WEXITSTATUS(status)
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    pytest.fail("the forked child hung")


def raises_runtime_error(fn: Callable[[], object], needle: str = "fork") -> bool:
    try:
        fn()
    except RuntimeError as exc:
        return needle in str(exc)
    return False


def test_every_inherited_object_raises_in_the_child(mock_cluster: MockCluster,
                                                    make_producer: Callable,
                                                    make_consumer: Callable) -> None:
    p = make_producer()
    c = make_consumer()
    a = AdminClient({"bootstrap.servers": mock_cluster.bootstrap_servers})
    try:
        calls: Dict[str, Callable[[], object]] = {
            "Producer.produce": lambda: p.produce("t", b"x"),
            "Producer.flush": lambda: p.flush(1),
            "Consumer.poll": lambda: c.poll(0.1),
            "Consumer.subscribe": lambda: c.subscribe(["t"]),
            "AdminClient.list_topics": lambda: a.list_topics(timeout=1),
            "MockCluster.broker_down": lambda: mock_cluster.broker_down(1),
            "MockCluster.create_topic": lambda: mock_cluster.create_topic("t2", 1),
            "MockCluster.push_request_errors": lambda: mock_cluster.push_request_errors(0, [1]),
        }
        for name, call in calls.items():
            assert in_child(lambda: 0 if raises_runtime_error(call) else 1) == 0, name
        # The parent's objects are untouched by all this.
        p.produce("t", b"parent")
        assert p.flush(30) == 0
        mock_cluster.create_topic("parent-topic", 1)
    finally:
        a.close()


def test_closing_and_dropping_inherited_objects_does_not_hang(mock_cluster: MockCluster,
                                                              make_producer: Callable,
                                                              make_consumer: Callable) -> None:
    holder = {"p": make_producer(), "c": make_consumer(), "mc": mock_cluster,
              "a": AdminClient({"bootstrap.servers": mock_cluster.bootstrap_servers})}

    def close_all() -> int:
        for obj in holder.values():
            obj.close()
        return 0

    def drop_all() -> int:
        import gc
        holder.clear()
        gc.collect()
        return 0

    try:
        assert in_child(close_all) == 0
        assert in_child(drop_all) == 0
    finally:
        holder["a"].close()


def test_new_clients_in_the_child_work(mock_cluster: MockCluster, make_producer: Callable) -> None:
    parent = make_producer()  # a live client in the parent must not disturb the child's own
    parent.produce("t", b"x")
    # Forked while idle: librdkafka and libc are not fork-safe while a thread of the parent is
    # inside them (resolving, connecting), and a child forked then can block in its first
    # client. An idle parent (all threads waiting) forks cleanly.
    assert parent.flush(30) == 0

    def roundtrip() -> int:
        with MockCluster(num_brokers=1) as mc:
            mc.create_topic("child", 1)
            got = []
            p = Producer({"bootstrap.servers": mc.bootstrap_servers})
            p.produce("child", b"from the child", on_delivery=lambda e, m: got.append(e))
            if p.flush(30) != 0 or got != [None]:
                return 1
            p.close()
            c = Consumer({"bootstrap.servers": mc.bootstrap_servers, "group.id": "child",
                          "auto.offset.reset": "earliest"})
            c.subscribe(["child"])
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                m = c.poll(0.5)
                if m is not None and m.error() is None:
                    c.close()
                    return 0 if m.value() == b"from the child" else 2
            c.close()
            return 3

    assert in_child(roundtrip) == 0
    parent.produce("t", b"y")
    assert parent.flush(30) == 0
