"""The parallel consumer's offset tracker and commit metadata, without a broker."""

from __future__ import annotations

import random

import pytest

from confluent_kafka.parallel._offsets import OffsetTracker, decode_finished, encode_finished


def test_commit_point_stops_at_the_first_unfinished_record() -> None:
    t = OffsetTracker()
    for offset in range(10, 20):
        assert t.receive(offset)
    for offset in (10, 11, 13, 14, 19):
        t.finish(offset)
    assert t.commit_point() == 12
    assert sorted(t.finished_above()) == [13, 14, 19]
    t.finish(12)
    assert t.commit_point() == 15
    for offset in (15, 16, 17, 18):
        t.finish(offset)
    assert t.commit_point() == 20
    assert t.finished_above() == []


def test_offset_gaps_do_not_hold_the_commit_point_back() -> None:
    t = OffsetTracker()
    for offset in (3, 5, 9):  # compacted topic or transaction markers: offsets skip
        t.receive(offset)
    t.finish(3)
    t.finish(5)
    assert t.commit_point() == 9
    t.finish(9)
    assert t.commit_point() == 10


def test_commit_reports_only_progress() -> None:
    t = OffsetTracker()
    assert t.commit() is None
    t.receive(0)
    t.receive(1)
    t.finish(1)
    offset, metadata = t.commit()
    assert offset == 0 and decode_finished(0, metadata) == {1}
    t.committed, t.committed_metadata = offset, metadata
    assert t.commit() is None
    t.finish(0)
    assert t.commit() == (2, "")


def test_a_restart_skips_what_the_metadata_names_and_runs_the_rest() -> None:
    before = OffsetTracker()
    for offset in range(100):
        before.receive(offset)
    done = {o for o in range(100) if o < 40 or o % 3 == 0}
    for offset in done:
        before.finish(offset)
    offset, metadata = before.commit()
    assert offset == 40

    after = OffsetTracker()
    after.restore(offset, metadata)
    run = [o for o in range(40, 100) if after.receive(o)]
    assert run == [o for o in range(40, 100) if o not in done]
    for o in run:
        after.finish(o)
    assert after.commit_point() == 100


def test_finished_offsets_not_yet_reached_after_a_restart_are_carried_to_the_next_commit() -> None:
    t = OffsetTracker()
    t.restore(10, encode_finished(10, {12, 13, 30}))
    assert t.receive(10)
    t.finish(10)
    offset, metadata = t.commit()
    assert offset == 11
    assert decode_finished(11, metadata) == {12, 13, 30}


def test_a_record_seen_twice_runs_once() -> None:
    t = OffsetTracker()
    assert t.receive(5)
    assert not t.receive(5)
    assert not t.receive(4)


@pytest.mark.parametrize("metadata", [None, "", "hello", "pc1:", "pc1:x:z:AA", "pc1:10:q:AA", "pc1:10:z:!!!",
                                      "pc1:10:r:gA", "pc1:10:r:AQ"])
def test_metadata_of_another_writer_or_damaged_names_nothing(metadata) -> None:
    assert decode_finished(10, metadata) == set()


def test_metadata_written_at_another_commit_point_names_nothing() -> None:
    assert decode_finished(11, encode_finished(10, {12})) == set()


def test_metadata_round_trips_and_fits_the_limit() -> None:
    rng = random.Random(7)
    finished = {o for o in range(1000, 60000) if rng.random() < 0.5}
    metadata = encode_finished(1000, finished, limit=4000)
    assert len(metadata) <= 4000
    decoded = decode_finished(1000, metadata)
    # What does not fit is left out from the top: those records just run again.
    assert decoded <= finished and decoded
    assert decoded == {o for o in finished if o <= max(decoded)}
    dense = set(range(1001, 500000))
    assert decode_finished(1000, encode_finished(1000, dense)) == dense


def test_a_zero_limit_writes_no_metadata() -> None:
    assert encode_finished(0, {1, 2, 3}, limit=0) == ""


def test_taking_a_partition_back_skips_what_this_member_finished_before() -> None:
    before = OffsetTracker()
    before.restore(100, None)
    for offset in range(100, 120):
        before.receive(offset)
    for offset in [*range(100, 110), 112, 115]:
        before.finish(offset)
    # The commit on revoke was refused: the group still holds 100.
    again = OffsetTracker()
    again.restore(100, None)
    again.take_over(before)
    assert [o for o in range(100, 120) if again.receive(o)] == [110, 111, 113, 114, *range(116, 120)]


def test_taking_a_partition_back_after_another_member_committed_redoes_nothing_wrongly() -> None:
    before = OffsetTracker()
    before.restore(100, None)
    for offset in range(100, 105):
        before.receive(offset)
        before.finish(offset)
    again = OffsetTracker()
    again.restore(300, None)  # someone else moved the group on: nothing of before's applies
    again.take_over(before)
    assert again.receive(300) and again.finished_above() == []
