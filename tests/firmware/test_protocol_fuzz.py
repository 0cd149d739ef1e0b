"""Fuzzing the USB protocol of the firmware app (firmware/osada_fw/app.py,
protocol.py) on the fake hardware.

Over 100,000 seeded random and mutated request lines go through
MemorySerial.host_send + App.tick(): valid requests with bytes flipped,
inserted, deleted, cut; every field given a wrong type, a huge number, nested
JSON, NaN; NUL, 0x03, CR and invalid UTF-8; overlong lines; lines split over
several reads and many lines in one read.  Throughout:

- every line the device writes is one JSON object;
- every complete line gets exactly one reply (`ok` true or false), in order,
  echoing the line's `id` when it had a readable one (null otherwise), and a
  line over max_line gets one "too long" error; blank lines get nothing;
- a refused line pushes nothing (no event between the previous reply and its
  error) and no reply is an "internal error";
- the game state is unchanged by every batch whose lines were all refused or
  read-only;
- afterwards the app still answers `hello`, its state is the engine's replay of
  its own log, and a new App booted on the same flash restores the very same
  game."""

import json
import os
import random
import re
import sys
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
try:
    import osada_fw  # noqa: F401
except ImportError:  # run from the tree
    sys.path[:0] = [os.path.join(ROOT, "firmware"), ROOT, os.path.join(ROOT, "host")]

from osada_fw.app import App  # noqa: E402
from osada_fw.config import led_count, load  # noqa: E402
from osada_fw.hal.fake import FakeHardware, ManualClock  # noqa: E402
from shared_rules.jsonout import dumps  # noqa: E402
from shared_rules.siege.catalog import KIND_IDS, MODES, VARIANTS  # noqa: E402
from shared_rules.siege.engine import replay  # noqa: E402

CFG = load(os.path.join(ROOT, "firmware", "config.json"))
MAX_LINE = CFG["serial"]["max_line"]
N_LINES = 100_000
SEED = 0x05ADA

MUTATING = ("act", "new", "undo", "press", "repl")   # an accepted one may change the game
CARDS = [
    None,
    {"arm": "air", "color": "red"}, {"arm": "artillery", "color": "green"},
    {"arm": "tank", "color": "blue"}, {"arm": "tank", "color": "any"},
    {"type": "counterattack", "color": "red"}, {"type": "il2"},
    {"type": "precise_shot", "with": {"arm": "air", "color": "any"}},
    {"type": "precise_shot", "with": {"type": "counterattack", "color": "blue"}},
    {"type": "all_for_one", "color": "green"},
]


def _action(rng):
    do = rng.choice(("hit", "kill", "hedgehog", "dot", "push_back", "rebuild", "patrol",
                     "move", "reveal", "end_turn", "choose", "marshal_play"))
    a = {"do": do}
    if do in ("hit", "kill", "hedgehog", "push_back", "choose"):
        a["enemy"] = rng.randint(1, 12)
    if do in ("hit", "kill"):
        card = rng.choice(CARDS)
        if card is not None:
            a["card"] = card
    if do in ("dot", "rebuild"):
        a["sector"] = rng.randint(1, 6)
    if do == "marshal_play":
        a["tokens"] = [rng.choice(KIND_IDS) for _ in range(rng.randint(0, 3))]
        if rng.random() < 0.3:
            a["sector"] = rng.randint(1, 6)
    return a


def valid_request(rng):
    r = rng.random()
    if r < 0.30:
        req = {"cmd": "act", "action": _action(rng)}
    elif r < 0.42:
        req = {"cmd": rng.choice(("hello", "state", "log", "leds", "roll"))}
    elif r < 0.50:
        req = {"cmd": "undo"}
    elif r < 0.58:
        req = {"cmd": "new"}
        for k, gen in (("players", lambda: rng.randint(1, 6)), ("mode", lambda: rng.choice(MODES)),
                       ("variants", lambda: rng.sample(VARIANTS, rng.randint(0, 3))),
                       ("seed", lambda: rng.randint(0, 0xFFFFFFFF))):
            if rng.random() < 0.6:
                req[k] = gen()
    elif r < 0.93:
        if rng.random() < 0.5:
            req = {"cmd": "press", "turn": rng.choice((1, -1))}
        else:
            req = {"cmd": "press", "button": rng.choice(("action", "back", "encoder"))}
            if rng.random() < 0.4:
                req["long"] = rng.random() < 0.5
    elif r < 0.94:
        req = {"cmd": "repl"}
    else:
        req = {"cmd": rng.choice(("help", "reset", "HELLO", "", "act ", "state\u0000"))}
    if rng.random() < 0.8:
        req["id"] = rng.randint(-(1 << 30), (1 << 30) - 1)
    return req


