"""The buttons and the encoder driven on their GPIO pins (firmware/config.json)
of the emulated Pico, through the firmware's pin interrupts and debounce, to
the UI and over USB to the host.  Times are simulated milliseconds."""

import pytest
from pico_support import PINS, connect, press, turn

from shared_rules.siege.autoplay import random_setup
from shared_rules.siege.engine import Game

T = 30.0
# random_setup(0): solo, one enemy per sector on line 1, enemy k in sector k
SETUP = random_setup(0)
CURSOR_CELL = 5            # the cursor walks 5 cells a sector (4 lines + city)


@pytest.fixture(scope="module")
def link(pico):
    got = []
    lk = connect(pico)
    lk.on_message = got.append
    lk.got = got
    assert lk.request("new", timeout=T, **SETUP)["ok"]
    yield lk
    lk.close()


def settle(pico, link, ms=120):
    """Let the app run `ms` simulated ms, then sync with a request: every
    message the inputs caused has arrived after it.  Returns those messages."""
    del link.got[:]
    pico.play([(PINS["switch"], True, ms)])          # idle level again: a no-op step, for time
    link.request("hello", timeout=T)
    return [m for m in link.got if "ev" in m]


def rolls(msgs):
    return [m for m in msgs if m["ev"] == "roll"]


def test_a_glitch_shorter_than_the_debounce_is_no_press(pico, link):
    pico.play([(PINS["switch"], False, 0), (PINS["switch"], True, 5)])
    assert rolls(settle(pico, link)) == []


def test_a_chattering_press_is_one_press(pico, link):
    pico.play(press(PINS["switch"], bounce=True))      # encoder switch: a free die roll
    got = rolls(settle(pico, link))
    assert len(got) == 1 and 1 <= got[0]["value"] <= 6


def test_turns_both_ways_move_the_cursor_and_action_hits_there(pico, link):
    # 8 detents forward, 2 back: sector 2, line 1, where enemy 2 stands
    pico.play(turn(8) + turn(-2))
    pico.play(press(PINS["action"]))
    msgs = settle(pico, link)
    mirror = Game.from_setup(SETUP)
    mirror.apply({"do": "hit", "enemy": 2})
    states = [m for m in msgs if m["ev"] == "state"]
    assert states and states[-1]["seq"] == 1
    assert link.fetch_log()["actions"] == [{"do": "hit", "enemy": 2}]
    st = link.request("state", timeout=T)["state"]
    assert st["enemies"] == mirror.state()["enemies"]


def test_a_long_back_press_undoes(pico, link):
    pico.play(press(PINS["back"], ms=760))            # LONG_PRESS_MS is 700
    msgs = settle(pico, link)
    assert [m["seq"] for m in msgs if m["ev"] == "state"] == [0]
    assert link.request("state", timeout=T)["seq"] == 0


def test_a_short_back_press_moves_the_enemies(pico, link):
    pico.play(press(PINS["back"]))
    settle(pico, link)
    assert link.fetch_log()["actions"] == [{"do": "move"}]
