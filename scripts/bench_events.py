"""Pre-signed webhook events for the benchmarks (bench-relay.sh, bench-compare.sh): channels of
MEMBERS members (default 10: the sender, 1 online, 8 offline; in general 80 % offline), unique
message ids, users u0…u(USERS-1), signed with the benchmark app's token. One line per event:
`<hex signature> <body>`.

    python3 scripts/bench_events.py OUT.txt EVENTS USERS [FIRST_MESSAGE_ID [MEMBERS]]
"""
import hashlib
import hmac
import json
import os
import random
import sys

KEY = b"bench-token-0123456789abcdef0123456789abcdef"


def main(out_path, n, users, first_id=1_000_000, members=10):
    random.seed(7)
    with open(out_path, "w") as out:
        for i in range(n):
            ids = random.sample(range(users), members)
            online = members - members * 8 // 10  # the sender included
            member_list = [{"user_id": f"u{ids[0]}", "nickname": "sender", "is_online": True, "state": "joined"}]
            member_list += [{"user_id": f"u{u}", "nickname": "online", "is_online": True, "state": "joined"}
                            for u in ids[1:online]]
            member_list += [{"user_id": f"u{u}", "nickname": f"n{u}", "is_online": False, "state": "joined",
                             "total_unread_message_count": 2} for u in ids[online:]]
            event = {"category": "group_channel:message_send", "app_id": "bench-app", "type": "MESG",
                     "sender": {"user_id": f"u{ids[0]}", "nickname": "Jane"}, "members": member_list,
                     "payload": {"message_id": first_id + i, "created_at": 1700000000000,
                                 "message": "hello from the benchmark, message %d" % i},
                     "channel": {"channel_url": f"channel-{ids[0]}", "name": "Bench"}}
            body = json.dumps(event, separators=(",", ":"))
            out.write(hmac.new(KEY, body.encode(), hashlib.sha256).hexdigest() + " " + body + "\n")
        # On disk before any measurement starts: 200,000 events are ~400 MB of dirty pages, and
        # their writeback queued ahead of the relay's WAL fsyncs stalled its commits for ~0.5 s
        # (the open-loop p99 at a tenth of the load was 17-630 ms instead of ~20).
        out.flush()
        os.fsync(out.fileno())


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), *(int(a) for a in sys.argv[4:6]))
