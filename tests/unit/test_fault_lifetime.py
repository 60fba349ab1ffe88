"""Client lifetimes that end on an unexpected thread: dropped right after a close() made from
librdkafka's background thread, garbage-collected on worker threads, closed while other
threads use them. Each scenario runs in a child process (tests/unit/test_robustness.py:
run_child), so a crash fails one test instead of ending the run; under scripts/sanitize.sh
the same scenarios are checked for use-after-free."""

from __future__ import annotations

import pytest

from test_robustness import run_child

SCENARIOS = {
    # admin.c: close() from a done-callback hands rd_kafka_destroy() to a helper thread; the
    # client object used to be freed while that thread still delivered events to it.
    "admin closed from a done-callback, then dropped at once": """
        from confluent_kafka.admin import AdminClient
        for _ in range(20):
            a = AdminClient({"bootstrap.servers": "127.0.0.1:1", "log_level": 0})
            closed = threading.Event()
            pending = [a.describe_cluster(request_timeout=30) for _ in range(5)]
            def close_it(_f, a=a):
                a.close()
                closed.set()
            a.describe_cluster(request_timeout=0.05).add_done_callback(close_it)
            assert closed.wait(10)
            del a, close_it
            gc.collect()
            for f in pending:
                f.exception(timeout=10)
        time.sleep(0.5)  # let the helper threads finish their teardown
    """,
    "clients garbage-collected on other threads": """
        made = []
        for i in range(30):
            made.append(Producer({"log_level": 0, "bootstrap.servers": "127.0.0.1:1"}))
            made.append(Consumer({"log_level": 0, "bootstrap.servers": "127.0.0.1:1",
                                  "group.id": "g"}))
        for p in made[::2]:
            p.produce("t", b"x", on_delivery=lambda e, m: None)
        lock = threading.Lock()
        def drop():
            while True:
                with lock:
                    if not made:
                        return
                    c = made.pop()
                del c
                gc.collect()
        ts = [threading.Thread(target=drop) for _ in range(4)]
        for t in ts: t.start()
        for t in ts: t.join(60)
        assert not any(t.is_alive() for t in ts)
    """,
    "last reference dropped inside a delivery callback served on another thread": """
        box = {"p": Producer({"log_level": 0})}
        box["p"].produce("t", b"x", on_delivery=lambda e, m: box.clear())
        box["p"].purge()
        p = box["p"]
        t = threading.Thread(target=p.poll, args=(5,))
        del p
        t.start(); t.join(30)
        assert not t.is_alive() and not box
        gc.collect()
    """,
}


@pytest.mark.parametrize("body", list(SCENARIOS.values()), ids=list(SCENARIOS))
def test_lifetime_scenario(body: str) -> None:
    run_child(body, timeout=120)
