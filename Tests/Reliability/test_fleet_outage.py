"""A database outage under load: two relays on one PostgreSQL, a steady stream of signed webhook
events, and the PostgreSQL server stopped for 10 s in the middle of it.

While it is down, webhooks are answered 503 with Retry-After (Sendbird retries), never 200 for
something not stored; the relays recover by themselves when it returns; every push of every event
answered 200 reaches the mock. The senders give up on a request after 3 s and send it again, as
Sendbird does after its timeout: a request that was already waiting on the database when it went
away waits for it (the refusal is decided before the store is touched, from `/ready`'s check).
Knobs: OUTAGE_SECONDS (10).
"""

import os
import time

import pytest
import requests

from cluster import MOCK_BIN, RELAY_BIN, Fleet, FleetLoad
import pgcluster  # noqa: E402  (cluster put Tests/PythonSupport on the path)

OUTAGE_SECONDS = float(os.environ.get("OUTAGE_SECONDS", "10"))


@pytest.mark.skipif(not RELAY_BIN.exists() or not MOCK_BIN.exists(), reason="build first (scripts/test does)")
def test_a_database_outage_is_answered_503_and_loses_nothing(tmp_path):
    fleet = Fleet(tmp_path, size=2)
    try:
        fleet.register_users()
        # A steady stream, not a flood: the outage is what is under test.
        load = FleetLoad(fleet, 3_000_000, senders=3, timeout=3, pace=0.02).start()
        time.sleep(2)
        cluster = pgcluster.cluster()
        cluster.stop_server()
        down_at = time.monotonic()
        before_outage = load.counts()
        time.sleep(OUTAGE_SECONDS)
        during = {code: n - before_outage.get(code, 0) for code, n in load.counts().items()}
        cluster.start_server()
        # Recovery by themselves: new events are accepted again within a bounded time.
        accepted_before = load.accepted()
        deadline = time.monotonic() + 60
        while load.accepted() <= accepted_before + 20:
            assert time.monotonic() < deadline, "the relays did not take events again after the database came back"
            time.sleep(0.1)
        recovered_after = time.monotonic() - down_at - OUTAGE_SECONDS
        time.sleep(2)
        load.stop()

        want = load.want()
        fleet.wait_delivered(want, deadline_s=120)
        missing = want - fleet.delivered()
        statuses, expected, unexpected = load.counts(), load.expected, load.unexpected
        print(f"\noutage: {OUTAGE_SECONDS:.0f} s without PostgreSQL, answers during it {during}, all answers {statuses}, "
              f"accepting again {recovered_after:.1f} s after it returned, {len(expected)} events answered 200, "
              f"{len(want)} pushes expected, {len(want) - len(missing)} recorded, {len(missing)} missing")
        assert not unexpected, f"answers other than 200 or 503 + Retry-After: {unexpected[:5]}"
        assert during.get(503, 0) > 0, f"no 503 while the database was down: {during}"
        assert during.get(200, 0) <= 3 * 2, f"200s while the database was down (only events committed just before it stopped may be): {during}"
        assert not missing, f"{len(missing)} accepted pushes never reached APNs, e.g. {sorted(missing)[:5]}"
        # The outage is in the metrics: store errors counted where they surfaced (the dispatchers'
        # claims and upkeep, webhooks caught mid-commit, the readiness check), by operation.
        errors = {}
        for url in fleet.urls():
            for line in requests.get(f"{url}/metrics", timeout=10).text.splitlines():
                if line.startswith("pushrelay_database_errors_total{"):
                    operation = line.split('operation="', 1)[1].split('"', 1)[0]
                    errors[operation] = errors.get(operation, 0) + float(line.rsplit(" ", 1)[1])
        print(f"database errors counted during the outage: {errors}")
        assert sum(errors.values()) > 0, errors
    finally:
        fleet.stop()
