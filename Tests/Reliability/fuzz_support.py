"""Constants of the relay the bad-input suites run against (the `relay` fixture in conftest.py).
Test modules import them from here: importing `conftest` by name would clash with other
suites' conftest modules in one pytest run."""

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RELAY_BIN = Path(os.environ.get("PUSH_RELAY_BINARY", ROOT / ".build" / "debug" / "push-relay"))
APP_ID = "fuzz-app"
API_TOKEN = "fuzz-token-0123456789abcdef0123456789abcdef"
