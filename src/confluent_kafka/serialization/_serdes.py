"""How the serializing clients take their serializers out of a configuration, build them, own
them and tell them the cluster id. One implementation for the four clients: the blocking
SerializingProducer / DeserializingConsumer and their asyncio forms in ``confluent_kafka.aio``.

A configuration names each serde either ready-made (``key.serializer``) or through a builder
(``key.serializer.builder``), never both. Builders get a copy of the client configuration and
hand back what they left of it; a setting any builder consumed does not reach librdkafka. The
client owns (and closes) what it built, never what it was given.
"""

from __future__ import annotations

import functools
import inspect
import logging
import threading
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Dict, Generator, List, NamedTuple, Optional, Tuple

from .._effects import drive, drive_async


if TYPE_CHECKING:
    import asyncio

_log = logging.getLogger("confluent_kafka.serialization")

#: How long a serde's cluster-id lookup waits for broker metadata, in seconds.
CLUSTER_ID_TIMEOUT = 60.0


class Spec(NamedTuple):
    """One serde slot of a configuration: its property, the ready serde, the builder."""

    prop: str
    serde: Any
    builder: Any
    is_key: bool


def take_specs(conf: Optional[Mapping[str, Any]], kwargs: Mapping[str, Any], key_prop: str,
               value_prop: str) -> Tuple[List[Spec], Dict[str, Any]]:
    """Split ``conf`` (with ``kwargs`` merged over it) into the key and value serde slots and the
    rest. Neither argument is modified.

    :raises TypeError: if ``conf`` is not a mapping.
    :raises ValueError: if a serde and its builder are both configured.
    """
    if conf is not None and not isinstance(conf, Mapping):
        raise TypeError(f"conf must be a dict, not {type(conf).__name__}")
    rest: Dict[str, Any] = {**(conf or {}), **kwargs}
    specs = []
    for prop, is_key in ((key_prop, True), (value_prop, False)):
        serde = rest.pop(prop, None)
        builder = rest.pop(prop + ".builder", None)
        if serde is not None and builder is not None:
            raise ValueError(f"Cannot configure both {prop} and {prop}.builder; use one or the other")
        specs.append(Spec(prop, serde, builder, is_key))
    return specs, rest


def _checked(prop: str, result: Any) -> Tuple[Any, Dict[str, Any]]:
    """What ``build()`` returned as (serde, leftover configuration)."""
    try:
        serde, leftover = result
    except (TypeError, ValueError):
        raise ValueError(f"{prop}.builder must return a (serde, configuration) tuple from build(), "
                         f"got {type(result).__name__}") from None
    if not isinstance(leftover, dict):
        raise ValueError(f"{prop}.builder returned {type(leftover).__name__} as the leftover "
                         f"configuration from build(), expected a dict")
    return serde, leftover


def _common(conf: Dict[str, Any], leftovers: List[Dict[str, Any]]) -> Dict[str, Any]:
    """The client configuration: what every builder left (all of ``conf`` without builders)."""
    if not leftovers:
        return conf
    last = leftovers[-1]
    return {k: v for k, v in last.items() if all(k in other for other in leftovers[:-1])}


# Building and closing are steps (generators) yielding the calls they make; start()/close_all()
# answer each by calling it, their asyncio forms also await what it returns.
Steps = Generator[Callable[[], Any], Any, Any]


def _call(thunk: Callable[[], Any]) -> Any:
    return thunk()


async def _call_async(thunk: Callable[[], Any]) -> Any:
    return await maybe_await(thunk())


def _build_steps(specs: List[Spec], conf: Dict[str, Any], closers: Tuple[str, ...]) -> Steps:
    serdes: List[Any] = []
    owned: List[Any] = []
    leftovers: List[Dict[str, Any]] = []
    try:
        for spec in specs:
            if spec.builder is None:
                serdes.append(spec.serde)
                continue
            serde, leftover = _checked(spec.prop, (yield functools.partial(spec.builder.build, dict(conf),
                                                                           spec.is_key)))
            serdes.append(serde)
            owned.append(serde)
            leftovers.append(leftover)
    except BaseException:
        yield from _close_quietly_steps(owned, closers)
        raise
    return serdes, owned, _common(conf, leftovers)


def _close_steps(serdes: List[Any], closers: Tuple[str, ...]) -> Steps:
    first: Optional[BaseException] = None
    for serde in serdes:
        close = next((m for m in (getattr(serde, name, None) for name in closers) if callable(m)), None)
        if close is None:
            continue
        try:
            yield close
        except BaseException as e:
            if first is None:
                first = e
            else:
                _log.warning("closing serde %r failed", serde, exc_info=True)
    if first is not None:
        raise first


def _close_quietly_steps(serdes: List[Any], closers: Tuple[str, ...]) -> Steps:
    try:
        yield from _close_steps(serdes, closers)
    except Exception:
        _log.warning("closing serdes after a failed construction failed", exc_info=True)


_SYNC_CLOSERS = ("close",)
_ASYNC_CLOSERS = ("aclose", "close")  # an asyncio serde's aclose() when it has one


async def maybe_await(result: Any) -> Any:
    """``result``, awaited first if it is awaitable (asyncio serdes return coroutines)."""
    if inspect.isawaitable(result):
        return await result
    return result


def close_all(serdes: List[Any]) -> None:
    """Close every serde that has ``close()``; all are tried, then the first error is raised
    (later ones are logged)."""
    drive(_close_steps(serdes, _SYNC_CLOSERS), _call)


