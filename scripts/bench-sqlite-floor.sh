#!/usr/bin/env bash
# SQLite's own cost of the delivery queue per 8-push event, in C without Swift
# (Benchmarks/sqlite-floor/queue_layout_probe.c), for today's layout (a row per push) and a
# candidate (a row per event), beside pipeline-bench's store stages in the same run: how much of
# each stage is SQLite's floor, and what a change of layout could gain at most. The probe starts
# from the relay's own schema (`pipeline-bench --schema`), so it follows every migration.
#
#   scripts/bench-sqlite-floor.sh                          # N=5000 events, ROUNDS=3, alternating
#   SCRATCH=.build-release scripts/bench-sqlite-floor.sh   # the release build in another folder
#
# Needs a C compiler (CC, default cc) and libsqlite3-dev (the relay's own build needs them too).
# Prints each round and the medians; the machine's speed moves about 25 % within minutes, so
# compare within one run.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-5000}
ROUNDS=${ROUNDS:-3}
SCRATCH=${SCRATCH:-.build}
work=$(mktemp -d)
. scripts/bench-exit.sh
bench_on_exit 'rm -rf "$work"'
swift build -c release --scratch-path "$SCRATCH" --product pipeline-bench >/dev/null
bench=$SCRATCH/release/pipeline-bench
"$bench" --schema "$work/schema.sqlite"
"${CC:-cc}" -O2 -Wall -Wextra -o "$work/probe" Benchmarks/sqlite-floor/queue_layout_probe.c -lsqlite3
echo "== $(date -u +%F), $(nproc) cores, N=$N, $ROUNDS rounds, $(git rev-parse --short HEAD)"
for round in $(seq "$ROUNDS"); do
  for layout in rows events; do
    TMPDIR=$work "$work/probe" "$work/schema.sqlite" "$layout" "$N" pending | tee -a "$work/probe.txt"
    TMPDIR=$work "$work/probe" "$work/schema.sqlite" "$layout" "$N" | tee -a "$work/probe.txt"
  done
  "$bench" "$N" | grep -E '^(accept, batches|claim, batches|record sent)' | tee -a "$work/pipeline.txt"
done
python3 - "$work/probe.txt" "$work/pipeline.txt" <<'PY'
import re, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    layout, mode, *rest = line.split()
    figures = dict(zip(rest[0::2], rest[1::2]))
    for stage in ("accept", "claim", "record"):
        rows.setdefault((layout, mode, stage), []).append(float(figures[stage]))
print("== medians, µs CPU per 8-push event")
print(f"{'':28}{'accept':>9}{'claim':>9}{'record':>9}")
for layout, label in (("rows", "SQLite, a row per push"), ("events", "SQLite, a row per event")):
    accept = statistics.median(rows[(layout, "pending", "accept")] + rows[(layout, "in_flight", "accept")])
    claim = statistics.median(rows[(layout, "pending", "claim")])
    record = statistics.median(rows[(layout, "pending", "record")] + rows[(layout, "in_flight", "record")])
    print(f"{label:28}{accept:9.1f}{claim:9.1f}{record:9.1f}")
stages = {}
for line in open(sys.argv[2]):
    stages.setdefault(line.split(",")[0], []).append(float(re.findall(r"([0-9.]+) µs/event CPU", line)[0]))
print(f"{'pipeline-bench (Swift)':28}" + "".join(f"{statistics.median(stages[s]):9.1f}" for s in ("accept", "claim", "record sent")))
PY
