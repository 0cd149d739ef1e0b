"""The device loop (osada_fw/app.py) under a hard host and hard time: a host
that never reads (or reads a few lines and stops) leaves the device bounded
and playing, every line delivered or counted; a slow line gets at most the
write budget a tick; a half line from a host that went away is dropped;
the cursor's blink survives ticks_ms's wrap; a configured buzzer sounds
what a player must not miss, and only that."""

import json

from osada_fw import app as app_mod
from osada_fw.hal.fake import ManualClock, MemorySerial
from tests.support.device import CFG, Dev, snapshot, to_cell

# ==================================================== a host that never reads


def test_host_that_never_reads(tmp_path):
    serial = MemorySerial(capacity=0)
    dev = Dev(tmp_path, serial=serial)
    limit = dev.app.outbox.limit
    max_line = CFG["serial"]["max_line"]
    e = dev.app.siege.game.enemies[0]
    target = (e.sector - 1) * 5 + e.line
    for _ in range(target):
        dev.hw.inputs.turn(1)
    frames = dev.hw.leds.writes
    for k in range(300):
        serial.host_send(b'{"id": %d, "cmd": "state"}\n{"cmd": "act", "action": {"do": "patrol"}}\n'
                         b'{"cmd": "hello"}\n' % k)
        if k % 2:
            dev.hw.inputs.press("action")            # hit
        else:
            dev.hw.inputs.press("back", long=True)   # undo it
        dev.clock.advance(40)
        dev.app.tick()
        assert dev.app.outbox.pending() <= limit
        assert len(dev.app.reader.buf) <= max_line
    assert serial.host_take() == b""
    # the device kept working: the buttons played, the LEDs were drawn
    assert dev.hw.leds.writes - frames >= 250
    assert dev.app.siege.game.log.dicts() in ([], [{"do": "hit", "enemy": e.id}], [{"do": "patrol"}],
                                        [{"do": "patrol"}, {"do": "hit", "enemy": e.id}])
    # the host reads again, and asks something
    serial.capacity = 1 << 20
    reply, pushed = dev.ok("hello")
    msgs = pushed + [reply]
    over = [m for m in msgs if m.get("ev") == "overflow"]
    assert over and over[0]["dropped"] >= 1
    # it comes before the reply to the host's first new request
    assert msgs.index(over[0]) < msgs.index(reply)
    # resync: the state it then asks for is the device's
    st, seq = dev.state()
    assert (st, seq) == snapshot(dev)
    assert dev.app.outbox.pending() <= limit


def test_host_that_never_reads_small_buffer(tmp_path):
    """A host whose buffer holds a few lines and then is never read: the
    device stays bounded; once the host reads again, every line is either
    delivered or counted in an overflow note, never lost silently."""
    serial = MemorySerial(capacity=300)
    dev = Dev(tmp_path, serial=serial)
    limit = dev.app.outbox.limit
    rolls = 0
    for k in range(2000):
        serial.host_send(b'{"id": %d, "cmd": "log"}\n' % k)
        dev.clock.advance(5)
        dev.app.tick()
        assert dev.app.outbox.pending() <= limit
        if k % 50 == 0:
            dev.hw.inputs.press("encoder")          # free rolls push events
            rolls += 1
    assert len(serial.outbox) == 300
    dev.collect()                                   # the host reads what it held ...
    early = dev.take()
    assert dev.boot_msgs[0]["ev"] == "boot" and early[0]["id"] == 0
    serial.capacity = 1 << 20                       # ... and from now on, everything
    reply, pushed = dev.ok("hello")
    msgs = early + pushed + [reply]
    for _ in range(1000):
        if not serial.inbox and dev.app.outbox.pending() == 0:
            break
        dev.tick()
    msgs += dev.take()
    log_replies = [m for m in msgs if "ok" in m and m["id"] != reply["id"]]
    assert all(m["ok"] and m["actions"] == [] for m in log_replies)
    roll_events = [m for m in msgs if m.get("ev") == "roll"]
    dropped = sum(m["dropped"] for m in msgs if m.get("ev") == "overflow")
    assert len(log_replies) + len(roll_events) + dropped == 2000 + rolls
    ids = [m["id"] for m in log_replies]
    assert ids == sorted(set(ids))                  # in order, none twice


# ============================================================== output budget


class SlowSerial(MemorySerial):
    """A USB line whose every write() takes WRITE_MS of the app's (manual)
    clock and 64 bytes at most: the time a slow host costs is simulated, so
    what is asserted does not depend on how loaded the machine is."""

    WRITE_MS = 2

    def __init__(self, clock):
        MemorySerial.__init__(self)
        self.clock = clock
        self.write_ms = 0          # simulated time spent writing since reset
        self.writes = 0

    def write(self, data):
        self.clock.advance(self.WRITE_MS)
        self.write_ms += self.WRITE_MS
        self.writes += 1
        return MemorySerial.write(self, data[:64])


