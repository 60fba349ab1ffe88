"""The aiokafka facade without a broker: its names and signatures against the real aiokafka 0.14,
the option table (against the constructors and docs/aiokafka.md), and refused arguments."""
from __future__ import annotations

import asyncio
import dataclasses
import inspect
import json
import os
import pathlib
import re
import ssl
import subprocess
import sys
import warnings
from typing import Any, Dict

import pytest

from confluent_kafka.compat import aiokafka as facade
from confluent_kafka.compat.aiokafka import _options, errors, structs
from confluent_kafka.compat.aiokafka.consumer import AIOKafkaConsumer
from confluent_kafka.compat.aiokafka.helpers import create_ssl_context
from confluent_kafka.compat.aiokafka.producer import AIOKafkaProducer

ROOT = pathlib.Path(__file__).resolve().parents[2]
NOWHERE = "127.0.0.1:1"

# Run by the interpreter that has the real aiokafka: what a user of it sees.
_DUMP = r'''
import inspect, json, aiokafka, aiokafka.structs, aiokafka.errors, aiokafka.abc, aiokafka.util
def sig(f):
    ps = []
    for p in inspect.signature(f).parameters.values():
        d = p.default
        ps.append([p.name, str(p.kind), None if d is inspect.Parameter.empty else
                   (repr(d) if isinstance(d, (int, str, float, bool, type(None))) else "<object>")])
    return ps
out = {"all": sorted(aiokafka.__all__), "structs": sorted(aiokafka.structs.__all__),
       "modules": {c.__name__: c.__module__ for c in (aiokafka.AIOKafkaProducer, aiokafka.AIOKafkaConsumer)},
       "util": {n: repr(getattr(aiokafka.util, n)) for n in aiokafka.util.__all__ if n.isupper()},
       "util_sigs": {n: sig(getattr(aiokafka.util, n)) for n in aiokafka.util.__all__ if not n.isupper()},
       "errors": sorted(aiokafka.errors.__all__), "classes": {}, "fields": {}, "errnos": {}}
for cls in (aiokafka.AIOKafkaProducer, aiokafka.AIOKafkaConsumer):
    methods = {n: [sig(m), inspect.iscoroutinefunction(m)] for n, m in vars(cls).items()
               if callable(m) and (not n.startswith("_") or n in ("__init__", "__aenter__", "__aexit__", "__aiter__", "__anext__"))}
    out["classes"][cls.__name__] = methods
for name in aiokafka.structs.__all__:
    t = getattr(aiokafka.structs, name)
    out["fields"][name] = list(getattr(t, "_fields", None) or t.__dataclass_fields__)
for name in aiokafka.errors.__all__:
    cls = getattr(aiokafka.errors, name)
    out["errnos"][name] = [getattr(cls, "errno", None), [b.__name__ for b in cls.__mro__[1:3]],
                           bool(getattr(cls, "retriable", False))]
print(json.dumps(out))
'''


def _sig(f: Any) -> list:
    ps = []
    for p in inspect.signature(f).parameters.values():
        d = p.default
        ps.append([p.name, str(p.kind), None if d is inspect.Parameter.empty else
                   (repr(d) if isinstance(d, (int, str, float, bool, type(None))) else "<object>")])
    return ps


@pytest.fixture(scope="module")
def real(peer_python: str) -> Dict[str, Any]:
    done = subprocess.run([peer_python, "-c", _DUMP], capture_output=True, text=True, timeout=60, cwd="/")
    assert done.returncode == 0, f"aiokafka is not importable by {peer_python}: {done.stderr[-300:]}"
    return json.loads(done.stdout)


def test_names_match_aiokafka(real: Dict[str, Any]) -> None:
    assert sorted(facade.__all__) == sorted(n for n in real["all"] if n != "AIOKafkaClient")
    assert sorted(structs.__all__) == real["structs"]
    assert sorted(errors.__all__) == real["errors"]
    assert facade.__version__ == "0.14.0"


def test_clients_live_in_aiokafkas_modules(real: Dict[str, Any]) -> None:
    """``from aiokafka.producer.producer import AIOKafkaProducer`` (type hints do this) finds the
    facade's class where aiokafka defines its own."""
    import importlib

    for name, module in real["modules"].items():
        assert module in ("aiokafka.producer.producer", "aiokafka.consumer.consumer")
        ours = importlib.import_module("confluent_kafka.compat." + module)
        assert getattr(ours, name) is getattr(facade, name)
        assert getattr(facade, name).__module__ == "confluent_kafka.compat." + module
        package = importlib.import_module("confluent_kafka.compat." + module.rsplit(".", 1)[0])
        assert package.__all__ == [name] and getattr(package, name) is getattr(facade, name)


