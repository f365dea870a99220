"""A database outage under load: two relays on one PostgreSQL, a steady stream of signed webhook
events, and the PostgreSQL server stopped for 10 s in the middle of it.

While it is down, webhooks are answered 503 with Retry-After (Sendbird retries), never 200 for
something not stored; the relays recover by themselves when it returns; every push of every event
answered 200 reaches the mock. The senders give up on a request after 3 s and send it again, as
Sendbird does after its timeout: a request that was already waiting on the database when it went
away waits for it (the refusal is decided before the store is touched, from `/ready`'s check).
Knobs: OUTAGE_SECONDS (10), OUTAGE_SEED.
"""

import os
import random
import threading
import time

import pytest
import requests

from cluster import MOCK_BIN, RELAY_BIN, Fleet, event_body, signed
import pgcluster  # noqa: E402  (cluster put Tests/PythonSupport on the path)

OUTAGE_SECONDS = float(os.environ.get("OUTAGE_SECONDS", "10"))
SEED = int(os.environ.get("OUTAGE_SEED", str(int(time.time()))))


@pytest.mark.skipif(not RELAY_BIN.exists() or not MOCK_BIN.exists(), reason="build first (scripts/test does)")
def test_a_database_outage_is_answered_503_and_loses_nothing(tmp_path):
    rng = random.Random(SEED)
    fleet = Fleet(tmp_path, size=2)
    try:
        fleet.register_users()
        expected = {}
        statuses = {}
        stop = threading.Event()
        lock = threading.Lock()
        next_id = [3_000_000]
        unexpected = []

        def sender(number):
            http = requests.Session()
            turn = number
            while not stop.is_set():
                with lock:
                    message_id = next_id[0]
                    next_id[0] += 1
                body, tokens = event_body(message_id, random.Random(message_id))
                while not stop.is_set():
                    urls = fleet.urls()
                    turn += 1
                    try:
                        r = http.post(f"{urls[turn % len(urls)]}/webhooks/sendbird", data=body, timeout=3,
                                      headers={"Content-Type": "application/json", "x-sendbird-signature": signed(body)})
                    except requests.RequestException:
                        continue
                    with lock:
                        statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
                    if r.status_code == 200:
                        with lock:
                            expected[message_id] = tokens
                        break
                    if r.status_code != 503 or "Retry-After" not in r.headers:
                        unexpected.append((r.status_code, r.text[:200]))
                    time.sleep(0.2)
                # A steady stream, not a flood: the outage is what is under test.
                time.sleep(0.02)

        threads = [threading.Thread(target=sender, args=(n,), daemon=True) for n in range(3)]
        for t in threads:
            t.start()
        time.sleep(2)
        cluster = pgcluster.cluster()
        cluster.stop_server()
        down_at = time.monotonic()
        with lock:
            before_outage = dict(statuses)
        time.sleep(OUTAGE_SECONDS)
        with lock:
            during = {code: n - before_outage.get(code, 0) for code, n in statuses.items()}
        cluster.start_server()
        # Recovery by themselves: new events are accepted again within a bounded time.
        with lock:
            accepted_before = len(expected)
        deadline = time.monotonic() + 60
        while True:
            with lock:
                if len(expected) > accepted_before + 20:
                    break
            assert time.monotonic() < deadline, "the relays did not take events again after the database came back"
            time.sleep(0.1)
        recovered_after = time.monotonic() - down_at - OUTAGE_SECONDS
        time.sleep(2)
        stop.set()
        for t in threads:
            t.join(timeout=60)

        want = {(m, t) for m, tokens in expected.items() for t in tokens}
        deadline = time.monotonic() + 120
        while True:
            got = fleet.delivered()
            missing = want - got
            if not missing or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        print(f"\noutage: {OUTAGE_SECONDS:.0f} s without PostgreSQL, answers during it {during}, all answers {statuses}, "
              f"accepting again {recovered_after:.1f} s after it returned, {len(expected)} events answered 200, "
              f"{len(want)} pushes expected, {len(want) - len(missing)} recorded, {len(missing)} missing")
        assert not unexpected, f"answers other than 200 or 503 + Retry-After: {unexpected[:5]}"
        assert during.get(503, 0) > 0, f"no 503 while the database was down: {during}"
        assert during.get(200, 0) <= 3 * 2, f"200s while the database was down (only events committed just before it stopped may be): {during}"
        assert not missing, f"{len(missing)} accepted pushes never reached APNs, e.g. {sorted(missing)[:5]}"
    finally:
        fleet.stop()
