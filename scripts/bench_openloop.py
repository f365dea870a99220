"""Open-loop webhook load: sends pre-signed events (bench_events.py) at a fixed rate, whatever the
relay answers, and measures each request's latency from the time it was *scheduled*, not sent.
A closed-loop tool (wrk) waits for answers before sending more, so a slow relay is offered less
and its queueing delay never shows ("coordinated omission"); this one keeps the schedule and
counts a request that waited for a free connection as late by that wait.

    python3 scripts/bench_openloop.py --port P --path /webhooks/sendbird/bench-app \\
        --events events.txt --rate 500 --duration 10 [--connections 256] [--timeline t.csv]

Prints one JSON line: rate, sent, answered, non-2xx, p50/p99/max latency in ms, how far behind
schedule the sender fell (if it did, the figures understate the latency) and its own CPU (% of
one core). --timeline writes
each request's scheduled time (s from the start) and latency (ms), to see when slow ones happened.

--wrk2 PATH runs the same phase with wrk2 (github.com/giltene/wrk2, `make`; an independent
open-loop generator in C that also measures from each request's scheduled time) instead of this
sender, through scripts/bench-post.lua, and prints the same JSON line from its HdrHistogram: a
check of this sender's figures by a tool the project did not write. Give it phases of 30 s or
more: its start-up catch-up is in its histogram (8-s phases at a tenth of the load read 14-24 ms
at p99 where the relay's own p99 was at most 10 ms).
"""
import argparse
import asyncio
import json
import os
import re
import resource
import subprocess
import time


async def exchange(reader, writer, path, signature, body):
    request = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
               f"x-sendbird-signature: {signature}\r\nContent-Length: {len(body)}\r\n\r\n").encode() + body
    writer.write(request)
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    length = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":", 1)[1])
    if length:
        await reader.readexactly(length)
    return status


async def run(args):
    events = []
    with open(args.events) as source:
        for line in source:
            signature, body = line.rstrip("\n").split(" ", 1)
            events.append((signature, body.encode()))
    total = int(args.rate * args.duration)
    if total > len(events):
        raise SystemExit(f"needs {total} events, the file has {len(events)}")
    idle, opened = [], 0
    free = asyncio.Condition()
    latencies, failures, statuses, timeline = [], 0, {}, []
    behind = 0.0

    async def connection():
        nonlocal opened
        async with free:
            while not idle and opened >= args.connections:
                await free.wait()
            if idle:
                return idle.pop()
            opened += 1
        return await asyncio.open_connection("127.0.0.1", args.port)

    async def one(scheduled, signature, body):
        nonlocal failures, opened
        conn = await connection()
        try:
            status = await exchange(*conn, args.path, signature, body)
            statuses[status] = statuses.get(status, 0) + 1
            latencies.append(time.monotonic() - scheduled)
            timeline.append((scheduled - start, latencies[-1]))
            async with free:
                idle.append(conn)
                free.notify()
        except (OSError, asyncio.IncompleteReadError, ValueError):
            failures += 1
            conn[1].close()
            async with free:
                opened -= 1
                free.notify()

    tasks = []
    cpu_start = time.process_time()
    start = time.monotonic() + 0.2
    for i in range(total):
        scheduled = start + i / args.rate
        delay = scheduled - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        else:
            behind = max(behind, -delay)
        tasks.append(asyncio.ensure_future(one(scheduled, *events[i])))
    await asyncio.gather(*tasks)
    # The sender's own CPU, % of one core: it shares the machine with the relay.
    cpu = 100 * (time.process_time() - cpu_start) / max(1e-9, time.monotonic() - start + 0.2)
    latencies.sort()
    if args.timeline:
        with open(args.timeline, "w") as out:
            out.writelines(f"{at:.4f},{1000 * latency:.2f}\n" for at, latency in sorted(timeline))

    def pct(p):
        return round(1000 * latencies[min(len(latencies) - 1, int(p * len(latencies)))], 2) if latencies else None

    print(json.dumps({"rate": args.rate, "sent": total, "answered": len(latencies), "failed": failures,
                      "non_2xx": sum(n for s, n in statuses.items() if not 200 <= s < 300),
                      "p50_ms": pct(0.50), "p99_ms": pct(0.99), "max_ms": pct(1.0),
                      "sender_behind_ms": round(1000 * behind, 1), "sender_cpu_pct": round(cpu), "connections": opened}))


def wrk2_latency_ms(text, percentile):
    """The latency wrk2 prints for a percentile ("  99.000%   12.34ms"), in ms."""
    distribution = text.split("Latency Distribution", 1)[1]
    match = re.search(rf"^\s*{percentile:.3f}%\s+([0-9.]+)(us|ms|s|m)\s*$", distribution, re.M)
    value, unit = float(match.group(1)), match.group(2)
    return round(value * {"us": 0.001, "ms": 1, "s": 1000, "m": 60000}[unit], 2)


def run_wrk2(args):
    total = int(args.rate * args.duration)
    with open(args.events) as source:
        available = sum(1 for _ in source)
    if total > available:
        raise SystemExit(f"needs {total} events, the file has {available}")
    threads = 2
    env = dict(os.environ, BENCH_EVENTS=args.events, BENCH_THREADS=str(threads), BENCH_PATH=args.path)
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench-post.lua")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    # 32 connections hold the half load's requests in flight (about rate x p99: 30 at 1,000/s
    # and 30 ms), and fewer connections than this sender's 256 keep wrk2's own CPU down.
    out = subprocess.run(
        [args.wrk2, "-t", str(threads), "-c", str(min(args.connections, 32)), "-d", f"{args.duration:g}s",
         "-R", f"{args.rate:g}", "--latency", "-s", script, f"http://127.0.0.1:{args.port}"],
        env=env, capture_output=True, text=True, check=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    answered = int(re.search(r"([0-9]+) requests in", out).group(1))
    # Connections refused, reset or timed out: wrk2 counts them apart from the answers.
    failed = int(re.search(r"socket errors: ([0-9]+)", out).group(1))
    print(json.dumps({"rate": args.rate, "sent": answered + failed, "answered": answered, "failed": failed,
                      "non_2xx": int(re.search(r"non-2xx: ([0-9]+)", out).group(1)),
                      "p50_ms": wrk2_latency_ms(out, 50), "p99_ms": wrk2_latency_ms(out, 99),
                      "max_ms": wrk2_latency_ms(out, 100), "sender_behind_ms": 0.0,
                      "sender_cpu_pct": round(100 * cpu / (time.monotonic() - started)), "tool": "wrk2"}))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--path", default="/webhooks/sendbird")
    parser.add_argument("--events", required=True)
    parser.add_argument("--rate", type=float, required=True)
    parser.add_argument("--duration", type=float, default=10)
    parser.add_argument("--connections", type=int, default=256)
    parser.add_argument("--timeline", help="write 'scheduled s,latency ms' per request to this file")
    parser.add_argument("--wrk2", help="send with this wrk2 binary instead (see above)")
    arguments = parser.parse_args()
    if arguments.wrk2:
        run_wrk2(arguments)
    else:
        asyncio.run(run(arguments))