def test_util_matches_aiokafka(real: Dict[str, Any]) -> None:
    from confluent_kafka.compat.aiokafka import util

    assert sorted(util.__all__) == sorted(list(real["util"]) + list(real["util_sigs"]))
    assert {n: repr(getattr(util, n)) for n in real["util"]} == real["util"]
    assert {n: _sig(getattr(util, n)) for n in real["util_sigs"]} == real["util_sigs"]
    with pytest.raises(RuntimeError, match="within an async function"):
        util.create_future()

    async def main() -> None:
        loop = asyncio.get_running_loop()
        fut = util.create_future()
        assert isinstance(fut, asyncio.Future) and fut.get_loop() is loop
        assert util.create_future(loop).get_loop() is loop

        async def answer() -> int:
            return 42

        task = util.create_task(answer())
        assert isinstance(task, asyncio.Task) and await task == 42

    asyncio.run(main())
    other = asyncio.new_event_loop()
    try:
        assert util.create_future(other).get_loop() is other  # a loop given needs none running
    finally:
        other.close()


@pytest.mark.parametrize("cls", [AIOKafkaProducer, AIOKafkaConsumer])
def test_methods_and_signatures_match_aiokafka(real: Dict[str, Any], cls: type) -> None:
    theirs = real["classes"][cls.__name__]
    for name, (params, is_async) in theirs.items():
        ours = getattr(cls, name, None)
        assert ours is not None, f"{cls.__name__}.{name} missing"
        assert _sig(ours) == params, f"{cls.__name__}.{name}"
        assert inspect.iscoroutinefunction(ours) == is_async, f"{cls.__name__}.{name} async-ness"


def test_struct_fields_and_error_classes_match_aiokafka(real: Dict[str, Any]) -> None:
    assert structs.OffsetAndTimestamp(1, 2) == (1, 2)
    for name, fields in real["fields"].items():
        t = getattr(structs, name)
        assert list(getattr(t, "_fields", None) or t.__dataclass_fields__) == fields, name
    assert dataclasses.is_dataclass(structs.ConsumerRecord)
    for name, (errno, bases, retriable) in real["errnos"].items():
        cls = getattr(errors, name)
        assert getattr(cls, "errno", None) == errno, name
        assert bool(getattr(cls, "retriable", False)) == retriable, name
    assert errors.for_code(1) is errors.OffsetOutOfRangeError
    assert errors.for_code(12345) is errors.UnknownError
    assert issubclass(errors.KafkaError, RuntimeError)
    assert str(errors.OffsetOutOfRangeError("x")) == "[Error 1] OffsetOutOfRangeError: x"


def test_librdkafka_errors_become_aiokafka_classes() -> None:
    from confluent_kafka import KafkaError, KafkaException

    assert type(errors.from_librdkafka(KafkaError(KafkaError._TIMED_OUT))) is errors.KafkaTimeoutError
    assert type(errors.from_librdkafka(KafkaException(KafkaError(29)))) is errors.TopicAuthorizationFailedError
    exc = errors.from_librdkafka(KafkaError(KafkaError._ALL_BROKERS_DOWN))
    assert type(exc) is errors.NoBrokersAvailable and exc.retriable


# ---- the option table ------------------------------------------------------------------------

@pytest.mark.parametrize("cls,table", [(AIOKafkaProducer, _options.PRODUCER), (AIOKafkaConsumer, _options.CONSUMER)])
def test_every_option_is_in_the_table_once(cls: type, table: tuple) -> None:
    params = [p for p in inspect.signature(cls.__init__).parameters.values()
              if p.kind == inspect.Parameter.KEYWORD_ONLY]
    names = [o.name for o in table]
    assert sorted(names) == sorted(p.name for p in params)
    assert len(set(names)) == len(names)
    for o in table:
        assert o.kind in ("property", "facade", "none")
        assert (o.prop is not None) == (o.kind == "property"), o.name
        assert o.kind == "property" or o.note, f"{o.name}: an option not passed on says why"


