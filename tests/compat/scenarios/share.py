"""The share consumer's value types (KIP-932): AcknowledgeType, Messages, the two exceptions and
the cimpl constants. (The consumers themselves need librdkafka's share consumer API, which this
package's librdkafka lacks: not compared here; see docs/migration.md.)"""
from __future__ import annotations

import base64
import pickle
from typing import Any

from observe import data, outcome, text

import confluent_kafka
from confluent_kafka import (AcknowledgeType, ConcurrentModificationException, IllegalStateException,
                             KafkaException, Messages, cimpl)


def scenario_acknowledge_type() -> Any:
    return {
        "members": [[t.name, int(t)] for t in AcknowledgeType],
        "str": [str(t) for t in AcknowledgeType],
        "repr": [repr(t) for t in AcknowledgeType],
        "format": [format(t, "") for t in AcknowledgeType] + [f"{AcknowledgeType.REJECT:>3}"],
        "by value": [outcome(AcknowledgeType, v) for v in (1, 2, 3, 0, 4, "1", None)],
        "by name": [outcome(lambda n=n: AcknowledgeType[n]) for n in ("ACCEPT", "accept", "NOPE")],
        "int ops": [AcknowledgeType.ACCEPT == 1, AcknowledgeType.RELEASE < AcknowledgeType.REJECT,
                    AcknowledgeType.REJECT + 1, isinstance(AcknowledgeType.ACCEPT, int)],
        "pickle": [pickle.loads(pickle.dumps(t)) is t for t in AcknowledgeType],
        "constants": [cimpl.SHARE_ACKNOWLEDGE_TYPE_ACCEPT, cimpl.SHARE_ACKNOWLEDGE_TYPE_RELEASE,
                      cimpl.SHARE_ACKNOWLEDGE_TYPE_REJECT],
        "len": len(AcknowledgeType),
        "qualname": AcknowledgeType.__qualname__,
        "module": AcknowledgeType.__module__,
    }


def scenario_messages_batch() -> Any:
    items = [1, "two", b"3"]
    batch = Messages(items)
    items.append(4)
    copy = batch.records()
    copy.append(5)
    sliced = batch[1:]
    return {
        "repr": repr(batch), "str": str(batch), "len": len(batch), "count": batch.count(),
        "is_empty": batch.is_empty(), "bool": bool(batch), "list": data(list(batch)),
        "records": data(batch.records()), "records is new": batch.records() is not batch.records(),
        "index": [outcome(lambda i=i: batch[i]) for i in (0, 2, -1, 3, -4, "a", 1.0, None)],
        "slice": [type(sliced).__name__, repr(sliced), repr(batch[::-1]), repr(batch[5:])],
        "contains": [2 in batch, "two" in batch], "reversed": data(list(reversed(batch))),
        "eq": [batch == Messages([1, "two", b"3"]), batch == batch, batch != batch],
        "hashable": outcome(lambda: isinstance(hash(batch), int)),
        "empty": [repr(Messages()), Messages().is_empty(), Messages().count(), bool(Messages())],
        "constructor": [text(Messages, None), text(Messages, 5), text(Messages, "ab"),
                        text(lambda: Messages(messages=[1])), text(lambda: Messages([1], 2)),
                        text(lambda: Messages(items=[1])), text(lambda: Messages(iter(range(3))))],
        "no index()": hasattr(batch, "index"),
        "module": Messages.__module__,
        "pickle": repr(pickle.loads(pickle.dumps(batch))),
    }


def scenario_exceptions() -> Any:
    seen = {}
    for exc in (ConcurrentModificationException, IllegalStateException):
        e = exc("share consumer is closed")
        seen[exc.__name__] = {
            "mro": [c.__name__ for c in exc.__mro__],
            "is KafkaException": issubclass(exc, KafkaException),
            "same in cimpl": getattr(cimpl, exc.__name__) is exc,
            "str": str(e), "repr": repr(e), "args": data(e.args),
            "no args": [str(exc()), repr(exc())], "two args": [str(exc("a", 2)), repr(exc("a", 2))],
            "caught as RuntimeError": outcome(lambda: _raise_caught(exc)),
            "qualname": exc.__qualname__,
        }
    return seen


def _raise_caught(exc: type) -> str:
    try:
        raise exc("x")
    except RuntimeError as caught:
        return type(caught).__name__


def scenario_exception_pickling() -> Any:
    """Upstream's exceptions say they live in module "cimpl", which cannot be imported: pickling
    one fails. Ours live in confluent_kafka.cimpl and pickle (deliberate.py)."""
    return [outcome(lambda exc=exc: repr(pickle.loads(pickle.dumps(exc("x")))))
            for exc in (ConcurrentModificationException, IllegalStateException)]


def scenario_exported_names() -> Any:
    names = ["ShareConsumer", "DeserializingShareConsumer", "AcknowledgeType", "Messages",
             "ConcurrentModificationException", "IllegalStateException"]
    return {"in __all__": sorted(n for n in names if n in confluent_kafka.__all__),
            "same object in cimpl": [getattr(confluent_kafka, n) is getattr(cimpl, n) for n in
                                     ("ShareConsumer", "ConcurrentModificationException", "IllegalStateException")],
            "deserializing is a ShareConsumer": issubclass(confluent_kafka.DeserializingShareConsumer,
                                                           confluent_kafka.ShareConsumer)}


def dump_pickles() -> Any:
    return {"ack": base64.b64encode(pickle.dumps(AcknowledgeType.REJECT)).decode(),
            "batch": base64.b64encode(pickle.dumps(Messages([1, "two", b"3"]))).decode()}


def crossed_pickles(given: Any) -> Any:
    seen = {}
    for side, dumped in sorted(given.items()):
        ack = pickle.loads(base64.b64decode(dumped["ack"]))
        batch = pickle.loads(base64.b64decode(dumped["batch"]))
        seen[side] = {"ack": [ack is AcknowledgeType.REJECT, repr(ack)],
                      "batch": [type(batch) is Messages, repr(batch), batch.count(), repr(batch[1:])]}
    return seen
