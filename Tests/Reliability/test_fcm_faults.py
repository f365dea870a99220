"""FCM-side faults: the real `push-relay serve` sends to `fcm-mock` (and `apns-mock`), users hold a
mix of APNs and FCM tokens, and fcm-mock injects what Google's service does: 429 with Retry-After,
503 and 500 bursts, dropped connections, access tokens revoked early, a token endpoint that
fails, and tokens that are no longer registered. Every accepted push to a live token reaches its
mock; an UNREGISTERED token is removed (and later events skip its user); the delivery log names
the FCM message; /metrics counts FCM pushes by provider.

Events are posted one at a time (closed loop) in waves between faults, coming back after a 503
as Sendbird does: the load follows the machine's speed, and the deadlines are generous
multiples of the time the clean wave took.
"""

import json
import random
import time

import pytest
import requests

from cluster import API_TOKEN, FCM_MOCK_BIN, MOCK_BIN, RELAY_BIN, Cluster, fcm_token_for, token_for

WAVE = 40  # events per wave (fan-out 5: about 200 pushes, two thirds to FCM tokens)


@pytest.mark.skipif(not RELAY_BIN.exists() or not MOCK_BIN.exists() or not FCM_MOCK_BIN.exists(),
                    reason="build first (scripts/test does)")
def test_fcm_faults_lose_nothing_and_dead_tokens_are_removed(tmp_path):
    cluster = Cluster(tmp_path, fcm=True)
    rng = random.Random(14)
    admin = cluster.fcm_admin
    try:
        cluster.register_users()
        http = requests.Session()
        want = set()
        next_id = [3_000_000]

        def wave():
            for _ in range(WAVE):
                body, tokens = cluster.event(next_id[0], rng)
                r = cluster.post_event(http, body)
                assert r.status_code == 200, r.text
                want.update((next_id[0], t) for t in tokens if t not in dead)
                next_id[0] += 1

        def arm(faults: dict):
            r = http.post(f"{admin}/faults", json=faults, timeout=10)
            assert r.status_code in (200, 204), r.text

        # A clean wave measures this machine: every later deadline is a multiple of it.
        dead = set()
        started = time.monotonic()
        wave()
        assert cluster.wait_delivered(set(want), deadline_s=300), "the clean wave never arrived"
        clean = time.monotonic() - started
        deadline = 60 + 20 * clean

        # u1 holds only an FCM token, u5 an APNs and an FCM token: both FCM tokens are dead.
        dead = {fcm_token_for(1), fcm_token_for(5)}
        arm({"unregistered": sorted(dead), "quota_exceeded": {"count": 30, "retry_after": 1}, "unavailable": 20,
             "internal": 10})
        wave()
        r = http.post(f"{admin}/expire-tokens", timeout=10)
        assert r.status_code in (200, 204), r.text
        arm({"drop_connections": 3, "token_endpoint_unavailable": 1})
        wave()
        missing = set()
        if not cluster.wait_delivered(set(want), deadline_s=deadline):
            missing = want - cluster.delivered()
        assert not missing, f"{len(missing)} accepted pushes never arrived, e.g. {sorted(missing)[:5]}"
        # A dropped connection loses the answers of the streams still on it: those pushes were
        # accepted by FCM and are sent again (at least once, as FCM itself promises). At most
        # what three connections carry at once (fcm-mock's 100 streams each).
        duplicates = len(cluster.pairs()) - len(set(cluster.pairs()))
        assert duplicates <= 3 * 100, f"{duplicates} pushes recorded twice"

        # The dead FCM tokens are gone; u5's APNs token stays and still gets pushes.
        for user, remaining in ((1, []), (5, [token_for(5)])):
            listed = http.get(f"{cluster.url}/v3/users/u{user}/push/gcm", headers={"Api-Token": API_TOKEN}, timeout=10)
            assert listed.status_code == 200 and listed.json()["tokens"] == [], listed.text
            listed = http.get(f"{cluster.url}/v3/users/u{user}/push/apns", headers={"Api-Token": API_TOKEN}, timeout=10)
            assert listed.json()["tokens"] == remaining, listed.text

        # The delivery log names the FCM message; metrics count by provider.
        fcm_pair = next((m, t) for m, t in sorted(want) if t == fcm_token_for(2))
        log = http.get(f"{cluster.url}/v3/push/deliveries", params={"message_id": fcm_pair[0], "user_id": "u2"},
                       headers={"Api-Token": API_TOKEN}, timeout=10)
        assert log.status_code == 200, log.text
        entry = next(d for d in log.json()["deliveries"] if d["provider"] == "fcm")
        assert entry["state"] == "sent" and entry["fcm_message_name"].startswith("projects/pushrelay-dev/messages/"), entry
        metrics = http.get(f"{cluster.url}/metrics", timeout=10).text
        removed = [line for line in metrics.splitlines()
                   if line.startswith("pushrelay_token_removals_total{") and 'provider="fcm"' in line]
        assert removed and sum(float(line.rsplit(" ", 1)[1]) for line in removed) >= 1, removed
        assert any(line.startswith("pushrelay_pushes_total{") and 'provider="fcm"' in line and 'status="sent"' in line
                   for line in metrics.splitlines())
        # SENDER_ID_MISMATCH and THIRD_PARTY_AUTH_ERROR are the app's credentials, not the moment:
        # those two pushes fail (never retried blindly), are counted by reason, and the event's
        # other pushes still arrive.
        arm({"sender_id_mismatch": 1, "third_party_auth_error": 1})
        body, tokens = cluster.event(next_id[0], rng)
        r = cluster.post_event(http, body)
        assert r.status_code == 200, r.text
        live = {(next_id[0], t) for t in tokens if t not in dead}
        assert sum(1 for _, t in live if t.startswith("crash")) >= 2, "the event reaches at least two FCM tokens"

        def credential_errors():
            lines = http.get(f"{cluster.url}/metrics", timeout=10).text.splitlines()
            return {reason: sum(float(line.rsplit(" ", 1)[1]) for line in lines
                                if line.startswith("pushrelay_credential_errors_total{") and f'reason="{reason}"' in line)
                    for reason in ("SENDER_ID_MISMATCH", "THIRD_PARTY_AUTH_ERROR")}
        until = time.monotonic() + deadline
        while credential_errors() != {"SENDER_ID_MISMATCH": 1, "THIRD_PARTY_AUTH_ERROR": 1} and time.monotonic() < until:
            time.sleep(0.2)
        assert credential_errors() == {"SENDER_ID_MISMATCH": 1, "THIRD_PARTY_AUTH_ERROR": 1}, credential_errors()
        # The event's other pushes may still be on their way when the two refusals are counted.
        until = time.monotonic() + deadline
        while len(live & cluster.delivered()) < len(live) - 2 and time.monotonic() < until:
            time.sleep(0.2)
        assert len(live - cluster.delivered()) == 2, "exactly the two refused pushes are missing"

        stats = http.get(f"{admin}/stats", timeout=10).json()
        print(f"\nfcm faults: {len(want)} pushes to live tokens delivered (clean wave {clean:.1f} s, {duplicates} sent twice "
              f"after dropped connections), "
              f"fcm-mock stats {json.dumps(stats, sort_keys=True)}")
        # The first token, and one (not one per send) after the revocation; THIRD_PARTY_AUTH_ERROR
        # is a 401 about the app's APNs credentials at Google, not a reason for a new token.
        assert stats["tokens_issued"] == 2, stats
    finally:
        cluster.stop()
