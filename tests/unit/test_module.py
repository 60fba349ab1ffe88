"""Package surface: exports, versions, constants and the pure-Python model classes."""

from __future__ import annotations

import importlib
import pickle
import re
import sys

import pytest

import confluent_kafka
from confluent_kafka import _version, cimpl
from confluent_kafka._model import ThrottleEvent
from confluent_kafka.admin import BrokerMetadata, ClusterMetadata, PartitionMetadata, TopicMetadata

CIMPL_EXPORTS = [
    "Producer",
    "Consumer",
    "Message",
    "TopicPartition",
    "KafkaError",
    "KafkaException",
    "version",
    "libversion",
    "murmur2",
    "consistent",
    "fnv1a",
    "OFFSET_BEGINNING",
    "OFFSET_END",
    "OFFSET_STORED",
    "OFFSET_INVALID",
    "TIMESTAMP_NOT_AVAILABLE",
    "TIMESTAMP_CREATE_TIME",
    "TIMESTAMP_LOG_APPEND_TIME",
]


@pytest.mark.parametrize("name", CIMPL_EXPORTS)
def test_top_level_reexports_cimpl_objects(name: str) -> None:
    assert getattr(confluent_kafka, name) is getattr(cimpl, name)
    assert name in confluent_kafka.__all__


def test_all_lists_only_existing_names() -> None:
    for name in confluent_kafka.__all__:
        assert hasattr(confluent_kafka, name), name
    assert confluent_kafka.ThrottleEvent is ThrottleEvent


def test_offset_and_timestamp_constants() -> None:
    assert confluent_kafka.OFFSET_BEGINNING == -2
    assert confluent_kafka.OFFSET_END == -1
    assert confluent_kafka.OFFSET_STORED == -1000
    assert confluent_kafka.OFFSET_INVALID == -1001
    assert confluent_kafka.TIMESTAMP_NOT_AVAILABLE == 0
    assert confluent_kafka.TIMESTAMP_CREATE_TIME == 1
    assert confluent_kafka.TIMESTAMP_LOG_APPEND_TIME == 2


def test_version_matches_package_version() -> None:
    # confluent-kafka 2.16 returns the package version as a plain str.
    assert confluent_kafka.version() == _version.__version__
    assert cimpl.version() == _version.__version__
    assert confluent_kafka.__version__ == _version.__version__
    assert re.fullmatch(r"\d+\.\d+\.\d+.*", confluent_kafka.version())


def test_libversion_is_the_librdkafka_we_were_built_against() -> None:
    """The extension must load the librdkafka it was compiled with (rpath), not e.g.
    Debian's 2.0.2 which cannot talk to the test broker."""
    text, number = confluent_kafka.libversion()
    assert isinstance(cimpl.BUILD_LIBRDKAFKA_VERSION, str)
    assert text == cimpl.BUILD_LIBRDKAFKA_VERSION
    major, minor, patch = (int(x) for x in re.match(r"(\d+)\.(\d+)\.(\d+)", text).groups())
    assert (number >> 24, (number >> 16) & 0xFF, (number >> 8) & 0xFF) == (major, minor, patch)
    assert (major, minor) >= (2, 8)


def test_error_module_reexports() -> None:
    from confluent_kafka import error

    assert error.KafkaError is cimpl.KafkaError
    assert error.KafkaException is cimpl.KafkaException


def test_testing_module_reexports_mock_cluster() -> None:
    testing = importlib.import_module("confluent_kafka.testing")
    assert testing.MockCluster is cimpl.MockCluster
    plugin = importlib.import_module("confluent_kafka.testing.pytest_plugin")
    assert callable(plugin.kafka_mock_cluster)


def test_types_have_qualified_names() -> None:
    # Pickling by reference needs the module to be importable under this name.
    for cls in (cimpl.KafkaError, cimpl.KafkaException, cimpl.Message, cimpl.TopicPartition,
                cimpl.Producer, cimpl.Consumer):
        assert cls.__module__ == "confluent_kafka.cimpl", cls
        assert getattr(importlib.import_module(cls.__module__), cls.__qualname__) is cls


def test_kafka_exception_is_an_exception() -> None:
    assert issubclass(confluent_kafka.KafkaException, Exception)


