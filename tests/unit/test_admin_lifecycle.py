"""AdminClient futures against an unreachable broker: they time out cleanly without poll(),
close() fails the pending ones at once, no thread is started per call, and the client survives
being released from librdkafka's background thread."""

from __future__ import annotations

import gc
import subprocess
import sys
import textwrap
import threading
import time
import weakref
from concurrent.futures import Future, wait

import pytest

from confluent_kafka import KafkaError, KafkaException, TopicPartition
from confluent_kafka.admin import (
    AclBinding,
    AclBindingFilter,
    AclOperation,
    AclPermissionType,
    AdminClient,
    AlterConfigOpType,
    ConfigEntry,
    ConfigResource,
    ConsumerGroupTopicPartitions,
    ElectionType,
    NewPartitions,
    NewTopic,
    OffsetSpec,
    ResourcePatternType,
    ResourceType,
    ScramCredentialInfo,
    ScramMechanism,
    TopicCollection,
    UserScramCredentialUpsertion,
)

UNREACHABLE = {"bootstrap.servers": "127.0.0.1:1", "log_level": 0}


def _acl() -> AclBinding:
    return AclBinding(ResourceType.TOPIC, "t", ResourcePatternType.LITERAL, "User:a", "*", AclOperation.READ,
                      AclPermissionType.ALLOW)


def _filter() -> AclBindingFilter:
    return AclBindingFilter(ResourceType.ANY, None, ResourcePatternType.ANY, None, None, AclOperation.ANY,
                            AclPermissionType.ANY)


def _incremental() -> ConfigResource:
    return ConfigResource("topic", "t", incremental_configs=[
        ConfigEntry("retention.ms", "1", incremental_operation=AlterConfigOpType.SET)])


# Every asynchronous call, with keyword arguments for its timeout(s).
CALLS = {
    "create_topics": lambda a, kw: a.create_topics([NewTopic("t", 1, 1)], **kw),
    "delete_topics": lambda a, kw: a.delete_topics(["t"], **kw),
    "create_partitions": lambda a, kw: a.create_partitions([NewPartitions("t", 3)], **kw),
    "describe_topics": lambda a, kw: a.describe_topics(TopicCollection(["t"]), **kw),
    "describe_cluster": lambda a, kw: a.describe_cluster(**kw),
    "describe_configs": lambda a, kw: a.describe_configs([ConfigResource("topic", "t")], **kw),
    "alter_configs": lambda a, kw: a.alter_configs([ConfigResource("topic", "t", set_config={"a": "b"})], **kw),
    "incremental_alter_configs": lambda a, kw: a.incremental_alter_configs([_incremental()], **kw),
    "create_acls": lambda a, kw: a.create_acls([_acl()], **kw),
    "describe_acls": lambda a, kw: a.describe_acls(_filter(), **kw),
    "delete_acls": lambda a, kw: a.delete_acls([_filter()], **kw),
    "list_consumer_groups": lambda a, kw: a.list_consumer_groups(**kw),
    "describe_consumer_groups": lambda a, kw: a.describe_consumer_groups(["g"], **kw),
    "delete_consumer_groups": lambda a, kw: a.delete_consumer_groups(["g"], **kw),
    "list_consumer_group_offsets": lambda a, kw: a.list_consumer_group_offsets(
        [ConsumerGroupTopicPartitions("g")], **kw),
    "alter_consumer_group_offsets": lambda a, kw: a.alter_consumer_group_offsets(
        [ConsumerGroupTopicPartitions("g", [TopicPartition("t", 0, 5)])], **kw),
    "list_offsets": lambda a, kw: a.list_offsets({TopicPartition("t", 0): OffsetSpec.latest()}, **kw),
    "delete_records": lambda a, kw: a.delete_records([TopicPartition("t", 0, 5)], **kw),
    "elect_leaders": lambda a, kw: a.elect_leaders(ElectionType.PREFERRED, [TopicPartition("t", 0)], **kw),
    "describe_user_scram_credentials": lambda a, kw: a.describe_user_scram_credentials(["u"], **kw),
    "alter_user_scram_credentials": lambda a, kw: a.alter_user_scram_credentials(
        [UserScramCredentialUpsertion("u", ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 4096), b"pw")], **kw),
}


def _futures(result):
    return list(result.values()) if isinstance(result, dict) else [result]


def _failure_of(name, fut):
    """The KafkaException a finished future carries. list_consumer_groups reports brokers it
    could not ask in ListConsumerGroupsResult.errors rather than failing its future."""
    if name == "list_consumer_groups" and fut.exception() is None:
        result = fut.result()
        assert result.valid == [] and len(result.errors) == 1
        assert isinstance(result.errors[0], KafkaError)  # a KafkaError, as upstream reports it
        return KafkaException(result.errors[0])
    return fut.exception()


@pytest.fixture
def admin():
    a = AdminClient(UNREACHABLE)
    yield a
    a.close()