def _small_int(rng, _depth):
    return rng.randint(-3, 10)


def _weird_list(rng, depth):
    """A short list of weird values; a small int once nested 3 deep."""
    if depth >= 3:
        return _small_int(rng, depth)
    return [weird_value(rng, depth + 1) for _ in range(rng.randint(1, 4))]


def _weird_dict(rng, depth):
    """A small dict of request keys to weird values; a small int once nested 3 deep."""
    if depth >= 3:
        return _small_int(rng, depth)
    return {rng.choice(("do", "enemy", "card", "arm", "color", "type", "with", "sector", "tokens",
                        "cmd", "id", "x")): weird_value(rng, depth + 1) for _ in range(rng.randint(1, 3))}


def _deep_list(rng, _depth):
    v = 1
    for _ in range(rng.randint(2, 200)):
        v = [v]
    return v


def _deep_dict(rng, _depth):
    v = 1
    for _ in range(rng.randint(2, 100)):
        v = {"a": v}
    return v


# weird_value draws one of these, each (rng, depth) -> value, with equal odds
# (the small ints come last, five times over).
WEIRD_VALUES = (
    lambda rng, _d: None,
    lambda rng, _d: rng.random() < 0.5,
    lambda rng, _d: rng.choice((0, -1, 1, 2, 7, 255, 256, 65535, 65536)),
    lambda rng, _d: rng.choice((1 << 30, (1 << 30) - 1, -(1 << 30) - 1, 1 << 31, 1 << 32, 1 << 63, -(1 << 63))),
    lambda rng, _d: 10 ** rng.randint(19, 300) * rng.choice((1, -1)),
    lambda rng, _d: rng.choice((0.0, 1.5, -1.5, 2.0, 1e308, -1e308, 5e-324, 1e-7)),
    lambda rng, _d: rng.choice((float("nan"), float("inf"), float("-inf"))),
    lambda rng, _d: "",
    lambda rng, _d: rng.choice(("1", "true", "null", "hit", "action", "red", "sdkfz", "\u0000", "\u0003",
                                "\ud800", "\udfff", "é", "Осада", "\U0001F600", "\\", "\"", "\n")),
    lambda rng, _d: "x" * rng.randint(1, 300),
    lambda rng, _d: [],
    lambda rng, _d: {},
    _weird_list,
    _weird_dict,
    _deep_list,
    _deep_dict,
    lambda rng, _d: rng.choice(KIND_IDS),
    lambda rng, _d: rng.choice(MODES + VARIANTS),
    lambda rng, _d: [rng.choice(KIND_IDS + VARIANTS) for _ in range(rng.randint(0, 12))],
    lambda rng, _d: rng.randint(-5, 70000),
    lambda rng, _d: rng.choice((1.0, -1.0, 1.0, -1.0, 0.999, 3.0, -0.0)),
) + (_small_int,) * 5


def weird_value(rng, depth=0):
    """One odd JSON-ish value (nested ones `depth` levels down)."""
    return WEIRD_VALUES[rng.randrange(len(WEIRD_VALUES))](rng, depth)


def _paths(obj, prefix=()):
    """Every (container, key) of a request, nested ones included."""
    out = []
    if isinstance(obj, dict):
        for k in list(obj):
            out.append((obj, k))
            out.extend(_paths(obj[k], prefix + (k,)))
    elif isinstance(obj, list):
        for i in range(len(obj)):
            out.append((obj, i))
            out.extend(_paths(obj[i], prefix + (i,)))
    return out


