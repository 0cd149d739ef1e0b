"""The monitor (`osada monitor`, `make run`) on a device that runs the tank
game: it stays up, and its log mirrors each «Кубики» roll with the odds of
its result (texts.describe -> osada.words.tank_rolls), the roll key included."""

import asyncio

from test_monitor import SIZE, SimThread, make_app, until
from test_monitor_keys import info, status

from osada.link import ports
from osada.words import tank_rolls


def tk(app):
    """The monitor's Tank battle view."""
    return app.view_for("tank")


def sg(app):
    """The monitor's Siege view."""
    return app.view_for("siege")


async def g_until(pilot, app, game):
    """Press G (the device's next game) until the monitor shows `game`; the games it went through."""
    seen = []
    for _ in range(4):
        was = app.game
        await pilot.press("G")
        await until(pilot, lambda: app.game != was, what="the game after %s" % was)
        seen.append(app.game)
        if app.game == game:
            return seen
    raise AssertionError("G went %s, never to %s" % (seen, game))


def test_the_monitor_logs_tank_rolls_with_their_odds(tmp_path):
    dev = SimThread(tmp_path / "tty", tmp_path / "st", seed=1)
    try:
        link = ports.serial_link(str(tmp_path / "tty"), timeout=5.0)
        link.connect()
        assert link.request("game", game="tank")["ok"]
        link.close()
        app = make_app(tmp_path / "tty")

        async def run():
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: app.hello is not None, what="connected")
                assert app.hello["game"] == "tank"
                await pilot.press("o")                     # the roll key: the device's current test
                await until(pilot, lambda: any("chance" in ln for ln in app.log_lines), what="the roll's odds")
                line = [ln for ln in app.log_lines if "chance" in ln][0]
                assert line.startswith("fire 6 dice, hit on <= 3, protection 0:")
                assert "you had a" in line or "a 1.6% chance of none" in line
                assert "fire 6 dice, hit on <= 3" in board(app)                # the board: the ring of that roll
                assert not any("refused" in ln for ln in app.log_lines)       # no Siege request sent to Tank battle
                assert sg(app).setup is None
                assert await g_until(pilot, app, "siege") == ["victory", "warchest", "siege"]   # its setup now
                await until(pilot, lambda: sg(app).setup is not None and "wall" in board(app), what="Siege's board")
                assert not any("refused" in ln for ln in app.log_lines)
        asyncio.run(run())
    finally:
        dev.close()


def _board_leds(board_text, label):
    """The 24 LED colours of the board's row labelled `label`: (r, g, b), None for a dark LED."""
    from rich.console import Console
    console = Console()
    plain = board_text.plain
    start = plain.index("\n" + label) + 1
    end = plain.index("\n", start) if "\n" in plain[start:] else len(plain)
    out = []
    for i in range(start, end):
        ch = plain[i]
        if ch in "●█":
            if ch == "█" and plain[i - 1] == "█":
                continue
            c = board_text.get_style_at_offset(console, i).color.get_truecolor()
            out.append((c.red, c.green, c.blue))
        elif ch in "○░":
            if ch == "░" and plain[i - 1] == "░":
                continue
            out.append(None)
    return out


def _device_leds(dev):
    """What the simulated device's own Tank mode draws on its ring after the tumble, as the board shows it."""
    from osada.terminal.ringtext import Layout as _Layout
    from osada.terminal.ringtext import Ring as _Ring
    from osada.terminal.ringtext import rgb as _rgb
    from osada_fw.tank import view as tank_view
    ring = _Ring()
    with dev.lock:
        tank = dev.sim.app.mode
        now = tank.at + tank_view.ROLL_MS                   # after the tumble, blinking LEDs lit (as the board)
        if not (now // 250) & 1:
            now += 250
        tank_view.draw(tank, _Layout(), now, ring)
    out = []
    for c in ring.px:
        if c == (0, 0, 0):
            out.append(None)
        else:
            h = _rgb(c)
            out.append((int(h[1:3], 16), int(h[3:5], 16), int(h[5:7], 16)))
    return out


def test_t29_t39_g_shows_the_ring_of_the_last_roll_on_the_board_and_back(tmp_path):
    """Issue 13, in the monitor against the simulator: G switches the device to
    Tank battle and the board area to its ring ("no roll yet" first); after
    each roll (the o key, and requests: three units a side in a collision, a
    counter-attack) the board's LEDs are the device's own ring, LED for LED,
    with the roll in words and its odds; G again brings Siege's board back."""
    dev = SimThread(tmp_path / "tty", tmp_path / "st", seed=3)
    try:
        app = make_app(tmp_path / "tty")

        async def run():
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: "wall" in board(app), what="Siege's board")
                siege = board(app)
                await pilot.press("G")
                await until(pilot, lambda: "no roll yet" in board(app), what="the tank board")
                assert _board_leds(app.main.query_one("#board").content, "ring") == [None] * 24
                await pilot.press("o")                                  # the device's current test: fire
                await until(pilot, lambda: tk(app).roll is not None, what="the first roll")
                tests = []
                for req in ({"test": "collision", "a": [7, 7, 9], "b": [8, 5, 7]}, {"test": "counter"},
                            {"test": "fire", "dice": 12, "hit": 2, "protection": 4}, None):
                    await pilot.pause(0.1)
                    ev = tk(app).roll
                    tests.append((ev["test"], len(ev["dice"])))
                    text = board(app).replace("\n", " ")
                    assert tank_rolls.describe(ev) in text
                    assert tank_rolls.odds_line(ev).split(" (")[0].split(";")[0] in text
                    label = "outcome" if ev["test"] in ("fire", "suppress") else "ring"
                    leds = _board_leds(app.main.query_one("#board").content, label)
                    assert len(leds) == 24 and leds == _device_leds(dev)
                    if req is not None:
                        before = ev
                        app.session.submit("roll", **req)
                        await until(pilot, lambda: tk(app).roll is not before, what="the roll %r" % req)
                assert tests == [("fire", 6), ("collision", 6), ("counter", 2), ("fire", 12)]
                await g_until(pilot, app, "siege")
                await until(pilot, lambda: board(app) == siege, what="Siege's board as it was")
        asyncio.run(run())
    finally:
        dev.close()


