"""HMS-side faults: the real `push-relay serve` sends to `hms-mock`, `fcm-mock` and `apns-mock`;
users hold APNs, FCM and HMS tokens (a quarter one of each), and hms-mock injects what Huawei's
Push Kit does: flow control (503 with Retry-After), internal errors (81000001), access tokens
expired early (80200003), a token endpoint that fails, tokens that are no longer valid
(80300007), and an OAuth endpoint that refuses the app's secret. Every accepted push to a live
token reaches its mock; an invalid HMS token is removed (and later events skip it); the delivery
log names HMS's request id; /metrics counts HMS pushes by provider; refused credentials fail a
push and are counted, and the next token exchange recovers.

Events are posted one at a time (closed loop) in waves between faults, coming back after a 503
as Sendbird does: the load follows the machine's speed, and the deadlines are generous
multiples of the time the clean wave took.
"""

import json
import random
import time

import pytest
import requests

from cluster import (API_TOKEN, APP_ID, FCM_MOCK_BIN, HMS_MOCK_BIN, MOCK_BIN, RELAY_BIN, Cluster, fcm_token_for,
                     hms_token_for, provider_of, token_for)

WAVE = 40  # events per wave (fan-out 5: about 200 pushes, half of them to HMS tokens)


def metric_sum(text: str, name: str, **labels) -> float:
    total = 0.0
    for line in text.splitlines():
        if (line.startswith(name + "{") or line.startswith(name + " ")) and all(f'{k}="{v}"' in line for k, v in labels.items()):
            total += float(line.rsplit(" ", 1)[1])
    return total


def one_member_event(message_id: int, user: int) -> bytes:
    """An event whose only offline member is `user` (sent by u0, who is online)."""
    event = {"category": "group_channel:message_send", "app_id": APP_ID, "type": "MESG",
             "sender": {"user_id": "u0", "nickname": "Sender"},
             "members": [{"user_id": "u0", "nickname": "sender", "is_online": True, "state": "joined"},
                         {"user_id": f"u{user}", "nickname": f"n{user}", "is_online": False, "state": "joined"}],
             "payload": {"message_id": message_id, "created_at": 1700000000000, "message": f"hms {message_id}"},
             "channel": {"channel_url": f"ch-hms-{user}", "name": "HMS"}}
    return json.dumps(event, separators=(",", ":")).encode()


@pytest.mark.skipif(not all(b.exists() for b in (RELAY_BIN, MOCK_BIN, FCM_MOCK_BIN, HMS_MOCK_BIN)),
                    reason="build first (scripts/test does)")