def field_mutation(rng):
    req = valid_request(rng)
    for _ in range(rng.randint(1, 3)):
        paths = _paths(req)
        r = rng.random()
        if r < 0.7 and paths:
            cont, k = rng.choice(paths)
            cont[k] = weird_value(rng)
        elif r < 0.85 and paths:
            cont, k = rng.choice(paths)
            if isinstance(cont, dict):
                del cont[k]
            else:
                cont.pop(k)
        else:
            req[rng.choice(("id", "cmd", "action", "players", "mode", "variants", "seed", "turn",
                            "button", "long", "extra", "", "\u0000"))] = weird_value(rng)
    if rng.random() < 0.05:
        req = rng.choice(([req], [req, req], "req", 7, None, True))
    try:
        text = json.dumps(req, ensure_ascii=rng.random() < 0.7, separators=rng.choice(((",", ":"), (", ", ": "))))
    except (ValueError, RecursionError):
        text = "{}"
    return text.encode("utf-8", "surrogatepass")


NASTY = (b"\x00", b"\x03", b"\xff", b"\xfe", b"\xc0\x80", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\r",
         b"\t", b"\x0b", b"\x0c", b"\x1b", b"\x7f", b"\"", b"\\", b"{", b"}", b"[", b"]", b":", b",",
         b"\n", b" ", b"\xe2\x80\xa8", b"\xef\xbb\xbf")