def _doc_rows(section: str) -> Dict[str, str]:
    text = (ROOT / "docs" / "aiokafka.md").read_text()
    part = text.split(f"### {section}", 1)[1].split("\n## ", 1)[0].split("\n### ", 1)[0]
    rows = {}
    for line in part.splitlines():
        m = re.match(r"\|\s*`(\w+)`\s*\|\s*(.*?)\s*\|", line)
        if m:
            rows[m.group(1)] = m.group(2)
    return rows


@pytest.mark.parametrize("section,table", [("AIOKafkaProducer options", _options.PRODUCER),
                                           ("AIOKafkaConsumer options", _options.CONSUMER)])
def test_docs_list_the_mapping(section: str, table: tuple) -> None:
    rows = _doc_rows(section)
    assert set(rows) == {o.name for o in table}
    for o in table:
        want = f"`{o.prop}`" if o.kind == "property" else ("facade" if o.kind == "facade" else "**none**")
        assert rows[o.name] == want, o.name


def test_defaults_become_aiokafka_behaviour() -> None:
    p = AIOKafkaProducer(bootstrap_servers=[NOWHERE, "127.0.0.1:2"])
    assert p._conf["bootstrap.servers"] == "127.0.0.1:1,127.0.0.1:2"
    assert p._conf["acks"] == 1 and p._conf["linger.ms"] == 0
    # aiokafka's 16 KB batches are per partition of one request; librdkafka's request holds one
    # partition, so its own (larger) batch size is kept unless the program asks for another
    assert "batch.size" not in p._conf
    assert AIOKafkaProducer(bootstrap_servers=NOWHERE, max_batch_size=65536)._conf["batch.size"] == 65536
    # five requests in flight per broker: librdkafka's request holds one partition where aiokafka's
    # holds all, so partitions go out together (tests/mock/test_fault_aiokafka_facade.py)
    assert p._conf["max.in.flight.requests.per.connection"] == 5
    assert p._conf["partitioner"] == "murmur2_random" and p._conf["client.id"].startswith("aiokafka-producer-")
    assert "sasl.mechanism" not in p._conf and "transaction.timeout.ms" not in p._conf
    # asyncio's connections (aiokafka's) have TCP_NODELAY; librdkafka's must be told
    assert p._conf["socket.nagle.disable"] is True
    assert _options.to_librdkafka(_options.CONSUMER, {}, {}, "AIOKafkaConsumer") == {"socket.nagle.disable": True}
    t = AIOKafkaProducer(bootstrap_servers=NOWHERE, transactional_id="t", linger_ms=7)
    assert t._conf["acks"] == -1 and t._conf["enable.idempotence"] is True and t._conf["linger.ms"] == 7
    assert t._conf["transaction.timeout.ms"] == 60000
    s = AIOKafkaProducer(bootstrap_servers=NOWHERE, security_protocol="SASL_PLAINTEXT", sasl_mechanism="SCRAM-SHA-256",
                         sasl_plain_username="u", sasl_plain_password="p")
    assert (s._conf["security.protocol"], s._conf["sasl.mechanism"], s._conf["sasl.username"]) == \
        ("sasl_plaintext", "SCRAM-SHA-256", "u")
    from confluent_kafka.compat.aiokafka.coordinator.assignors.range import RangePartitionAssignor

    with pytest.raises(NotImplementedError):
        RangePartitionAssignor.assign(None, None)
    c = AIOKafkaConsumer(bootstrap_servers=NOWHERE, auto_offset_reset="none",
                         partition_assignment_strategy=(RangePartitionAssignor,))
    try:
        assert c._c is not None  # created: librdkafka accepted every property
        default = AIOKafkaConsumer(bootstrap_servers=NOWHERE)
        asyncio.run(default.stop())
    finally:
        asyncio.run(c.stop())


@pytest.mark.parametrize("kwargs,exc,text", [
    ({"acks": 2}, ValueError, "Invalid ACKS"),
    ({"acks": 1, "enable_idempotence": True}, ValueError, "acks=1"),
    ({"compression_type": "brotli"}, ValueError, "compression"),
    ({"linger_ms": "5"}, TypeError, "linger_ms"),
    ({"linger_ms": float("nan")}, ValueError, "linger_ms"),
    ({"bootstrap_servers": 9092}, TypeError, "bootstrap_servers"),
    ({"partitioner": 3}, TypeError, "partitioner"),
    ({"value_serializer": "json"}, TypeError, "value_serializer"),
    ({"security_protocol": "TLS"}, ValueError, "security_protocol"),
    ({"sasl_kerberos_domain_name": "EXAMPLE.COM"}, _options.UnsupportedOption, "sasl_kerberos_domain_name"),
    ({"sasl_oauth_token_provider": object()}, _options.UnsupportedOption, "sasl_oauth_token_provider"),
    ({"ssl_context": ssl.create_default_context()}, _options.UnsupportedOption, "create_ssl_context"),
])
def test_producer_refuses(kwargs: Dict[str, Any], exc: type, text: str) -> None:
    with pytest.raises(exc, match=text):
        AIOKafkaProducer(**{"bootstrap_servers": NOWHERE, **kwargs})


