# Sourced by the benchmark scripts: `bench_on_exit CMD` stops the processes the script started
# that still run (its direct children), then runs CMD, however the script ends. Children first:
# a cleanup that `wait`s would otherwise wait for one it does not know of (a sender, a seeder).
#
# Why: bash runs an EXIT trap on `exit` and on `set -e` failures, but a TERM or HUP without a trap
# of its own kills it at once, and then neither the trap nor anything after it runs. A benchmark
# stopped with `kill` left its relay, sink or helper running (a seeding helper kept a core busy
# through the next measurements) and its work directory on disk (1.3 GB). With these traps a
# signal becomes `exit`, so the EXIT trap runs: at once while the script waits on a background
# job, or when the foreground command it is running ends (bash runs traps between commands).
bench_on_exit() {
  # shellcheck disable=SC2064  # $1 and $$ are meant to expand now
  trap "pkill -P $$ 2>/dev/null || true; $1" EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  trap 'exit 129' HUP
}
