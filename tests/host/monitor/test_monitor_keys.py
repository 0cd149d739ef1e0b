"""The monitor's keys and the texts that name them (issue #10 items 10, 16 and
issue #16's marshal UI), against a FAKE session: the monitor's Session is
replaced by one that applies the requests to a real engine Game, so every key
is driven through textual's pilot and checked against what the engine does,
fast and with no serial port.

  - every key does what its help line says (pressed, not just looked up), and
    every binding has a help line; the help screen, the sidebar, the footer,
    the game panel's hints and README.md's key list name keys from KEYMAP;
  - `e` follows the marshal flow (R60, R17): end_turn from phase 4, his play
    in phase 7, no second stop after a patrol;
  - the marshal's screen offers only the plays R60 allows;
  - a refused play shows its rule and text in the log."""

import asyncio
import os
import re
import sys

import pytest

pytest.importorskip("textual")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
try:
    import osada  # noqa: F401
except ImportError:  # run from the tree
    sys.path[:0] = [os.path.join(ROOT, "firmware"), ROOT, os.path.join(ROOT, "host")]

from osada import monitor  # noqa: E402
from osada.gameview import COMMON_KEYMAP, view_classes  # noqa: E402
from osada.monitor.keymap import key_game  # noqa: E402
from osada.siege import keys as siege_keys  # noqa: E402
from osada.siege.screens import ConfirmScreen, MarshalScreen, NewGameScreen, marshal_play_problem  # noqa: E402
from osada.words import texts  # noqa: E402
from shared_rules.siege.catalog import MODES  # noqa: E402
from shared_rules.siege.engine import Game  # noqa: E402
from tests.support.monitor_fakes import damage_game, fake_app  # noqa: E402

SIZE = (140, 45)
KEYMAP = siege_keys.KEYMAP + COMMON_KEYMAP              # Siege's keys, as the help shows them
GAME_KEYMAPS = {g: v.KEYMAP + COMMON_KEYMAP for g, v in view_classes().items()}


def run_app(game, body, monkeypatch):
    box = {}

    app = fake_app(game, box)

    async def go():
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await body(app, pilot, box["session"])

    try:
        asyncio.run(go())
    finally:
        app.shutdown()


async def settle(pilot):
    await pilot.pause(0.08)          # the session's messages are handled


def info(app):
    return app.main.query_one("#info").content.plain


def status(app):
    return app.main.query_one("#status").content.plain


# ------------------------------------------------------- keys vs help texts


def keymap_keys(rows=None):
    """(textual key, action as bound, the row) for every key of a keymap (KEYMAP: Siege's)."""
    out = []
    for row in KEYMAP if rows is None else rows:
        keys, action = row[0], row[1]
        for k in keys.split(","):
            out.append((k, "digit(%s)" % k if action == "digit" else action, row))
    return out


def helped_row(action, rows=None):
    """The keymap row that documents an action (the first with that action and a help line)."""
    for row in KEYMAP if rows is None else rows:
        if row[1] == action and row[2] and row[4]:
            return row
    return None


BOUND = re.compile(r"^app\.key\('(\w+)', '(\w+)'(?:, (.*))?\)$")


def bound_as(action):
    """(game, the keymap's action as written) of a binding's action string; (None, name) for a common key."""
    m = BOUND.match(action)
    if m is None:
        return None, action[4:]
    args = m.group(3)
    if m.group(2) == "digit":
        return m.group(1), "digit(%s)" % args
    return m.group(1), m.group(2) + ("(%s)" % args.replace(" ", "") if args else "")


