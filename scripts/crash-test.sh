#!/usr/bin/env bash
# The long crash-safety run: the real `push-relay serve` against apns-mock and fcm-mock (users
# holding APNs tokens, FCM tokens or both), a stream of signed
# webhook events with fan-out, SIGKILL at random moments (restarting each time), then checks that
# every event answered 200 has all its pushes recorded by the mock, that the SQLite file passed
# PRAGMA integrity_check after every kill, and reports duplicate pushes. CI runs a short version
# (scripts/test). Knobs: CRASH_EVENTS, CRASH_KILLS, CRASH_FANOUT, CRASH_SENDERS, CRASH_SEED.
#
#   scripts/crash-test.sh                               # 20,000 events, 40 kills
#   CRASH_EVENTS=100000 CRASH_KILLS=200 scripts/crash-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product push-relay >/dev/null
swift build --product apns-mock >/dev/null
swift build --product fcm-mock >/dev/null
CRASH_EVENTS=${CRASH_EVENTS:-20000} CRASH_KILLS=${CRASH_KILLS:-40} \
  python3 -m pytest -q -s Tests/Reliability/test_crash_safety.py
