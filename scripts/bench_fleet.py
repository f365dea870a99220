#!/usr/bin/env python3
"""The store and the fleet, measured in one run (the README's figures; ratios only, because
these machines vary about 3x in speed from day to day):

  1. one relay on SQLite (synchronous=FULL), unthrottled
  2. one relay on PostgreSQL (fsync on), unthrottled                 -> 2 / 1   (goal >= 0.5)
  3. one relay on PostgreSQL, held to QUOTA of a CPU (a cgroup CPU quota, or `cpulimit`)
  4. two relays on the same PostgreSQL, each held to QUOTA            -> 4 / 3   (goal >= 1.7)
     (3 and 4 alternate ROUNDS times, default 2; the ratio is of their totals)

Each step: the real `push-relay serve` (release build) against an accept-all HTTP/2 + TLS sink
(nghttpd), users' tokens registered through the REST API, wrk posting pre-signed webhook events
(channels of MEMBERS, 80 % offline) for DURATION seconds — one wrk of CONNS connections per relay:
each relay gets the same load shape whether it runs alone or beside another, as when a fleet
grows with its traffic — then the clock runs until every accepted push was answered by the sink.
pushes/s = pushes sent / (load + drain). Around steps 2 and 4 it reads the costs: the relays' and
PostgreSQL's CPU seconds, PostgreSQL's commits, rows written, WAL bytes and database growth; and
prints a capacity model from them (how many relays and what database a pushes/minute rate needs).

    apt-get install wrk nghttp2-server postgresql cpulimit   # cpulimit only without cgroups
    swift build -c release --product push-relay
    python3 scripts/bench_fleet.py                 # DURATION=15 CONNS=32 QUOTA=0.25 MEMBERS=10
    TARGET_PER_MINUTE=1000000 python3 scripts/bench_fleet.py   # the rate the capacity model sizes

Runs as root for cgroups (v1 `cpu` or v2 `cpu.max`); otherwise needs `cpulimit`.
"""

import math
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests" / "PythonSupport"))
import pgcluster  # noqa: E402
from bench_setup import post_within_rate, private_key  # noqa: E402