async def close_all_async(serdes: List[Any]) -> None:
    """:func:`close_all` for the asyncio clients: ``aclose()`` when a serde has one, else
    ``close()`` (awaited if it returns an awaitable)."""
    await drive_async(_close_steps(serdes, _ASYNC_CLOSERS), _call_async)


def _start_steps(client: Any, keys: Tuple[str, str], attrs: Tuple[str, str], conf: Optional[Mapping[str, Any]],
                 kwargs: Mapping[str, Any], base_init: Callable[[Dict[str, Any]], None],
                 offer_resolver: Callable[[List[Any]], None], closers: Tuple[str, ...]) -> Steps:
    specs, rest = take_specs(conf, kwargs, *keys)
    serdes, client._owned_serdes, client_conf = yield from _build_steps(specs, rest, closers)
    for attr, serde in zip(attrs, serdes):
        setattr(client, attr, serde)
    try:
        base_init(client_conf)
        offer_resolver(serdes)
    except BaseException:
        owned, client._owned_serdes = client._owned_serdes, []
        yield from _close_quietly_steps(owned, closers)
        raise


def start(client: Any, keys: Tuple[str, str], attrs: Tuple[str, str], conf: Optional[Mapping[str, Any]],
          kwargs: Mapping[str, Any], base_init: Callable[[Dict[str, Any]], None]) -> None:
    """What a serializing client's constructor does: build the serdes the configuration names
    under ``keys`` (kept as ``attrs`` of ``client``; those built here also in its
    ``_owned_serdes``), start the base client (``base_init``) on the rest of the configuration,
    and offer the serdes the cluster id. If that fails, the serdes built here are closed.

    :raises TypeError: if ``conf`` is not a mapping.
    :raises ValueError: if a serde and its builder are both configured.
    """
    def offer_resolver(serdes: List[Any]) -> None:
        offer("set_cluster_id_resolver", ClusterIdResolver(client.cluster_id), serdes)

    drive(_start_steps(client, keys, attrs, conf, kwargs, base_init, offer_resolver, _SYNC_CLOSERS), _call)


async def start_async(client: Any, keys: Tuple[str, str], attrs: Tuple[str, str],
                      conf: Optional[Mapping[str, Any]], kwargs: Mapping[str, Any],
                      base_init: Callable[[Dict[str, Any]], None]) -> None:
    """:func:`start` for the asyncio clients: builders may return coroutines, serdes are closed
    with ``aclose()`` when they have it, and they are offered an async cluster-id resolver."""
    def offer_resolver(serdes: List[Any]) -> None:
        offer("set_async_cluster_id_resolver", AsyncClusterIdResolver(client.cluster_id), serdes)

    await drive_async(_start_steps(client, keys, attrs, conf, kwargs, base_init, offer_resolver, _ASYNC_CLOSERS),
                      _call_async)


def offer(setter: str, resolver: Callable[[], Any], serdes: List[Any]) -> None:
    """Give ``resolver`` to every serde that has a callable ``setter`` method."""
    for serde in serdes:
        method = getattr(serde, setter, None)
        if callable(method):
            method(resolver)


class ClusterIdResolver:
    """``resolver() -> str``: the client's cluster id, with one lookup at a time.

    Serdes may call it from several threads at once; they share one ``cluster_id(timeout)``
    call rather than each waiting on the broker. Nothing is cached here (librdkafka keeps the
    id once it knows it), so a failed lookup is simply tried again by the next caller.
    """

    def __init__(self, cluster_id: Callable[..., Any], timeout: float = CLUSTER_ID_TIMEOUT) -> None:
        self._cluster_id = cluster_id
        self._timeout = timeout
        self._lock = threading.Lock()
        self._current: Optional["_Lookup"] = None

    def __call__(self) -> Any:
        with self._lock:
            lookup = self._current
            mine = lookup is None
            if lookup is None:
                lookup = self._current = _Lookup()
        if not mine:
            return lookup.wait()
        try:
            lookup.result = self._cluster_id(timeout=self._timeout)
        except BaseException as e:
            lookup.error = e
            raise
        finally:
            with self._lock:
                self._current = None
            lookup.done.set()
        return lookup.result


class _Lookup:
    __slots__ = ("done", "error", "result")

    def __init__(self) -> None:
        self.done = threading.Event()
        self.error: Optional[BaseException] = None
        self.result: Any = None

    def wait(self) -> Any:
        self.done.wait()
        if self.error is not None:
            raise self.error
        return self.result


class AsyncClusterIdResolver:
    """``await resolver() -> str``: the asyncio clients' :class:`ClusterIdResolver`.

    Concurrent awaiters share one lookup; one that is cancelled leaves it running for the others.
    """

    def __init__(self, cluster_id: Callable[..., Awaitable[Any]], timeout: float = CLUSTER_ID_TIMEOUT) -> None:
        self._cluster_id = cluster_id
        self._timeout = timeout
        self._current: Optional["asyncio.Task[Any]"] = None

    async def __call__(self) -> Any:
        import asyncio

        task = self._current
        if task is None:
            task = self._current = asyncio.get_running_loop().create_task(self._lookup())
        return await asyncio.shield(task)

    async def _lookup(self) -> Any:
        try:
            return await self._cluster_id(timeout=self._timeout)
        finally:
            self._current = None
