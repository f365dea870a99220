"""The README's quick start keeps working: `scripts/quickstart.sh --demo` builds, starts
apns-mock, fcm-mock, hms-mock and the relay on loopback, registers Bob's iPhone (APNs), Android
(FCM) and Huawei (HMS) tokens with curl, posts the signed sample event and sees the three pushes
reach their mocks within a minute; then `push-relay test-push` prints each mock's answer for Bob's
three devices, and a dead token's answer once apns-mock has unregistered the iPhone."""

import json
import socket
import subprocess

import pytest

from cluster import ROOT


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
    result = subprocess.run([str(ROOT / "scripts/quickstart.sh"), "--demo"], cwd=ROOT, capture_output=True,
                            text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "the push reached apns-mock" in result.stdout
    # The console is on, and the script says where.
    assert "open http://127.0.0.1:8080/console in a browser" in result.stdout
    assert "the push reached fcm-mock" in result.stdout
    assert "the push reached hms-mock" in result.stdout
    # The same text on each: aps.alert on the iPhone, data.message on Android and Huawei.
    apns_line = result.stdout.split("the push reached apns-mock")[1].splitlines()[1]
    fcm_line = result.stdout.split("the push reached fcm-mock")[1].splitlines()[1]
    assert "Alice: Hello from the quick start" in apns_line
    assert json.loads(fcm_line)["data"]["message"] == "Alice: Hello from the quick start"
    hms_line = result.stdout.split("the push reached hms-mock")[1].splitlines()[1]
    assert json.loads(hms_line)["data"]["message"] == "Alice: Hello from the quick start"
    # The test push: each mock's answer for Bob's three devices, then the iPhone's dead token.
    tested = result.stdout.split("test push to user bob of app quickstart-app: 3 device(s)")[1]
    rows = {line.split()[0]: line for line in tested.splitlines()[2:5]}
    assert set(rows) == {"apns", "fcm", "hms"}, tested[:2000]
    assert all(" sent " in row for row in rows.values()), tested[:2000]
    dead = result.stdout.split("test push to user bob of app quickstart-app: 1 device(s)")[1].splitlines()[2]
    assert dead.startswith("apns") and "token_dead (token removed)" in dead and "Unregistered" in dead, dead
