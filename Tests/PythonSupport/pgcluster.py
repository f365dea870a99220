"""A throwaway PostgreSQL cluster for the Python suites: `initdb` + `pg_ctl` in a temporary
directory on a free loopback port (Debian's postgresql package provides the binaries). As root,
which CI is and which initdb refuses, the server runs as the unprivileged `postgres` user.
Each relay gets a database of its own (`create_database`)."""

import atexit
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path

USER = "pushrelay"


def _bindir():
    for candidate in [os.environ.get("PG_BINDIR")] + sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if candidate and Path(candidate, "initdb").exists():
            return Path(candidate)
    try:
        return Path(subprocess.check_output(["pg_config", "--bindir"], text=True).strip())
    except (OSError, subprocess.CalledProcessError):
        raise RuntimeError("PostgreSQL server binaries not found: install Debian's `postgresql` (.ci/run does)")


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """`durable`: fsync on, as a production server runs (the benchmarks); the tests run without."""

    def __init__(self, durable: bool = False):
        self.durable = durable
        self.bindir = _bindir()
        self.directory = Path(tempfile.mkdtemp(prefix="pushrelay-pg-"))
        self.data = self.directory / "data"
        self.port = _free_port()
        self.as_postgres = os.geteuid() == 0
        if self.as_postgres:
            shutil.chown(self.directory, "postgres", "postgres")
        self._run("initdb", "-A", "trust", "-U", USER, "--no-sync", "-D", str(self.data))
        self.start_server()
        atexit.register(self.stop)

    def start_server(self):
        options = f"-p {self.port} -k {self.directory} -c listen_addresses=127.0.0.1 -c max_connections=300"
        if not self.durable:
            options += " -c fsync=off"
        else:
            # As docs/operations.md ("Sizing") advises: room for WAL between checkpoints, so
            # full-page images do not double it under a steady write load.
            options += " -c shared_buffers=256MB -c max_wal_size=4GB -c checkpoint_timeout=15min"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.directory / "server.log"), "-w", "-o", options, "start")

    def stop_server(self):
        """Stops the server as an outage would (connections cut); `start_server` brings it back."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def _run(self, tool, *args):
        command = [str(self.bindir / tool), *args]
        if self.as_postgres:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def create_database(self):
        """A new empty database; returns its URL for `database.postgres.url`."""
        name = "t_" + uuid.uuid4().hex[:16]
        subprocess.run(
            [str(self.bindir / "psql"), "-h", "127.0.0.1", "-p", str(self.port), "-U", USER, "-d", "postgres",
             "-v", "ON_ERROR_STOP=1", "-q", "-c", f"CREATE DATABASE {name}"],
            check=True, stdout=subprocess.DEVNULL)
        return f"postgres://{USER}@127.0.0.1:{self.port}/{name}"

    def psql(self, url, sql):
        """Runs `sql` against the database of `url`; returns the rows as lists of strings."""
        database = url.rsplit("/", 1)[1]
        out = subprocess.run(
            [str(self.bindir / "psql"), "-h", "127.0.0.1", "-p", str(self.port), "-U", USER, "-d", database,
             "-v", "ON_ERROR_STOP=1", "-q", "-A", "-t", "-F", "\t", "-c", sql],
            check=True, capture_output=True, text=True).stdout
        return [line.split("\t") for line in out.splitlines() if line]

    def stop(self):
        if self.data.exists():
            try:
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
            except subprocess.CalledProcessError:
                pass
        shutil.rmtree(self.directory, ignore_errors=True)


_cluster = None


def cluster():
    """The process's one cluster, started on first use."""
    global _cluster
    if _cluster is None:
        _cluster = Cluster()
    return _cluster