def test_every_binding_has_a_help_line_and_every_help_line_a_binding():
    """Issue 39: per game, each key bound once, to what its game's view's keymap
    says, and every binding with a help line; the footer shows the game's marked keys."""
    bound = {}
    for b in monitor.MainScreen.BINDINGS:
        game, action = bound_as(b.action)
        for k in b.key.split(","):
            for g in [game] if game else list(GAME_KEYMAPS):
                assert (g, k) not in bound, "%s bound twice in %s" % (k, g)
                bound[g, k] = action
    expected = {(g, k): a for g, rows in GAME_KEYMAPS.items() for k, a, _row in keymap_keys(rows)}
    assert bound == expected
    assert set(GAME_KEYMAPS) == {"siege", "tank", "victory", "warchest"}
    for g, rows in GAME_KEYMAPS.items():
        for k, action, row in keymap_keys(rows):
            if not row[2]:                        # the second key of a pair shown as one line (← →)
                assert any(r[2] and r[4] and r[1].split("(")[0] == action.split("(")[0] for r in rows), (g, k)
                continue
            assert helped_row(row[1], rows) is not None, "no help line for %s (%s) in %s" % (k, action, g)
        # the footer shows the keys the game's keymap marks, with its short names
        footer = [(b.key, b.description) for b in monitor.MainScreen.BINDINGS
                  if b.show and bound_as(b.action)[0] in (g, None)]
        assert footer == [(r[0], r[3]) for r in rows if r[5]], g
    # what the app binds itself (not textual's system keys) is in a help line too
    for b in monitor.MonitorApp.BINDINGS:
        if not getattr(b, "system", False):
            assert b.action == "quit" and "Ctrl+Q" in helped_row("quit")[4], b
    assert monitor.MonitorApp.ENABLE_COMMAND_PALETTE is False   # no ^p the help does not name
    assert key_game("key", ("tank", "roll")) == "tank" and key_game("help", ()) is None


def test_every_key_does_what_its_help_says(monkeypatch):
    """Press every key of Siege's KEYMAP and see which of its view's key methods runs."""
    calls = []

    async def body(app, pilot, sess):
        view = app.view
        for _k, action, _r in keymap_keys():
            name = action.split("(")[0]
            if hasattr(view, "key_" + name):
                def rec(*args, _n=name):
                    calls.append((_n, args))
                monkeypatch.setattr(view, "key_" + name, rec)
            elif hasattr(app, "action_" + name):
                def rec_app(*args, _n=name):
                    calls.append((_n, args))
                monkeypatch.setattr(app, "action_" + name, rec_app)
        for key, action, _row in keymap_keys():
            if action in ("quit", "help"):
                continue
            del calls[:]
            await pilot.press(key)
            await pilot.pause(0.01)
            name = action.split("(")[0]
            args = tuple(int(x) for x in re.findall(r"-?\d+", action)) if "(" in action else ()
            assert calls == [(name, args)], "%s: expected %s%s, got %s" % (key, name, args, calls)

    run_app(Game(players=2, seed=1), body, monkeypatch)


def test_help_screen_and_sidebar_are_the_keymap(monkeypatch):
    async def body(app, pilot, sess):
        keys = app.main.query_one("#keys").content.plain
        await pilot.press("question_mark")
        assert isinstance(app.screen, monitor.HelpScreen)
        text = app.screen.query_one("#help").content.plain
        text = re.sub(r"\n {11}(?=\S)", " ", text)            # a long line goes on under its own text
        for _k, _a, shown, short, what, _f in KEYMAP:
            if shown:
                assert re.search(r"(?m)^%s +%s$" % (re.escape(shown), re.escape(what)), text), shown
            if short:                                             # the sidebar: the rows with a short name
                assert shown in keys and short[:13] in keys
            elif shown:                                           # the others (the event log's) only in the help
                assert shown not in keys
        assert "Esc, ? or q closes." in text
        for k in ("escape", "question_mark", "q"):                # each key it names closes it
            if not isinstance(app.screen, monitor.HelpScreen):
                await pilot.press("question_mark")
            await pilot.press(k)
            assert app.screen is app.main, k

    run_app(Game(players=2, seed=1), body, monkeypatch)


def readme_keys(sentence, rows):
    """The `key` name pairs of README.md's key list starting with `sentence`, each
    checked against the keymap `rows`: the key is bound and named as it is there."""
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    m = re.search(re.escape(sentence) + r" (.*?)[.;] ", readme.replace("\n", " "))
    assert m, "README.md: the key list %r" % sentence
    pairs = re.findall(r"`([^`]+)` ([a-z][a-z ]*[a-z])", m.group(1))
    for key, name in pairs:
        row = [r for r in rows if r[2] and (key in r[2].split() or key == r[2])]
        assert row, "README names `%s`, which the keymap does not bind" % key
        assert name.startswith(row[0][3]), "README: `%s` %s, but the keymap: %s" % (key, name, row[0][3])
    return m.group(1), pairs


def test_readme_key_list_names_keys_as_the_keymap_does():
    text, pairs = readme_keys("Play from the keyboard:", KEYMAP)
    assert len(pairs) >= 8
    shorts = {row[2]: row[3] for row in KEYMAP if row[2]}
    assert "arrows move the cursor" in text and shorts["← →"] == "sector"