def test_every_async_call_is_listed():
    public = {n for n in dir(AdminClient) if not n.startswith("_")}
    sync = {"list_topics", "list_groups", "poll", "close", "set_sasl_credentials", "cluster_id"}
    assert public - sync == set(CALLS)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_futures_time_out_without_poll(admin, name):
    start = time.monotonic()
    futures = _futures(CALLS[name](admin, {"request_timeout": 0.3}))
    assert futures and all(isinstance(f, Future) for f in futures)
    done, not_done = wait(futures, timeout=10)
    assert not not_done, f"{name}: futures still pending after 10 s"
    for f in futures:
        exc = _failure_of(name, f)
        assert isinstance(exc, KafkaException), repr(exc)
        assert isinstance(exc.args[0], KafkaError)
        assert exc.args[0].code() == KafkaError._TIMED_OUT, exc.args[0]
    assert time.monotonic() - start < 5


@pytest.mark.parametrize("name", sorted(CALLS))
def test_close_fails_pending_futures(name):
    a = AdminClient(UNREACHABLE)
    futures = _futures(CALLS[name](a, {"request_timeout": 60}))
    assert not any(f.done() for f in futures)
    start = time.monotonic()
    assert a.close() is True
    assert time.monotonic() - start < 5
    done, not_done = wait(futures, timeout=5)
    assert not not_done
    for f in futures:
        exc = _failure_of(name, f)
        assert isinstance(exc, KafkaException)
        assert exc.args[0].code() == KafkaError._DESTROY


def test_closed_client_refuses_calls_and_close_is_idempotent():
    a = AdminClient(UNREACHABLE)
    assert a.close() is True
    assert a.close() is True
    with pytest.raises(RuntimeError, match="closed"):
        a.describe_cluster()
    with pytest.raises(RuntimeError, match="closed"):
        a.create_topics([NewTopic("t")])
    with pytest.raises(RuntimeError, match="closed"):
        a.list_groups(timeout=0.1)
    with pytest.raises(RuntimeError):
        a.poll(0)


def test_context_manager_closes_and_fails_pending():
    with AdminClient(UNREACHABLE) as a:
        assert isinstance(a, AdminClient)
        f = a.describe_cluster(request_timeout=60)
    assert isinstance(f.exception(timeout=5), KafkaException)
    with pytest.raises(RuntimeError):
        a.describe_cluster()


def test_dropping_the_client_fails_pending_futures():
    a = AdminClient(UNREACHABLE)
    f = a.describe_cluster(request_timeout=60)
    ref = weakref.ref(a)
    del a
    gc.collect()
    assert ref() is None
    exc = f.exception(timeout=5)
    assert isinstance(exc, KafkaException) and exc.args[0].code() == KafkaError._DESTROY


def test_no_thread_per_call(admin):
    before = threading.active_count()
    futures = []
    for _ in range(20):
        for name in ("describe_cluster", "create_topics", "list_consumer_groups", "describe_topics"):
            futures += _futures(CALLS[name](admin, {"request_timeout": 0.2}))
    assert threading.active_count() == before
    wait(futures, timeout=10)
    assert all(f.done() for f in futures)
    assert threading.active_count() == before


def test_many_concurrent_requests_all_resolve(admin):
    futures = []
    for i in range(200):
        futures += _futures(admin.delete_topics([f"t{i}"], request_timeout=0.5))
    done, not_done = wait(futures, timeout=20)
    assert not not_done
    assert all(f.exception().args[0].code() == KafkaError._TIMED_OUT for f in futures)


def test_per_entity_futures_fail_together_on_request_error(admin):
    fs = admin.create_topics([NewTopic("a", 1, 1), NewTopic("b", 1, 1)], request_timeout=0.2)
    assert set(fs) == {"a", "b"}
    errs = [f.exception(timeout=10) for f in fs.values()]
    assert all(isinstance(e, KafkaException) and e.args[0].code() == KafkaError._TIMED_OUT for e in errs)


def test_futures_are_running_and_cannot_be_cancelled(admin):
    fs = admin.delete_topics(["a", "b"], request_timeout=0.3)
    assert fs["a"].running() and not fs["a"].cancel()
    assert isinstance(fs["b"].exception(timeout=10), KafkaException)
    assert isinstance(fs["a"].exception(timeout=10), KafkaException) and not fs["a"].cancelled()


def test_raising_done_callback_does_not_break_others(admin):
    seen = []
    f = admin.describe_cluster(request_timeout=0.2)

    def bad(_f):
        raise RuntimeError("boom")

    f.add_done_callback(bad)
    f.add_done_callback(lambda fut: seen.append(fut.exception()))
    wait([f], timeout=10)
    time.sleep(0.05)
    assert len(seen) == 1 and isinstance(seen[0], KafkaException)


def test_poll_returns_without_results_pending(admin):
    assert admin.poll(0) >= 0
    assert admin.poll(timeout=0.05) >= 0


