"""Awaiting the native admin client from asyncio, and its errors as aiokafka's.

``confluent_kafka.admin.AdminClient`` returns ``concurrent.futures.Future`` objects that
librdkafka's background thread resolves. ``asyncio.wrap_future`` hands each result to the event
loop with ``call_soon_threadsafe``: no thread pool, no polling. Cluster metadata has no
asynchronous form; it is read in short slices, as the package's asyncio clients do.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
from typing import Any, Callable, Dict, Mapping, Optional, Tuple, TypeVar

from confluent_kafka.aio import _slices
from confluent_kafka.cimpl import KafkaError as _RdKafkaError
from confluent_kafka.cimpl import KafkaException
from confluent_kafka.compat._native_admin import is_item_error, item_code, native_error

from ..errors import IncompatibleBrokerVersion, KafkaError, KafkaTimeoutError, for_code, from_librdkafka

__all__ = ["Outcome", "call", "metadata", "outcomes", "request_error", "result"]

K = TypeVar("K")
#: an item's result and error: ``(result, None)`` or ``(None, error)``
Outcome = Tuple[Any, Optional[_RdKafkaError]]

# librdkafka resolves every future by the call's request timeout; this margin only guards
# against a future that is never resolved, so that no await hangs.
_MARGIN = 5.0


def request_error(err: _RdKafkaError) -> KafkaError:
    """The aiokafka exception for a failed request (not raised).

    An API the broker lacks is ``IncompatibleBrokerVersion``, as aiokafka raises when the broker
    does not list the request's API.
    """
    if err.code() == _RdKafkaError._UNSUPPORTED_FEATURE:
        return IncompatibleBrokerVersion(err.str())
    return from_librdkafka(err)


def call(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call a native admin method; a ``KafkaException`` it raises becomes aiokafka's error.

    :raises KafkaError: the aiokafka class of librdkafka's error.
    """
    try:
        return fn(*args, **kwargs)
    except KafkaException as e:
        err = native_error(e)
        raise (request_error(err) if err is not None else from_librdkafka(e)) from None


async def outcomes(futures: Mapping[K, "concurrent.futures.Future[Any]"], timeout: float) -> Dict[K, Outcome]:
    """Await native futures (one per item).

    :param futures: ``{item: future}``.
    :param timeout: the request timeout given to the native call, in seconds.
    :returns: ``{item: (result, None) or (None, the item's own error)}``.
    :raises KafkaError: the aiokafka class of a failed request (timeout, lost connection, an API
        the broker lacks).
    """
    keys = list(futures)
    waiting = [asyncio.wrap_future(futures[k]) for k in keys]
    try:
        done = await asyncio.wait_for(asyncio.gather(*waiting, return_exceptions=True), timeout + _MARGIN)
    except asyncio.TimeoutError:
        raise KafkaTimeoutError(f"no answer within {timeout:g} s") from None
    out: Dict[K, Outcome] = {}
    for key, value in zip(keys, done):
        if isinstance(value, BaseException):
            err = native_error(value)
            if err is None:
                raise value
            if not is_item_error(err):
                raise request_error(err) from None
            out[key] = (None, err)
        else:
            out[key] = (value, None)
    return out


async def result(future: "concurrent.futures.Future[Any]", timeout: float) -> Any:
    """Await one native future.

    :returns: its result.
    :raises KafkaError: the aiokafka class of its error, whether about the request or its item.
    """
    value, err = (await outcomes({0: future}, timeout))[0]
    if err is not None:
        raise for_code(item_code(err))(err.str())
    return value


async def metadata(admin: Any, timeout: float) -> Any:
    """The cluster's metadata (every topic), read in short slices so the loop is never held long.

    :returns: a ``ClusterMetadata``.
    :raises KafkaError: the aiokafka class of librdkafka's error (KafkaTimeoutError when no
        broker answered in ``timeout`` seconds).
    """
    try:
        return await _slices.bounded(lambda t: admin.list_topics(None, t), timeout)
    except KafkaException as e:
        err = native_error(e)
        raise (request_error(err) if err is not None else from_librdkafka(e)) from None
