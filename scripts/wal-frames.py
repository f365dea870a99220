#!/usr/bin/env python3
"""Which tables and indexes the relay's commits write: the frames in a SQLite database's WAL,
counted by the b-tree each page belongs to.

    python3 scripts/wal-frames.py /var/lib/push-relay/relay.sqlite

Run it while the relay is under load: the WAL then holds the frames written since it last
restarted (every commit's pages, the event commits' and the dispatcher's). Each frame is a whole
page (4 KB), so this is where the disk's write bytes go, and what a checkpoint copies back.
Reads only: the WAL file as it is, and the database through a read-only connection (its
`dbstat` table says which b-tree owns each page).
"""
import collections
import sqlite3
import struct
import sys

if len(sys.argv) != 2:
    sys.exit(__doc__)
db = sys.argv[1]
try:
    data = open(db + "-wal", "rb").read()
except FileNotFoundError:
    sys.exit(f"no {db}-wal: the database is not in WAL mode, or nothing has it open")
if len(data) < 32:
    sys.exit("the WAL is empty")
_, _, page_size, _, salt1, salt2, _, _ = struct.unpack(">8I", data[:32])
frames, commits, offset = [], 0, 32
# Frames of the WAL's current generation carry its header's salts; the first that does not (or a
# partial one, still being written) ends it.
while offset + 24 + page_size <= len(data):
    page, commit_size, s1, s2 = struct.unpack(">4I", data[offset:offset + 16])
    if (s1, s2) != (salt1, salt2):
        break
    frames.append(page)
    commits += commit_size != 0
    offset += 24 + page_size
if not frames:
    sys.exit("no frames in the WAL's current generation")
connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
try:
    owner = dict(connection.execute("SELECT pageno, name FROM dbstat"))
except sqlite3.OperationalError as error:
    sys.exit(f"cannot read dbstat ({error}): this Python's SQLite lacks SQLITE_ENABLE_DBSTAT_VTAB")
by_tree = collections.Counter(owner.get(page, "(free or new)") for page in frames)
# A transaction still being written has frames but no commit frame yet.
per_commit = f"{len(frames) / commits:.1f} per commit" if commits else "no commit yet"
print(f"{len(frames):,} frames of {page_size} bytes in {commits:,} commits "
      f"({per_commit}), {len(set(frames)):,} distinct pages")
for name, count in by_tree.most_common():
    print(f"{count:8,} {100 * count / len(frames):5.1f} %  {name}")