RELAY_BIN = Path(os.environ.get("RELAY_BIN", ROOT / ".build" / "release" / "push-relay"))
DURATION = int(os.environ.get("DURATION", "15"))
CONNS = int(os.environ.get("CONNS", "32"))  # per relay
QUOTA = float(os.environ.get("QUOTA", "0.25"))
USERS = int(os.environ.get("USERS", "10000"))
MEMBERS = int(os.environ.get("MEMBERS", "10"))
ROUNDS = int(os.environ.get("ROUNDS", "2"))
TARGET_PER_MINUTE = int(os.environ.get("TARGET_PER_MINUTE", "1000000"))
API_TOKEN = "bench-token-0123456789abcdef0123456789abcdef"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
EVENTS_PER_RUN = 400_000  # per relay, more than a step posts; message ids never repeat across steps


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pids, children: bool = False) -> float:
    """User + system CPU of the processes (threads included); `children`: with that of their
    children that have exited (a PostgreSQL backend's, once its connection closed)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
            if children:
                total += int(fields[13]) + int(fields[14])
        except (FileNotFoundError, ProcessLookupError):
            pass
    return total / CLOCK_TICKS


def cap_kind(share: float):
    """How a relay is held to `share` of a CPU here: (cgroup directory or None, description)."""
    period = 100_000
    quota = int(share * period)
    v1 = Path("/sys/fs/cgroup/cpu")
    v2 = Path("/sys/fs/cgroup")
    if (v1 / "cpu.cfs_quota_us").exists() and os.access(v1, os.W_OK):
        return v1, "cgroup v1 cpu.cfs_quota_us", {"cpu.cfs_period_us": period, "cpu.cfs_quota_us": quota}
    if (v2 / "cgroup.controllers").exists() and "cpu" in (v2 / "cgroup.subtree_control").read_text() \
            and os.access(v2, os.W_OK):
        return v2, "cgroup v2 cpu.max", {"cpu.max": f"{quota} {period}"}
    if shutil.which("cpulimit"):
        return None, "cpulimit", {}
    raise SystemExit("no way to cap CPU: run as root with cgroups, or apt-get install cpulimit")


class CPUCap:
    """Holds a process to `share` of one CPU: a cgroup CPU quota (v1 or v2), else `cpulimit`."""

    def __init__(self, name: str, share: float):
        self.share = share
        self.path = None
        self.limiter = None
        root, _, settings = cap_kind(share)
        if root:
            self.path = root / name
            self.path.mkdir(exist_ok=True)
            for key, value in settings.items():
                (self.path / key).write_text(str(value))

    def wrap(self, argv):
        """The command line that starts `argv` inside the cgroup (children inherit it)."""
        if self.path is None:
            return argv
        return ["sh", "-c", f'echo $$ > "{self.path}/cgroup.procs" && exec "$@"', "sh", *argv]

    def attach(self, pid: int):
        if self.path is None:
            self.limiter = subprocess.Popen(["cpulimit", "-l", str(int(self.share * 100)), "-p", str(pid), "-z"],
                                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def close(self):
        if self.limiter:
            self.limiter.terminate()
        if self.path:
            for _ in range(50):
                try:
                    self.path.rmdir()
                    return
                except OSError:
                    time.sleep(0.1)


class Sink:
    """nghttpd answering 200 for every registered token: an APNs that accepts everything."""

    def __init__(self, work: Path):
        docs = work / "htdocs" / "3" / "device"
        docs.mkdir(parents=True)
        for u in range(USERS):
            (docs / f"{u + 1:064x}").write_text("ok\n")
        self.port = free_port()
        self.process = subprocess.Popen(
            ["nghttpd", "-d", str(work / "htdocs"), str(self.port), str(ROOT / "certs/dev/server.key"),
             str(ROOT / "certs/dev/server.pem")], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "nghttpd did not start"
                time.sleep(0.05)

    def stop(self):
        self.process.terminate()
        self.process.wait()


class Postgres:
    def __init__(self):
        self.cluster = pgcluster.Cluster(durable=True)

    def cpu(self) -> float:
        """The server's CPU: the postmaster, its live processes and the backends that ended
        (counted in the postmaster's children's time once it reaped them)."""
        postmaster = int((self.cluster.data / "postmaster.pid").read_text().split()[0])
        children = subprocess.run(["pgrep", "-P", str(postmaster)], capture_output=True, text=True).stdout.split()
        return cpu_seconds([postmaster], children=True) + cpu_seconds(int(p) for p in children)

    def stats(self, url):
        name = url.rsplit("/", 1)[1]
        row = self.cluster.psql(url, f"""
            SELECT xact_commit, tup_inserted + tup_updated + tup_deleted,
                   pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0'), pg_database_size('{name}')
            FROM pg_stat_database WHERE datname = '{name}'""")[0]
        return {"commits": int(row[0]), "rows": int(row[1]), "wal": float(row[2]), "size": int(row[3]),
                "cpu": self.cpu()}


class Run:
    """`count` relays on one store (`sqlite` or `postgres`), each capped to `share` of a CPU or not."""

    def __init__(self, work: Path, sink: Sink, store: str, count: int, share, postgres: Postgres, first_message_id: int):
        self.work = work
        self.store = store
        self.postgres = postgres
        self.caps = []
        self.relays = []
        self.first_message_id = first_message_id
        if store == "postgres":
            self.url = postgres.cluster.create_database()
            database = f"{{postgres: {{url: '{self.url}', node_id: relay-%d}}}}"
        else:
            self.sqlite = work / f"relay-{first_message_id}.sqlite"
            database = f"{{path: {self.sqlite}}}"
        for index in range(count):
            port = free_port()
            config = work / f"relay-{first_message_id}-{index}.yaml"
            config.write_text(
                f"listen: {{host: 127.0.0.1, port: {port}}}\n"
                f"database: {database.replace('%d', str(index))}\n"
                "apps:\n"
                "  - app_id: bench-app\n"
                f"    api_token: {API_TOKEN}\n"
                "    apns:\n"
                "      topic: com.example.pushrelay\n"
                f"      environment: {{url: \"https://127.0.0.1:{sink.port}\", ca_file: {ROOT / 'certs/dev/ca.pem'}}}\n"
                f"      auth: {{token: {{key_file: {private_key(work)}, key_id: DEVKEY1234, "
                "team_id: DEVTEAM123}}\n")
            # As the systemd unit runs it: without CAP_SYS_NICE (scripts/as-service).
            argv = [str(ROOT / "scripts" / "as-service"), str(RELAY_BIN), "serve", "--config", str(config)]
            cap = CPUCap(f"pushrelay-bench-{os.getpid()}-{index}", share) if share else None
            if cap:
                self.caps.append(cap)
                argv = cap.wrap(argv)
            log = open(work / f"relay-{first_message_id}-{index}.log", "wb")
            process = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT)
            if cap:
                cap.attach(process.pid)
            self.relays.append((process, port))
            wait_listening(port, process)
        register_users(self.relays[0][1])

    def pids(self):
        return [p.pid for p, _ in self.relays]

    def unsent(self) -> int:
        sql = "SELECT COUNT(*) FROM deliveries WHERE state IN ('pending', 'in_flight')"
        return self.query(sql)

    def sent(self) -> int:
        return self.query("SELECT COUNT(*) FROM deliveries WHERE state = 'sent'")

    def query(self, sql) -> int:
        if self.store == "postgres":
            return int(self.postgres.cluster.psql(self.url, sql)[0][0])
        with sqlite3.connect(f"file:{self.sqlite}?mode=ro", uri=True, timeout=30) as db:
            return db.execute(sql).fetchone()[0]

    def load(self) -> dict:
        """wrk on every relay at once for DURATION, then waits until every accepted push was sent."""
        before_cpu = cpu_seconds(self.pids())
        self.before_pg = self.postgres.stats(self.url) if self.store == "postgres" else None
        sent_before = self.sent()
        wrks = []
        per_relay = CONNS
        for index, (_, port) in enumerate(self.relays):
            events = self.work / f"events-{self.first_message_id}-{index}.txt"
            subprocess.run([sys.executable, str(ROOT / "scripts/bench_events.py"), str(events), str(EVENTS_PER_RUN // 4),
                            str(USERS), str(self.first_message_id + index * EVENTS_PER_RUN), str(MEMBERS)], check=True)
            env = dict(os.environ, BENCH_EVENTS=str(events), BENCH_THREADS="1", BENCH_PATH="/webhooks/sendbird/bench-app")
            wrks.append(subprocess.Popen(
                ["wrk", "-t", "1", "-c", str(per_relay), "-d", f"{DURATION}s", "-s", str(ROOT / "scripts/bench-post.lua"),
                 f"http://127.0.0.1:{port}"], env=env, stdout=subprocess.PIPE, text=True))
        started = time.monotonic()
        outputs = [w.communicate()[0] for w in wrks]
        while self.unsent() > 0:
            assert time.monotonic() - started < DURATION + 300, "the queue never drained"
            time.sleep(0.2)
        elapsed = time.monotonic() - started
        sent = self.sent() - sent_before
        answered = sum(int(re.search(r"([0-9]+) requests in", o).group(1)) for o in outputs)
        refused = sum(int(re.search(r"non-2xx: ([0-9]+)", o).group(1)) for o in outputs)
        result = {"pushes": sent, "elapsed": elapsed, "rate": sent / elapsed, "events": answered - refused,
                  "refused": refused, "relay_cpu": cpu_seconds(self.pids()) - before_cpu}
        return result

    def database_costs(self) -> dict:
        """What the database did since `load` began; read once the relays stopped, so their
        backends have ended and reported their statistics and CPU."""
        after = self.postgres.stats(self.url)
        return {k: after[k] - self.before_pg[k] for k in after}

    def stop(self):
        for process, _ in self.relays:
            process.send_signal(signal.SIGTERM)
        for process, _ in self.relays:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
        for cap in self.caps:
            cap.close()


def wait_listening(port, process):
    deadline = time.monotonic() + 60
    while True:
        try:
            if requests.get(f"http://127.0.0.1:{port}/ready", timeout=2).status_code == 200:
                return
        except requests.RequestException:
            pass
        assert process.poll() is None, "the relay exited: see its log in the work directory"
        assert time.monotonic() < deadline, "the relay did not become ready"
        time.sleep(0.1)


def register_users(port):
    session = requests.Session()

    def register(u):
        post_within_rate(session, f"http://127.0.0.1:{port}/v3/users/u{u}/push/apns", timeout=60,
                         headers={"Api-Token": API_TOKEN}, json={"apns_device_token": f"{u + 1:064x}"})

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(register, range(USERS)))


def step(label, work, sink, postgres, store, count, share, first):
    run = Run(work, sink, store, count, share, postgres, first)
    try:
        result = run.load()
    finally:
        run.stop()
    if store == "postgres":
        result["pg"] = run.database_costs()
    print(f"{label:<44} {result['rate']:9,.0f} pushes/s  ({result['pushes']:,} pushes of {result['events']:,} events "
          f"in {DURATION} s + {result['elapsed'] - DURATION:.1f} s drain, {result['refused']:,} answered 503; "
          f"relay CPU {result['relay_cpu'] / result['pushes'] * 1e6:.0f} µs/push)", flush=True)
    return result


def main():
    for tool in ("wrk", "nghttpd"):
        if not shutil.which(tool):
            raise SystemExit(f"needs {tool} (apt-get install wrk nghttp2-server)")
    if not RELAY_BIN.exists():
        raise SystemExit(f"{RELAY_BIN} missing: swift build -c release --product push-relay")
    work = Path(tempfile.mkdtemp(prefix="bench-fleet-"))
    sink = Sink(work)
    postgres = Postgres()
    try:
        print(f"== {time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, {RELAY_BIN}, wrk {CONNS} connections per relay, "
              f"{DURATION} s per step, channels of {MEMBERS}, CPU cap {QUOTA} per relay in 3-4 ({cap_kind(QUOTA)[1]})",
              flush=True)
        sqlite_one = step("1. one relay, SQLite", work, sink, postgres, "sqlite", 1, None, 10_000_000)
        pg_one = step("2. one relay, PostgreSQL", work, sink, postgres, "postgres", 1, None, 20_000_000)
        # Capped steps alternate, ROUNDS times: the machine's speed drifts between steps, and a
        # pair measured back to back, repeated, shows how much.
        ones, twos = [], []
        for n in range(ROUNDS):
            first = 30_000_000 + n * 20_000_000
            ones.append(step(f"3. one relay, PostgreSQL, {QUOTA} CPU", work, sink, postgres, "postgres", 1, QUOTA, first))
            twos.append(step(f"4. two relays, PostgreSQL, {QUOTA} CPU each", work, sink, postgres, "postgres", 2, QUOTA,
                             first + 10_000_000))
        print("== ratios")
        print(f"PostgreSQL / SQLite, one relay:   {pg_one['rate'] / sqlite_one['rate']:.2f} x   (goal >= 0.5)")
        pairs = ", ".join(f"{two['rate'] / one['rate']:.2f}" for one, two in zip(ones, twos))
        print(f"two relays / one, same CPU cap:   {sum(t['rate'] for t in twos) / sum(o['rate'] for o in ones):.2f} x   "
              f"(goal >= 1.7; each round: {pairs})")
        model(pg_one, twos[-1])
    finally:
        sink.stop()
        postgres.cluster.stop()
        shutil.rmtree(work, ignore_errors=True)


def model(pg_one, fleet):
    """Costs per push measured above, and what a target rate needs."""
    pushes = pg_one["pushes"]
    pg = pg_one["pg"]
    relay_cpu = pg_one["relay_cpu"] / pushes
    pg_cpu = pg["cpu"] / pushes
    print(f"== costs per push (step 2, {pushes:,} pushes; in step 4: relay CPU {fleet['relay_cpu'] / fleet['pushes'] * 1e6:.0f} µs, "
          f"PostgreSQL CPU {fleet['pg']['cpu'] / fleet['pushes'] * 1e6:.0f} µs, commits {fleet['pg']['commits'] / fleet['pushes']:.3f})")
    print(f"relay CPU        {relay_cpu * 1e6:8.0f} µs")
    print(f"PostgreSQL CPU   {pg_cpu * 1e6:8.0f} µs")
    print(f"commits          {pg['commits'] / pushes:8.3f}")
    print(f"rows written     {pg['rows'] / pushes:8.2f}")
    print(f"WAL              {pg['wal'] / pushes:8.0f} bytes")
    print(f"database growth  {pg['size'] / pushes:8.0f} bytes (until pruned: delivery.prune_after)")
    rate = TARGET_PER_MINUTE / 60
    cores_per_relay = 2
    headroom = 0.6  # plan for 60 % busy: bursts, retries, a relay down
    relays = math.ceil(rate * relay_cpu / (cores_per_relay * headroom)) + 1
    pg_cores = rate * pg_cpu / headroom
    print(f"== capacity model for {TARGET_PER_MINUTE:,} pushes/minute ({rate:,.0f}/s), planning for {headroom:.0%} busy")
    print(f"relays           {relays} of {cores_per_relay} cores (one more than the load needs, to lose one)")
    print(f"PostgreSQL       {pg_cores:.1f} cores, {rate * pg['commits'] / pushes:,.0f} commits/s, "
          f"WAL {rate * pg['wal'] / pushes / 1e6:.1f} MB/s, "
          f"{rate * pg['size'] / pushes * 86400 / 1e9:.0f} GB per day of delivery.prune_after")


if __name__ == "__main__":
    main()
