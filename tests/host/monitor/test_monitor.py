"""`osada monitor` (host/osada/monitor/) and its words (host/osada/words/texts.py).

The monitor runs headless under textual's pilot against the simulator over a
REAL pseudo-terminal (the firmware app loop in a background thread), exactly as
it would against a Pico: the board it draws is compared with the device's own
state after every key, the cable is pulled and put back, and a device speaking
another protocol version is faked on a pty of its own."""

import asyncio
import json
import os
import pty
import re
import select
import sys
import termios
import threading
import time
import tty

import pytest

pytest.importorskip("serial")                 # pyserial==3.5 (pyproject.toml)
pytest.importorskip("textual")                # textual==8.2.8

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
try:
    import osada  # noqa: F401
    import osada_fw  # noqa: F401
except ImportError:  # run from the tree
    sys.path[:0] = [os.path.join(ROOT, "firmware"), ROOT, os.path.join(ROOT, "host")]

from osada import monitor  # noqa: E402
from osada.link import ports  # noqa: E402
from osada.siege import board as siege_board  # noqa: E402
from osada.siege.screens import MarshalScreen, NewGameScreen  # noqa: E402
from osada.words import texts  # noqa: E402
from shared_rules.siege.catalog import C_EVENT, KIND_CLASS, KIND_IDS, LINES  # noqa: E402
from tests.support.simthread import SimThread  # noqa: E402,F401  (the harness of the monitor tests)

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs POSIX ptys")

SIZE = (140, 45)
RULEBOOK = os.path.join(os.path.dirname(ROOT), "shared", "seeds", "000_c0d4d8146b8ae51f.txt")
CYRILLIC = re.compile("[А-Яа-яЁё]")


# ------------------------------------------------------------------ texts


def sg(app):
    """The monitor's Siege view."""
    return app.view_for("siege")


def emitted_event_names():
    """Every event name the rules core and the firmware push ("ev": "name" in the source)."""
    names = set()
    text = ""
    for top in (os.path.join(ROOT, "shared_rules"), os.path.join(ROOT, "firmware", "osada_fw")):
        for dirpath, _dirs, files in os.walk(top):
            for f in sorted(files):
                if f.endswith(".py"):
                    with open(os.path.join(dirpath, f), encoding="utf-8") as fh:
                        text += fh.read()
    names.update(re.findall(r'"ev": "([a-z_0-9]+)"', text))
    assert 'ev = {"ev": outcome' in text     # won / lost come from the outcome
    names.update(("won", "lost"))
    return names


def test_every_kind_has_its_printed_name_and_a_gloss():
    book = None
    if os.path.exists(RULEBOOK):
        with open(RULEBOOK, encoding="utf-8") as f:
            book = f.read()
    for k in KIND_IDS:
        name, gloss = texts.KINDS[k][:2]
        assert name and gloss, k
        if KIND_CLASS[KIND_IDS.index(k)] == C_EVENT:
            assert CYRILLIC.search(name), k           # events are printed in Russian
            assert texts.describe({"ev": "reveal", "kind": k}).startswith("«%s» — " % name)
        else:                                         # tanks and the He-111: the Latin model name
            assert k in texts.LATIN_NAMED and not CYRILLIC.search(name), k
        assert texts.ru_class(k) and CYRILLIC.search(texts.ru_class(k)), k
        if book is not None:
            # the rulebook sets "Sd. Kfz." with a space; the token prints "Sd.Kfz."
            assert name.replace("Sd.Kfz.", "Sd. Kfz.") in book, "%s: %r is not printed in the rulebook" % (k, name)
            # the rulebook's words (it has the plural «Особые враги»: compare the stems)
            assert re.search(r"\s".join(w[:-2] + r"\w*" for w in texts.ru_class(k).split()), book.lower()), k
        assert texts.short(k)
    for line in LINES:
        assert CYRILLIC.search(texts.line_name(line, "ru")) and texts.line_name(line).startswith(line)


