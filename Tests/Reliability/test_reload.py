"""SIGHUP with pushes in flight: the relay re-reads its file, swaps in new APNs clients (here a
different key file) and the new templates, and drops nothing: every push accepted before the
reload arrives once, rendered with the templates of its time, and events accepted after the
reload use the new ones."""

import random
import shutil
import signal
import time

import pytest
import requests

from cluster import API_TOKEN, MOCK_BIN, RELAY_BIN, Cluster, payload, payload_message_id


def configured_default_mesg(cluster):
    r = requests.get(f"{cluster.url}/v3/applications/push/message_templates/default",
                     headers={"Api-Token": API_TOKEN}, timeout=10)
    assert r.status_code == 200, r.text
    return r.json()["push_message_templates"][0]["template"]["MESG"]


@pytest.mark.skipif(not RELAY_BIN.exists() or not MOCK_BIN.exists(), reason="build first (scripts/test does)")
@pytest.mark.parametrize("store", ["sqlite", "postgres"])
def test_sighup_with_pushes_in_flight_swaps_credentials_and_templates_and_loses_nothing(tmp_path, store):
    cluster = Cluster(tmp_path, app_config='    templates: {default: {MESG: "before {message}"}}\n', store=store)
    try:
        cluster.register_users()
        cluster.arm({"kind": "delay", "milliseconds": 1500})
        rng = random.Random(5)
        before = cluster.post_events(range(5_000_000, 5_000_030), rng)
        in_flight = cluster.wait_for_streams_open()

        # The same key under another name (a rotated credential) and new texts.
        rotated = tmp_path / "AuthKey_ROTATED.p8"
        shutil.copy(cluster.apns_key, rotated)  # with its mode, 0600: the relay refuses a key every user can read
        text = cluster.config.read_text()
        cluster.config.write_text(text.replace(str(cluster.apns_key), str(rotated))
                                  .replace("before {message}", "after {message}"))
        connections_before = cluster.mock_stats()["connectionsAccepted"]
        cluster.relay.send_signal(signal.SIGHUP)
        deadline = time.monotonic() + 30
        while configured_default_mesg(cluster) != "after {message}":
            assert time.monotonic() < deadline, "the reload was not applied"
            time.sleep(0.05)
        after = cluster.post_events(range(5_000_100, 5_000_110), rng)

        cluster.clear_faults()
        expected = before | after
        deadline = time.monotonic() + 60
        while True:
            records = cluster.recorded()
            got = {(payload_message_id(r), r["deviceToken"]) for r in records}
            if expected <= got or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        apns_ids = [r["headers"].get("apns-id") for r in records]
        duplicates = len(apns_ids) - len(set(apns_ids))
        alerts = {payload_message_id(r): payload(r)["aps"]["alert"] for r in records}
        print(f"\nreload ({store}): {in_flight} streams in flight at SIGHUP, {len(expected)} pushes expected, "
              f"{len(expected - got)} missing, {duplicates} duplicates")
        assert expected <= got, f"{len(expected - got)} pushes missing"
        assert duplicates == 0
        assert all(alerts[m].startswith("before ") for m in range(5_000_000, 5_000_030))
        assert all(alerts[m].startswith("after ") for m in range(5_000_100, 5_000_110))
        assert cluster.mock_stats()["connectionsAccepted"] > connections_before, "the new client opened its own connections"
        assert cluster.relay.poll() is None

        # What operators graph, after real traffic (names and labels as docs/operations.md lists them).
        # (The mock records a push when it arrives; the relay counts it when the answer does.)
        deadline = time.monotonic() + 15
        while True:
            metrics = requests.get(f"{cluster.url}/metrics", timeout=10).text
            samples = {}
            for line in metrics.splitlines():
                if line and not line.startswith("#"):
                    name, _, value = line.rpartition(" ")
                    samples[name] = float(value)
            sent = sum(v for k, v in samples.items() if k.startswith("pushrelay_pushes_total{") and 'status="sent"' in k)
            if sent >= len(expected) or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert sent == len(expected)
        accepted = 'pushrelay_webhook_events_total{category="group_channel:message_send",result="accepted"}'
        assert samples.get(accepted) == 40
        assert samples.get('pushrelay_decisions_total{reason="push"}', 0) >= len(expected)
        assert samples.get("pushrelay_apns_latency_seconds_count", 0) >= len(expected)
        # Every webhook answer is timed, and every accepted event's commit; their buckets reach
        # down to half a millisecond (an fsync is about one), not the backend's default 5 ms.
        assert samples.get("pushrelay_webhook_duration_seconds_count", 0) >= 40
        assert samples.get("pushrelay_event_commit_seconds_count", 0) >= 40
        for family in ("pushrelay_webhook_duration_seconds", "pushrelay_event_commit_seconds", "pushrelay_push_wait_seconds"):
            assert f'{family}_bucket{{le="0.0005"}}' in samples, family
        # (Retries, token removals and certificate expiry appear once there is one: none here.)
        # Everything was sent: nothing waits, so the oldest unsent push is 0 s old.
        assert samples.get("pushrelay_oldest_unsent_push_age_seconds") == 0
        # Every webhook was answered: none under way (this scrape is not a webhook).
        assert samples.get("pushrelay_webhooks_in_flight") == 0
        for family in ("pushrelay_queue_depth", "pushrelay_oldest_unsent_push_age_seconds", "pushrelay_apns_connections", "pushrelay_apns_ready_connections",
                       "pushrelay_apns_streams_in_flight", "pushrelay_apns_queued_requests"):
            assert f"# TYPE {family} " in metrics, family
    finally:
        cluster.stop()
