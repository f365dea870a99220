"""The README's quick start keeps working: `scripts/quickstart.sh --demo` builds, starts
apns-mock and the relay on loopback, registers a token with curl, posts the signed sample event
and sees the push reach the mock within a minute."""

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


@pytest.mark.skipif(not (port_free(8080) and port_free(2197)), reason="the quick start needs ports 8080 and 2197")
def test_quickstart_demo_delivers_the_sample_push():
    result = subprocess.run([str(ROOT / "scripts/quickstart.sh"), "--demo"], cwd=ROOT, capture_output=True,
                            text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "the push reached apns-mock" in result.stdout
    assert "Alice: Hello from the quick start" in result.stdout