def test_every_event_name_is_described():
    names = emitted_event_names()
    assert {"reveal", "he111", "destroyed", "damaged", "wall_destroyed", "building_destroyed", "move",
            "hedgehog", "turn", "phase", "won", "lost", "refused", "roll", "overflow", "boot", "undo"} <= names
    missing = names - texts.EVENT_NAMES
    assert not missing, "no text for %s" % sorted(missing)
    for name in names:
        line = texts.describe({"ev": name})            # even with its fields missing: a line, no exception
        assert isinstance(line, str) and line


def test_describe_reads_well():
    d = texts.describe
    assert d({"ev": "reveal", "kind": "tiger", "sector": 3, "enemy": 9}) == "Revealed Tiger E (armor 3) → sector 3 rear"
    assert d({"ev": "reveal", "kind": "sabotage_air"}) == (
        "«Диверсия: авиация» — Sabotage: air — every player discards all air strike cards")
    assert d({"ev": "he111", "sector": 2, "destroyed": [4, 5, 6], "stop": "wall", "at": 2}).startswith(
        "He-111 from sector 2: destroyed 3 enemies, stopped at the wall of sector 2")
    assert "crossed the whole board" in d({"ev": "he111", "sector": 1, "destroyed": [], "stop": None})
    state = {"enemies": [{"id": 5, "kind": "pz3", "sector": 4, "line": "tank", "armor": 2, "held": False}]}
    assert d({"ev": "damaged", "enemy": 5, "armor": 1, "cause": "wall"}, state) == (
        "Pz.Kpfw. III #5 attacked a wall and took 1 damage: armor 1 left")
    assert d({"ev": "destroyed", "enemy": 5, "kind": "pz3", "cause": "play", "player": 2}) == (
        "Pz.Kpfw. III #5 destroyed: trophy for player 2 (+2)")
    assert "ranking: player 1 7 pts" in d({"ev": "won", "rule": "R51", "ranking": [[1, 7, 3], [2, 2, 1]]})
    assert d({"ev": "refused", "rule": "R10", "error": "x", "source": "buttons"}).startswith("Refused by R10")
    assert d({"ev": "mystery", "a": 1}) == "mystery: a=1"     # unknown names still read
    # the flash (issue 19): a failure and its recovery in words, at boot too
    assert d({"ev": "journal", "saved": False, "status": "flash full"}).startswith("NOT SAVED: flash full.")
    assert d({"ev": "journal", "saved": True, "status": "ok"}) == "The game is saved to flash again"
    boot = d({"ev": "boot", "restored": False, "seq": 0, "journal": "no filesystem", "lost": "CRC mismatch"})
    assert "NOT SAVED: no filesystem" in boot and "could not be read back (CRC mismatch)" in boot


# ------------------------------------------------------------ the harness


async def until(pilot, cond, timeout=5.0, what="condition"):
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError("timed out waiting for: %s" % what)
        await pilot.pause(0.01)


def widget_text(app, wid):
    return app.main.query_one(wid).content.plain


def board_from_widget(app):
    """Parse the board widget's text back into (sector, line) -> [tags]."""
    cells = {}
    current = None
    labels = {en: line for line, (en, _ru) in siege_board.ROW_LABELS.items()}
    for row in widget_text(app, "#board").split("\n"):
        label = row[:siege_board.LABEL_W].strip()
        parts = row[siege_board.LABEL_W:].split("│")
        if label in labels:
            current = labels[label]
        elif label in ("sector", "wall") or label.startswith("STALE") or label.startswith("GAME"):
            current = None
            continue
        if current is None or len(parts) < 6:
            continue
        for s in range(1, 7):
            for tag in parts[s - 1].split():
                if tag in ("[building]", "ruins"):
                    continue
                cells.setdefault((s, current), []).append(re.sub(r"^\d+:", "", tag))
    return cells


