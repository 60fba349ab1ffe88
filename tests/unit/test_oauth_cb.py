"""oauth_cb: a failing token refresh is reported to librdkafka with a reason, so librdkafka
schedules another attempt (it retries a failed refresh after 10 seconds).

No broker: the refresh runs on librdkafka's own timer, whatever the connection does.
"""

from __future__ import annotations

import sys
import threading
import time
import weakref
from typing import Any, Callable, List, Tuple

import pytest

from confluent_kafka import KafkaError, KafkaException, Producer

# librdkafka refreshes a token at 80% of its lifetime and retries a failed refresh after 10 s.
RETRY_BOUND = 30.0


class Quiet(Exception):
    """An exception whose str() is empty (raised without arguments)."""


def _oauth_producer(make_producer: Callable[..., Producer], oauth_cb: Callable[[str], Any],
                    errors: List[KafkaError]) -> Producer:
    return make_producer({"security.protocol": "sasl_plaintext", "sasl.mechanisms": "OAUTHBEARER",
                          "sasl.oauthbearer.config": "cfg", "oauth_cb": oauth_cb,
                          "error_cb": errors.append})


def test_refresh_retried_after_exception_with_empty_text(
        make_producer: Callable[..., Producer], monkeypatch: pytest.MonkeyPatch) -> None:
    calls: List[Tuple[float, str]] = []
    unraisable: List[Any] = []
    monkeypatch.setattr(sys, "unraisablehook", unraisable.append)

    def oauth_cb(config: str) -> Tuple[str, float, str]:
        calls.append((time.monotonic(), config))
        if len(calls) == 2:
            raise Quiet()
        # Short-lived, so librdkafka asks again after about a second.
        return "token-%d" % len(calls), time.time() + 1.5, "alice"

    assert str(Quiet()) == ""
    errors: List[KafkaError] = []
    p = _oauth_producer(make_producer, oauth_cb, errors)
    assert len(calls) == 1, "the constructor waits for the first token"
    deadline = time.monotonic() + RETRY_BOUND
    while len(calls) < 3:
        assert time.monotonic() < deadline, f"oauth_cb not called again after it failed: {calls}"
        p.poll(0.5)
    assert [c for _, c in calls] == ["cfg"] * len(calls)
    # The retry came from librdkafka's failure path (10 s later), not from a token refresh.
    assert calls[2][0] - calls[1][0] >= 5.0
    # The failure reached the application with a reason naming the exception.
    p.poll(0.5)
    auth = [e for e in errors if e.code() == KafkaError._AUTHENTICATION]
    assert auth and "Quiet" in auth[0].str(), errors
    # And the exception itself went to sys.unraisablehook, as a callback's exception
    # outside any serving call does.
    assert any(isinstance(u.exc_value, Quiet) for u in unraisable)


@pytest.mark.parametrize("outcome,cause,text", [
    (ValueError("no token today"), ValueError, "ValueError: no token today"),
    (Quiet(), Quiet, "Quiet"),
    ("not a tuple", TypeError, "TypeError: oauth_cb must return"),
    (("token", 1.0), ValueError, "Must supply an unexpired token"),
])
def test_first_token_failure_raises_kafka_exception_at_once(
        make_producer: Callable[..., Producer], outcome: Any, cause: type, text: str) -> None:
    # As upstream: KafkaException(SASL_AUTHENTICATION_FAILED) from the constructor; unlike
    # upstream, at once (not after a 10 s wait) and naming the callback's exception (the cause).
    def oauth_cb(config: str) -> Any:
        if isinstance(outcome, BaseException):
            raise outcome
        return outcome

    t0 = time.monotonic()
    with pytest.raises(KafkaException) as info:
        _oauth_producer(make_producer, oauth_cb, [])
    assert time.monotonic() - t0 < 5
    err = info.value.args[0]
    assert err.code() == KafkaError.SASL_AUTHENTICATION_FAILED
    assert text in err.str()
    assert isinstance(info.value.__cause__, cause)
    if isinstance(outcome, BaseException):
        assert info.value.__cause__ is outcome


def test_keyboard_interrupt_from_first_token_passes_unchanged(
        make_producer: Callable[..., Producer]) -> None:
    def oauth_cb(config: str) -> Any:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        _oauth_producer(make_producer, oauth_cb, [])


def test_refresh_that_drops_the_last_reference_to_its_client() -> None:
    """A token refresh runs on librdkafka's own thread, where no Python call holds the client.
    When the callback lets go of the last reference, the client is torn down there (a helper
    thread joins librdkafka's threads) only once the callback is done with it. `make sanitize`
    reports a use-after-free here when the callback does not hold the client."""
    holder: List[Producer] = []
    calls: List[float] = []
    refreshed = threading.Event()

    def oauth_cb(config: str) -> Tuple[str, float, str]:
        calls.append(time.monotonic())
        if len(calls) == 2:  # the first refresh, on librdkafka's thread: drop the client
            holder.clear()
            refreshed.set()
        # Short-lived, so librdkafka refreshes it after about a second.
        return "token-%d" % len(calls), time.time() + 1.5, "alice"

    holder.append(Producer({"security.protocol": "sasl_plaintext", "sasl.mechanisms": "OAUTHBEARER",
                            "sasl.oauthbearer.config": "cfg", "oauth_cb": oauth_cb}))
    gone = weakref.ref(holder[0])
    assert len(calls) == 1, "the constructor waits for the first token"
    assert refreshed.wait(RETRY_BOUND), "no token refresh"
    deadline = time.monotonic() + RETRY_BOUND
    while gone() is not None:
        assert time.monotonic() < deadline, "the client outlived its last reference"
        time.sleep(0.05)
    time.sleep(0.5)  # the helper thread's teardown; the process must come through it
    assert len(calls) == 2
