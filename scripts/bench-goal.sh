#!/usr/bin/env bash
# The performance goal in one number: scripts/bench-compare.sh with its floors, then the whole
# relay's CPU per event at the busy end divided by the sum of its floors measured in the same run
# (sending 8 pushes with the project's own client, SQLite's own accept + claim + record of an
# 8-push event in C, parsing an event), the webhook's p99 at half load ÷ at a tenth in LAT_ROUNDS
# rounds, and the end-to-end wait (webhook accepted -> provider answered) at both loads. Beside it,
# each stage against its own floor: the webhook against http-floor (the HTTP server alone) plus
# pipeline-bench's stages from body to rows, sending against the client, SQLite's writer against C.
#
#   scripts/bench-goal.sh                      # a release build in SCRATCH (default .build-release)
#   scripts/bench-goal.sh --check              # exit 1 when the quotient is above the recorded one by more than its noise
#   scripts/bench-goal.sh --record NOISE       # record this run's quotient as the baseline, with its measured noise (e.g. 0.12)
#   RELAY_BIN=/tmp/old/push-relay scripts/bench-goal.sh   # another build of the relay against the same floors
#
# The baseline (Benchmarks/goal-baseline.json) holds a quotient, its noise (the relative spread
# of repeated runs of one build on this machine) and the date and commit it was taken on: a
# quotient is a ratio within one run, so it carries over days better than any rate does, but not
# from one kind of machine to another; record it again on yours. The knobs of bench-compare.sh
# apply; a run takes about 4 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-}
case "$mode" in
  "" | --check) ;;
  --record) python3 -c 'import sys; n = float(sys.argv[1]); sys.exit(not 0 <= n < 1)' "${2:-x}" 2>/dev/null \
    || { echo "bench-goal: --record takes the measured noise as a fraction, e.g. --record 0.15" >&2; exit 2; } ;;
  *) echo "usage: scripts/bench-goal.sh [--check | --record NOISE]" >&2; exit 2 ;;
esac
baseline=Benchmarks/goal-baseline.json
summary=$(mktemp)
trap 'rm -f "$summary"' EXIT
SCRATCH=${SCRATCH:-.build-release} N=${N:-100000} CLIENT_ROUNDS=${CLIENT_ROUNDS:-2} DURATION=${DURATION:-10} \
  LAT_DURATION=${LAT_DURATION:-8} LAT_ROUNDS=${LAT_ROUNDS:-5} FLOORS=1 SUMMARY="$summary" scripts/bench-compare.sh
python3 - "$summary" "$baseline" "$mode" "${2:-}" "$(git rev-parse --short HEAD)" <<'PY'
import datetime, json, sys
summary_path, baseline_path, mode, noise, commit = sys.argv[1:6]
run = json.load(open(summary_path))
quotient = run["goal_quotient"]
print(f"== goal: {quotient:.2f} x its floors (target <= 1.5); {run['every_stage_quotient']:.2f} x every stage's own floor "
      f"({', '.join(f'{name} {ratio:.2f} x' for name, ratio in run['stages'].items())}); p99 ratio {run['p99_ratio']} x, "
      f"within 3 x in {run['p99_rounds_within_3']} of {run['rounds']} rounds; relay / pooled client {run['relay_per_pooled']}")
if mode == "--record":
    record = {"goal_quotient": quotient, "noise": float(noise), "p99_ratio": run["p99_ratio"],
              "relay_per_pooled": run["relay_per_pooled"], "date": datetime.date.today().isoformat(), "commit": commit}
    json.dump(record, open(baseline_path, "w"), indent=2)
    open(baseline_path, "a").write("\n")
    print(f"recorded in {baseline_path}: {record}")
elif mode == "--check":
    base = json.load(open(baseline_path))
    limit = base["goal_quotient"] * (1 + base["noise"])
    verdict = "within" if quotient <= limit else "ABOVE"
    print(f"check: {quotient:.2f} x is {verdict} {base['goal_quotient']:.2f} x (+{base['noise']:.0%} noise = {limit:.2f} x), "
          f"recorded {base['date']} on {base['commit']}")
    sys.exit(0 if quotient <= limit else 1)
PY