@pytest.mark.parametrize("how", ["digit", "tab_enter", "c"])
def test_pending_choice_hints_tell_what_the_keys_do(monkeypatch, how):
    async def body(app, pilot, sess):
        panel = info(app)
        hint = siege_keys.hints(siege_keys.DAMAGE_HINTS)
        assert hint == "Tab mark the next · c/Enter choose the marked one · 1–9 choose that number at once"
        assert hint in panel and "▸1)" in panel
        if how == "digit":                 # "1–9 choose that number at once": 2 chooses the 2nd, no c
            await pilot.press("2")
            await settle(pilot)
            assert sess.actions() == [{"do": "choose", "enemy": 2}]
        elif how == "tab_enter":           # "Tab mark the next", "Enter choose the marked one"
            await pilot.press("tab")
            await settle(pilot)
            assert sess.actions() == [] and "▸2)" in info(app)
            await pilot.press("enter")
            await settle(pilot)
            assert sess.actions() == [{"do": "choose", "enemy": 2}]
        else:
            await pilot.press("c")
            await settle(pilot)
            assert sess.actions() == [{"do": "choose", "enemy": 1}]
        assert app.state["pending"] is None

    run_app(damage_game(), body, monkeypatch)


def test_every_hint_names_a_bound_key():
    for pairs in (siege_keys.DAMAGE_HINTS, siege_keys.MARSHAL_HINTS, siege_keys.EXTRA_HINTS):
        for action, _what in pairs:
            assert helped_row(action) is not None, action


# ------------------------------------------------- the marshal (R60, R17)


def marshal_game(seed=3):
    """Marshal mode; seed 3: after the defenders' turn his hand is sabotage_air, tiger, pz3."""
    return Game(players=2, mode="marshal", seed=seed)


def test_e_hands_over_to_the_marshal_who_must_play(monkeypatch):
    async def body(app, pilot, sess):
        assert app.state["phase"] == 4
        await pilot.press("M")                            # not his turn: the status names the keys that are
        assert app.screen is app.main
        assert "e (or m) moves the enemies and hands over to him" in status(app)
        await pilot.press("e")
        await settle(pilot)
        assert sess.actions() == [{"do": "end_turn"}]     # not move: the engine's own marshal flow
        st = app.state
        assert st["phase"] == 7 and st["turn"] == 1 and st["marshal_hand"] == ["sabotage_air", "tiger", "pz3"]
        assert [(e["ev"], e.get("phase")) for e in app.events if e["ev"] in ("move", "phase")] == [
            ("phase", 5), ("move", None), ("phase", 7)]               # his hand was full: nothing to draw
        assert "Field marshal's turn (phase 7)" in info(app)
        assert "M his play · e his play too" in info(app)

        await pilot.press("e")                            # phase 7: e opens his play (it is his to end)
        assert isinstance(app.screen, MarshalScreen)
        scr = app.screen
        why = lambda: scr.query_one("#why").content            # noqa: E731
        play = scr.query_one("#play")
        assert play.disabled and "pick tokens" in str(why())
        scr.query_one("#tokens").select(0)                # a lone sabotage_air: no play
        await settle(pilot)
        assert play.disabled and "R60" in str(why()) and "lone" in str(why())
        assert scr.query_one("#sector").disabled
        await pilot.click("#play")
        await settle(pilot)
        assert app.screen is scr and sess.actions() == [{"do": "end_turn"}]
        scr.query_one("#tokens").select(1)                # sabotage_air + tiger: two tokens, a play
        await settle(pilot)
        assert not play.disabled and scr.query_one("#sector").disabled
        scr.query_one("#tokens").select(2)                # three: no play
        await settle(pilot)
        assert play.disabled and "not 3" in str(why())
        scr.query_one("#tokens").deselect(0)
        scr.query_one("#tokens").deselect(2)              # a lone tiger: a play, into a sector he chooses
        await settle(pilot)
        assert not play.disabled and not scr.query_one("#sector").disabled
        scr.query_one("#sector").value = 4
        await pilot.click("#play")
        await settle(pilot)
        assert sess.actions()[-1] == {"do": "marshal_play", "tokens": ["tiger"], "sector": 4}
        assert app.state["turn"] == 2 and app.state["phase"] == 4
        tiger = [e for e in app.state["enemies"] if e["kind"] == "tiger" and e["line"] == "rear"]
        assert [e["sector"] for e in tiger] == [4]

    run_app(marshal_game(), body, monkeypatch)


