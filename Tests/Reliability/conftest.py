"""A `push-relay serve` (no APNs needed) on a free loopback port for the bad-input suites, once
on a SQLite file and once on a PostgreSQL database of the suites' own cluster (`pgcluster`)."""

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import requests

from cluster import MOCK_BIN, start_and_wait, terminate
from fuzz_support import API_TOKEN, APP_ID, RELAY_BIN, ROOT

sys.path.insert(0, str(ROOT / "Tests" / "PythonSupport"))
import pgcluster  # noqa: E402


class Relay:
    def __init__(self, url, process, store, database):
        self.url = url
        self.process = process
        self.store = store
        self.database = database

    def count(self, sql) -> int:
        """The one integer `sql` answers, read beside the relay from its database."""
        if self.store == "postgres":
            return int(pgcluster.cluster().psql(self.database, sql)[0][0])
        connection = sqlite3.connect(f"file:{self.database}?mode=ro", uri=True)
        try:
            return connection.execute(sql).fetchone()[0]
        finally:
            connection.close()


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def relay(request, tmp_path_factory):
    if not RELAY_BIN.exists():
        pytest.skip(f"{RELAY_BIN} not built (scripts/test builds it)")
    store = request.param
    workdir = tmp_path_factory.mktemp("fuzz")
    if store == "postgres":
        database = pgcluster.cluster().create_database()
        database_yaml = f"{{postgres: {{url: '{database}'}}}}"
    else:
        database = workdir / "relay.sqlite"
        database_yaml = f"{{path: {database}}}"
    config = workdir / "relay.yaml"
    # The relay refuses a key file every user can read; a checkout's files are 0644.
    key = workdir / "AuthKey_DEVKEY1234.p8"
    shutil.copyfile(ROOT / "certs/dev/AuthKey_DEVKEY1234.p8", key)
    os.chmod(key, 0o600)
    account = workdir / "fcm-service-account.json"
    shutil.copyfile(ROOT / "certs/dev/fcm-service-account.json", account)
    os.chmod(account, 0o600)
    # Provider endpoints nobody listens on: events are accepted and queued (for bob's APNs, FCM
    # and HMS tokens, registered below), nothing is sent. Broadcast channels are managed by an
    # apns-mock's channel management API (pushes and broadcasts still go nowhere).
    nowhere = f"url: \"https://127.0.0.1:9\", ca_file: {ROOT / 'certs/dev/ca.pem'}"
    mock, line = start_and_wait(
        [str(MOCK_BIN), "--port", "0", "--manage-port", "0", "--team-id", "DEVTEAM123",
         "--cert", str(ROOT / "certs/dev/server.pem"), "--key", str(ROOT / "certs/dev/server.key"),
         "--jwt-key", f"DEVKEY1234={ROOT / 'certs/dev/AuthKey_DEVKEY1234.pub.pem'}", "--log-level", "warning"],
        workdir / "mock.log", "listening on")
    manage = line.split("manage on ")[1].split(",")[0].split()[0]
    config.write_text(
        "listen: {host: 127.0.0.1, port: 0}\n"
        f"database: {database_yaml}\n"
        "log_level: error\n"
        "apps:\n"
        f"  - app_id: {APP_ID}\n"
        f"    api_token: {API_TOKEN}\n"
        "    badge_sync: true\n"
        # Test pushes as fast as the fuzzer sends them (its rate limit has tests of its own).
        "    limits: {test_pushes_per_minute: 10000}\n"
        "    apns:\n"
        "      topic: com.example.fuzz\n"
        f"      environment: {{url: \"https://127.0.0.1:9\", ca_file: {ROOT / 'certs/dev/ca.pem'}}}\n"
        f"      auth: {{token: {{key_file: {key}, key_id: DEVKEY1234, team_id: DEVTEAM123}}}}\n"
        f"      channel_management: \"{manage}\"\n"
        f"    fcm: {{service_account: {account}, {nowhere}, token_url: \"https://127.0.0.1:9/token\"}}\n"
        f"    hms: {{app_id: \"104783201\", client_secret: fuzz-hms-secret, {nowhere}, "
        "token_url: \"https://127.0.0.1:9/oauth2/v3/token\"}\n")
    log = open(workdir / "relay.log", "wb")
    process = subprocess.Popen([str(RELAY_BIN), "serve", "--config", str(config)], stdout=subprocess.PIPE, stderr=log)
    found = {}

    def pump():
        for raw in process.stdout:
            line = raw.decode(errors="replace")
            if "listening on " in line and "url" not in found:
                found["url"] = line.split("listening on ")[1].split()[0]

    threading.Thread(target=pump, daemon=True).start()
    deadline = time.monotonic() + 60
    while "url" not in found:
        assert process.poll() is None and time.monotonic() < deadline, (workdir / "relay.log").read_text()
        time.sleep(0.01)
    for kind, field, token in (("apns", "apns_device_token", "ab" * 32), ("gcm", "gcm_reg_token", "bob:APA91b" + "Xy_-" * 36),
                               ("huawei", "huawei_device_token", "IQAAAACy0kYkAAD+bob/" + "Qa9_" * 25 + "==")):
        r = requests.post(f"{found['url']}/v3/users/bob/push/{kind}", json={field: token}, timeout=30,
                          headers={"Api-Token": API_TOKEN})
        assert r.status_code == 200, r.text
    try:
        yield Relay(found["url"], process, store, database)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
        terminate(mock)
