"""The browser suite drives the real relay (and apns-mock) that Tests/Reliability/cluster.py starts."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Reliability"))
