"""A fleet: three `push-relay serve` on one PostgreSQL database behind the test's own round-robin
of webhook posts (`FleetLoad`), against one `apns-mock` (and, where relays die, `webpush-mock`
too: a share of the users hold a browser's Web Push subscription). Sendbird's retry is played by the
senders: after an error or a 503, on the next relay.

- Random SIGKILLs under load, each relay restarted at once or a little later: every push of every
  event answered 200 reaches the mock. A relay's accepted events are sent by it, or, when it died
  holding them, by the others once its lease (5 s here) ran out or by itself after its restart.
  Duplicates (the same message recorded twice for one device) are reported and bounded by what can be in flight at the kills.
- A rolling restart under load (SIGTERM each relay in turn, as an upgrade does, and start it
  again before the next): nothing lost, every relay exits 0.

Knobs (environment): FLEET_EVENTS (default 1500), FLEET_KILLS (6), FLEET_SENDERS (4), FLEET_SEED.
"""

import os
import random
import time

import pytest

from cluster import MOCK_BIN, RELAY_BIN, WEBPUSH_MOCK_BIN, WINDOW, Fleet, FleetLoad, provider_of

EVENTS = int(os.environ.get("FLEET_EVENTS", "1500"))
KILLS = int(os.environ.get("FLEET_KILLS", "6"))
SENDERS = int(os.environ.get("FLEET_SENDERS", "4"))
SEED = int(os.environ.get("FLEET_SEED", str(int(time.time()))))

needs_build = pytest.mark.skipif(not all(b.exists() for b in (RELAY_BIN, MOCK_BIN, WEBPUSH_MOCK_BIN)),
                                 reason="build first (scripts/test does)")


def settle(fleet: Fleet, load: FleetLoad, what: str, bound: int) -> tuple:
    """Waits for the stream's end and every accepted push at the mock; asserts nothing is missing
    and at most `bound` duplicates. Returns (pushes expected, duplicates)."""
    load.join()
    assert not load.unexpected, load.unexpected[:5]
    want = load.want()
    # Pushes a stopped relay held come back when its lease runs out or it restarts.
    fleet.wait_delivered(want, deadline_s=180)
    pairs = fleet.pairs()
    got = set(pairs)
    missing = want - got
    duplicates = len(pairs) - len(got)
    webpush = sum(provider_of(token) == "webpush" for _, token in want)
    print(f"\n{what}: seed {SEED}, {len(load.expected)} events answered 200 ({load.answers['accepted']} accepted, "
          f"{load.answers['duplicate']} duplicate, {load.answers['retried']} retried on another relay, "
          f"{load.counts().get(503, 0)} deferred by 503), {len(want)} pushes expected ({webpush} Web Push), "
          f"{len(got & want)} recorded, "
          f"{len(missing)} missing, {duplicates} duplicates (bound {bound})")
    assert not missing, f"{len(missing)} accepted pushes never reached their provider, e.g. {sorted(missing)[:5]}"
    assert duplicates <= bound
    return len(want), duplicates


@needs_build
def test_three_relays_lose_nothing_when_relays_die(tmp_path):
    rng = random.Random(SEED)
    fleet = Fleet(tmp_path, size=3, webpush=True)
    try:
        fleet.register_users()
        load = FleetLoad(fleet, 2_000_000, events=EVENTS, senders=SENDERS).start()
        kills = 0
        for _ in range(KILLS):
            time.sleep(rng.uniform(0.2, 0.8))
            victim = rng.randrange(fleet.size)
            if fleet.nodes[victim] is None:
                continue
            fleet.kill(victim)
            kills += 1
            # Restarted at once or a little later: both kinds of takeover get exercised.
            if rng.random() < 0.5:
                time.sleep(rng.uniform(0.5, 2.0))
            fleet.start(victim)
        settle(fleet, load, f"fleet, 3 relays, {kills} SIGKILLs", bound=max(kills, 1) * WINDOW)
    finally:
        fleet.stop()


@needs_build
def test_a_rolling_restart_of_three_relays_loses_nothing(tmp_path):
    fleet = Fleet(tmp_path, size=3)
    try:
        fleet.register_users()
        load = FleetLoad(fleet, 4_000_000, senders=SENDERS, pace=0.01).start()
        exits = []
        for index in range(fleet.size):
            # Each relay stops under load: some events accepted, then SIGTERM, then back.
            before = load.accepted()
            deadline = time.monotonic() + 60
            while load.accepted() < before + 50:
                assert time.monotonic() < deadline, "the fleet stopped accepting events"
                time.sleep(0.05)
            exits.append(fleet.terminate(index))
            fleet.start(index)
        before = load.accepted()
        deadline = time.monotonic() + 60
        while load.accepted() < before + 50:
            assert time.monotonic() < deadline, "the fleet stopped accepting events after the restart"
            time.sleep(0.05)
        load.stop()
        assert exits == [0, 0, 0], f"exit statuses {exits}"
        # A graceful stop puts back what it had not sent; only a push on the wire when the grace
        # ran out can go twice.
        settle(fleet, load, "rolling restart, 3 relays", bound=fleet.size * WINDOW)
    finally:
        fleet.stop()