def test_result_callback_can_drop_the_last_reference():
    # The client is kept alive only by a done-callback, so it is released on librdkafka's
    # background thread: it must be torn down from another thread, not abort or hang.
    code = textwrap.dedent("""
        import threading, time, gc
        from confluent_kafka.admin import AdminClient
        done = threading.Event()
        def make():
            a = AdminClient({"bootstrap.servers": "127.0.0.1:1", "log_level": 0})
            f = a.describe_cluster(request_timeout=0.2)
            f.add_done_callback(lambda _f, a=a: done.set())
        make()
        gc.collect()
        assert done.wait(10)
        time.sleep(1.0)
        a2 = AdminClient({"bootstrap.servers": "127.0.0.1:1", "log_level": 0})
        a2.close()
        print("ok")
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"


def test_subclass_and_repr_of_results():
    from confluent_kafka.admin import DescribeClusterResult, ListOffsetsResultInfo, Node

    # Plain holders, as upstream's: identity equality, default reprs naming upstream's modules.
    n = Node(1, "h", 9092)
    assert repr(n).startswith("<confluent_kafka._model.Node object at ") and str(n) == "(1) h:9092 "
    r = DescribeClusterResult(n, [n], "cid", [3])
    assert r.cluster_id == "cid" and r.authorized_operations == [AclOperation.READ]
    assert r != DescribeClusterResult(n, [n], "cid")
    assert ListOffsetsResultInfo(5, -1, -1).leader_epoch is None

    class Sub(DescribeClusterResult):
        pass

    assert Sub(None, []).controller is None


def test_close_from_a_done_callback():
    a = AdminClient(UNREACHABLE)
    closed = threading.Event()
    other = a.describe_cluster(request_timeout=60)

    def close_it(_f):
        a.close()
        closed.set()

    a.describe_cluster(request_timeout=0.2).add_done_callback(close_it)
    assert closed.wait(10)
    exc = other.exception(timeout=10)
    assert isinstance(exc, KafkaException) and exc.args[0].code() == KafkaError._DESTROY
    with pytest.raises(RuntimeError, match="closed"):
        a.describe_cluster()


def test_new_request_from_a_done_callback(admin):
    second = []
    done = threading.Event()

    def chain(_f):
        f2 = admin.describe_cluster(request_timeout=0.2)
        second.append(f2)
        f2.add_done_callback(lambda _x: done.set())

    admin.describe_cluster(request_timeout=0.2).add_done_callback(chain)
    assert done.wait(10)
    assert second[0].exception().args[0].code() == KafkaError._TIMED_OUT


def test_close_while_another_thread_sends(admin):
    stop = threading.Event()
    errors = []
    futures = []

    def sender():
        while not stop.is_set():
            try:
                futures.append(admin.describe_cluster(request_timeout=30))
            except RuntimeError:
                return
            except BaseException as e:  # anything else is a bug
                errors.append(e)
                return

    threads = [threading.Thread(target=sender) for _ in range(4)]
    for t in threads:
        t.start()
    time.sleep(0.2)
    admin.close()
    stop.set()
    for t in threads:
        t.join(10)
    assert not errors
    done, not_done = wait(futures, timeout=10)
    assert not not_done
    assert all(f.exception().args[0].code() == KafkaError._DESTROY for f in futures)


def test_uninitialized_instance_raises_instead_of_crashing():
    """A client that never had a handle raises what upstream raises for it: a closed client's
    RuntimeError (compat: admin::scenario_uninitialised_clients)."""
    from confluent_kafka.cimpl import _AdminClientImpl

    raw = _AdminClientImpl.__new__(_AdminClientImpl)
    with pytest.raises(RuntimeError, match="^AdminClient has been closed$"):
        raw._describe_cluster(Future(), None)
    with pytest.raises(RuntimeError, match="^Handle has been closed$"):
        raw.list_topics(timeout=0.1)
    assert raw.close() is True

    class Lazy(AdminClient):
        def __init__(self) -> None:  # forgets super().__init__
            pass

    lazy = Lazy()
    with pytest.raises(RuntimeError, match="^AdminClient has been closed$"):
        lazy.describe_cluster()
    with pytest.raises(RuntimeError, match="^AdminClient has been closed$"):
        lazy.create_topics([NewTopic("t", 1, 1)])
    with pytest.raises(RuntimeError, match="^Handle has been closed$"):
        lazy.list_topics(timeout=0.1)
    assert len(lazy) == 0


def test_init_twice_is_refused(admin):
    with pytest.raises(RuntimeError, match="already initialized"):
        admin.__init__(UNREACHABLE)


def test_no_reinitialization_after_close():
    a = AdminClient(UNREACHABLE)
    a.close()
    with pytest.raises(RuntimeError, match="already initialized"):
        a.__init__(UNREACHABLE)
    with pytest.raises(RuntimeError, match="closed"):
        a.describe_cluster()
