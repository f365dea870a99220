"""The README's quick start keeps working: `scripts/quickstart.sh --demo` builds, starts
apns-mock, fcm-mock, hms-mock and the relay on loopback, registers Bob's iPhone (APNs), Android
(FCM) and Huawei (HMS) tokens with curl, posts the signed sample event and sees the three pushes
reach their mocks within a minute; then `push-relay test-push` prints each mock's answer for Bob's
three devices, and a dead token's answer once apns-mock has unregistered the iPhone. Then it keeps
running, as the README's console paragraph needs (the relay answers with the demo's data), until
Ctrl-C (SIGINT) stops everything: exit 0, the relay's port free again."""

import json
import signal
import socket
import subprocess
import threading
import time

import pytest
import requests

from cluster import ROOT

API_TOKEN = "quickstart-token-0123456789abcdef"
DONE = "Ctrl-C stops them all."


def port_free(port: int) -> bool:
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
            return True
        except OSError:
            return False


@pytest.mark.skipif(not all(port_free(p) for p in (8080, 2196, 2197, 2198, 2199)),
                    reason="the quick start needs ports 8080 and 2196 to 2199")
def test_quickstart_demo_delivers_the_sample_push():
    process = subprocess.Popen([str(ROOT / "scripts/quickstart.sh"), "--demo"], cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    lines, done = [], threading.Event()

    def read():
        for line in process.stdout:
            lines.append(line)
            if DONE in line:
                done.set()

    threading.Thread(target=read, daemon=True).start()
    try:
        deadline = time.monotonic() + 600
        while not done.is_set() and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
        assert done.is_set(), "".join(lines)[-3000:] + (process.stderr.read()[-3000:] if process.poll() is not None else "")
        # Still running after the demo, with its data: Bob's message for the console.
        assert process.poll() is None, "the quick start exited after the demo"
        log = requests.get("http://127.0.0.1:8080/v3/push/deliveries?message_id=1001&user_id=bob",
                           headers={"Api-Token": API_TOKEN}, timeout=10).json()
        assert log["decision"] == "push" and len(log["deliveries"]) == 4, log
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=60) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert port_free(8080), "the relay still holds its port after Ctrl-C"
    result = subprocess.CompletedProcess(process.args, process.returncode, "".join(lines), "")
    assert "the push reached apns-mock" in result.stdout
    # The console is on, and the script says where.
    assert "open http://127.0.0.1:8080/console in a browser" in result.stdout
    assert "the push reached fcm-mock" in result.stdout
    assert "the push reached hms-mock" in result.stdout
    assert "the push reached webpush-mock" in result.stdout
    # The same text on each: aps.alert on the iPhone, data.message on Android and Huawei.
    apns_line = result.stdout.split("the push reached apns-mock")[1].splitlines()[1]
    fcm_line = result.stdout.split("the push reached fcm-mock")[1].splitlines()[1]
    assert "Alice: Hello from the quick start" in apns_line
    assert json.loads(fcm_line)["data"]["message"] == "Alice: Hello from the quick start"
    hms_line = result.stdout.split("the push reached hms-mock")[1].splitlines()[1]
    assert json.loads(hms_line)["data"]["message"] == "Alice: Hello from the quick start"
    # The browser's: the declarative message the mock decrypted.
    webpush_line = result.stdout.split("the push reached webpush-mock")[1].splitlines()[1]
    assert '\\"body\\":\\"Alice: Hello from the quick start\\"' in webpush_line, webpush_line
    # The app's server's notification, on the iPhone as an alert with a title.
    notified = result.stdout.split("the notification reached apns-mock")[1].splitlines()[1]
    aps = json.loads(json.loads(notified)["payload"])["aps"] if isinstance(json.loads(notified)["payload"], str) \
        else json.loads(notified)["payload"]["aps"]
    assert aps["alert"] == {"title": "Quick start", "body": "Your first notification"}, notified
    # The test push: each mock's answer for Bob's four devices, then the iPhone's dead token.
    tested = result.stdout.split("test push to user bob of app quickstart-app: 4 device(s)")[1]
    rows = {line.split()[0]: line for line in tested.splitlines()[2:6]}
    assert set(rows) == {"apns", "fcm", "hms", "webpush"}, tested[:2000]
    assert all(" sent " in row for row in rows.values()), tested[:2000]
    dead = result.stdout.split("test push to user bob of app quickstart-app: 1 device(s)")[1].splitlines()[2]
    assert dead.startswith("apns") and "token_dead (token removed)" in dead and "Unregistered" in dead, dead