def test_after_a_patrol_e_ends_the_turn_with_no_marshal_stop(monkeypatch):
    async def body(app, pilot, sess):
        hand = list(app.state["marshal_hand"])
        await pilot.press("t")
        await settle(pilot)
        await pilot.press("e")
        await settle(pilot)
        assert sess.actions() == [{"do": "patrol"}, {"do": "end_turn"}]
        st = app.state
        assert (st["turn"], st["phase"], st["player"]) == (2, 4, 2)     # straight on: no phase 7 stop
        assert st["marshal_hand"] == hand                                 # he neither drew nor played
        assert "marshal_draw" not in [e["ev"] for e in app.events]
        assert "Field marshal's turn" not in info(app)

    run_app(marshal_game(), body, monkeypatch)


def test_after_a_patrol_and_m_the_phase_7_stop_offers_only_nothing(monkeypatch):
    async def body(app, pilot, sess):
        await pilot.press("t")
        await pilot.press("m")                            # move: the engine stops in phase 7
        await settle(pilot)
        assert app.state["phase"] == 7 and app.state["patrol"]
        assert "Patrol (R17): he only moves the enemies — e ends the turn" in info(app)
        await pilot.press("M")
        scr = app.screen
        assert isinstance(scr, MarshalScreen) and scr.patrol
        scr.query_one("#tokens").select(1)
        await settle(pilot)
        assert scr.query_one("#play").disabled and "R17" in str(scr.query_one("#why").content)
        await pilot.press("escape")
        await pilot.press("e")
        await settle(pilot)
        assert sess.actions()[-1] == {"do": "end_turn"}
        assert (app.state["turn"], app.state["phase"]) == (2, 4)

    run_app(marshal_game(), body, monkeypatch)


def test_marshal_play_problem_is_r60():
    p = marshal_play_problem
    assert p([]) is None
    assert p(["tiger"]) is None and p(["maus"]) is None                  # a lone tank (special too)
    for lone in ("move_red", "he111", "reveal3", "sabotage_air", "discard_one"):
        assert p([lone]).startswith("R60: a lone %s is no play" % texts.ru(lone)), lone
    assert p(["move_red", "he111"]) is None and p(["tiger", "he111"]) is None and p(["pz3", "tiger"]) is None
    assert "not 3" in p(["pz3", "tiger", "he111"])
    assert p(["he111"], extra=3) is None and p(["he111", "move_red", "pz3"], extra=3) is None
    assert "up to 3" in p(["pz3"] * 4, extra=3)
    assert p(["tiger"], patrol=True).startswith("R17") and p([], patrol=True) is None


def test_marshal_extra_play_after_his_reveal(monkeypatch):
    g = Game(players=2, mode="marshal", seed=11)           # his hand: reveal4, pz3, sabotage_air
    g.apply({"do": "end_turn"})
    g.apply({"do": "marshal_play", "tokens": ["reveal4", "sabotage_air"]})
    assert g.pending == {"choice": "marshal_extra", "count": 4}

    async def body(app, pilot, sess):
        assert "The field marshal may play up to 4 token(s)" in info(app)
        assert "c/Enter his play · M his play" in info(app)
        await pilot.press("e")
        scr = app.screen
        assert isinstance(scr, MarshalScreen) and scr.extra == 4
        lone = [i for i, k in enumerate(scr.hand) if not texts.is_enemy(k)][0]
        scr.query_one("#tokens").select(lone)           # after reveal4 a lone non-tank is fine: placed by die
        await settle(pilot)
        assert not scr.query_one("#play").disabled and scr.query_one("#sector").disabled
        await pilot.click("#play")
        await settle(pilot)
        assert sess.actions() == [{"do": "marshal_play", "tokens": [scr.hand[lone]]}]
        assert app.state["pending"] is None or app.state["pending"]["choice"] == "damage"

    run_app(g, body, monkeypatch)


def test_a_refused_play_shows_its_rule_and_text_in_the_log(monkeypatch):
    async def body(app, pilot, sess):
        # pushed by the device for its own buttons
        sess.post(monitor.Session.Pushed({"ev": "refused", "rule": "R60", "source": "buttons",
                                          "error": "a lone move_red is no play"}))
        await settle(pilot)
        assert app.log_lines[-1] == "Refused by R60 (from the board's buttons): a lone move_red is no play"
        log = app.main.query_one("#log")
        assert "Refused by R60" in "\n".join(strip.text for strip in log.lines)
        # the reply to the monitor's own request
        await pilot.press("up")                          # sector 1 rear: nothing there
        app.send("act", action={"do": "kill", "enemy": 1, "card": {"type": "il2"}})
        app.send("act", action={"do": "push_back", "enemy": 1})
        app.send("act", action={"do": "push_back", "enemy": 1})
        await settle(pilot)
        assert app.log_lines[-1].startswith("✗ push back enemy #1 refused (R15): ")       # gone: no name
        assert "R15" in status(app)

    run_app(Game(players=2, seed=1), body, monkeypatch)


