"""War Chest's round tracker in the simulator: its window (host/osada/sim/view.py
with warchest_lines.py) while the tracker runs, and end to end over a real pty
as `make run GAME=warchest` plays without hardware: the simulator's keys press
the device's buttons, `osada warchest watch` mirrors them, and Siege's game in
progress is exactly as it was when the device switches back."""

import os
import re
import threading
import time

import pytest
from rules_support import engine_state
from test_sim_screen import make, plain, step

from osada import cli
from osada.link import ports
from osada.sim import view as S
from osada.terminal import gamekeys

pytestmark_pty = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs POSIX ptys")


class Bits:
    def __init__(self, bits):
        self.bits = list(bits)

    def below(self, n):
        return self.bits.pop(0)


def tracker(tmp_path, layout="spokes", city=False, bit=0):
    from osada_fw import gamemenu
    app, hw, clock = make(tmp_path, layout, city)
    app.free_rng = Bits([bit])
    gamemenu.switch(app, "warchest")
    step(app, clock, 60)                               # past the flip's show
    return app, hw, clock


@pytest.mark.parametrize("layout,city", [("spokes", False), ("rings", True), ("ring24", False)])
@pytest.mark.parametrize("cols,rows", [(80, 24), (80, 32), (120, 50)])
def test_the_window_fits_and_tags_every_led_with_its_part_of_the_tracker(tmp_path, layout, city, cols, rows):
    app, hw, clock = tracker(tmp_path, layout, city)
    lines = S.Screen(app).render(cols, rows)
    assert len(lines) <= rows and all(len(plain(ln)) <= 80 for ln in lines[1:])
    assert len(plain(lines[0])) <= cols                 # the header: the window's width (issue 42)
    assert plain(lines[0]).startswith("Osada simulator · War Chest («Сундук войны») · Siege's game kept")
    assert plain(lines[1]) == "WAR CHEST · round 1 · player 1's action · initiative: player 1"
    assert plain(lines[2]) == "coins in hand 3 | 3 · markers to place 4 | 4 · the encoder fixes markers 1"
    assert [plain(x) for x in lines[-2:]] == list(gamekeys.help_lines("warchest"))
    lay = S.Layout(cols, rows)
    board = "\n".join(plain(ln)[lay.pad:] for ln in lines[lay.top:lay.top + lay.H])
    found = re.findall(r"[●○]([cim>])", board)
    assert sorted(found) == sorted(("ccc" "i" "mmmmmm" ">>") * 2)   # 12 a player
    lit = re.findall(r"●([cim>])", board)
    assert sorted(lit) == sorted("ccc" "i" "mmmm" ">>" "ccc" "mmmm")   # hands, the holder's marker, 4+4, his action
    text = "\n".join(plain(x) for x in lines)
    assert ("c coins in hand" in text) and ("R rear" not in text)


def test_the_window_follows_the_buttons(tmp_path):
    app, hw, clock = tracker(tmp_path, bit=1)
    screen = S.Screen(app)
    hw.inputs.press("action")
    hw.inputs.press("back")                            # player 1 claims
    hw.inputs.press("encoder")
    step(app, clock, 2)
    lines = [plain(x) for x in screen.render(80, 24)]
    assert lines[1] == "WAR CHEST · round 1 · player 2's action · initiative: player 1 (moved, W16)"
    assert lines[2] == "coins in hand 2 | 2 · markers to place 4 | 4 · the encoder fixes markers 1"
    app.mode.fix(0, 0, 0)                              # player 1 placed his last marker
    step(app, clock, 1)
    lines = [plain(x) for x in screen.render(80, 24)]
    assert lines[1] == "WAR CHEST · round 1 · GAME OVER: player 1 placed his last control marker (W7)"
    from osada_fw import gamemenu
    gamemenu.switch(app, "siege")
    assert plain(screen.render(80, 24)[0]).startswith("Osada simulator · turn 1")
    assert "R rear" in "\n".join(plain(x) for x in screen.render(80, 24))


def connect(sim):
    link = ports.serial_link(sim.link, timeout=5.0)
    link.connect()
    return link


def wait(cond, limit=5.0):
    end = time.monotonic() + limit
    while not cond() and time.monotonic() < end:
        time.sleep(0.01)
    return cond()


@pytestmark_pty
def test_the_simulators_keys_press_the_trackers_buttons_and_siege_is_kept(sim):
    link = connect(sim)
    try:
        assert link.request("act", action={"do": "patrol"})["ok"]
        siege = engine_state(sim.sim.app.siege.game)
        got = []
        link.on_message = got.append
        assert link.request("game", game="warchest")["ok"]
        turn = sim.sim.app.mode.turn
        sim.sim.keys(b"\r")                            # ACTION: action done
        assert wait(lambda: (link.poll() or True) and [m for m in got if m.get("ev") == "warchest"])
        ev = [m for m in got if m.get("ev") == "warchest"][0]
        assert ev["what"] == "action" and ev["source"] == "buttons" and ev["player"] == turn + 1
        assert ev["warchest"]["hand"][turn] == 2
        del got[:]
        sim.sim.keys(b"E")                             # the encoder held: a new game, flipped (the monitor's E)
        assert wait(lambda: (link.poll() or True) and [m for m in got if m.get("ev") == "warchest"])
        assert [m for m in got if m.get("ev") == "warchest"][0]["what"] == "new"
        assert link.request("game", game="siege")["ok"]
        assert engine_state(sim.sim.app.siege.game) == siege
    finally:
        link.close()


@pytestmark_pty
def test_osada_warchest_watch_against_the_simulator(sim, capsys):
    def press_when_tracking():
        wait(lambda: sim.sim.app.mode.id == "warchest", 10)
        time.sleep(0.2)
        sim.sim.keys(b"\r")                            # ACTION: action done

    t = threading.Thread(target=press_when_tracking)
    t.start()
    code = cli.main(["warchest", "watch", "--port", sim.link, "--switch", "--count", "1", "--seconds", "20",
                     "--no-keys"])
    t.join()
    out = capsys.readouterr().out
    assert code == 0, out
    assert "the device flipped the initiative marker" in out and "'s action done" in out
    assert "War Chest («Сундук войны») · round 1 · player" in out
    assert sim.sim.app.mode is sim.sim.app.siege                     # --switch was for the session
