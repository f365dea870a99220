"""Starts the built `push-relay serve` on a free loopback port with a temporary config and
database, waits until it prints its listening line, and stops it after the tests."""

import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests" / "PythonSupport"))
import pgcluster  # noqa: E402
BINARY = Path(os.environ.get("PUSH_RELAY_BINARY", ROOT / ".build" / "debug" / "push-relay"))

APP_ID = "conformance-app"
API_TOKEN = "conformance-token-0123456789abcdef0123456789"
OTHER_APP_ID = "other-app"
OTHER_API_TOKEN = "other-token-0123456789abcdef0123456789abcd"

READY = re.compile(r"listening on (http://\S+)")
START_DEADLINE_S = 60


class Relay:
    def __init__(self, url, process, database):
        self.url = url
        self.process = process
        self.database = database


# Every conformance test runs against both stores: the SQLite file and a PostgreSQL database.
@pytest.fixture(scope="session", params=["sqlite", "postgres"])
def relay(request, tmp_path_factory):
    if not BINARY.exists():
        pytest.fail(f"{BINARY} not found: run `swift build` first (scripts/test does)")
    workdir = tmp_path_factory.mktemp("relay")
    if request.param == "postgres":
        database = pgcluster.cluster().create_database()
        database_yaml = f"{{postgres: {{url: '{database}'}}}}"
    else:
        database = workdir / "relay.sqlite"
        database_yaml = f"{{path: {database}}}"
    config = workdir / "push-relay.yaml"
    config.write_text(
        "listen: {host: 127.0.0.1, port: 0}\n"
        f"database: {database_yaml}\n"
        "apps:\n"
        f"  - {{app_id: {APP_ID}, api_token: {API_TOKEN}}}\n"
        f"  - {{app_id: {OTHER_APP_ID}, api_token: {OTHER_API_TOKEN}}}\n"
    )
    stderr = open(workdir / "stderr.log", "wb")
    process = subprocess.Popen(
        [str(BINARY), "serve", "--config", str(config), "--log-level", "warning"],
        stdout=subprocess.PIPE,
        stderr=stderr,
        text=True,
    )
    lines = queue.Queue()

    def pump():
        for line in process.stdout:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    deadline = time.monotonic() + START_DEADLINE_S
    url = None
    while url is None:
        remaining = deadline - time.monotonic()
        try:
            line = lines.get(timeout=max(remaining, 0.01))
        except queue.Empty:
            line = None
        if line is None:
            process.kill()
            pytest.fail(f"push-relay did not report listening: {(workdir / 'stderr.log').read_text()}")
        match = READY.search(line)
        if match:
            url = match.group(1)
    try:
        yield Relay(url, process, database)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            code = process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            code = "killed after 15 s"
        stderr.close()
        # A graceful shutdown on SIGTERM exits 0 (systemd's stop).
        assert code == 0, f"push-relay exited with {code}: {(workdir / 'stderr.log').read_text()}"