def board_from_state(state):
    return {key: [siege_board.enemy_tag(e) for e in es] for key, es in siege_board.board_cells(state).items()}


def in_sync(app, dev):
    st, seq = dev.state()
    return app.seq == seq and app.state == st and not app.stale


def shown(app, dev):
    """In sync, and the board widget has redrawn to it (widgets redraw
    themselves from the reactive state a moment later)."""
    return in_sync(app, dev) and board_from_widget(app) == board_from_state(dev.state()[0])


def make_app(port, **kw):
    return monitor.MonitorApp(port=str(port), retry=0.1, **kw)


# --------------------------------------------------------- live: playing


def test_board_mirrors_the_device_and_keys_play_a_game(tmp_path):
    dev = SimThread(tmp_path / "tty", tmp_path / "st", seed=1)
    app = make_app(tmp_path / "tty")

    async def run():
        async with app.run_test(size=SIZE) as pilot:
            # the board and the connection line are two widgets, each redrawn when its message is handled
            await until(pilot, lambda: shown(app, dev) and "connected to" in widget_text(app, "#conn"),
                        what="the first sync")
            assert "connected to %s (firmware 0.1.0, protocol 1)" % (tmp_path / "tty") in widget_text(app, "#conn")
            assert board_from_widget(app) == board_from_state(dev.state()[0])
            assert len(dev.state()[0]["enemies"]) == 6

            async def press(key, changes=True):
                seq0 = dev.state()[1]
                await pilot.press(key)
                if changes:
                    await until(pilot, lambda: dev.state()[1] != seq0 and shown(app, dev), what="after " + key)
                    assert board_from_widget(app) == board_from_state(dev.state()[0])
                else:
                    await pilot.pause(0.15)

            # the cursor starts on sector 1's air cell: hit its enemy (an Sd.Kfz., armor 1)
            first = [e for e in dev.state()[0]["enemies"] if e["sector"] == 1][0]
            await press("h")
            st = dev.state()[0]
            if first["armor"] == 1:
                assert st["trophies"]["1"] == [first["kind"]]
                assert "P1 %7s" % texts.points_text(texts.points(first["kind"])) in widget_text(app, "#info")
            else:
                assert [e["armor"] for e in st["enemies"] if e["id"] == first["id"]] == [first["armor"] - 1]
            await press("u")                                    # undo
            assert dev.state()[1] == 0
            await press("right", changes=False)                 # sector 2 air
            await press("g")                                    # hedgehog
            assert "#" in "".join(board_from_widget(app)[(2, "air")])
            await press("p")                                    # push back: to the rear
            assert (2, "rear") in board_from_widget(app)
            await press("up", changes=False)
            await press("k", changes=False)                     # kill in the rear: refused
            assert "R12" in widget_text(app, "#status")
            await press("d")                                    # a dot on sector 2's wall
            assert "wall+ДОТ" in widget_text(app, "#board")
            await press("b", changes=False)                     # rebuild a standing wall: refused
            assert "R16" in widget_text(app, "#status") and any("R16" in ln for ln in app.log_lines)
            await press("t")                                    # patrol
            await press("o", changes=False)                     # a free roll
            await until(pilot, lambda: any(e.get("ev") == "roll" for e in app.events), what="the roll")
            await press("4", changes=False)
            assert sg(app).cursor[0] == 4 and "> 4 green <" in widget_text(app, "#board")

            # play on: end turns, answer the damage choices, until the game ends (or 60 turns)
            async def play_out():
                choices = 0
                for _ in range(300):
                    st = dev.state()[0]
                    if st["outcome"] != "playing" or st["turn"] > 60:
                        break
                    if st["pending"]:
                        assert "Pending choice" in widget_text(app, "#info")
                        cands = st["pending"]["candidates"]
                        if choices == 0 and len(cands) > 1:     # Tab picks the 2nd candidate, c takes it
                            await press("tab", changes=False)
                            second = [e for e in st["enemies"] if e["id"] == cands[1]][0]
                            assert sg(app).cursor == (second["sector"], LINES.index(second["line"]))
                            assert "▸2)" in widget_text(app, "#info")
                            assert "2:" + siege_board.enemy_tag(second) in widget_text(app, "#board")
                            await press("c")
                            hurt = [e for e in app.events if e.get("ev") in ("damaged", "destroyed")][-1]
                            assert hurt["enemy"] == cands[1]
                        else:
                            await press("c")
                        choices += 1
                    else:
                        await press("e")
                st = dev.state()[0]
                assert st["outcome"] != "playing" or st["turn"] > 60
                assert in_sync(app, dev)
                if st["outcome"] != "playing":
                    assert "GAME %s" % st["outcome"].upper() in widget_text(app, "#board")
                    assert any(ln.startswith(st["outcome"].upper()) for ln in app.log_lines)
                return choices

            await play_out()
            # a new game from the modal (seed 3 brings a damage choice), played out with e and c
            await pilot.press("n")
            app.screen.query_one("#seed").value = "3"
            await pilot.click("#start")
            await until(pilot, lambda: dev.state()[1] == 0 and in_sync(app, dev), what="the new game")
            assert await play_out() >= 1
            # the log names every revealed token as printed; events in Russian
            log = "\n".join(app.log_lines)
            revealed = {e["kind"] for e in app.events if e.get("ev") == "reveal"}
            assert revealed
            for kind in revealed:
                assert texts.ru(kind) in log, kind
            assert any(KIND_CLASS[KIND_IDS.index(k)] == C_EVENT for k in revealed)
            assert CYRILLIC.search(log)

    try:
        asyncio.run(run())
    finally:
        app.shutdown()
        dev.close()


