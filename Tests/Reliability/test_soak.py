"""Load held: the real `push-relay serve` against `apns-mock` under steady webhook load, with the
relay's RSS, open file descriptors, SQLite size (database + WAL) and queue depth sampled. After a
warm-up, the second half of the run must not grow beyond the first half's (with small slack):
no leak, no descriptor creep, the delivery log pruned (`prune_after` short here), the queue
keeping up. CI runs 40 s; `SOAK_SECONDS=600 SOAK_RATE=...` is the long run.

The rate is a share of the capacity measured at the start (`Cluster.measure_capacity`), at most
SOAK_RATE: on a slow machine or a debug build a fixed rate would grow the queue, which this suite
would rightly report as a failure of the relay rather than of the machine.

Knobs: SOAK_SECONDS (40), SOAK_RATE (events/s in all at most, 100), SOAK_LOAD_SHARE (0.4), SOAK_SENDERS (1; Python posts a
few hundred events/s per sender), SOAK_PRUNE_AFTER (10s). For half of the benchmarked maximum,
point PUSH_RELAY_BINARY at a release build and raise SOAK_RATE and SOAK_SENDERS.
"""

import os
import random
import sqlite3
import threading
import time
from pathlib import Path

import pytest
import requests

from cluster import MOCK_BIN, RELAY_BIN, Cluster, event_body, signed

SECONDS = float(os.environ.get("SOAK_SECONDS", "40"))
RATE = float(os.environ.get("SOAK_RATE", "100"))
PRUNE_AFTER = os.environ.get("SOAK_PRUNE_AFTER", "10s")
SENDERS = int(os.environ.get("SOAK_SENDERS", "1"))
LOAD_SHARE = float(os.environ.get("SOAK_LOAD_SHARE", "0.4"))


def sample(cluster):
    pid = cluster.relay.pid
    rss = next(int(l.split()[1]) for l in Path(f"/proc/{pid}/status").read_text().splitlines() if l.startswith("VmRSS:")) / 1024
    fds = len(os.listdir(f"/proc/{pid}/fd"))
    size = sum(p.stat().st_size for p in cluster.database.parent.glob(cluster.database.name + "*")) / 2**20
    connection = sqlite3.connect(f"file:{cluster.database}?mode=ro", uri=True, timeout=10)
    try:
        depth = connection.execute(
            "SELECT (SELECT COUNT(*) FROM deliveries WHERE state = 'pending')"
            " + (SELECT COUNT(*) FROM deliveries WHERE state = 'in_flight')").fetchone()[0]
    finally:
        connection.close()
    return rss, fds, size, depth


@pytest.mark.skipif(not RELAY_BIN.exists() or not MOCK_BIN.exists(), reason="build first (scripts/test does)")
def test_rss_descriptors_database_and_queue_stay_flat(tmp_path):
    cluster = Cluster(tmp_path, extra_config=f"delivery: {{prune_after: {PRUNE_AFTER}}}\n")
    stop = threading.Event()
    failures = []
    sent = [0]
    rate = [RATE]

    def load(worker):
        rng = random.Random(worker)
        http = requests.Session()
        message_id = 3_000_000 + worker * 100_000_000
        next_at = time.monotonic()
        while not stop.is_set():
            body, _ = event_body(message_id, rng)
            r = http.post(f"{cluster.url}/webhooks/sendbird", data=body, timeout=30,
                          headers={"Content-Type": "application/json", "x-sendbird-signature": signed(body)})
            if r.status_code != 200:
                failures.append((r.status_code, r.text))
            message_id += 1
            sent[0] += 1
            next_at += SENDERS / rate[0]
            time.sleep(max(0, next_at - time.monotonic()))

    try:
        cluster.register_users()
        capacity = cluster.measure_capacity(random.Random(99), first_message_id=1_000_000)
        rate[0] = min(RATE, LOAD_SHARE * capacity)
        threads = [threading.Thread(target=load, args=(worker,), daemon=True) for worker in range(SENDERS)]
        for t in threads:
            t.start()
        samples = []
        started = time.monotonic()
        while time.monotonic() - started < SECONDS:
            time.sleep(SECONDS / 20)
            samples.append(sample(cluster))
        stop.set()
        for t in threads:
            t.join(timeout=60)
        assert not failures, failures[:3]
        warm = samples[len(samples) // 4:]          # skip the warm-up quarter
        first, second = warm[: len(warm) // 2], warm[len(warm) // 2:]
        peak = lambda rows, i: max(r[i] for r in rows)
        print(f"\nsoak: {SECONDS:.0f} s at {sent[0] / SECONDS:.0f} events/s "
              f"(measured capacity {capacity:.0f} events/s); first → last sample: "
              f"RSS {samples[0][0]:.0f} → {samples[-1][0]:.0f} MB, fds {samples[0][1]} → {samples[-1][1]}, "
              f"SQLite {samples[0][2]:.1f} → {samples[-1][2]:.1f} MB, queue {samples[0][3]} → {samples[-1][3]}")
        assert peak(second, 0) <= peak(first, 0) * 1.2 + 10, f"RSS grows: {[round(r[0]) for r in samples]}"
        assert peak(second, 1) <= peak(first, 1) + 10, f"descriptors grow: {[r[1] for r in samples]}"
        assert peak(second, 2) <= peak(first, 2) * 1.5 + 8, f"database grows: {[round(r[2], 1) for r in samples]}"
        assert peak(second, 3) <= max(200, peak(first, 3) * 2), f"queue grows: {[r[3] for r in samples]}"
    finally:
        stop.set()
        cluster.stop()
