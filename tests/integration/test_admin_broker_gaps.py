"""Admin calls tansu does not implement: the broker's answer must reach the future intact, as a
KafkaException carrying the KafkaError, and the client must stay usable afterwards.

Each test names the tansu gap it runs into. Where the answer is an error, the test asserts that
exact error; where tansu answers something librdkafka cannot handle, the test is marked xfail with
the reason."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import uuid
from typing import Any

import pytest


from confluent_kafka import KafkaError, KafkaException, Producer, TopicPartition
from confluent_kafka.admin import (
    AclBindingFilter,
    AclOperation,
    AclPermissionType,
    AdminClient,
    ConfigResource,
    ElectionType,
    NewPartitions,
    NewTopic,
    ResourcePatternType,
    ResourceType,
    ScramCredentialInfo,
    ScramMechanism,
    TopicCollection,
    UserScramCredentialDeletion,
    UserScramCredentialUpsertion,
)

TIMEOUT = 30


@pytest.fixture
def topic(admin: AdminClient, unique_topic: str) -> str:
    for f in admin.create_topics([NewTopic(unique_topic, 1, 1)]).values():
        f.result(TIMEOUT)
    return unique_topic


def failure(fut: Any) -> KafkaError:
    exc = fut.exception(TIMEOUT)
    assert isinstance(exc, KafkaException), repr(exc)
    err = exc.args[0]
    assert isinstance(err, KafkaError)
    return err


def still_usable(admin: AdminClient, topic: str) -> None:
    desc = admin.describe_topics(TopicCollection([topic]))[topic].result(TIMEOUT)
    assert desc.name == topic


def test_create_partitions_unsupported(admin: AdminClient, topic: str) -> None:
    """tansu gap: no CreatePartitions API; librdkafka reports the missing API version."""
    fs = admin.create_partitions([NewPartitions(topic, 3)], request_timeout=10)
    err = failure(fs[topic])
    assert err.code() == KafkaError._UNSUPPORTED_FEATURE
    assert "CreatePartitions" in err.str()
    still_usable(admin, topic)


def test_alter_configs_unsupported(admin: AdminClient, topic: str) -> None:
    """tansu gap: no (non-incremental) AlterConfigs API."""
    res = ConfigResource("topic", topic, set_config={"retention.ms": "1000"})
    err = failure(admin.alter_configs([res], request_timeout=10)[res])
    assert err.code() == KafkaError._UNSUPPORTED_FEATURE
    assert "AlterConfigs" in err.str()


def test_elect_leaders_unsupported(admin: AdminClient, topic: str) -> None:
    """tansu gap: no ElectLeaders API."""
    err = failure(admin.elect_leaders(ElectionType.PREFERRED, [TopicPartition(topic, 0)], request_timeout=10))
    assert err.code() == KafkaError._UNSUPPORTED_FEATURE
    assert "ElectLeaders" in err.str()


def test_delete_acls_unsupported(admin: AdminClient) -> None:
    """tansu gap: no DeleteAcls API."""
    flt = AclBindingFilter(ResourceType.ANY, None, ResourcePatternType.ANY, None, None, AclOperation.ANY,
                           AclPermissionType.ANY)
    err = failure(admin.delete_acls([flt], request_timeout=10)[flt])
    assert err.code() == KafkaError._UNSUPPORTED_FEATURE
    assert "ACL" in err.str()


def test_describe_acls_answers_empty(admin: AdminClient) -> None:
    """tansu gap: DescribeAcls is answered, with no ACLs (tansu has no authorizer)."""
    flt = AclBindingFilter(ResourceType.ANY, None, ResourcePatternType.ANY, None, None, AclOperation.ANY,
                           AclPermissionType.ANY)
    assert admin.describe_acls(flt, request_timeout=10).result(TIMEOUT) == []


@pytest.mark.xfail(reason="tansu gap: tansu's CreateAcls response makes librdkafka 2.14.2 abort the process "
                          "(rdkafka_admin.c:954 assertion `rko_result' after 'Protocol parse failure for "
                          "CreateAcls'), so the error cannot reach the future", strict=False)
def test_create_acls_error_reaches_the_future(kafka_bootstrap: str) -> None:
    # In a child process: the librdkafka assertion would take the test session down.
    code = textwrap.dedent(f"""
        from confluent_kafka import KafkaException
        from confluent_kafka.admin import *
        a = AdminClient({{"bootstrap.servers": {kafka_bootstrap!r}}})
        acl = AclBinding(ResourceType.TOPIC, "t", ResourcePatternType.LITERAL, "User:a", "*",
                         AclOperation.READ, AclPermissionType.ALLOW)
        exc = a.create_acls([acl], request_timeout=10)[acl].exception(30)
        assert isinstance(exc, KafkaException), repr(exc)
        print("code", exc.args[0].code())
        a.close()
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "code" in proc.stdout