@pytest.mark.parametrize("kwargs,exc,text", [
    ({"auto_offset_reset": "smallest"}, ValueError, "auto_offset_reset"),
    ({"isolation_level": "serializable"}, ValueError, "isolation_level"),
    ({"rebalance_timeout_ms": 30000}, _options.UnsupportedOption, "rebalance_timeout_ms"),
    ({"consumer_timeout_ms": 100}, _options.UnsupportedOption, "consumer_timeout_ms"),
    ({"partition_assignment_strategy": ("StickyPartitionAssignor",)}, _options.UnsupportedOption, "Sticky"),
    ({"max_poll_records": 0}, ValueError, "max_poll_records"),
    ({"session_timeout_ms": "10s"}, TypeError, "session_timeout_ms"),
    ({"enable_auto_commit": "yes"}, TypeError, "enable_auto_commit"),
    ({"key_deserializer": 1}, TypeError, "key_deserializer"),
])
def test_consumer_refuses(kwargs: Dict[str, Any], exc: type, text: str) -> None:
    with pytest.raises(exc, match=text):
        AIOKafkaConsumer(**{"bootstrap_servers": NOWHERE, **kwargs})


def test_sticky_assignor_imports_and_is_refused_naming_it() -> None:
    from confluent_kafka.compat.aiokafka.coordinator.assignors.sticky import StickyPartitionAssignor

    with pytest.raises(_options.UnsupportedOption, match="StickyPartitionAssignor: librdkafka has no eager sticky"):
        AIOKafkaConsumer(bootstrap_servers=NOWHERE, partition_assignment_strategy=(StickyPartitionAssignor,))


def test_default_partitioner_runs_in_librdkafka() -> None:
    from confluent_kafka.compat.aiokafka.partitioner import DefaultPartitioner

    class Last(DefaultPartitioner):
        def __call__(self, key: Any, all_partitions: Any, available: Any) -> int:  # type: ignore[override]
            return int(all_partitions[-1])

    for given in ({}, {"partitioner": DefaultPartitioner()}):
        p = AIOKafkaProducer(bootstrap_servers=NOWHERE, **given)
        assert (p._conf["partitioner"], p._partitioner) == ("murmur2_random", None)
    last = Last()
    p = AIOKafkaProducer(bootstrap_servers=NOWHERE, partitioner=last)
    assert "partitioner" not in p._conf and p._partitioner is last


# aiokafka.partitioner's choices, printed as JSON by either side.
_PARTITIONS = r'''
import json
from aiokafka.partitioner import DefaultPartitioner, murmur2
keys = [b"", b"a", b"ab", b"abc", b"abcd", b"key-17", bytes(range(256))]
print(json.dumps({"murmur2": [murmur2(k) for k in keys],
                  "keyed": [DefaultPartitioner()(k, list(range(7)), [0, 1]) for k in keys],
                  "no key": DefaultPartitioner()(None, list(range(7)), [3]),
                  "none available": DefaultPartitioner()(None, [5], [])}))
'''


def test_default_partitioner_chooses_as_aiokafka(peer_python: str, tmp_path: pathlib.Path) -> None:
    script = tmp_path / "partitions.py"
    script.write_text(_PARTITIONS)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    real = subprocess.run([peer_python, str(script)], capture_output=True, text=True, timeout=60, env=env)
    env["PYTHONPATH"] = str(ROOT / "src")
    ours = subprocess.run([sys.executable, "-m", "confluent_kafka.compat", "run", str(script)], capture_output=True,
                          text=True, timeout=60, env=env)
    assert real.returncode == 0 and ours.returncode == 0, real.stderr[-1000:] + ours.stderr[-1000:]
    assert json.loads(ours.stdout) == json.loads(real.stdout)
    assert json.loads(ours.stdout)["no key"] == 3


