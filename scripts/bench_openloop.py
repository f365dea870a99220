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
"""
import argparse
import asyncio
import json
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


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--path", default="/webhooks/sendbird")
    parser.add_argument("--events", required=True)
    parser.add_argument("--rate", type=float, required=True)
    parser.add_argument("--duration", type=float, default=10)
    parser.add_argument("--connections", type=int, default=256)
    parser.add_argument("--timeline", help="write 'scheduled s,latency ms' per request to this file")
    asyncio.run(run(parser.parse_args()))
