"""CPU and context switches of a process's threads, grouped by name, between two snapshots:

    python3 scripts/thread_cpu.py snapshot PID > before
    ...
    python3 scripts/thread_cpu.py diff before after EVENTS [--json]

prints per thread name (as the kernel keeps it: Swift's pools by QoS, the store's queues, NIO's
event loops) the CPU µs, voluntary and involuntary switches per event, and the total; with
--json one line {"cpu_us_per_event": ..., "groups": {name: µs}}. A thread that ended between
the snapshots is not counted (the relay keeps its threads).
"""
import json
import os
import sys


def snapshot(pid):
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            name = open(f"/proc/{pid}/task/{tid}/comm").read().strip().replace(" ", "_")
            stat = open(f"/proc/{pid}/task/{tid}/stat").read()
            status = open(f"/proc/{pid}/task/{tid}/status").read()
        except OSError:
            continue  # ended while read
        fields = stat[stat.rindex(")") + 2:].split()
        cpu = int(fields[11]) + int(fields[12])  # utime + stime, after pid, comm and state
        switches = {line.split(":")[0]: int(line.split()[1]) for line in status.splitlines() if "ctxt_switches" in line}
        print(tid, name, cpu, switches.get("voluntary_ctxt_switches", 0), switches.get("nonvoluntary_ctxt_switches", 0))


def diff(before_path, after_path, events, as_json=False):
    before = {line.split()[0]: line.split() for line in open(before_path)}
    ticks = os.sysconf("SC_CLK_TCK")
    groups = {}
    for line in open(after_path):
        tid, name, cpu, vol, invol = line.split()
        cpu0, vol0, invol0 = (int(x) for x in before.get(tid, [0, 0, 0, 0, 0])[2:5])
        group = groups.setdefault(name, [0, 0, 0, 0])
        for i, (now, then) in enumerate(((cpu, cpu0), (vol, vol0), (invol, invol0))):
            group[i] += int(now) - then
        group[3] += 1
    per_event = {name: g[0] * 1e6 / ticks / events for name, g in groups.items()}
    total = sum(per_event.values())
    if as_json:
        print(json.dumps({"cpu_us_per_event": round(total, 1), "groups": {n: round(v, 1) for n, v in per_event.items() if v}}))
        return
    print(f"{'threads (name as the kernel keeps it)':40} {'n':>3} {'CPU µs/event':>13} {'voluntary/event':>16} {'involuntary/event':>18}")
    switches = [0, 0]
    for name, (cpu, vol, invol, count) in sorted(groups.items(), key=lambda item: -item[1][0]):
        switches = [switches[0] + vol, switches[1] + invol]
        print(f"{name:40} {count:3} {per_event[name]:13.1f} {vol / events:16.2f} {invol / events:18.2f}")
    print(f"{'all':40} {'':3} {total:13.1f} {switches[0] / events:16.2f} {switches[1] / events:18.2f}")


if __name__ == "__main__":
    if sys.argv[1] == "snapshot":
        snapshot(sys.argv[2])
    else:
        diff(sys.argv[2], sys.argv[3], int(sys.argv[4]), "--json" in sys.argv[5:])