def test_unsupported_option_is_a_configuration_error_naming_it() -> None:
    with pytest.raises(errors.KafkaConfigurationError) as info:
        AIOKafkaConsumer(bootstrap_servers=NOWHERE, rebalance_timeout_ms=1)
    assert isinstance(info.value, ValueError)
    assert "AIOKafkaConsumer(rebalance_timeout_ms=1)" in str(info.value)


def test_loop_and_api_version_warn_as_in_aiokafka() -> None:
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        AIOKafkaProducer(bootstrap_servers=NOWHERE, loop=object(), api_version="2.0.0")
    assert [w.category for w in got] == [DeprecationWarning, DeprecationWarning]


def test_create_ssl_context_passes_its_files_on(tmp_path: pathlib.Path) -> None:
    ca = ssl.get_default_verify_paths().cafile or ssl.get_default_verify_paths().openssl_cafile
    if not ca or not pathlib.Path(ca).exists():
        pytest.skip("no CA bundle on this machine")
    ctx = create_ssl_context(cafile=ca)
    assert isinstance(ctx, ssl.SSLContext) and ctx.check_hostname and ctx.verify_mode == ssl.CERT_REQUIRED
    p = AIOKafkaProducer(bootstrap_servers=NOWHERE, security_protocol="SSL", ssl_context=ctx)
    assert p._conf["ssl.ca.location"] == ca and p._conf["security.protocol"] == "ssl"
    with pytest.raises(ValueError, match="certfile"):
        create_ssl_context(keyfile=str(tmp_path / "k"))


def test_structs_behave_as_aiokafka() -> None:
    tp = structs.TopicPartition("t", 1)
    assert tp == ("t", 1) and {tp: 1}[structs.TopicPartition("t", 1)] == 1
    rec = structs.ConsumerRecord("t", 1, 5, 10, 0, b"k", b"v", None, 1, 1, ())
    assert dataclasses.asdict(rec)["offset"] == 5
    assert structs.OffsetAndMetadata(3, "") == (3, "")


def test_rebalance_listener_is_abstract() -> None:
    with pytest.raises(TypeError):
        facade.ConsumerRebalanceListener()  # type: ignore[abstract]


def test_consumer_argument_checks_without_broker() -> None:
    async def main() -> None:
        c = AIOKafkaConsumer(bootstrap_servers=NOWHERE)
        tp = structs.TopicPartition("t", 0)
        with pytest.raises(TypeError, match="either"):
            c.subscribe()
        with pytest.raises(TypeError, match="both"):
            c.subscribe(["a"], pattern="b.*")
        with pytest.raises(TypeError, match="ConsumerRebalanceListener"):
            c.subscribe(["a"], listener=object())  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            c.subscribe("topic")
        with pytest.raises(IllegalOp := errors.IllegalOperation, match="group_id"):
            await c.commit()
        with pytest.raises(IllegalOp):
            await c.committed(tp)
        with pytest.raises(ValueError, match="positive"):
            c.seek(tp, -1)
        with pytest.raises(errors.IllegalStateError, match="No current assignment"):
            c.seek(tp, 1)
        with pytest.raises(TypeError):
            c.assign([("t", 0, 1)])
        with pytest.raises(ValueError, match="max_records"):
            await c.getmany(max_records=0)
        with pytest.raises(TypeError):
            await c.getone(("t", 0))  # type: ignore[arg-type]
        c.assign([tp])
        assert c.assignment() == {tp}
        with pytest.raises(errors.IllegalStateError, match="mutually exclusive"):
            c.subscribe(["t"])
        c.pause(tp)
        assert c.paused() == {tp}
        c.resume(tp)
        assert c.paused() == set()
        c.unsubscribe()
        assert c.assignment() == set()
        await c.stop()
        await c.stop()  # idempotent
        with pytest.raises(errors.ConsumerStoppedError):
            await c.getone()
        with pytest.raises(errors.ConsumerStoppedError):
            await c.getmany()
        with pytest.raises(errors.ConsumerStoppedError):
            c.assignment()
        with pytest.raises(errors.ConsumerStoppedError):
            async for _ in c:  # as aiokafka: iterating a stopped consumer raises
                raise AssertionError("no record expected")

    asyncio.run(main())


