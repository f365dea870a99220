"""Crash safety: the real `push-relay serve` against `apns-mock`, `fcm-mock`, `hms-mock` and
`webpush-mock` (validating, recording; webpush-mock decrypts each push), users holding a mix of
APNs, FCM and HMS tokens and Web Push subscriptions, a stream of signed webhook events with
fan-out, and SIGKILL at random moments with a restart after each.

Passes when every event answered 200 (or `duplicate`, which means an earlier attempt committed)
has every expected push recorded by its mock, the SQLite file passes `PRAGMA integrity_check`
after every kill (on PostgreSQL: the relay's tables read), and duplicate pushes (same apns-id twice) stay within what can be in flight
at a kill (the same (message, token) recorded twice). It runs on both stores. The figures are printed (`pytest -s`, or scripts/crash-test.sh for a long run).

Knobs (environment): CRASH_EVENTS (default 3000), CRASH_KILLS (10), CRASH_FANOUT (5),
CRASH_SENDERS (4), CRASH_SEED.
"""

import os
import random
import threading
import time

import pytest
import requests

from cluster import (FCM_MOCK_BIN, HMS_MOCK_BIN, MOCK_BIN, RELAY_BIN, WEBPUSH_MOCK_BIN, WINDOW, Cluster,
                     payload_message_id, provider_of, signed)

EVENTS = int(os.environ.get("CRASH_EVENTS", "3000"))
KILLS = int(os.environ.get("CRASH_KILLS", "10"))
SENDERS = int(os.environ.get("CRASH_SENDERS", "4"))
SEED = int(os.environ.get("CRASH_SEED", str(int(time.time()))))


@pytest.mark.skipif(not all(b.exists() for b in (RELAY_BIN, MOCK_BIN, FCM_MOCK_BIN, HMS_MOCK_BIN, WEBPUSH_MOCK_BIN)),
                    reason="build first (scripts/test does)")
@pytest.mark.parametrize("store", ["sqlite", "postgres"])
def test_sigkill_at_random_moments_loses_no_accepted_push(tmp_path, store):
    rng = random.Random(SEED)
    cluster = Cluster(tmp_path, store=store, fcm=True, hms=True, webpush=True)
    try:
        cluster.register_users()

        bodies = [cluster.event(1_000_000 + i, rng) for i in range(EVENTS)]
        expected = {}           # message id -> tokens, for events the relay answered 200
        answers = {"accepted": 0, "duplicate": 0, "retried": 0, "deferred": 0}
        next_index = [0]
        failures = []
        state_lock = threading.Lock()

        def sender():
            http = requests.Session()
            while True:
                with state_lock:
                    index = next_index[0]
                    next_index[0] += 1
                if index >= EVENTS:
                    return
                body, tokens = bodies[index]
                message_id = 1_000_000 + index
                while True:  # like Sendbird: retry until answered
                    cluster.up.wait(60)
                    with cluster.lock:
                        url = cluster.url
                    try:
                        r = http.post(f"{url}/webhooks/sendbird", data=body, timeout=10,
                                      headers={"Content-Type": "application/json", "x-sendbird-signature": signed(body)})
                    except requests.RequestException:
                        with state_lock:
                            answers["retried"] += 1
                        time.sleep(0.05)
                        continue
                    if r.status_code == 503 and "Retry-After" in r.headers:
                        # The backlog promise (delivery.max_backlog): come back later, as Sendbird
                        # does (sooner here, to keep the run short).
                        with state_lock:
                            answers["deferred"] += 1
                        time.sleep(min(float(r.headers["Retry-After"]), 0.5))
                        continue
                    if r.status_code != 200:
                        failures.append((message_id, r.status_code, r.text))
                        return
                    result = r.json()
                    with state_lock:
                        answers[result["result"]] += 1
                        expected[message_id] = tokens
                    if result["result"] == "accepted" and result["deliveries"] != len(tokens):
                        failures.append((message_id, "deliveries", result))
                    break

        threads = [threading.Thread(target=sender, daemon=True) for _ in range(SENDERS)]
        for t in threads:
            t.start()

        # Kills land while events stream in (the stream is sized to outlast them); any left after
        # the stream ends still hit deliveries in flight.
        kills = []
        integrity = []
        for _ in range(KILLS):
            time.sleep(rng.uniform(0.1, 0.6))
            streaming = any(t.is_alive() for t in threads)
            cluster.kill_relay()
            integrity.append(cluster.integrity())
            kills.append(streaming)
            cluster.start_relay()
        # One deadline for the stream to be answered, after which a sender still waiting (a relay
        # that keeps deferring, say) fails the test by name; the senders are daemons, so a stuck
        # one cannot keep pytest from exiting either.
        answered_by = time.monotonic() + 300
        for t in threads:
            t.join(timeout=max(0, answered_by - time.monotonic()))
        assert not any(t.is_alive() for t in threads), f"events still unanswered after 300 s: {answers}"
        assert not failures, failures[:5]
        assert len(kills) >= KILLS
        assert all(result == "ok" for result in integrity), integrity

        # Everything answered 200 must reach its provider, however often the relay died.
        want = {(m, t) for m, tokens in expected.items() for t in tokens}
        deadline = time.monotonic() + 180
        while True:
            pairs = cluster.pairs()
            got = set(pairs)
            missing = want - got
            if not missing or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        # Every APNs push of a message, repeats included, carries that message's one collapse id:
        # a repeat replaces the first notification on the device.
        collapse = {(payload_message_id(r), r["headers"].get("apns-collapse-id")) for r in cluster.recorded()}
        assert all(cid == f"sendbird-{m}" for m, cid in collapse), sorted(collapse)[:5]
        # One delivery per (message, token): a pair recorded twice is a push sent twice.
        duplicates = len(pairs) - len(got)
        def by_provider(pairs):
            counts = {"apns": 0, "fcm": 0, "hms": 0, "webpush": 0}
            for _, token in pairs:
                counts[provider_of(token)] += 1
            return counts
        wanted, recorded, distinct = by_provider(want), by_provider(pairs), by_provider(got)
        twice = {p: recorded[p] - distinct[p] for p in recorded}
        print(f"\ncrash-safety ({store}): seed {SEED}, {len(kills)} SIGKILLs ({sum(kills)} while events streamed in), {len(expected)} events answered 200 "
              f"({answers['accepted']} accepted, {answers['duplicate']} duplicate after a lost answer, "
              f"{answers['retried']} retried sends, {answers['deferred']} deferred by 503), {len(want)} pushes expected "
              f"({wanted['apns']} APNs, {wanted['fcm']} FCM, {wanted['hms']} HMS, {wanted['webpush']} Web Push), "
              f"{len(got & want)} recorded, {len(missing)} missing, {duplicates} duplicates ({twice['fcm']} FCM, "
              f"{twice['hms']} HMS, {twice['webpush']} Web Push; "
              f"bound {len(kills) * WINDOW}), "
              f"integrity_check ok after every kill")
        assert not missing, f"{len(missing)} accepted pushes never reached their provider, e.g. {sorted(missing)[:5]}"
        assert duplicates <= len(kills) * WINDOW
        assert cluster.integrity() == "ok"
    finally:
        cluster.stop()