def test_new_game_modal_and_help(tmp_path):
    dev = SimThread(tmp_path / "tty", tmp_path / "st", seed=2)
    app = make_app(tmp_path / "tty")

    async def run():
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: in_sync(app, dev), what="the first sync")
            await pilot.press("question_mark")
            assert isinstance(app.screen, monitor.HelpScreen)
            await pilot.press("escape")
            assert app.screen is app.main
            await pilot.press("n")
            assert isinstance(app.screen, NewGameScreen)
            app.screen.query_one("#players").value = "3"
            app.screen.query_one("#seed").value = "77"
            await pilot.click("#start")
            await until(pilot, lambda: in_sync(app, dev) and len(app.state["trophies"]) == 3, what="the new game")
            with dev.lock:
                setup = dev.sim.app.siege.game.setup_dict()
            assert setup["players"] == 3 and setup["seed"] == 77
            await until(pilot, lambda: (sg(app).setup or {}).get("seed") == 77, what="the setup in the sidebar")
            assert "seed 77" in widget_text(app, "#info")

    try:
        asyncio.run(run())
    finally:
        app.shutdown()
        dev.close()


def test_field_marshal_plays_from_the_modal(tmp_path):
    from textual.widgets import Select
    dev = SimThread(tmp_path / "tty", tmp_path / "st", seed=4)
    app = make_app(tmp_path / "tty")

    async def run():
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: in_sync(app, dev), what="the first sync")
            await pilot.press("n")
            app.screen.query_one("#mode", Select).value = "marshal"
            app.screen.query_one("#seed").value = "5"
            await pilot.click("#start")
            await until(pilot, lambda: in_sync(app, dev) and "marshal_hand" in app.state, what="marshal mode")
            hand = app.state["marshal_hand"]
            # his hand is his alone (issue 59): a count on the shared screen until H shows it
            assert "Field marshal's hand: %d tokens, his alone" % len(hand) in widget_text(app, "#info")
            await pilot.press("H")
            await until(pilot, lambda: all(texts.ru(k) in widget_text(app, "#info") for k in hand),
                        what="the hand shown for a while")
            assert "shown here for 10 s" in widget_text(app, "#status")
            await pilot.press("M")                                  # phase 4: not his turn yet
            assert app.screen is app.main and "phase 7" in widget_text(app, "#status")
            await pilot.press("e")                                  # hands over to the marshal
            await until(pilot, lambda: in_sync(app, dev) and app.state["phase"] == 7, what="phase 7")
            hand = app.state["marshal_hand"]
            tank = [i for i, k in enumerate(hand) if texts.is_enemy(k)][0]
            await pilot.press("M")
            assert isinstance(app.screen, MarshalScreen)
            app.screen.query_one("#tokens").select(tank)
            app.screen.query_one("#sector").value = 5
            await pilot.click("#play")
            await until(pilot, lambda: shown(app, dev) and app.state["turn"] == 2, what="his play")
            played = [e for e in app.events if e.get("ev") == "marshal_play"][-1]
            assert played["tokens"] == [hand[tank]]
            placed = [e for e in app.events if e.get("ev") == "reveal"][-1]
            assert placed["kind"] == hand[tank] and placed["sector"] == 5
            assert siege_board.enemy_tag(dev.state()[0]["enemies"][-1]) in "".join(board_from_widget(app)[(5, "rear")])

    try:
        asyncio.run(run())
    finally:
        app.shutdown()
        dev.close()


