"""The outbox (firmware/osada_fw/link/protocol.py): lines waiting for the host.

Objects are written with the runtime's json.dumps and their texts wait as
they are, sent from an offset, so these check that what comes out is exactly the lines put in,
in order, across slow hosts, partial writes, overflow and refused objects."""

import json
import os
import random
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
try:
    import osada_fw  # noqa: F401
except ImportError:  # run from the tree
    sys.path[:0] = [os.path.join(ROOT, "firmware"), ROOT, os.path.join(ROOT, "host")]

import pytest  # noqa: E402

from osada_fw.link.protocol import Outbox  # noqa: E402


class Clock:
    def __init__(self):
        self.t = 0

    def ticks_ms(self):
        self.t += 1
        return self.t

    def diff(self, a, b):
        return a - b


class Host:
    """Takes at most `room` bytes per write (0: a host that is not reading)."""

    def __init__(self, room):
        self.room = room
        self.got = bytearray()

    def write(self, data):
        n = min(self.room, len(data))
        self.got.extend(bytes(data[:n]))
        return n

    def lines(self):
        return [json.loads(x) for x in bytes(self.got).decode().splitlines()]


def test_a_dict_goes_out_as_one_json_line_equal_to_it():
    box, host = Outbox(), Host(10_000)
    obj = {"state": {"turn": 3, "enemies": [{"id": 1, "kind": "tank"}], "pending": None}, "ok": True, "id": 7,
           "text": "Осада \"x\"\n"}
    assert box.put(obj)
    box.pump(host, Clock(), 100)
    assert bytes(host.got).endswith(b"\n") and bytes(host.got).count(b"\n") == 1
    assert host.lines() == [obj]
    assert box.pending() == 0


def test_lines_come_out_whole_and_in_order_through_a_trickling_host():
    rng = random.Random(5)
    box, host, clock = Outbox(limit=4096), Host(0), Clock()
    sent = []
    for i in range(400):
        obj = {"ev": "n", "seq": i, "text": "Осада" * rng.randrange(0, 30)}
        if box.put(obj):
            sent.append(obj)
        host.room = rng.randrange(0, 300)          # partial writes, sometimes none
        box.pump(host, clock, rng.randrange(1, 4))
        assert box.pending() <= 4096
    host.room = 10_000
    while box.pending():
        box.pump(host, clock, 100)
    got = host.lines()
    assert [m for m in got if m.get("ev") == "n"] == sent
    assert all(m.get("ev") in ("n", "overflow") for m in got)


def test_a_host_that_never_reads_fills_the_box_then_gets_the_overflow_count():
    box, host, clock = Outbox(limit=1024), Host(0), Clock()
    accepted = sum(box.put({"ev": "x", "n": i}) for i in range(200))
    assert 0 < accepted < 200
    assert box.pending() <= 1024
    host.room = 100_000
    box.pump(host, clock, 100)
    box.put({"ev": "after"})
    box.pump(host, clock, 100)
    got = host.lines()
    assert got[-2] == {"ev": "overflow", "dropped": 200 - accepted}
    assert got[-1] == {"ev": "after"}


def test_an_object_that_is_not_json_leaves_the_box_as_it_was():
    box = Outbox()
    box.put({"ev": "first"})
    before = [bytes(x) for x in box.lines], box.pending()
    with pytest.raises(TypeError):
        box.put({"ev": "bad", "x": {"deep": [object()]}})
    assert ([bytes(x) for x in box.lines], box.pending()) == before
    box.put({"ev": "next", "nested": {"a": {"b": 1}}})
    host = Host(10_000)
    box.pump(host, Clock(), 100)
    assert host.lines() == [{"ev": "first"}, {"ev": "next", "nested": {"a": {"b": 1}}}]


def test_str_and_bytes_lines_are_queued_as_given():
    box, host = Outbox(), Host(10_000)
    box.put('{"ev": "s", "t": "ё"}')
    box.put(b'{"ev": "b"}')
    box.pump(host, Clock(), 100)
    assert host.lines() == [{"ev": "s", "t": "ё"}, {"ev": "b"}]


def test_a_slow_host_that_never_catches_up_does_not_grow_the_buffer():
    box, host, clock = Outbox(limit=1024), Host(0), Clock()
    sent, biggest = [], 0
    for i in range(3000):
        obj = {"ev": "n", "seq": i, "pad": "x" * 40}
        if box.put(obj):
            sent.append(obj)
        host.room = 50                      # one short write a round: never drained
        box.pump(host, clock, 1)
        assert box.pending() > 0
        biggest = max(biggest, sum(len(x) for x in box.lines))
    assert biggest <= 2 * 1024 + 100        # sent bytes are dropped, not kept
    host.room = 100_000
    box.pump(host, clock, 100)
    assert [m for m in host.lines() if m.get("ev") == "n"] == sent


TRICKLE = r'''
import json
import sys
from osada_fw.link.protocol import Outbox

class Clock:
    t = 0
    def ticks_ms(self):
        self.t += 1
        return self.t
    def diff(self, a, b):
        return a - b

class Host:
    def __init__(self):
        self.room = 0
        self.got = bytearray()
    def write(self, data):             # a byte stream, as the USB's: it counts bytes
        mv = memoryview(data)
        n = min(self.room, len(mv))
        self.got.extend(mv[:n])
        return n

box, host, clock, seed = Outbox(limit=2048), Host(), Clock(), 5
for i in range(300):
    seed = (seed * 1103515245 + 12345) & 0x3FFFFFF
    box.put({"ev": "n", "seq": i, "text": "Осада" * (seed % 90)})
    host.room = (seed >> 8) % 300
    box.pump(host, clock, 1 + seed % 3)
host.room = 1 << 20
while box.pending():
    box.pump(host, clock, 100)
sys.stdout.write(bytes(host.got).decode())
'''


@pytest.mark.micropython
def test_multibyte_lines_come_out_whole_through_a_trickling_host_in_micropython():
    """On MicroPython json.dumps gives a str whose length counts characters:
    the outbox sends its bytes, so Cyrillic text (two bytes a letter) and
    partial writes still make whole, valid lines in order."""
    from osada import mpyvm
    proc = mpyvm.run_code(TRICKLE, mounts=[(os.path.join(ROOT, "firmware", "osada_fw"), "/lib/osada_fw")],
                          timeout=120)
    assert proc.returncode == 0, proc.stderr.decode()
    got = [json.loads(x) for x in proc.stdout.decode().splitlines()]
    seqs = [m["seq"] for m in got if m.get("ev") == "n"]
    assert seqs == sorted(seqs) and len(seqs) > 50
    assert any(len(m["text"]) > 200 for m in got if m.get("ev") == "n")   # lines longer than a 256-byte write
    assert all(m.get("ev") in ("n", "overflow") for m in got)
