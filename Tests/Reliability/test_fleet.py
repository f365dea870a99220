"""A fleet: three `push-relay serve` on one PostgreSQL database behind the test's own round-robin
of webhook posts, against one `apns-mock`. Relays are SIGKILLed at random moments under load and
restarted; Sendbird's retry is played by the senders (another relay, after an error or a 503).

Passes when every push of every event answered 200 reached the mock: a relay's accepted events
are sent by it, or, when it died holding them, by the others once its lease (5 s here) ran out or
by itself after its restart. Duplicates (same apns-id twice) are reported and bounded by what
can be in flight at the kills.

Knobs (environment): FLEET_EVENTS (default 1500), FLEET_KILLS (6), FLEET_SENDERS (4), FLEET_SEED.
"""

import os
import random
import threading
import time

import pytest
import requests

from cluster import MOCK_BIN, RELAY_BIN, WINDOW, Fleet, event_body, payload_message_id, signed

EVENTS = int(os.environ.get("FLEET_EVENTS", "1500"))
KILLS = int(os.environ.get("FLEET_KILLS", "6"))
SENDERS = int(os.environ.get("FLEET_SENDERS", "4"))
SEED = int(os.environ.get("FLEET_SEED", str(int(time.time()))))


@pytest.mark.skipif(not RELAY_BIN.exists() or not MOCK_BIN.exists(), reason="build first (scripts/test does)")
def test_three_relays_lose_nothing_when_relays_die(tmp_path):
    rng = random.Random(SEED)
    fleet = Fleet(tmp_path, size=3)
    try:
        fleet.register_users()
        bodies = [event_body(2_000_000 + i, rng) for i in range(EVENTS)]
        expected = {}
        answers = {"accepted": 0, "duplicate": 0, "retried": 0, "deferred": 0}
        next_index = [0]
        failures = []
        lock = threading.Lock()

        def sender(number):
            http = requests.Session()
            turn = number
            while True:
                with lock:
                    index = next_index[0]
                    next_index[0] += 1
                if index >= EVENTS:
                    return
                body, tokens = bodies[index]
                message_id = 2_000_000 + index
                while True:  # like Sendbird: retry until answered, here on the next relay
                    urls = fleet.urls()
                    turn += 1
                    if not urls:
                        time.sleep(0.05)
                        continue
                    url = urls[turn % len(urls)]
                    try:
                        r = http.post(f"{url}/webhooks/sendbird", data=body, timeout=10,
                                      headers={"Content-Type": "application/json", "x-sendbird-signature": signed(body)})
                    except requests.RequestException:
                        with lock:
                            answers["retried"] += 1
                        continue
                    if r.status_code == 503:
                        with lock:
                            answers["deferred"] += 1
                        time.sleep(min(float(r.headers.get("Retry-After", "1")), 0.2))
                        continue
                    if r.status_code != 200:
                        failures.append((message_id, r.status_code, r.text))
                        return
                    result = r.json()
                    with lock:
                        answers[result["result"]] += 1
                        expected[message_id] = tokens
                    break

        threads = [threading.Thread(target=sender, args=(n,)) for n in range(SENDERS)]
        for t in threads:
            t.start()
        kills = 0
        for _ in range(KILLS):
            time.sleep(rng.uniform(0.2, 0.8))
            victim = rng.randrange(fleet.size)
            if fleet.nodes[victim] is None:
                continue
            fleet.kill(victim)
            kills += 1
            # Restarted at once or a little later: both kinds of takeover get exercised.
            if rng.random() < 0.5:
                time.sleep(rng.uniform(0.5, 2.0))
            fleet.start(victim)
        for t in threads:
            t.join(timeout=600)
        assert not failures, failures[:5]

        want = {(m, t) for m, tokens in expected.items() for t in tokens}
        # Pushes a killed relay held come back when its lease runs out or it restarts.
        fleet.wait_delivered(want, deadline_s=180)
        records = fleet.recorded()
        got = {(payload_message_id(r), r["deviceToken"]) for r in records}
        missing = want - got
        apns_ids = [r["headers"].get("apns-id") for r in records]
        duplicates = len(apns_ids) - len(set(apns_ids))
        print(f"\nfleet: seed {SEED}, 3 relays, {kills} SIGKILLs, {len(expected)} events answered 200 "
              f"({answers['accepted']} accepted, {answers['duplicate']} duplicate, {answers['retried']} retried on another relay, "
              f"{answers['deferred']} deferred by 503), {len(want)} pushes expected, {len(got & want)} recorded, "
              f"{len(missing)} missing, {duplicates} duplicates (bound {max(kills, 1) * WINDOW})")
        assert not missing, f"{len(missing)} accepted pushes never reached APNs, e.g. {sorted(missing)[:5]}"
        assert duplicates <= max(kills, 1) * WINDOW
    finally:
        fleet.stop()
