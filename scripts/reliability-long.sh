#!/usr/bin/env bash
# The long versions of the reliability suites (CI runs short ones through scripts/test):
# a 20,000-event crash run with 40 SIGKILLs, 5 s APNs faults, 5,000 webhook fuzz cases per
# property, 200 REST cases per operation and phase, and a 10-minute soak. Each prints its figures.
# Override any knob: CRASH_EVENTS, CRASH_KILLS, FAULT_SECONDS, FAULT_RATE, FUZZ_EXAMPLES,
# FUZZ_REST_EXAMPLES, SLOW_CLIENTS, SOAK_SECONDS, SOAK_RATE, SOAK_PRUNE_AFTER.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product push-relay >/dev/null
swift build --product apns-mock >/dev/null
swift build --product fcm-mock >/dev/null
export CRASH_EVENTS=${CRASH_EVENTS:-20000} CRASH_KILLS=${CRASH_KILLS:-40}
export FAULT_SECONDS=${FAULT_SECONDS:-5} FAULT_RATE=${FAULT_RATE:-100}
export FUZZ_EXAMPLES=${FUZZ_EXAMPLES:-5000} FUZZ_REST_EXAMPLES=${FUZZ_REST_EXAMPLES:-200}
export SLOW_CLIENTS=${SLOW_CLIENTS:-2000}
export SOAK_SECONDS=${SOAK_SECONDS:-600} SOAK_RATE=${SOAK_RATE:-400} SOAK_SENDERS=${SOAK_SENDERS:-4} SOAK_PRUNE_AFTER=${SOAK_PRUNE_AFTER:-60s}
python3 -m pytest -q -s -p no:warnings Tests/Reliability
