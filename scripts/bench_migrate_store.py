#!/usr/bin/env python3
"""`push-relay migrate-store` on a store of some size (docs/operations.md, "Moving from SQLite"):
an SQLite file with USERS users and tokens, EVENTS events of 8 deliveries each (a 650-byte payload
apiece, the last 1,000 events still pending), copied into a new database of a PostgreSQL cluster
the script starts itself (Tests/PythonSupport/pgcluster), twice. Prints wall time, CPU time and
peak RSS of each run, and the second run's "copied" column (0: idempotent).

    python3 scripts/bench_migrate_store.py                  # USERS=100000 EVENTS=25000
    RELAY_BIN=.build/release/push-relay python3 scripts/bench_migrate_store.py
"""

import os
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests" / "PythonSupport"))
import pgcluster  # noqa: E402

RELAY_BIN = Path(os.environ.get("RELAY_BIN", ROOT / ".build" / "debug" / "push-relay"))
USERS = int(os.environ.get("USERS", "100000"))
EVENTS = int(os.environ.get("EVENTS", "25000"))


def fill(path: Path, target: str):
    # An empty file, brought to the relay's schema by the command itself (it migrates its source).
    path.touch()
    subprocess.run([str(RELAY_BIN), "migrate-store", "--from", f"sqlite:{path}", "--to", target],
                   check=True, capture_output=True)
    db = sqlite3.connect(path)
    db.execute("BEGIN")
    db.executemany("INSERT INTO users (app_id, user_id, created_at) VALUES ('app', ?, 1700000000000)",
                   ((f"user{i}",) for i in range(USERS)))
    db.executemany("INSERT INTO device_tokens (app_id, token, user_id, registered_at) VALUES ('app', ?, ?, 1700000000000)",
                   ((f"{i:064x}", f"user{i}") for i in range(USERS)))
    db.executemany("INSERT INTO events (app_id, message_id, channel_url, created_at_ms) VALUES ('app', ?, 'ch', 1700000000000)",
                   ((m,) for m in range(1, EVENTS + 1)))
    rows = ((m, f"user{(m * 8 + k) % USERS}", f"{(m * 8 + k) % USERS:064x}", str(uuid.uuid4()),
             "sent" if m <= EVENTS - 1000 else "pending")
            for m in range(1, EVENTS + 1) for k in range(8))
    db.executemany("""INSERT INTO deliveries (app_id, message_id, user_id, device_token, apns_id, push_type, priority,
                          expires_at_ms, state, attempts, next_attempt_at_ms, created_at_ms, updated_at_ms)
                      VALUES ('app', ?, ?, ?, ?, 'alert', 10, 1800000000000, ?, 1, 1700000000000, 1700000000000, 1700000000000)""",
                   rows)
    payload = b'{"aps":{"alert":"' + b"x" * 600 + b'"},"sendbird":{}}'
    db.execute("INSERT INTO delivery_payloads (delivery_id, payload) SELECT id, ? FROM deliveries", (payload,))
    db.commit()
    db.close()


def migrate(path: Path, target: str):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    result = subprocess.run([str(RELAY_BIN), "migrate-store", "--from", f"sqlite:{path}", "--to", target],
                            capture_output=True, text=True)
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        sys.exit(result.stdout + result.stderr)
    copied = sum(int(line.split()[2]) for line in result.stdout.splitlines()
                 if len(line.split()) == 5 and line.split()[1].isdigit())
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, after.ru_maxrss / 1024, copied, result.stdout


def main():
    if not RELAY_BIN.exists():
        sys.exit(f"{RELAY_BIN} not built")
    cluster = pgcluster.cluster()
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "relay.sqlite"
        fill(path, cluster.create_database())
        rows = USERS * 2 + EVENTS + EVENTS * 8 * 2
        print(f"source: {path.stat().st_size / 1e6:.0f} MB, {rows:,} rows "
              f"({USERS:,} users and tokens, {EVENTS:,} events, {EVENTS * 8:,} deliveries with payloads)")
        target = cluster.create_database()
        for run in ("first", "second"):
            wall, cpu, rss, copied, output = migrate(path, target)
            print(f"{run} run: {wall:.1f} s wall, {cpu:.1f} s CPU, peak RSS {rss:.0f} MB (largest child so far), "
                  f"{copied:,} rows copied")
        print(output)


if __name__ == "__main__":
    main()