def test_producer_argument_checks_without_broker() -> None:
    async def main() -> None:
        p = AIOKafkaProducer(bootstrap_servers=NOWHERE, max_request_size=1000)
        with pytest.raises(AssertionError, match="key or value"):
            await p.send("t")
        with pytest.raises(TypeError, match="bytes"):
            await p.send("t", "text")
        with pytest.raises(TypeError, match="bytes"):
            await p.send("t", b"v", key=5)
        with pytest.raises(TypeError, match="headers"):
            await p.send("t", b"v", headers=[("h", "not bytes")])
        with pytest.raises(errors.MessageSizeTooLargeError):
            await p.send("t", b"x" * 1001)
        with pytest.raises(AssertionError):
            await p.send("t", b"v", partition=-1)
        with pytest.raises(errors.IllegalOperation, match="transaction"):
            await p.begin_transaction()
        with pytest.raises(errors.IllegalOperation):
            await p.send_offsets_to_transaction({}, "g")
        batch = p.create_batch()
        with pytest.raises(TypeError):
            batch.append(key=None, value="text", timestamp=None)
        with pytest.raises(TypeError, match="create_batch"):
            await p.send_batch([b"x"], "t", partition=0)  # type: ignore[arg-type]
        await p.stop()
        await p.stop()
        with pytest.raises(errors.ProducerClosed):
            await p.send("t", b"v")
        t = AIOKafkaProducer(bootstrap_servers=NOWHERE, transactional_id="x")
        with pytest.raises(errors.IllegalOperation, match="not in transaction"):
            await t.send("t", b"v")
        with pytest.raises(errors.IllegalOperation, match="Not in the middle"):
            await t.send_offsets_to_transaction({structs.TopicPartition("t", 0): 1}, "g")
        await t.stop()

    asyncio.run(main())


def test_batch_builder_fills_up_to_max_batch_size() -> None:
    async def main() -> None:
        p = AIOKafkaProducer(bootstrap_servers=NOWHERE, max_batch_size=1000)
        b = p.create_batch()
        n = 0
        while b.append(key=None, value=b"x" * 50, timestamp=1000) is not None:
            n += 1
        assert 0 < n < 20 and b.record_count() == n and b.size() <= 1000 and b.closed()
        assert b.append(key=None, value=b"x", timestamp=None) is None
        await p.stop()

    asyncio.run(main())


@pytest.mark.parametrize("cls", [AIOKafkaProducer, AIOKafkaConsumer, facade.producer.producer.BatchBuilder])
def test_public_methods_document_fields(cls: type) -> None:
    """Sphinx field form: a :param: per parameter and a :returns: unless the method returns None."""
    checked = 0
    for name, fn in vars(cls).items():
        if name.startswith("_") or not callable(fn):
            continue
        doc = inspect.getdoc(fn) or ""
        sig = inspect.signature(fn)
        for p in sig.parameters.values():
            if p.name == "self" or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                continue
            assert f":param {p.name}:" in doc, f"{cls.__name__}.{name}: no :param {p.name}:"
        if sig.return_annotation not in (None, "None", inspect.Signature.empty):
            assert ":returns:" in doc, f"{cls.__name__}.{name}: no :returns:"
        checked += 1
    assert checked >= 5


def test_delivery_report_settles_the_send_future() -> None:
    from confluent_kafka import KafkaError, Message
    from confluent_kafka.compat.aiokafka.producer.producer import _settle

    async def main() -> None:
        loop = asyncio.get_running_loop()
        msg = Message(topic="t", partition=2, offset=7, value=b"v", timestamp=(1, 1234))
        ok = loop.create_future()
        _settle(ok, None, msg)
        md = ok.result()
        assert isinstance(md, structs.RecordMetadata) and isinstance(md.topic_partition, structs.TopicPartition)
        assert tuple(md) == ("t", 2, ("t", 2), 7, 1234, 0, None)
        appended = Message(topic="t", partition=2, offset=8, value=b"v", timestamp=(2, 99))
        fut = loop.create_future()
        _settle(fut, None, appended)
        assert (fut.result().timestamp, fut.result().timestamp_type) == (99, 1)
        failed = loop.create_future()
        _settle(failed, KafkaError(KafkaError._MSG_TIMED_OUT), msg)
        assert isinstance(failed.exception(), errors.KafkaTimeoutError)
        cancelled = loop.create_future()
        cancelled.cancel()
        _settle(cancelled, None, msg)  # dropped, nothing raised
        _settle(cancelled, KafkaError(KafkaError._MSG_TIMED_OUT), msg)
        assert cancelled.cancelled()

    asyncio.run(main())