# ------------------------------------------------- live: the cable pulled


def test_cable_pulled_keeps_the_board_and_reconnects(tmp_path):
    link, state_dir = tmp_path / "tty", tmp_path / "st"
    dev = SimThread(link, state_dir, seed=3)
    app = make_app(link)
    box = {"dev": dev}

    async def run():
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: in_sync(app, dev), what="the first sync")
            for _ in range(3):
                seq0 = dev.state()[1]
                await pilot.press("c" if dev.state()[0]["pending"] else "e")
                await until(pilot, lambda: dev.state()[1] > seq0 and in_sync(app, dev), what="a turn")
            before_state, before_board = app.state, board_from_widget(app)

            dev.close()                                            # the cable is pulled
            await until(pilot, lambda: app.conn_kind == "lost", what="the loss noticed")
            conn = widget_text(app, "#conn")
            assert "connection lost" in conn and "stale" in conn and "reconnecting" in conn
            assert "STALE" in widget_text(app, "#board")
            assert app.state == before_state and board_from_widget(app) == before_board
            await pilot.press("e")                                 # keys while away: said so, nothing breaks
            await pilot.pause(0.1)
            assert "not connected" in widget_text(app, "#status")

            again = SimThread(link, state_dir)                     # plugged in again: the journal restores
            box["dev"] = again
            await until(pilot, lambda: in_sync(app, again) and app.conn_kind == "connected",
                        timeout=8, what="the reconnection")
            assert app.state == before_state                       # the same game, restored
            assert "STALE" not in widget_text(app, "#board")
            assert "connected to" in widget_text(app, "#conn")
            seq0 = again.state()[1]
            await pilot.press("c" if again.state()[0]["pending"] else "e")
            await until(pilot, lambda: again.state()[1] > seq0 and in_sync(app, again), what="play on")

    try:
        asyncio.run(run())
    finally:
        app.shutdown()
        box["dev"].close()


# ------------------------------------------ another protocol, no device


