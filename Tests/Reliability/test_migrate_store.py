"""`push-relay migrate-store`, as an operator moves a relay from SQLite to PostgreSQL: a relay on
SQLite with pushes sent, pushes held in flight at a silent APNs (migrate-store refuses the file
while the relay serves it) and then SIGKILLed; the copy into a new PostgreSQL database (twice:
the second run copies nothing); then a relay on PostgreSQL sends
every push that was never answered, with the same apns-id, and nothing that was already sent;
registrations, preferences and the webhook dedupe came along."""

import random
import subprocess
from collections import Counter

import pytest
import requests

from cluster import API_TOKEN, MOCK_BIN, RELAY_BIN, Cluster, payload_message_id, signed, event_body, token_for

import pgcluster


def migrate(*args, env=None):
    return subprocess.run([str(RELAY_BIN), "migrate-store", *args], capture_output=True, text=True, timeout=600, env=env)


def figures(stdout: str) -> dict:
    """table -> (source, copied, present, missing), from the command's report."""
    rows = {}
    for line in stdout.splitlines():
        parts = line.split()
        if len(parts) == 5 and parts[1].isdigit():
            rows[parts[0]] = tuple(int(p) for p in parts[1:])
    return rows


@pytest.mark.skipif(not RELAY_BIN.exists() or not MOCK_BIN.exists(), reason="build first (scripts/test does)")
def test_a_relay_moves_from_sqlite_to_postgres_and_loses_nothing(tmp_path):
    rng = random.Random(7)
    cluster = Cluster(tmp_path, store="sqlite")
    try:
        cluster.register_users()
        headers = {"Api-Token": API_TOKEN}
        r = requests.put(f"{cluster.url}/v3/users/u1/push_preference", headers=headers, json={"push_sound": "moved.caf"}, timeout=10)
        assert r.status_code == 200, r.text

        sent = cluster.post_events(range(1, 21), rng)
        assert cluster.wait_delivered(sent, deadline_s=120), "the first pushes never arrived"
        # APNs goes silent: the next pushes are on the wire, unanswered, when the relay dies.
        cluster.arm({"kind": "neverAnswer", "count": 1_000_000})
        held = cluster.post_events(range(21, 41), rng)
        cluster.wait_for_streams_open()
        target = pgcluster.cluster().create_database()
        # Not while the relay serves the file (its lock is held): nothing is copied, not even the schema.
        busy = migrate("--from", f"sqlite:{cluster.database}", "--to", target)
        assert busy.returncode == 1 and f"a relay serves {cluster.database} (pid " in busy.stderr and "stop it first" in busy.stderr, busy.stdout + busy.stderr
        cluster.kill_relay()
        cluster.clear_faults()

        first = migrate("--from", f"sqlite:{cluster.database}", "--to", target)
        assert first.returncode == 0, first.stdout + first.stderr
        assert "verified" in first.stdout
        table = figures(first.stdout)
        assert table["users"][0] == 40 and table["device_tokens"][0] == 40, first.stdout
        assert table["events"][0] == 40 and table["deliveries"][0] == len(sent) + len(held), first.stdout
        assert all(copied == source and missing == 0 for source, copied, _, missing in table.values()), first.stdout
        # The killed relay's WAL is folded into the source, which is left the one file.
        leftovers = [p.name for p in cluster.database.parent.glob(cluster.database.name + "-*")]
        assert leftovers == [], f"left beside the source: {leftovers}"

        again = migrate("--from", f"sqlite:{cluster.database}", "--to", target)
        assert again.returncode == 0, again.stdout + again.stderr
        assert all(copied == 0 and missing == 0 for _, copied, _, missing in figures(again.stdout).values()), again.stdout

        # The relay, now on PostgreSQL.
        text = cluster.config.read_text()
        cluster.config.write_text("\n".join(
            f"database: {{postgres: {{url: '{target}'}}}}" if line.startswith("database:") else line
            for line in text.splitlines()) + "\n")
        cluster.store, cluster.database = "postgres", target
        cluster.start_relay()
        assert cluster.wait_delivered(held, deadline_s=120), "pushes held at the kill never arrived from PostgreSQL"
        records = cluster.recorded()
        by_push = Counter((payload_message_id(r), r["deviceToken"]) for r in records)
        # What APNs had answered is not sent again; what it had not is, with the same apns-id.
        assert all(by_push[p] == 1 for p in sent), "an answered push was sent again after the move"
        ids = {}
        for r in records:
            ids.setdefault((payload_message_id(r), r["deviceToken"]), set()).add(r["headers"]["apns-id"].lower())
        assert all(len(ids[p]) == 1 for p in held), "a push changed its apns-id on the way"

        # Registrations and preferences came along; a retried webhook is still a duplicate.
        r = requests.get(f"{cluster.url}/v3/users/u1/push_preference", headers=headers, timeout=10)
        assert r.json()["push_sound"] == "moved.caf", r.text
        r = requests.get(f"{cluster.url}/v3/users/u0/push/apns", headers=headers, timeout=10)
        assert r.json()["tokens"] == [token_for(0)], r.text
        body, _ = event_body(30, random.Random(0))
        r = requests.post(f"{cluster.url}/webhooks/sendbird", data=body, timeout=10,
                          headers={"Content-Type": "application/json", "x-sendbird-signature": signed(body)})
        assert r.status_code == 200 and r.json()["result"] == "duplicate", r.text
        print(f"\nmigrate-store: {len(sent)} pushes sent before, {len(held)} held at the kill; "
              f"{len(records)} recorded, {sum(by_push[p] - 1 for p in held)} sent twice")
    finally:
        cluster.stop()


@pytest.mark.skipif(not RELAY_BIN.exists(), reason="build first (scripts/test does)")
def test_usage_errors_exit_64_and_a_missing_file_is_not_created(tmp_path):
    url = "postgres://nobody@127.0.0.1:9/none"
    for args in (["--from", f"sqlite:{tmp_path / 'absent.sqlite'}", "--to", url],
                 ["--from", f"sqlite:{tmp_path / 'x.sqlite'}"],
                 ["--from", url, "--to", url],
                 ["--from", f"sqlite:{tmp_path / 'x.sqlite'}", "--to", "sqlite:/tmp/y"],
                 ["--from", f"sqlite:{tmp_path / 'x.sqlite'}", "--to", url, "--password-file", "a", "--password-env", "B"]):
        result = migrate(*args)
        assert result.returncode == 64, (args, result.stdout, result.stderr)
    assert not (tmp_path / "absent.sqlite").exists()