def test_a_refusal_a_key_set_off_is_not_said_to_come_from_the_boards_buttons(monkeypatch):
    """Issue 61 item 5: War Chest's `b` presses the board's BACK through a `press` request;
    the device cannot tell, so the monitor says what it knows: a key set it off."""
    async def body(app, pilot, sess):
        assert app.send("press", button="back") and app.pressing == 1
        await settle(pilot)                               # the fake answers at once
        assert app.pressing == 0
        app.pressing = 1                                  # as if its reply were not in yet
        sess.post(monitor.Session.Pushed({"ev": "refused", "game": "warchest", "rule": "W16", "source": "buttons",
                                          "error": "no coin to claim the initiative with"}))
        await settle(pilot)
        assert app.log_lines[-1] == ("Refused by W16 (from a key: the board's button it presses): "
                                     "no coin to claim the initiative with")
        app._on_reply("press", {"button": "back"}, {"ok": True})
        assert app.pressing == 0
        sess.post(monitor.Session.Pushed({"ev": "refused", "game": "warchest", "rule": "W16", "source": "buttons",
                                          "error": "no coin to claim the initiative with"}))
        await settle(pilot)
        assert "(from the board's buttons)" in app.log_lines[-1]

    run_app(Game(players=2, seed=1), body, monkeypatch)


def test_the_engines_r60_refusal_is_logged_with_its_rule_and_text(monkeypatch):
    async def body(app, pilot, sess):
        await pilot.press("e")
        await settle(pilot)
        assert app.state["phase"] == 7
        # a lone non-tank sent anyway (the screen would not): the engine refuses it
        app.send("act", action={"do": "marshal_play", "tokens": ["sabotage_air"]})
        await settle(pilot)
        line = app.log_lines[-1]
        assert line.startswith("✗ marshal play refused (R60): ") and "sabotage_air" in line
        assert line[2:] == status(app)
        assert app.state["phase"] == 7 and app.state["marshal_hand"] == ["sabotage_air", "tiger", "pz3"]

    run_app(marshal_game(), body, monkeypatch)


# ------------------------------------------------------- names (item 15)


def test_new_game_dialog_names_modes_and_variants_in_both_languages(monkeypatch):
    from textual.widgets import Select, SelectionList

    async def body(app, pilot, sess):
        await pilot.press("n")
        scr = app.screen
        assert isinstance(scr, NewGameScreen)
        modes = [(str(prompt), value) for prompt, value in scr.query_one("#mode", Select)._options]
        assert ("«Фельдмаршал» (field marshal) — one player commands the enemy", "marshal") in modes
        assert [v for _p, v in modes] == list(MODES)
        sl = scr.query_one("#variants", SelectionList)
        prompts = [str(sl.get_option_at_index(i).prompt) for i in range(sl.option_count)]
        assert prompts[0] == "«Застали врасплох» (caught off guard)"
        assert str(scr.query_one("#variant-help").content) == \
            "«Застали врасплох» (caught off guard): no walls at the start"       # what it does: said whole
        for p in [p for p, _v in modes] + prompts:
            assert "_" not in p                            # names, not ids like caught_off_guard
        scr.query_one("#mode", Select).value = "marshal"
        sl.select(sl.get_option_at_index(0))
        sl.select(sl.get_option_at_index(4))
        scr.query_one("#seed").value = "3"
        await pilot.click("#start")
        await settle(pilot)
        new = [f for c, f in sess.sent if c == "new"][-1]
        assert new["mode"] == "marshal" and new["variants"] == ["caught_off_guard", "my_house"]
        sess.submit("log")                                 # the setup for the sidebar, as after a real new
        await settle(pilot)
        panel = info(app)
        assert "Mode «Фельдмаршал» (field marshal)" in panel
        assert ("Variants: «Застали врасплох» (caught off guard), «Мой дом – моя крепость» (my house is my "
                "fortress) · seed 3") in panel
        assert "caught_off_guard" not in panel

    run_app(Game(players=2, seed=1), body, monkeypatch)


