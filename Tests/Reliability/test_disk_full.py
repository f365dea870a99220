"""A full disk under the SQLite database: every webhook is answered 503 with a Sendbird error
body (Sendbird retries), never a 500, the relay stays up, and `/ready` says the database is not
writable (taking the write lock needs no room, so that test alone passed while every commit
failed). Once there is room again it accepts events by itself, and every event answered 200,
before or after, is pushed.

The database is on a tmpfs of 8 MB mounted for the test; where mounting is not allowed (no root,
a container without the capability) the test is skipped."""

import random
import subprocess
import time

import pytest
import requests

from cluster import MOCK_BIN, RELAY_BIN, Cluster, event_body, signed


def post(cluster, body):
    return requests.post(f"{cluster.url}/webhooks/sendbird", data=body, timeout=30,
                         headers={"Content-Type": "application/json", "x-sendbird-signature": signed(body)})


# `/ready` says what is wrong only to the metrics token.
METRICS_TOKEN = "disk-full-metrics-token-0123"


def metrics(cluster) -> str:
    return requests.get(f"{cluster.url}/metrics", timeout=10, headers={"Authorization": f"Bearer {METRICS_TOKEN}"}).text


def fill(directory):
    """Takes what room is left on the file system of `directory` (a filler file grown until the
    disk refuses): SQLite gives space back when it truncates its WAL after a failed commit, and the
    disk must stay full until the test makes room."""
    # Unbuffered: a buffered file would try the refused bytes again when it closes, and raise there.
    with open(directory / "filler", "ab", buffering=0) as filler:
        try:
            while filler.write(b"\0" * 65536):
                pass
        except OSError:
            pass


def wait_ready(cluster, want: int, deadline_s: float, keep_full=None):
    """Waits until `GET /ready` answers `want` (its check is at most a second old); the last body.
    With `keep_full`, that directory's disk is kept full meanwhile (`fill`)."""
    deadline = time.monotonic() + deadline_s
    while True:
        if keep_full:
            fill(keep_full)
        r = requests.get(f"{cluster.url}/ready", timeout=10, headers={"Authorization": f"Bearer {METRICS_TOKEN}"})
        if r.status_code == want or time.monotonic() > deadline:
            return r
        time.sleep(0.2)


@pytest.mark.skipif(not RELAY_BIN.exists() or not MOCK_BIN.exists(), reason="build first (scripts/test does)")
def test_a_full_disk_is_answered_503_and_not_ready_and_nothing_accepted_is_lost(tmp_path):
    small = tmp_path / "small"
    small.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(small)], capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        cluster = Cluster(tmp_path, database_dir=small, extra_config=f"metrics: {{token: {METRICS_TOKEN}}}\n")
        try:
            cluster.register_users()
            rng = random.Random(11)
            expected, refused, message_id = set(), None, 7_000_000
            # Until the disk is full: each event adds ~10 KB to the WAL and the file.
            for _ in range(20_000):
                body, tokens = event_body(message_id, rng)
                r = post(cluster, body)
                assert r.status_code in (200, 503), (r.status_code, r.text)
                if r.status_code == 503:
                    refused = r
                    break
                expected |= {(message_id, t) for t in tokens}
                message_id += 1
            assert refused is not None, "the disk never filled"
            assert refused.json()["error"] is True and refused.json()["code"] == 500901, refused.text
            assert int(refused.headers["Retry-After"]) > 0, refused.headers
            assert cluster.relay.poll() is None, "the relay exited"
            not_ready = wait_ready(cluster, 503, deadline_s=30, keep_full=small)
            assert not_ready.status_code == 503 and "file system is full" in not_ready.json()["database"], not_ready.text
            assert "\npushrelay_ready 0.0\n" in metrics(cluster), "the metrics say not ready too"

            # Room again: ready by itself, and events are accepted.
            (small / "filler").unlink()
            subprocess.run(["mount", "-o", "remount,size=64m", str(small)], check=True)
            assert wait_ready(cluster, 200, deadline_s=30).status_code == 200
            assert "\npushrelay_ready 1.0\n" in metrics(cluster)
            for _ in range(20):
                message_id += 1
                body, tokens = event_body(message_id, rng)
                r = post(cluster, body)
                assert r.status_code == 200, r.text
                expected |= {(message_id, t) for t in tokens}
            assert cluster.wait_delivered(expected, deadline_s=120), f"{len(expected - cluster.delivered())} pushes missing"
            assert cluster.integrity() == "ok"
            print(f"\ndisk full: {len(expected)} pushes of events answered 200 all delivered; refused with "
                  f"{refused.status_code} {refused.text}; /ready said {not_ready.json()['database']!r}")
        finally:
            cluster.stop()
    finally:
        subprocess.run(["umount", str(small)], capture_output=True)
