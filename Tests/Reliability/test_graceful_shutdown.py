"""SIGTERM with deliveries in flight loses nothing: APNs answers slowly (the mock delays every
answer), events are accepted, the relay gets SIGTERM while their pushes are on the wire, exits 0
within its shutdown grace, leaving the SQLite database as one file (no WAL), and the next
instance delivers every push that had not been answered.

The stop takes the grace (1 s here) and no more: the sends still unanswered are cancelled and
re-queued, and the APNs connections close at once. (A connection whose last streams were
cancelled used to sleep out its idle interval, which made this stop take 11 s.)"""

import random
import signal
import time

import pytest

from cluster import MOCK_BIN, RELAY_BIN, Cluster, payload_message_id


@pytest.mark.skipif(not RELAY_BIN.exists() or not MOCK_BIN.exists(), reason="build first (scripts/test does)")
@pytest.mark.parametrize("store", ["sqlite", "postgres"])
def test_sigterm_with_pushes_in_flight_loses_nothing(tmp_path, store):
    cluster = Cluster(tmp_path, extra_config="delivery: {shutdown_grace: 1s}\n", store=store)
    try:
        cluster.register_users()
        cluster.arm({"kind": "delay", "milliseconds": 3000})
        rng = random.Random(3)
        expected = cluster.post_events(range(4_000_000, 4_000_040), rng)
        in_flight = cluster.wait_for_streams_open()

        started = time.monotonic()
        cluster.relay.send_signal(signal.SIGTERM)
        try:
            code = cluster.relay.wait(timeout=30)
        except Exception:
            cluster.relay.kill()
            raise
        stopped_after = time.monotonic() - started
        assert code == 0
        # The grace (1 s) plus closing; the old hang took grace + the 6 s safety net. Room for a
        # machine three times slower than the 1.1 s measured.
        assert stopped_after < 5, f"took {stopped_after:.1f} s to stop"
        # The dispatcher's fleet upkeep (PostgreSQL) finished before the store closed: no query of
        # it failed on a closing store.
        log = (tmp_path / "relay.log").read_text(errors="replace")
        assert "could not renew claims" not in log, log[-2000:]
        if store == "sqlite":
            # The store closed: its WAL is in the database file and gone, so the file alone is
            # the whole database (what a backup copies and a restore replaces).
            leftovers = [p.name for p in cluster.database.parent.glob(cluster.database.name + "-*")]
            assert leftovers == [], f"left beside the database after the stop: {leftovers}"

        cluster.clear_faults()
        cluster.start_relay()
        deadline = time.monotonic() + 60
        while True:
            got = {(payload_message_id(r), r["deviceToken"]) for r in cluster.recorded()}
            if expected <= got or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        print(f"\ngraceful shutdown ({store}): {in_flight} streams in flight at SIGTERM, exit 0 after {stopped_after:.1f} s, "
              f"{len(expected)} pushes expected, {len(expected - got)} missing after the restart")
        assert expected <= got
    finally:
        cluster.stop()