class TestThrottleEvent:
    def test_attributes(self) -> None:
        ev = ThrottleEvent("127.0.0.1:9092/1", 1, 0.25)
        assert ev.broker_name == "127.0.0.1:9092/1"
        assert ev.broker_id == 1
        assert ev.throttle_time == 0.25

    def test_keyword_construction_and_equality(self) -> None:
        a = ThrottleEvent(broker_name="b/2", broker_id=2, throttle_time=1.5)
        assert a == ThrottleEvent("b/2", 2, 1.5)
        assert a != ThrottleEvent("b/2", 2, 1.0)
        assert hash(a) == hash(ThrottleEvent("b/2", 2, 1.5))

    def test_repr_and_str(self) -> None:
        ev = ThrottleEvent("host:1/3", 3, 0.5)
        # repr names the fields (upstream: object's default repr; compat: throttle_event_repr_eq).
        assert repr(ev) == "ThrottleEvent(broker_name='host:1/3', broker_id=3, throttle_time=0.5)"
        # str is upstream's text: name/id, whole milliseconds truncated toward zero.
        assert str(ev) == "host:1/3/3 throttled for 500 ms"
        assert str(ThrottleEvent("b", 0, 1.2345)) == "b/0 throttled for 1234 ms"
        assert str(ThrottleEvent("b", 0, -0.0015)) == "b/0 throttled for -1 ms"


    def test_pickles_cross_with_upstream(self) -> None:
        # Named where upstream defines the class, and rebuilt by the constructor both share
        # (tests/compat: pickles::crossed_throttle_events loads each side's pickles in the other).
        ev = ThrottleEvent("b/1", 1, 0.5)
        for proto in range(pickle.HIGHEST_PROTOCOL + 1):
            data = pickle.dumps(ev, proto)
            assert b"_model" not in data
            assert pickle.loads(data) == ev
        # Upstream's instances pickle their __dict__, which __setstate__ takes.
        loaded = ThrottleEvent.__new__(ThrottleEvent)
        loaded.__setstate__({"broker_name": "b", "broker_id": 2, "throttle_time": 1.0})
        assert loaded == ThrottleEvent("b", 2, 1.0)


class TestMetadataClasses:
    def test_cluster_defaults(self) -> None:
        md = ClusterMetadata()
        assert md.cluster_id is None
        assert md.controller_id == -1
        assert md.brokers == {}
        assert md.topics == {}
        assert md.orig_broker_id == -1
        assert md.orig_broker_name is None
        # Defaults are per instance, not shared.
        md.brokers[1] = BrokerMetadata()
        assert ClusterMetadata().brokers == {}

    def test_broker_defaults_and_str(self) -> None:
        b = BrokerMetadata()
        assert (b.id, b.host, b.port) == (-1, None, -1)
        b.id, b.host, b.port = 2, "127.0.0.1", 9093
        assert str(b) == "127.0.0.1:9093/2"
        assert "127.0.0.1" in repr(b) and "9093" in repr(b)

    def test_topic_defaults(self) -> None:
        t = TopicMetadata()
        assert t.topic is None
        assert t.partitions == {}
        assert t.error is None
        t.topic = "orders"
        t.partitions = {0: PartitionMetadata(), 1: PartitionMetadata()}
        assert str(t) == "orders"
        assert "orders" in repr(t) and "2 partitions" in repr(t)

    def test_topic_repr_shows_error(self) -> None:
        t = TopicMetadata()
        t.topic = "gone"
        t.error = cimpl.KafkaError(cimpl.KafkaError.UNKNOWN_TOPIC_OR_PART)
        assert repr(t) == f"TopicMetadata(gone, 0 partitions, {t.error})"  # upstream's form

    def test_partition_defaults(self) -> None:
        p = PartitionMetadata()
        assert (p.id, p.leader, p.replicas, p.isrs, p.error) == (-1, -1, [], [], None)
        p.id, p.leader, p.replicas, p.isrs = 3, 1, [1, 2], [1]
        assert str(p) == "3"
        assert repr(p) == "PartitionMetadata(3)"  # upstream's form

    def test_cluster_str_and_repr(self) -> None:
        md = ClusterMetadata()
        md.cluster_id = "abc"
        md.brokers = {1: BrokerMetadata()}
        assert str(md) == "abc"
        assert repr(md) == "ClusterMetadata(abc)"  # upstream's form


def test_check_keywords_words_an_unknown_keyword_as_the_interpreter_does() -> None:
    from confluent_kafka.cimpl import _check_keywords

    from cpython_texts import unexpected_keyword_text

    assert _check_keywords(("a", "timeout"), {}) is None
    with pytest.raises(TypeError) as info:
        _check_keywords(("a", "timeout"), {"tmout": 1})
    if sys.version_info >= (3, 13):
        assert str(info.value) == "this function got an unexpected keyword argument 'tmout'. Did you mean 'timeout'?"
    else:
        assert str(info.value) == "'tmout' is an invalid keyword argument for this function"
    assert _check_keywords(("a", "timeout"), {"timeout": None, "a": 1}) is None
    for name in ("tmout", "bogus"):
        with pytest.raises(TypeError) as info:
            _check_keywords(("a", "timeout"), {"timeout": 1, name: 2})
        assert str(info.value) == unexpected_keyword_text(name, ["a", "timeout"])
    with pytest.raises(TypeError, match="names must be str"):
        _check_keywords(("a", 1), {"b": 1})
    with pytest.raises(ValueError, match="at most 16"):
        _check_keywords(tuple(f"k{i}" for i in range(17)), {})
    with pytest.raises(TypeError):
        _check_keywords(["a"], {})  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        _check_keywords(("a",))  # type: ignore[call-arg]