class FakeDevice:
    """A pty that answers hello with protocol 99."""

    def __init__(self, link):
        self.master, self.slave = pty.openpty()
        tty.setraw(self.slave)
        attrs = termios.tcgetattr(self.slave)
        attrs[3] &= ~termios.ECHO
        termios.tcsetattr(self.slave, termios.TCSANOW, attrs)
        self.link = str(link)
        os.symlink(os.ttyname(self.slave), self.link)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    def _loop(self):
        buf = b""
        while not self.stop.is_set():
            r, _, _ = select.select([self.master], [], [], 0.05)
            if not r:
                continue
            try:
                buf += os.read(self.master, 4096)
            except OSError:
                return
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                try:
                    req = json.loads(line)
                except ValueError:
                    continue
                reply = {"id": req.get("id"), "ok": True, "protocol": 99, "firmware": "9.0", "game": "siege"}
                os.write(self.master, (json.dumps(reply) + "\n").encode())

    def close(self):
        self.stop.set()
        self.thread.join(1.0)
        os.remove(self.link)
        os.close(self.master)
        os.close(self.slave)


def test_protocol_mismatch_is_said_plainly(tmp_path):
    fake = FakeDevice(tmp_path / "fake")
    app = make_app(tmp_path / "fake")

    async def run():
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.conn_kind == "mismatch", what="the mismatch")
            conn = widget_text(app, "#conn")
            assert "protocol mismatch" in conn and "protocol 99" in conn and "speaks 1" in conn
            assert app.state is None

    try:
        asyncio.run(run())
    finally:
        app.shutdown()
        fake.close()


def test_no_device_asks_before_starting_the_simulator(tmp_path, monkeypatch):
    monkeypatch.setattr(ports, "find_device", lambda: None)
    app = monitor.MonitorApp(port="auto", retry=0.1, sim_link=str(tmp_path / "sim"), sim_state=str(tmp_path / "st"))

    async def run():
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause(0.1)
            assert isinstance(app.screen, monitor.AskSimScreen)
            assert "No device found. Start the simulator? [Y/n]" in app.screen.query_one("#asksim").content
            await pilot.press("n")
            await until(pilot, lambda: app.conn_kind == "nodevice", what="no device")
            assert widget_text(app, "#conn").startswith("no device")
            assert app.sim.proc is None

    try:
        asyncio.run(run())
    finally:
        app.shutdown()


def test_start_sim_runs_the_simulator_and_stops_it_on_quit(tmp_path, monkeypatch):
    monkeypatch.setattr(ports, "find_device", lambda: None)
    link = tmp_path / "sim"
    app = monitor.MonitorApp(port="auto", start_sim=True, retry=0.1, sim_link=str(link),
                             sim_state=str(tmp_path / "st"))

    async def run():
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.conn_kind == "connected" and app.state is not None,
                        timeout=20, what="the simulator started and connected")
            assert "connected to %s" % link in widget_text(app, "#conn")
            assert len(app.state["enemies"]) == 6
            await pilot.press("q")
        assert app.sim.proc.poll() is not None                    # stopped on quit
        assert not os.path.lexists(link)

    try:
        asyncio.run(run())
    finally:
        app.shutdown()


def test_v8_w16_the_device_games_events_read_as_sentences():
    """The monitor's log line for Victory Day's toss and War Chest's tracker (their events' fields as pushed)."""
    assert texts.describe({"ev": "victory", "did": "toss", "lot": "B", "game": 1, "starter": "B", "ussr": "A",
                           "saved": True}) == "Victory Day: game 1, seat B (Germany) starts: the lot"
    assert texts.describe({"ev": "victory", "did": "next", "lot": "B", "game": 2, "starter": "A", "ussr": "A",
                           "saved": True}) == "Victory Day: game 2, seat A (USSR) starts: alternating, V8"
    assert texts.describe({"ev": "victory", "did": "new", "lot": None, "game": 1, "starter": None,
                           "ussr": "B"}) == "Victory Day's toss: ready, seat B plays the USSR (new)"
    assert texts.describe({"ev": "warchest", "what": "claim", "player": 2, "warchest": {}}) == \
        "War Chest: player 2 claimed the initiative (W16)"
    assert texts.describe({"ev": "warchest", "what": "action", "player": 1, "round_ended": 1, "warchest": {}}) == \
        "War Chest: player 1's action done; the round ended"
