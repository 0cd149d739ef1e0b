"""`osada sim`'s keyboard (host/osada/terminal/termkeys.py KeyParser, host/osada/sim/ and simulator.Simulator.keys):
escape sequences are whole keys.  ↑ and ↓ (ESC [ A, ESC [ B) once fell
through to the A/B bindings: a long ACTION (the play menu) and a long BACK
(undo)."""


import pytest

from osada.sim.simulator import Simulator
from osada.terminal.termkeys import KeyParser
from osada_fw.hal import EVENT_LONG, EVENT_PRESS, EVENT_TURN


def keys(*reads, t=None):
    p = KeyParser()
    out = []
    for k, data in enumerate(reads):
        out += p.feed(data, now=0.0 if t is None else t[k])
    return out, p


@pytest.mark.parametrize("seq,key", [
    (b"\x1b[A", "up"), (b"\x1b[B", "down"), (b"\x1b[C", "right"), (b"\x1b[D", "left"),
    (b"\x1bOA", "up"), (b"\x1bOB", "down"), (b"\x1bOC", "right"), (b"\x1bOD", "left"),
    (b"\x1b[1;5C", "right"),                    # Ctrl+→
])
def test_arrows_are_one_key(seq, key):
    assert keys(seq)[0] == [key]


def test_unknown_sequences_are_dropped_whole():
    # F5, Home, Delete, F1 (SS3 P), Alt+a, a mouse-ish CSI with parameters
    got, p = keys(b"\x1b[15~" b"\x1b[H" b"\x1b[3~" b"\x1bOP" b"\x1ba" b"\x1b[<0;3;4M" b"x")
    assert got == [b"x"] and p.pending == b""


def test_plain_keys_pass_through():
    assert keys(b"adAB\r ")[0] == [b"a", b"d", b"A", b"B", b"\r", b" "]


@pytest.mark.parametrize("cut", [1, 2, 3, 4])
def test_a_sequence_split_across_reads(cut):
    data = b"a\x1b[1;5Ab"
    got, p = keys(data[:cut + 1], data[cut + 1:])
    assert got == [b"a", "up", b"b"] and p.pending == b""


def test_split_byte_by_byte():
    got, _ = keys(*[bytes([c]) for c in b"\x1bOB\x1b[D"])
    assert got == ["down", "left"]


def test_a_lone_escape_expires_and_the_next_key_counts():
    p = KeyParser()
    assert p.feed(b"\x1b", now=10.0) == []
    p.expire(now=10.1)
    assert p.pending == b"\x1b"                # might still be a sequence
    p.expire(now=10.5)
    assert p.pending == b""
    assert p.feed(b"A", now=11.0) == [b"A"]    # a real A after a real Escape


def test_escape_escape_then_arrow():
    assert keys(b"\x1b\x1b[C")[0] == ["right"]


@pytest.fixture
def sim(tmp_path):
    s = Simulator(link=None, state_dir=str(tmp_path / "state"), seed=1)
    yield s
    s.close()


def test_up_and_down_do_not_open_the_menu_or_undo(sim):
    """The defect itself: ↑ and ↓ in the simulator window pressed nothing."""
    q = sim.hw.inputs.queue
    assert sim.keys(b"\x1b[A\x1b[B\x1bOA\x1bOB") is True
    assert q == []
    sim.keys(b"\x1b[C\x1bOD")
    assert q == [(EVENT_TURN, 1), (EVENT_TURN, -1)]
    del q[:]
    sim.keys(b"\x1b[")                          # ↑ cut by the read
    sim.keys(b"A")
    assert q == []
    sim.keys(b"A\r")
    assert q == [(EVENT_LONG, "action"), (EVENT_PRESS, "action")]
    assert sim.keys(b"\x1b[Aq") is False        # q still quits