def test_hms_faults_lose_nothing_and_dead_tokens_are_removed(tmp_path):
    cluster = Cluster(tmp_path, fcm=True, hms=True)
    rng = random.Random(52)
    admin = cluster.hms_admin
    http = requests.Session()
    try:
        cluster.register_users()
        want = set()
        next_id = [5_000_000]
        dead = set()

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
        started = time.monotonic()
        wave()
        assert cluster.wait_delivered(set(want), deadline_s=300), "the clean wave never arrived"
        clean = time.monotonic() - started
        deadline = 60 + 20 * clean

        # u2 holds only an HMS token, u3 one of each kind: both HMS tokens die.
        dead = {hms_token_for(2), hms_token_for(3)}
        arm({"invalid_tokens": sorted(dead), "flow_control": {"count": 30, "retry_after": 1}, "internal_error": 20})
        wave()
        r = http.post(f"{admin}/expire-tokens", timeout=10)
        assert r.status_code in (200, 204), r.text
        arm({"token_endpoint_unavailable": 1, "delay_ms": 50})
        wave()
        missing = set()
        if not cluster.wait_delivered(set(want), deadline_s=deadline):
            missing = want - cluster.delivered()
        assert not missing, f"{len(missing)} accepted pushes never arrived, e.g. {sorted(missing)[:5]}"
        hms_pairs = [(m, t) for m, t in cluster.pairs() if provider_of(t) == "hms"]
        # Every fault here is answered: nothing HMS accepted is sent again.
        assert len(hms_pairs) == len(set(hms_pairs)), "an HMS push recorded twice"

        # The dead HMS tokens are gone; u3's APNs and FCM tokens stay and still get pushes.
        for user, kind, remaining in ((2, "huawei", []), (3, "huawei", []), (3, "apns", [token_for(3)]),
                                      (3, "gcm", [fcm_token_for(3)])):
            listed = http.get(f"{cluster.url}/v3/users/u{user}/push/{kind}", headers={"Api-Token": API_TOKEN}, timeout=10)
            assert listed.status_code == 200 and listed.json()["tokens"] == remaining, (user, kind, listed.text)
        # u2's next message finds no device to push to.
        r = cluster.post_event(http, one_member_event(next_id[0], 2))
        assert r.status_code == 200, r.text
        log = http.get(f"{cluster.url}/v3/push/deliveries", params={"message_id": next_id[0], "user_id": "u2"},
                       headers={"Api-Token": API_TOKEN}, timeout=10).json()
        assert log["decision"] == "no_token" and log["deliveries"] == [], log
        next_id[0] += 1

        # The delivery log names HMS's request id for the message; metrics count by provider.
        hms_pair = next((m, t) for m, t in sorted(want) if t == hms_token_for(6))
        log = http.get(f"{cluster.url}/v3/push/deliveries", params={"message_id": hms_pair[0], "user_id": "u6"},
                       headers={"Api-Token": API_TOKEN}, timeout=10)
        assert log.status_code == 200, log.text
        entry = next(d for d in log.json()["deliveries"] if d["provider"] == "hms")
        recorded = next(r for r in cluster.hms_recorded()
                        if r["token"] == hms_token_for(6) and json.loads(r["data"]["sendbird"])["message_id"] == hms_pair[0])
        assert entry["state"] == "sent" and entry["push_type"] == "hms", entry
        assert entry["provider_message_id"] == recorded["requestId"], (entry, recorded)
        assert "fcm_message_name" not in entry or entry["fcm_message_name"] is None, entry
        assert hms_token_for(6) not in log.text, "device tokens are shown redacted"
        metrics = http.get(f"{cluster.url}/metrics", timeout=10).text
        assert metric_sum(metrics, "pushrelay_token_removals_total", provider="hms") >= 2
        assert metric_sum(metrics, "pushrelay_pushes_total", provider="hms", status="sent") >= 1
        assert metric_sum(metrics, "pushrelay_hms_latency_seconds_count") >= 1
        # AsyncHTTPClient took the HTTP/2 hms-mock offers.
        versions = {r["httpVersion"] for r in cluster.hms_recorded()}
        assert versions == {"h2"}, versions

        # Refused credentials fail that push (never retried blindly) and are counted; the next
        # exchange, with the secret accepted again, recovers.
        http.post(f"{admin}/expire-tokens", timeout=10)
        arm({"refuse_credentials": 1})
        refused_id = next_id[0]
        r = cluster.post_event(http, one_member_event(refused_id, 6))
        assert r.status_code == 200, r.text

        def refused_state():
            log = http.get(f"{cluster.url}/v3/push/deliveries", params={"message_id": refused_id, "user_id": "u6"},
                           headers={"Api-Token": API_TOKEN}, timeout=10).json()
            return [d["state"] for d in log["deliveries"]]
        until = time.monotonic() + deadline
        while refused_state() != ["failed"] and time.monotonic() < until:
            time.sleep(0.2)
        assert refused_state() == ["failed"], refused_state()
        metrics = http.get(f"{cluster.url}/metrics", timeout=10).text
        assert metric_sum(metrics, "pushrelay_credential_errors_total", provider="hms", reason="token_exchange") == 1
        recovered = {(refused_id + 1, hms_token_for(6))}
        r = cluster.post_event(http, one_member_event(refused_id + 1, 6))
        assert r.status_code == 200, r.text
        assert cluster.wait_delivered(recovered, deadline_s=deadline), "no push after the credentials were accepted again"

        stats = http.get(f"{admin}/stats", timeout=10).json()
        print(f"\nhms faults: {len(want)} pushes to live tokens delivered ({len(hms_pairs)} to HMS; clean wave {clean:.1f} s), "
              f"hms-mock stats {json.dumps(stats, sort_keys=True)}")
    finally:
        cluster.stop()