def test_describe_user_scram_credentials_of_a_user(admin: AdminClient) -> None:
    """tansu gap: DescribeUserScramCredentials answers with no entry for the user asked about;
    the future fails (with upstream's RuntimeError about the result count) instead of hanging."""
    user = f"u-{uuid.uuid4().hex[:8]}"
    fs = admin.describe_user_scram_credentials([user], request_timeout=10)
    exc = fs[user].exception(TIMEOUT)
    if isinstance(exc, KafkaException):
        assert exc.args[0].code() == KafkaError.RESOURCE_NOT_FOUND  # a broker with SCRAM support
        return
    assert isinstance(exc, RuntimeError) and str(exc) == "Results length 0 is different from future-map length 1"


def test_describe_all_user_scram_credentials(admin: AdminClient) -> None:
    """tansu gap: no SCRAM users are ever listed."""
    result = admin.describe_user_scram_credentials(request_timeout=10).result(TIMEOUT)
    assert result == {}


@pytest.mark.xfail(reason="tansu gap: AlterUserScramCredentials is acknowledged but the credential is not "
                          "stored (DescribeUserScramCredentials never lists it)", strict=False)
def test_alter_user_scram_credentials_round_trip(admin: AdminClient) -> None:
    user = f"u-{uuid.uuid4().hex[:8]}"
    upsert = UserScramCredentialUpsertion(user, ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 4096), b"pw")
    assert admin.alter_user_scram_credentials([upsert], request_timeout=10)[user].result(TIMEOUT) is None
    desc = admin.describe_user_scram_credentials([user], request_timeout=10)[user].result(TIMEOUT)
    assert [i.mechanism for i in desc.scram_credential_infos] == [ScramMechanism.SCRAM_SHA_256]
    delete = UserScramCredentialDeletion(user, ScramMechanism.SCRAM_SHA_256)
    assert admin.alter_user_scram_credentials([delete], request_timeout=10)[user].result(TIMEOUT) is None


def test_delete_records_broker_failure_reaches_the_future(admin: AdminClient, topic: str,
                                                          kafka_bootstrap: str) -> None:
    """tansu gap: DeleteRecords panics the broker thread serving the connection, which drops it
    (the broker survives). The transport error reaches the future and the client recovers."""
    p = Producer({"bootstrap.servers": kafka_bootstrap})
    p.produce(topic, b"x", partition=0)
    p.flush(10)
    p.close()
    tp = TopicPartition(topic, 0, 1)
    fs = admin.delete_records([tp], request_timeout=10)
    assert list(fs) == [tp]
    fut = fs[tp]
    exc = fut.exception(TIMEOUT)
    if exc is None:
        assert fut.result().low_watermark == 1  # a broker with DeleteRecords support
        return
    assert isinstance(exc, KafkaException)
    assert exc.args[0].code() in (KafkaError._TRANSPORT, KafkaError._TIMED_OUT)
    still_usable(admin, topic)