def test_g_switches_the_devices_game_and_back(monkeypatch):
    """Issue 13: the monitor switches the device between Siege and Tank battle
    ({"cmd": "game"}); while the dice game runs its panel says so, and Siege's
    game comes back as it was."""

    async def body(app, pilot, sess):
        before = info(app)
        await pilot.press("G")
        await settle(pilot)
        assert [x for x in sess.sent if x[0] == "game"][-1] == ("game", {"game": "tank"})
        assert "Tank battle («Кубики») on the device" in info(app)
        assert "the device now runs Tank battle" in status(app)
        app._on_event({"ev": "game", "game": "siege"})      # the device switched back by its own menu
        await settle(pilot)
        assert info(app) == before
        for _ in range(4):                                  # G goes round the device's games, back to Siege
            await pilot.press("G")
            await settle(pilot)
        assert [f["game"] for c, f in sess.sent if c == "game"] == ["tank", "tank", "victory", "warchest", "siege"]
        assert info(app) == before

    run_app(Game(players=2, seed=1), body, monkeypatch)


# ------------------------------------------- a new game over one in progress (issue 26 item 1)


def _mid_game():
    g = Game(players=3, seed=3)
    g.apply({"do": "hit", "enemy": 1})
    g.apply({"do": "move"})
    return g


def test_enter_in_the_new_game_dialog_never_starts_a_game(monkeypatch):
    from textual.widgets import Input, Label

    async def body(app, pilot, sess):
        await pilot.press("n")
        scr = app.screen
        assert isinstance(scr, NewGameScreen)
        warn = str(scr.query_one("#in-progress", Label).content)
        assert "A game is in progress (turn 1, 2 actions)" in warn and "u (undo)" in warn
        await pilot.press("backspace", "3", "enter")          # typed fast, as the issue did
        await settle(pilot)
        assert app.screen is scr and not [c for c, _f in sess.sent if c == "new"]
        assert scr.query_one("#players", Input).value == "3"
        start = scr.query_one("#start")
        assert str(start.label) == "Replace the game"           # the one question: no [y/N] after it
        await pilot.click("#start")
        await settle(pilot)
        assert not isinstance(app.screen, (ConfirmScreen, NewGameScreen))
        assert [f["players"] for c, f in sess.sent if c == "new"] == [3]

    run_app(_mid_game(), body, monkeypatch)


def test_an_empty_players_field_is_refused_not_read_as_two(monkeypatch):
    from textual.widgets import Input, Label

    async def body(app, pilot, sess):
        await pilot.press("n")
        scr = app.screen
        scr.query_one("#players", Input).value = ""
        await pilot.click("#start")
        await settle(pilot)
        assert app.screen is scr and not [c for c, _f in sess.sent if c == "new"]
        assert "Players: type how many" in str(scr.query_one("#problem", Label).content)

    run_app(Game(players=2, seed=1), body, monkeypatch)


def test_a_new_game_over_a_fresh_one_does_not_ask(monkeypatch):
    async def body(app, pilot, sess):
        await pilot.press("n")
        assert not app.screen.query("#in-progress")
        await pilot.click("#start")
        await settle(pilot)
        assert [c for c, _f in sess.sent if c == "new"] == ["new"]

    run_app(Game(players=2, seed=1), body, monkeypatch)


def test_readme_tank_key_list_names_keys_as_the_tank_keymap_does():
    """Issue 26 item 3: the README's Tank battle keys are TANK_KEYMAP's."""
    _text, pairs = readme_keys("Tank battle has its own keys in the monitor:", GAME_KEYMAPS["tank"])
    assert len(pairs) == len([r for r in GAME_KEYMAPS["tank"] if r[2] and r not in COMMON_KEYMAP])


def test_a_ticked_variant_is_marked_not_only_coloured(monkeypatch):
    """Issue 61 item 12: textual draws "X" in every box, ticked or not; ours says ✓ or nothing."""
    from shared_rules.siege.catalog import VARIANTS

    async def body(app, pilot, sess):
        app.push_screen(NewGameScreen(2, "standard", [VARIANTS[1]]))
        await settle(pilot)
        box = app.screen.query_one("#variants")
        lines = [box.render_line(y).text for y in range(len(VARIANTS))]
        assert "✓" in lines[1] and "X" not in lines[1]
        assert "✓" not in lines[0] and "X" not in lines[0]

    run_app(Game(players=2, seed=1), body, monkeypatch)
