"""A whole game over the USB protocol on the emulated Pico, checked against
the CPython engine; the LED frames on the data pin against the renderer's."""

import pytest
from pico_support import connect
from rules_support import engine_state

from shared_rules.siege.autoplay import RandomPlayer, random_setup
from shared_rules.siege.engine import PLAYING, Game, RuleError

# random_setup(43) played by RandomPlayer(0) ends (lost) after 7 accepted and
# 2 refused actions: a short game, so the tier stays quick.
SETUP_SEED = 43
AGENT_SEED = 0
T = 30.0           # seconds of wall time for one reply (the emulator runs at ~0.2x)


@pytest.fixture(scope="module")
def link(pico):
    lk = connect(pico)
    yield lk
    lk.close()


def test_hello_over_usb(link):
    hello = link.mirror.hello
    assert hello["protocol"] == 1
    assert hello["leds"] == 24 and hello["layout"] == "spokes"
    assert hello["journal"] == "ok"            # the harness gives MicroPython a working flash


def test_a_game_to_its_end_matches_the_cpython_engine(link):
    setup = random_setup(SETUP_SEED)
    assert link.request("new", timeout=T, **setup)["ok"]
    mirror = Game.from_setup(setup)
    agent = RandomPlayer(AGENT_SEED)
    accepted = refused = 0
    while mirror.outcome == PLAYING:
        action = agent.action(mirror)
        try:
            mirror.apply(action)
            expected = None
        except RuleError as exc:
            expected = exc
        reply = link.request("act", timeout=T, action=action)
        if expected is not None:
            assert reply["ok"] is False and reply["rule"] == expected.rule
            refused += 1
        else:
            accepted += 1
            assert reply["ok"] is True and reply["seq"] == accepted
    assert mirror.outcome in ("won", "lost")
    assert (accepted, refused) == (7, 2)
    state = link.request("state", timeout=T)
    assert state["seq"] == accepted
    assert state["state"] == engine_state(mirror)
    # the mirror the host keeps from the pushed states agrees too
    link.poll()
    assert link.mirror.state == state["state"]
    # and the device's own log replays to the same game on CPython
    scenario = link.fetch_log()
    replayed = Game.from_setup(scenario)
    for a in scenario["actions"]:
        replayed.apply(a)
    assert engine_state(replayed) == state["state"]


def _frame_rgb(wire, order="GRB"):
    out = []
    for i in range(0, len(wire) - 2, 3):
        px = dict(zip(order, wire[i:i + 3]))
        out.append([px["R"], px["G"], px["B"]])
    return out


def test_led_frames_on_the_data_pin_are_the_renderers(pico, link):
    before = len(pico.frames)
    reply = link.request("leds", timeout=T)
    assert reply["ok"]
    frames = [_frame_rgb(f) for _t, f in pico.frames[before - 1:]]
    assert frames, "no WS2812 frame decoded from the LED pin"
    assert all(len(f) == 24 for f in frames)
    assert reply["leds"] in frames
    assert any(any(px) for px in reply["leds"])          # the board is lit, not all black


def test_mem_reports_the_heap_and_tracks_its_high_water_mark(link):
    """`mem` (make bench's heap and frame figures): the heap as the board's
    gc sees it; with tracking on, the peak covers what requests allocate."""
    before = link.request("mem", timeout=T)
    assert before["ok"] and before["peak"] == -1 and before["live"] == -1      # not tracking yet
    assert before["alloc"] > 10_000 and before["alloc"] + before["free"] > 150_000   # garbage counts as alloc
    assert 700 <= before["frame_us"] < 50_000              # a 24-LED WS2812 write alone is 720 us
    start = link.request("mem", timeout=T, track=True)
    assert start["peak"] == -1
    for _ in range(3):
        assert link.request("state", timeout=T)["ok"]      # each reply: the whole state as JSON
    after = link.request("mem", timeout=T)
    # start's alloc is the heap just collected (tracking starts there): a
    # state reply allocates, so the peak is above it, and within the heap
    assert start["alloc"] < after["peak"] < after["alloc"] + after["free"]
    # the live mark (after each collection) is below the peak and at least the heap tracking began with
    assert start["alloc"] - 2048 <= after["live"] < after["peak"]
    # the board is shared with other modules: tracking (a collection after
    # every request) stops when asked
    assert link.request("mem", timeout=T, track=False)["ok"]
    assert link.request("mem", timeout=T)["peak"] == -1

