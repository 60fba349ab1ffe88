"""TLS to the test broker with a CA and certificates the test generates: a verified connection
produces and consumes; a client trusting another CA fails with an SSL error that says so.

tansu 0.6 cannot serve TLS itself (its CLI refuses ``--cert`` with ``--key``), so the broker
fixture puts scripts/tls_relay.py in front of it: the TLS the client speaks is real, only the
server end of it is Python's ``ssl`` module instead of tansu's."""

from __future__ import annotations

import datetime
import ipaddress
import pathlib
import time
from typing import Any, Dict, Iterator, List, Tuple

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from confluent_kafka import Consumer, KafkaError, KafkaException, Producer

from clients import Reports, client_factory, partition_reader
from tansu_broker import TansuBroker

pytestmark = pytest.mark.integration


def _name(cn: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])


def make_ca(cn: str) -> Tuple[Any, x509.Certificate]:
    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(_name(cn)).issuer_name(_name(cn))
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(hours=1))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    return key, cert


def make_server_cert(ca_key: Any, ca_cert: x509.Certificate) -> Tuple[Any, x509.Certificate]:
    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(_name("127.0.0.1"))
            .issuer_name(ca_cert.subject).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(hours=1))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName(
                [x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.DNSName("localhost")]),
                critical=False)
            .sign(ca_key, hashes.SHA256()))
    return key, cert


def write_pem(path: pathlib.Path, obj: Any) -> str:
    if isinstance(obj, x509.Certificate):
        data = obj.public_bytes(serialization.Encoding.PEM)
    else:
        data = obj.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                 serialization.NoEncryption())
    path.write_bytes(data)
    return str(path)


@pytest.fixture(scope="module")
def pki(tmp_path_factory: Any) -> Dict[str, str]:
    d = tmp_path_factory.mktemp("pki")
    ca_key, ca = make_ca("confluent-kafka test CA")
    _, other_ca = make_ca("some other CA")
    key, cert = make_server_cert(ca_key, ca)
    return {"ca": write_pem(d / "ca.pem", ca), "other_ca": write_pem(d / "other-ca.pem", other_ca),
            "cert": write_pem(d / "server.pem", cert), "key": write_pem(d / "server.key", key)}


@pytest.fixture(scope="module")
def tls_broker(tmp_path_factory: Any, pki: Dict[str, str]) -> Iterator[TansuBroker]:
    broker = TansuBroker(tmp_path_factory.mktemp("tansu-tls"), tls=(pki["cert"], pki["key"]))
    broker.start()
    try:
        yield broker
    finally:
        broker.stop()


def tls_conf(broker: TansuBroker, ca: str, **extra: Any) -> Dict[str, Any]:
    return {"bootstrap.servers": broker.bootstrap_servers, "security.protocol": "ssl",
            "ssl.ca.location": ca, "log_level": 0, **extra}


def test_verified_tls_connection_round_trip(tls_broker: TansuBroker, pki: Dict[str, str],
                                            unique_topic: str) -> None:
    dr = Reports()
    conf = tls_conf(tls_broker, pki["ca"], **{"ssl.endpoint.identification.algorithm": "https"})
    p = Producer({**conf, "on_delivery": dr})
    try:
        for i in range(20):
            p.produce(unique_topic, f"tls-{i}".encode(), partition=0)
        assert p.flush(60) == 0
    finally:
        p.close()
    assert dr.errors == [None] * 20
    factory = client_factory(Consumer, lambda: {**conf, "group.id": "tls-reader",
                                                "auto.offset.reset": "earliest"})
    read = partition_reader(next(factory), 60.0)
    try:
        got = read(unique_topic, 0, 20)
    finally:
        next(factory, None)
    assert [m.value() for m in got] == [f"tls-{i}".encode() for i in range(20)]
    assert tls_broker.relay is not None and tls_broker.relay.handshake_failures == 0


def ssl_failure(conf: Dict[str, Any]) -> List[KafkaError]:
    errors: List[KafkaError] = []
    p = Producer({**conf, "error_cb": errors.append})
    try:
        with pytest.raises(KafkaException):
            p.list_topics(timeout=5)
        deadline = time.monotonic() + 15
        while not any(e.code() == KafkaError._SSL for e in errors):
            assert time.monotonic() < deadline, f"no SSL error reported: {errors}"
            p.poll(0.2)
    finally:
        p.close()
    return [e for e in errors if e.code() == KafkaError._SSL]


def test_wrong_ca_fails_with_a_clear_ssl_error(tls_broker: TansuBroker,
                                               pki: Dict[str, str]) -> None:
    errs = ssl_failure(tls_conf(tls_broker, pki["other_ca"]))
    text = str(errs[0])
    assert "SSL handshake failed" in text and "certificate verify failed" in text, text