def test_tick_output_stays_within_the_write_budget(tmp_path):
    # A lot to send over a slow line: the app writes at most WRITE_BUDGET_MS
    # a tick (plus the write under way when it runs out), so the loop, the
    # LEDs and the buttons stay live; a budget per request line (an old bug)
    # spent 15-19 writes (30-38 ms) in one tick here.
    clock = ManualClock()
    serial = SlowSerial(clock)
    dev = Dev(tmp_path, serial=serial, clock=clock)
    app = dev.app
    for k in range(40):
        serial.host_send(b'{"id": %d, "cmd": "state"}\n' % k)
    serial.host_send(b'{"id": 99, "cmd": "log"}\n{"id": 100, "cmd": "leds"}\n')
    dev.hw.inputs.press("encoder")
    worst = 0
    ticks = 0
    got = b""
    for ticks in range(1, 3000):
        serial.write_ms = 0
        app.tick()
        worst = max(worst, serial.write_ms)
        got += serial.host_take()
        if b'"id": 100' in got and not serial.inbox and app.outbox.pending() == 0:
            break
    msgs = [json.loads(line) for line in got.splitlines()]
    assert [m["id"] for m in msgs if "ok" in m] == list(range(40)) + [99, 100]    # all answered, in order
    assert len([m for m in msgs if m.get("ev") == "roll"]) == 1                   # the button was seen
    assert app_mod.WRITE_BUDGET_MS <= 10
    assert worst <= app_mod.WRITE_BUDGET_MS + SlowSerial.WRITE_MS, "%d ms writing in one tick" % worst
    assert ticks > 10 and serial.writes > 100          # the line really was the bottleneck


# ============================================================== the tick wrap


class WrapClock:
    """time.ticks_ms() as on the Pico: wraps at 2**30; diff is ticks_diff."""

    P = 1 << 30

    def __init__(self, start):
        self.t = start

    @property
    def now(self):
        return self.t % self.P

    def ticks_ms(self):
        return self.t % self.P

    def advance(self, ms):
        self.t += ms

    def diff(self, a, b):
        d = (a - b) & (self.P - 1)
        return d - self.P if d >= self.P // 2 else d


def _cursor_after_a_roll(tmp_path, start):
    """The colours the cursor's LED shows in 1 s before a die roll made at
    start + ~1 s, and in 1 s starting 5 s after it."""
    clock = WrapClock(start)
    dev = Dev(tmp_path, clock=clock)
    i = dev.app.layout.index(1, 0)                 # the cursor's cell at start

    def cursor_colours():
        seen = set()
        for _ in range(40):
            dev.tick(ms=25)
            seen.add(tuple(dev.app.frame.rgb_list()[i]))
        return seen

    before = cursor_colours()
    dev.press("encoder")                           # roll, shown for 1.5 s
    rolled_at = clock.ticks_ms()
    dev.tick(ms=5000)                              # long over
    return before, cursor_colours(), rolled_at, clock.ticks_ms()


def test_cursor_comes_back_after_a_roll(tmp_path):
    before, after, _, _ = _cursor_after_a_roll(tmp_path, 0)
    assert len(before) == 2                        # the cursor blinks
    assert after == before


def test_cursor_comes_back_after_a_roll_across_the_tick_wrap(tmp_path):
    before, after, rolled_at, now = _cursor_after_a_roll(tmp_path, WrapClock.P - 2000)
    assert rolled_at > WrapClock.P - 1500 and now < 10000      # the roll's 1.5 s spanned the wrap
    assert len(before) == 2
    assert after == before


# ======================================================= line timeout, buzzer


def test_a_half_line_left_by_a_host_that_went_away_is_dropped(tmp_path):
    """A partial line with no more bytes for 2 s is forgotten, so the next
    host's first request is answered instead of being glued onto it."""
    dev = Dev(tmp_path)
    dev.send_raw(b'{"id": 5, "cmd": "hel')
    dev.tick(n=3, ms=10)
    assert dev.take() == []                       # still waiting for the rest
    dev.tick(n=3, ms=1000)                        # the sender is gone
    dropped = dev.take()                          # and the next host is told why
    assert [m["ev"] for m in dropped] == ["line_timeout"]
    assert dropped[0]["bytes"] == 21 and "no line end" in dropped[0]["error"]
    reply, pushed = dev.request("hello")
    assert reply["ok"] is True and [m for m in pushed if "ok" in m] == []
    # a slow sender that keeps going is not cut off
    dev.send_raw(b'{"id": 6, "cmd": ')
    dev.tick(n=1, ms=1500)
    dev.send_raw(b'"hello"}\n')
    dev.tick(n=2, ms=10)
    assert [m for m in dev.take() if m.get("id") == 6][0]["ok"] is True


def test_a_configured_buzzer_sounds_what_a_player_must_not_miss(tmp_path):
    """hardware/README.md offers a buzzer ("buzzer": {"pin": N}); it sounds a
    refused button action, a lost building and the end of the game, and is
    silent for the rest (moves, reveals, state pushes)."""
    from osada_fw.hal.fake import FakeBuzzer
    from osada_fw.tones import TONES
    dev = Dev(tmp_path, boot=False)
    bz = dev.hw.buzzer = FakeBuzzer()
    dev.app.boot()
    dev.ok("new", seed=21)
    dev.ok("act", action={"do": "push_back", "enemy": 1})
    assert bz.tones == []                                   # quiet play
    to_cell(dev, dev.app.siege.game.enemy(1).sector, 0)
    dev.press("action")                                     # R10: refused from the buttons
    assert bz.tones == [TONES["refused"]]
    del bz.tones[:]
    # a game that loses its last building on the first move
    lost = {"board": {"walls": [], "buildings": [1],
                      "enemies": [{"kind": "maus", "sector": 1, "line": "tank"}]}, "seed": 1}
    dev.app.siege.new_game(lost)                                  # (the protocol's new takes no board)
    dev.ok("act", action={"do": "end_turn"})                # the enemy phase: the Maus reaches the city
    assert dev.app.siege.game.outcome == "lost"
    assert bz.tones == [TONES["building_destroyed"], TONES["lost"]]
