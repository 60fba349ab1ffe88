"""murmur2 / consistent / fnv1a partition helpers.

The Java-compatible murmur2 vectors come from the Kafka Java client's test suite
(as reproduced by kafka-python). The reference implementations below were
written for these tests and checked against librdkafka's own partitioners.
"""

from __future__ import annotations

import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from confluent_kafka import consistent, fnv1a, murmur2

MASK32 = 0xFFFFFFFF


def ref_murmur2(data: bytes) -> int:
    """32-bit MurmurHash2 with Kafka's seed, as an unsigned int."""
    mul = 0x5BD1E995
    h = (0x9747B28C ^ len(data)) & MASK32
    whole = len(data) - len(data) % 4
    for i in range(0, whole, 4):
        k = int.from_bytes(data[i:i + 4], "little")
        k = (k * mul) & MASK32
        k ^= k >> 24
        k = (k * mul) & MASK32
        h = ((h * mul) & MASK32) ^ k
    rest = data[whole:]
    if len(rest) == 3:
        h ^= rest[2] << 16
    if len(rest) >= 2:
        h ^= rest[1] << 8
    if rest:
        h ^= rest[0]
        h = (h * mul) & MASK32
    h ^= h >> 13
    h = (h * mul) & MASK32
    h ^= h >> 15
    return h


def ref_murmur2_partition(key: bytes, n: int) -> int:
    return (ref_murmur2(key) & 0x7FFFFFFF) % n


def ref_fnv1a_partition(key: bytes, n: int) -> int:
    h = 0x811C9DC5
    for byte in key:
        h = ((h ^ byte) * 0x01000193) & MASK32
    if h & 0x80000000:  # librdkafka takes the absolute value of the signed hash
        h = (-(h - (1 << 32))) & MASK32
    return h % n


def ref_consistent_partition(key: bytes, n: int) -> int:
    return zlib.crc32(key) % n


# Java client: partition = toPositive(murmur2(key)) % 1000
JAVA_VECTORS = [
    (b"", 681),
    (b"a", 524),
    (b"ab", 434),
    (b"abc", 107),
    (b"123456789", 566),
    (b"\x00 ", 742),
]

RAW_HASHES = {
    b"": 0x106E08D9,
    b"a": 0xA2D0B27C,
    b"ab": 0x12D8262A,
    b"abc": 0x1C94221B,
    b"123456789": 0x9362DE66,
    b"hello": 2132663229,
    b"kafka": 3496464228,
    b"test": 716234879,
}


def test_reference_murmur2_matches_published_hashes() -> None:
    for key, h in RAW_HASHES.items():
        assert ref_murmur2(key) == h, key


@pytest.mark.parametrize("key,partition", JAVA_VECTORS)
def test_murmur2_java_vectors(key: bytes, partition: int) -> None:
    assert murmur2(key, 1000) == partition


@pytest.mark.parametrize("key,h", sorted(RAW_HASHES.items()))
@pytest.mark.parametrize("n", [1, 2, 3, 7, 64, 1000, 2**31 - 1])
def test_murmur2_hash_vectors(key: bytes, h: int, n: int) -> None:
    assert murmur2(key, n) == (h & 0x7FFFFFFF) % n


def test_fnv1a_and_consistent_vectors() -> None:
    # Values produced by librdkafka's rd_kafka_msg_partitioner_{fnv1a,consistent}.
    assert [fnv1a(k, 1000) for k in (b"", b"kafka", b"hello", b"test")] == [35, 545, 723, 851]
    assert [consistent(k, 1000) for k in (b"", b"kafka", b"hello", b"test")] == [0, 399, 870, 996]


@settings(max_examples=300, deadline=None)
@given(key=st.binary(max_size=64), n=st.integers(min_value=1, max_value=10_000))
def test_murmur2_matches_reference(key: bytes, n: int) -> None:
    assert murmur2(key, n) == ref_murmur2_partition(key, n)


@settings(max_examples=300, deadline=None)
@given(key=st.binary(max_size=64), n=st.integers(min_value=1, max_value=10_000))
def test_fnv1a_matches_reference(key: bytes, n: int) -> None:
    assert fnv1a(key, n) == ref_fnv1a_partition(key, n)


@settings(max_examples=300, deadline=None)
@given(key=st.binary(max_size=64), n=st.integers(min_value=1, max_value=10_000))
def test_consistent_matches_reference(key: bytes, n: int) -> None:
    assert consistent(key, n) == ref_consistent_partition(key, n)


@pytest.mark.parametrize("fn", [murmur2, consistent, fnv1a])
@pytest.mark.parametrize("key", ["abc", "", None, 5, ["a"]])
def test_keys_that_are_not_bytes_like(fn, key: object) -> None:  # type: ignore[no-untyped-def]
    """As upstream: a str key is refused (encode it as the producer would), and so is None."""
    with pytest.raises(TypeError, match=f"^a bytes-like object is required, not '{type(key).__name__}'$"):
        fn(key, 3)


@pytest.mark.parametrize("fn", [murmur2, consistent, fnv1a])
def test_key_checked_before_partition_count(fn) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(TypeError, match="bytes-like object is required, not 'str'"):
        fn("k", "3")


def test_buffer_keys() -> None:
    """Any bytes-like key, as produce() takes (upstream: bytes only;
    compat: module_values::scenario_partitioner_buffer_keys)."""
    assert murmur2(bytearray(b"abc"), 1000) == 107
    assert murmur2(memoryview(b"abc"), 1000) == 107
    assert consistent(bytearray(b"abc"), 1000) == consistent(b"abc", 1000)
    assert fnv1a(memoryview(b"xabc")[1:], 1000) == fnv1a(b"abc", 1000)


@pytest.mark.parametrize("fn", [murmur2, consistent, fnv1a])
def test_results_are_in_range(fn) -> None:  # type: ignore[no-untyped-def]
    for i in range(200):
        assert 0 <= fn(str(i).encode(), 3) < 3


@pytest.mark.parametrize("fn", [murmur2, consistent, fnv1a])
@pytest.mark.parametrize("n", [0, -1])
def test_non_positive_partition_count_rejected(fn, n: int) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError):
        fn(b"key", n)


@pytest.mark.parametrize("fn", [murmur2, consistent, fnv1a])
def test_bad_argument_types(fn) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(TypeError):
        fn(b"key")
    with pytest.raises(TypeError):
        fn(12, 3)
    with pytest.raises(TypeError):
        fn(b"key", "3")