def byte_mutation(rng):
    raw = bytearray(json.dumps(valid_request(rng)).encode())
    for _ in range(rng.randint(1, 4)):
        r = rng.randrange(8)
        pos = rng.randint(0, len(raw))
        if r == 0 and raw:                                      # flip a bit
            i = rng.randrange(len(raw))
            raw[i] ^= 1 << rng.randrange(8)
        elif r == 1:                                            # insert a nasty byte
            raw[pos:pos] = rng.choice(NASTY)
        elif r == 2:                                            # insert random bytes
            raw[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        elif r == 3 and raw:                                    # delete a run
            del raw[pos:pos + rng.randint(1, 6)]
        elif r == 4:                                            # truncate
            del raw[rng.randint(0, len(raw)):]
        elif r == 5 and raw:                                    # duplicate a run
            i = rng.randrange(len(raw))
            raw[i:i] = raw[i:i + rng.randint(1, 20)]
        elif r == 6:                                            # a number grows huge
            raw[pos:pos] = b"9" * rng.randint(1, 400)
        else:                                                   # swap two bytes
            if len(raw) > 1:
                i, j = rng.randrange(len(raw)), rng.randrange(len(raw))
                raw[i], raw[j] = raw[j], raw[i]
    return bytes(raw)


def structural(rng):
    r = rng.randrange(14)
    if r == 0:
        k = rng.randint(1, MAX_LINE // 2)
        return b"[" * k + b"]" * rng.choice((k, 0, k // 2))
    if r == 1:
        k = rng.randint(1, MAX_LINE // 6)
        return b'{"a":' * k + b"1" + b"}" * k
    if r == 2:
        return b'{"cmd": "hello", "id": ' + b"9" * rng.randint(10, 1000) + b"}"
    if r == 3:
        return b'{"cmd": "hello", "id": ' + rng.choice((b"NaN", b"Infinity", b"-Infinity", b"1e999",
                                                        b"-0", b"0e0", b"1E2", b"0x10", b"01")) + b"}"
    if r == 4:                                                  # right at the limit, and one over
        req = b'{"cmd": "hello", "id": 1, "pad": "'
        n = MAX_LINE - len(req) - 2 + rng.choice((0, 1))
        return req + b"p" * n + b'"}'
    if r == 5:                                                  # overlong
        return b'{"cmd": "state", "x": "' + b"y" * rng.randint(MAX_LINE, 4 * MAX_LINE) + b'"}'
    if r == 6:
        return bytes(rng.randrange(256) for _ in range(rng.randint(1, 2 * MAX_LINE)))
    if r == 7:
        return b" " * rng.randint(0, 40) + b"\r"
    if r == 8:
        return b'{"cmd": "hello", "cmd": "state", "id": 3, "id": 4}'
    if r == 9:
        return b'{"cmd": "hello"}' + rng.choice((b"{}", b"x", b" 1", b"\x00", b"\x03", b"]"))
    if r == 10:
        return b"\x03" * rng.randint(1, 5)
    if r == 11:
        return b'\xef\xbb\xbf{"cmd": "hello", "id": 8}'
    if r == 12:
        return b'{"cmd": "hello", "id": 5}'.replace(b" ", b"\x0c")
    return json.dumps({"cmd": "act", "action": {"do": "hit", "enemy": 1, "card": {"arm": "air", "color": "red"}},
                       "id": rng.randint(0, 9)}).encode("utf-16")


def random_line(rng):
    r = rng.random()
    if r < 0.12:
        return json.dumps(valid_request(rng)).encode()
    if r < 0.50:
        return field_mutation(rng)
    if r < 0.85:
        return byte_mutation(rng)
    if r < 0.93:
        return bytes(rng.randrange(256) for _ in range(rng.randint(0, 120)))
    return structural(rng)


# -------------------------------------------------------- the reference model


def device_lines(data):
    """The lines as the device cuts them: LF, CR and CRLF each end one line."""
    return re.split(b"\r\n|\r|\n", data)[:-1]


def device_view(line):
    """What a line is to the device: (is it answered, the id it should echo,
    the request dict or None).  A line is the bytes between two line ends
    (device_lines)."""
    if len(line) > MAX_LINE:
        return True, None, None
    s = (line[3:] if line.startswith(b"\xef\xbb\xbf") else line).strip()
    if not s:
        return False, None, None
    try:
        req = json.loads(s.decode("utf-8"))
    except (UnicodeError, ValueError, RecursionError):
        return True, None, None
    if not isinstance(req, dict):
        return True, None, None
    rid = req.get("id")
    if rid is None:
        return True, None, req
    if isinstance(rid, bool) or not isinstance(rid, int) or not -(1 << 30) <= rid < (1 << 30):
        return True, None, None                       # "id must be an integer"
    return True, rid, req


class Rig:
    def __init__(self, state_dir):
        self.clock = ManualClock()
        self.hw = FakeHardware(led_count(CFG), str(state_dir), clock=self.clock, seed=77)
        self.app = App(self.hw, CFG)
        self.app.boot()
        self.partial = b""

    def idle(self):
        s = self.hw.serial
        return not s.inbox and not self.app.lines and not self.app.outbox.pending()

    def run(self, chunks):
        """Send the chunks, a tick after each; tick until all is answered.
        Returns every message the device wrote."""
        out = []
        for c in chunks:
            self.hw.serial.host_send(c)
            self.clock.advance(7)
            self.app.tick()
            out.append(self.hw.serial.host_take())
        for _ in range(100000):
            if self.idle():
                break
            self.clock.advance(7)
            self.app.tick()
            out.append(self.hw.serial.host_take())
        assert self.idle()
        # one frame with the cursor's blink on, whatever the UI now holds
        t = self.clock.now + 40
        t += -t % 250                       # the start of a blink period ...
        if (t // 250) & 1 == 0:
            t += 250                        # ... an "on" one
        self.clock.advance(t - self.clock.now)
        self.app.tick()
        out.append(self.hw.serial.host_take())
        data = self.partial + b"".join(out)
        lines = data.split(b"\n")
        self.partial = lines.pop()
        assert self.partial == b"", "the device left a line unfinished"
        msgs = []
        for ln in lines:
            msgs.append(json.loads(ln.decode("utf-8")))     # every line it writes is JSON
        return msgs

    def snapshot(self):
        st = self.app.siege.game.state()
        del st["events"]
        return dumps(st), len(self.app.siege.game.log)


def split_chunks(rng, data):
    mode = rng.random()
    if mode < 0.5:
        return [data]
    chunks = []
    i = 0
    while i < len(data):
        n = rng.choice((1, 2, 3, 7, 64, 300, 511, 512, 513, 2000))
        chunks.append(data[i:i + n])
        i += n
    return chunks


def test_protocol_fuzz(tmp_path):
    rng = random.Random(SEED)
    rig = Rig(tmp_path)
    rig.run([])
    t0 = time.monotonic()
    sent = 0
    answered = 0
    refused = 0
    accepted_mutating = 0
    too_long = 0
    batches = 0
    clean_batches = 0
    longest = 0
    while sent < N_LINES:
        lines = []
        for _ in range(rng.choice((1, 1, 2, 5, 10, 25, 60))):
            lines.append(random_line(rng))
        data = b"\n".join(lines) + b"\n"
        real = device_lines(data)                    # the lines as the device cuts them
        sent += len(real)
        batches += 1
        before = rig.snapshot()
        msgs = rig.run(split_chunks(rng, data))

        # ---- one reply per answered line, in order, with the right id
        expected = [device_view(ln) for ln in real]
        replies = [m for m in msgs if "ok" in m]
        answered_here = [(ln, v) for ln, v in zip(real, expected) if v[0]]
        assert [m for m in msgs if m.get("ev") == "overflow"] == []
        assert len(replies) == len(answered_here), (len(replies), len(answered_here), data[:300])
        changed = False
        k = 0
        prev_reply = -1
        for idx, m in enumerate(msgs):
            if "ok" not in m:
                assert "ev" in m, m
                continue
            ln, (_, rid, req) = answered_here[k]
            k += 1
            assert m["id"] == rid, (ln[:200], m)
            assert isinstance(m["ok"], bool)
            if len(ln) > MAX_LINE:
                too_long += 1
                assert m["ok"] is False and "too long" in m["error"]
            if m["ok"]:
                cmd = req["cmd"]
                if cmd in MUTATING:
                    changed = True
                    accepted_mutating += 1
            else:
                refused += 1
                assert isinstance(m["error"], str) and m["error"]
                assert not m["error"].startswith("internal error"), (ln[:300], m)
                if "rule" in m:
                    assert isinstance(m["rule"], str) and m["rule"]
                # a refused line pushes nothing
                assert msgs[prev_reply + 1:idx] == [], (ln[:200], msgs[prev_reply + 1:idx])
            prev_reply = idx
        answered += len(replies)
        longest = max(longest, len(rig.app.siege.game.log))
        # ---- the state moves only with accepted mutating lines
        after = rig.snapshot()
        if not changed:
            clean_batches += 1
            assert after == before, data[:500]
            assert [m for m in msgs if m.get("ev") == "state"] == []
        # and every pushed state is the game's at that point: the last is now
        states = [m for m in msgs if m.get("ev") == "state"]
        if states:
            assert dumps(states[-1]["state"]) == after[0] and states[-1]["seq"] == after[1]
    elapsed = time.monotonic() - t0

    assert sent >= N_LINES
    assert clean_batches > batches // 3
    assert refused > N_LINES // 2
    assert accepted_mutating > 100
    assert too_long > 50
    # the device still answers, and what it holds is sound
    msgs = rig.run([b'{"id": 1, "cmd": "hello"}\n'])
    assert [m for m in msgs if "ok" in m] == [{
        "id": 1, "ok": True, "protocol": 1, "firmware": msgs[-1]["firmware"], "game": "siege",
        "leds": led_count(CFG), "layout": CFG["leds"]["layout"], "seq": len(rig.app.siege.game.log), "journal": "ok"}]
    msgs = rig.run([b'{"id": 2, "cmd": "state"}\n'])
    st = msgs[-1]
    assert (dumps(st["state"]), st["seq"]) == rig.snapshot()
    game = rig.app.siege.game
    mirror = replay(game.setup_dict(), game.log.tuples()).state()
    del mirror["events"]
    assert (dumps(mirror), len(game.log)) == rig.snapshot()
    other = Rig(tmp_path)                              # the journal holds the same game
    assert other.snapshot() == rig.snapshot()
    print("fuzz: %d clean batches, longest game %d; " % (clean_batches, longest)
          + "%d lines in %d batches, %d answered, %d refused, %d accepted changes, "
          "%d too long, %.1f s" % (sent, batches, answered, refused, accepted_mutating, too_long, elapsed))


@pytest.mark.parametrize("line", [b'{"cmd": "press", "turn": 1.0}', b'{"cmd": "press", "turn": -1.0}',
                                  b'{"cmd": "press", "turn": 1e0}', b'{"cmd": "press", "turn": true}'])
def test_press_turn_not_an_int_is_refused(tmp_path, line):
    """Once accepted (1.0 == 1): the cursor became a float and the next frame
    with the cursor on raised out of tick(), killing the loop."""
    rig = Rig(tmp_path)
    rig.run([])
    for _ in range(3):
        msgs = rig.run([line + b"\n"])
        assert [m["ok"] for m in msgs if "ok" in m] == [False]
        for _ in range(20):                 # frames with the cursor blink on
            rig.clock.advance(40)
            rig.app.tick()
    assert type(rig.app.siege.ui.cursor) is int
    msgs = rig.run([b'{"id": 1, "cmd": "hello"}\n'])
    assert [m["ok"] for m in msgs if "ok" in m] == [True]
