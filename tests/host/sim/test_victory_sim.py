"""Victory Day's toss on the simulator (`osada victory sim`, `make run
GAME=victory`): its window's header, lines and keys (host/osada/sim/view.py),
the ring the firmware lights; and `osada victory toss` over a real pty against
the simulator (both seats, the alternation of V8, --start-sim), Siege's game
in progress exactly as it was after."""

import os
import time

import pytest
from rules_support import engine_state
from test_sim_pty import SimThread
from test_sim_screen import make, plain, step

from osada import cli
from osada.files import paths
from osada.link import ports, simproc
from osada.sim import simulator
from osada.sim import view as S
from osada.terminal import gamekeys
from osada_fw import games
from osada_fw.victory import view as victory_view

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
posix = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs POSIX ptys")


class Bits:
    def __init__(self, *bits):
        self.bits = list(bits)

    def below(self, n):
        return self.bits.pop(0)


def ring_colours(app):
    """The 24 positions' wire colours (position p = sector p//4+1, line p%4)."""
    rgb = app.frame.rgb_list()
    lay = app.layout
    return [tuple(rgb[lay.index(p // 4 + 1, p % 4)]) for p in range(24)]


def test_v8_the_simulators_window_in_victory_day(tmp_path):
    app, hw, clock = make(tmp_path)
    hw.inputs.press_with("action", "back")            # g: the game menu
    step(app, clock)
    for _ in range(games.GAMES.index("victory")):
        hw.inputs.turn(1)
    hw.inputs.press("action")
    step(app, clock)
    assert app.mode.id == "victory"
    screen = S.Screen(app)
    lines = [plain(ln) for ln in screen.render()]
    text = "\n".join(lines)
    assert lines[0].startswith("Osada simulator · Victory Day («День Победы») · Siege's game kept (turn 1")
    assert lines[1] == "VICTORY DAY · toss ready · seat A USSR, seat B Germany"
    assert "Enter tosses for the first player (V8)" in lines[2]
    assert "PLAY" not in text and "undo" not in text and "phase" not in text   # nothing of Siege's
    assert lines[-2:] == list(gamekeys.help_lines("victory"))
    hw.inputs.turn(1)                                  # ←/→: the factions swap
    step(app, clock)
    assert plain(screen.render()[1]) == "VICTORY DAY · toss ready · seat A Germany, seat B USSR"
    app.mode.rng = Bits(1)
    hw.inputs.press("action")                          # Enter: the lot
    clock.advance(victory_view.TOSS_MS)
    step(app, clock)
    lines = [plain(ln) for ln in screen.render()]
    assert lines[1] == "TOSS · Seat B (USSR) starts game 1: the lot" and "n next game" in lines[2]
    lit = ring_colours(app)
    assert lit[:12] == [(0, 0, 0)] * 12 and all(c[0] > 0 and c[1] == c[2] == 0 for c in lit[12:])   # B's half, red
    hw.inputs.press("encoder")                         # r: the next game
    clock.advance(victory_view.BLINK_MS)
    step(app, clock)
    assert plain(screen.render()[1]) == "TOSS · game 2: Seat A (Germany) starts: alternating, V8"
    lit = ring_colours(app)
    assert lit[12:] == [(0, 0, 0)] * 12 and all(c[2] > c[0] > 0 for c in lit[:12])     # A's half, grey-blue
    board = "\n".join(screen.render())
    assert "\x1b[1;38;2;" in board                                                    # lit LEDs drawn bright


def test_the_header_has_the_windows_width(tmp_path):
    """Issue 42 item 10: the simulator's header was cut at 80 columns in a 100-column window."""
    app, hw, clock = make(tmp_path)
    hw.inputs.press_with("action", "back")            # g: the game menu
    step(app, clock)
    for _ in range(games.GAMES.index("victory")):
        hw.inputs.turn(1)
    hw.inputs.press("action")
    step(app, clock)
    whole = "Osada simulator · Victory Day («День Победы») · Siege's game kept (turn 1, 0 actions)"
    assert len(whole) > 80
    assert plain(S.Screen(app).render(100, 30)[0]) == whole
    narrow = plain(S.Screen(app).render(80, 24)[0])
    assert len(narrow) == 80 and narrow.endswith("…") and whole.startswith(narrow[:-1])


@pytest.mark.parametrize("game,words,tags,not_siege", [
    ("victory", ("A seat A", "sectors 1-3", "B seat B", "the USSR", "Germany"), "AB", "RGT"),
    ("tank", ("1-4 a sector's", "sectors 1-6", "count from"), "1234", "RAGT"),
])
@pytest.mark.parametrize("cols,rows", [(80, 24), (80, 30)])
def test_each_games_simulator_has_its_own_legend(tmp_path, game, words, tags, not_siege, cols, rows):
    """Issue 42 item 2: Victory Day's ring was labelled with Siege's lines (R rear, A air, …)."""
    app, hw, clock = make(tmp_path)
    hw.inputs.press_with("action", "back")            # g: the game menu
    step(app, clock)
    for _ in range(games.GAMES.index(game)):
        hw.inputs.turn(1)
    hw.inputs.press("action")
    step(app, clock)
    assert app.mode.id == game
    lines = [plain(ln) for ln in S.Screen(app).render(cols, rows)]
    text = "\n".join(lines)
    assert "rear" not in text and "artillery" not in text and "W wall" not in text
    for w in words:
        assert w in text
    lay = S.Layout(cols, rows)
    board = "".join(ln[lay.pad:] for ln in lines[lay.top:lay.top + lay.H])
    for t in tags:
        assert board.count(t) >= 6                    # each LED's letter: its seat, or its place in its sector
    for t in not_siege:
        assert t not in board


def test_osada_victory_sim_is_the_simulator_in_the_toss(monkeypatch):
    got = []
    monkeypatch.setattr(simulator, "main", lambda args: got.append(args) or 0)
    assert cli.main(["victory", "sim"]) == 0
    args = got[0]
    assert (args.game, args.link, args.state, args.headless) == ("victory", ports.SIM_LINK, paths.SIM_STATE, False)
    with open(os.path.join(ROOT, "Makefile"), encoding="utf-8") as f:
        make_text = f.read()
    assert "ifeq ($(GAME),victory)\n\t@$(VENV)/bin/osada victory sim\n" in make_text


@posix
def test_the_simulator_started_in_a_game_runs_it_not_remembering_it(tmp_path):
    sim = simulator.Simulator(link=str(tmp_path / "tty"), state_dir=str(tmp_path / "state"), seed=1, game="victory")
    try:
        sim.start()
        assert sim.app.mode.id == "victory" and games.remembered(sim.hw.state_dir) == games.HOME
    finally:
        sim.close()


# ===================================================== `osada victory toss` over the pty


def connect(sim):
    link = ports.serial_link(sim.link, timeout=5.0)
    link.connect()
    return link


@posix
@pytest.mark.parametrize("bit, first, second", [
    (0, "Seat A (USSR) starts game 1: the lot", "game 2: Seat B (Germany) starts: alternating, V8"),
    (1, "Seat B (Germany) starts game 1: the lot", "game 2: Seat A (USSR) starts: alternating, V8")])
def test_v8_victory_toss_against_the_simulator_keeps_siege(sim, capsys, bit, first, second):
    link = connect(sim)
    try:
        assert link.request("act", action={"do": "patrol"})["ok"]
        before = link.request("state")
        siege = engine_state(sim.sim.app.siege.game)
        assert link.request("game", game="victory")["ok"]
        sim.sim.app.mode.rng = Bits(bit)
    finally:
        link.close()
    assert cli.main(["victory", "toss", "--port", sim.link]) == 0
    assert capsys.readouterr().out.splitlines()[0] == first
    assert cli.main(["victory", "toss", "--port", sim.link, "--next"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == second
    link = connect(sim)
    try:
        assert link.request("state")["victory"]["game"] == 2
        assert link.request("game", game="siege")["ok"]
        after = link.request("state")
        assert after["state"] == before["state"] and after["seq"] == before["seq"] == 1
        assert engine_state(sim.sim.app.siege.game) == siege
    finally:
        link.close()


@posix
def test_victory_toss_start_sim_starts_tosses_and_stops_the_simulator(tmp_path, monkeypatch, capsys):
    """With no device, --start-sim starts the simulator, switches it, tosses,
    switches it back and stops it; the lot is kept in its state dir."""
    started = []

    class Sim(simproc.SimProcess):           # the real one's waiting (wait_for), a simulator in a thread
        def __init__(self, *a, **kw):
            super().__init__()
            self.s = None

        def start(self):
            self.s = SimThread(tmp_path, seed=7)
            started.append(self.s)
            return 0

        def died(self):
            return None

        def stop(self):
            self.s.close()

    monkeypatch.setattr(simproc, "SimProcess", Sim)
    monkeypatch.setattr(ports, "find_device", lambda: started[0].link if started else None)
    assert cli.main(["victory", "toss", "--start-sim", "--switch"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(started) == 1 and started[0].stop.is_set()
    assert out[0].endswith("starts game 1: the lot") and out[1].endswith("drawn now")
    app = started[0].sim.app
    assert app.mode is app.siege and games.remembered(started[0].state_dir) == games.HOME
    deadline = time.monotonic() + 1
    while time.monotonic() < deadline and not os.path.exists(started[0].state_dir + "/victory"):
        time.sleep(0.01)
    with open(started[0].state_dir + "/victory") as f:
        lot, game, ussr = (int(x) for x in f.read().split())
    assert (game, ussr) == (1, 0) and out[0] == "Seat %s (%s) starts game 1: the lot" % (
        "AB"[lot], ("USSR", "Germany")[lot])


def victory_window(tmp_path):
    """The simulator's window in Victory Day, seat A just won the lot, at 80×24 (colours stripped)."""
    app, hw, clock = make(tmp_path)
    hw.inputs.press_with("action", "back")            # g: the game menu
    step(app, clock)
    for _ in range(games.GAMES.index("victory")):
        hw.inputs.turn(1)
    hw.inputs.press("action")
    step(app, clock)
    app.mode.rng = Bits(0)
    hw.inputs.press("action")                          # Enter: the lot, seat A
    clock.advance(victory_view.TOSS_MS)
    step(app, clock)
    return [plain(ln).rstrip() for ln in S.Screen(app).render(80, 24)]


def test_v8_the_docs_window_is_the_simulators(tmp_path):
    """docs/victory-day.md's picture of `make run GAME=victory` (issue 42 item 2: it showed Siege's legend)."""
    with open(os.path.join(ROOT, "docs", "victory-day.md"), encoding="utf-8") as f:
        page = f.read()
    block = page.split("```\nOsada simulator · Victory Day")[1].split("```")[0]
    assert ("Osada simulator · Victory Day" + block).rstrip("\n").splitlines() == victory_window(tmp_path)