def board(app):
    return app.main.query_one("#board").content.plain


def _footer_keys(app):
    return [(b.binding.key, b.binding.description) for b in app.screen.active_bindings.values()
            if b.binding.show and b.enabled]


def test_tank_battle_has_its_own_keys_and_everything_a_roll_needs(tmp_path):
    """Issue 26 item 3, against the simulator: after G the footer, the keys
    panel and the help are Tank battle's; Siege's keys (h, k, e, u, n) do
    nothing (no request, no dialog, Siege's game untouched); the test and
    every number are chosen with the keys and the roll uses them; after a fire
    roll the protection left is shown (T16), t brings it back (T17)."""
    from osada import monitor
    dev = SimThread(tmp_path / "tty", tmp_path / "st", seed=5)
    try:
        app = make_app(tmp_path / "tty")

        async def run():
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: "wall" in board(app), what="Siege's board")
                siege, seq = dev.state()
                assert ("h", "hit") in _footer_keys(app)
                await pilot.press("G")
                await until(pilot, lambda: app.game == "tank" and "[fire (T12)]" in info(app), what="Tank battle")
                await pilot.pause(0.05)
                footer = _footer_keys(app)
                assert ("o", "roll") in footer and ("enter", "roll") in footer and ("t", "new turn") in footer
                assert not [k for k, _d in footer if k in ("h", "k", "e", "u", "n")], footer
                keys = app.main.query_one("#keys").content.plain
                assert "change" in keys and "mark" in keys and "roll" in keys and "hit" not in keys
                assert "▶ [fire (T12)]" in info(app)                         # the marker on the test, as on the board
                lines = len(app.log_lines)
                for key in ("h", "k", "e", "u", "n", "c", "M"):             # Siege's: nothing happens
                    await pilot.press(key)
                await pilot.pause(0.2)
                assert app.screen is app.main                                # no Siege dialog
                assert not [ln for ln in app.log_lines[lines:] if "refused" in ln], app.log_lines[lines:]
                assert dev.state() == (siege, seq)
                await pilot.press("question_mark")                           # the help: Tank battle's keys
                help_text = app.screen.query_one("#help").content.plain
                assert "keys (Tank battle)" in help_text and "T17" in help_text and "hedgehog" not in help_text
                await pilot.press("escape")
                # morale: 3 dice, steadiness 10
                await pilot.press("right", "right")                          # the test: fire, suppression, morale
                assert "[morale test (T21)]" in info(app)
                await pilot.press("down", "plus", "down", "plus", "plus", "plus")
                assert "▶ steadiness" in info(app) and "10" in info(app)
                await pilot.press("o")
                await until(pilot, lambda: (tk(app).roll or {}).get("test") == "morale", what="the morale roll")
                ev = tk(app).roll
                assert ev["steadiness"] == 10 and len(ev["dice"]) == 3 and ev["source"] == "host"
                # a collision, two units against one: A's steadiness 8 and 7, B's 7
                await pilot.press("up", "up", "left", "left", "left")        # back to the test: morale ... collision
                assert "[collision (T39)]" in info(app)
                await pilot.press("down", "plus", "down", "plus", "enter")
                await until(pilot, lambda: (tk(app).roll or {}).get("test") == "collision", what="the collision")
                assert tk(app).roll["a"] == [8, 7] and tk(app).roll["b"] == [7]
                # fire at protection 4, 12 dice hitting on <= 5: the protection left, then a new turn
                await pilot.press("up", "up", "right")                        # collision -> fire
                await pilot.press("down", *["minus"] * 6)                    # dice 6 -> 12 (wraps)
                await pilot.press("down", "plus", "plus", "down", "down", *["plus"] * 4)
                assert tk(app).setup.request() == {"test": "fire", "dice": 12, "hit": 5, "ambush": 0, "protection": 4}
                await pilot.press("o")
                await until(pilot, lambda: (tk(app).roll or {}).get("test") == "fire", what="the fire roll")
                ev = tk(app).roll
                left = 4 - ev["absorbed"]
                await until(pilot, lambda: tk(app).setup.numbers["fire"]["protection"] == left, what="T16")
                assert dev.sim.app.mode.vals[3] == left
                await pilot.press("t")
                assert tk(app).setup.numbers["fire"]["protection"] == 4 and "T17" in status(app)
                await g_until(pilot, app, "siege")                           # Siege again, as it was
                await until(pilot, lambda: app.game == "siege" and "wall" in board(app), what="Siege")
                assert dev.state() == (siege, seq) and ("h", "hit") in _footer_keys(app)
                assert monitor.keymap.key_game("key", ("siege", "hit")) == "siege"
        asyncio.run(run())
    finally:
        dev.close()

