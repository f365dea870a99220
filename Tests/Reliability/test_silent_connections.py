"""Provider connections that go silent: the real `push-relay serve` sends to `apns-mock`, `fcm-mock`
and `hms-mock`, and each mock in turn silences the connection the next request arrives on (it
reads and sends nothing more, no PING ACK either, and stays open: a frozen server, or a middlebox
that lost the connection's state). The relay must notice by itself, dial a new connection and get
every accepted push out, for each provider, within seconds (its default liveness settings: a PING
after 5 s of silence with requests waiting, given up 10 s later).

Waves of events are posted closed loop; the deadlines are multiples of what a clean wave took on
this machine, plus the liveness settings' own 15 s.
"""

import random
import time

import pytest
import requests

from cluster import FCM_MOCK_BIN, HMS_MOCK_BIN, MOCK_BIN, RELAY_BIN, Cluster, provider_of

WAVE = 20


@pytest.mark.skipif(not all(b.exists() for b in (RELAY_BIN, MOCK_BIN, FCM_MOCK_BIN, HMS_MOCK_BIN)),
                    reason="build first (scripts/test does)")
def test_a_silent_connection_is_replaced_and_its_pushes_go_out(tmp_path):
    cluster = Cluster(tmp_path, fcm=True, hms=True)
    rng = random.Random(55)
    http = requests.Session()
    try:
        cluster.register_users()
        next_id = [7_000_000]

        def wave() -> set:
            want = set()
            for _ in range(WAVE):
                body, tokens = cluster.event(next_id[0], rng)
                r = cluster.post_event(http, body)
                assert r.status_code == 200, r.text
                want.update((next_id[0], t) for t in tokens)
                next_id[0] += 1
            return want

        started = time.monotonic()
        clean = wave()
        assert cluster.wait_delivered(clean, deadline_s=300), "the clean wave never arrived"
        deadline = 15 + 30 + 10 * (time.monotonic() - started)

        silence = {
            "apns": (cluster.admin, {"kind": "silentConnection", "count": 1}),
            "fcm": (cluster.fcm_admin, {"silent_connections": 1}),
            "hms": (cluster.hms_admin, {"silent_connections": 1}),
        }
        for provider, (admin, fault) in silence.items():
            r = http.post(f"{admin}/faults", json=fault, timeout=10)
            assert r.status_code in (200, 204), r.text
            began = time.monotonic()
            want = wave()
            assert any(provider_of(t) == provider for _, t in want), f"the wave holds no {provider} push"
            missing = want - cluster.delivered() if not cluster.wait_delivered(want, deadline_s=deadline) else set()
            took = time.monotonic() - began
            stats = requests.get(f"{admin}/stats", timeout=10).json()
            silenced = stats.get("connectionsSilenced", stats.get("connections_silenced"))
            print(f"\nsilent {provider} connection: {len(want)} pushes delivered in {took:.1f} s "
                  f"(deadline {deadline:.0f} s), connections silenced {silenced}")
            assert silenced == 1, stats
            assert not missing, f"{len(missing)} {provider} pushes never arrived, e.g. {sorted(missing)[:3]}"
    finally:
        cluster.stop()
