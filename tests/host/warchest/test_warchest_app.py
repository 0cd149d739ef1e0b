"""The War Chest tracker app (`osada warchest track`), driven by textual's
pilot: keys in, the screen's text and the saved file out.  Events entered by
key (the unit or coin picked by its number), both players' zones, the public
view by default (no entered coin shown, W24) and the owner view behind `v`,
a refused event named by its rule with nothing saved, undo, the game saved
after every event and resumed from its file."""

import asyncio
import json

import pytest

pytest.importorskip("textual")

from osada.trackerapp import KeysHelp as Help  # noqa: E402
from osada.warchest.app import Pick, TrackerApp  # noqa: E402
from osada.warchest.journal import Journal  # noqa: E402
from shared_rules.warchest.units import preset  # noqa: E402
from tests.mpy.warchest_play import COUNTS  # noqa: E402


def new_journal(tmp_path, known=(0,)):
    j = Journal.new(str(tmp_path / "game.json"), {"players": 2, "types": preset("first"), "counts": dict(COUNTS),
                                                  "initiative": 0, "known": list(known)})
    j.save()
    return j


def run(journal, body, size=(140, 45)):
    app = TrackerApp(journal)

    async def go():
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await body(app, pilot)
    asyncio.run(go())
    return app


def shown(app, wid):
    """A widget's text: the main screen's (#top, #p0, #log, #status), or the open pick's #title."""
    screen = app.screen if wid == "#title" else app.screen_stack[0]
    return screen.query_one(wid).content.plain


def on_disk(journal):
    with open(journal.path, encoding="utf-8") as f:
        return json.load(f)["events"]


async def keys(pilot, *ks):
    for k in ks:
        await pilot.press(k)


async def both_draw(pilot):
    # player 1's coins are entered: picked from the bag's types, listed by name
    # (1 crossbowman, 2 light_cavalry, 3 pikeman, 4 royal, 5 swordsman)
    await keys(pilot, "w", "5", "5", "4", "w")


def test_w8_w24_a_round_entered_by_key_and_the_public_view_hides_the_entered_coins(tmp_path):
    j = new_journal(tmp_path)

    async def body(app, pilot):
        await keys(pilot, "w")
        assert isinstance(app.screen, Pick) and "coin 1 of 3" in shown(app, "#title")
        await keys(pilot, "5", "5", "4")
        assert on_disk(j) == ["p1 draw swordsman,swordsman,royal"]      # saved as it goes
        assert shown(app, "#status") == "p1 draw"
        await keys(pilot, "w")
        assert on_disk(j)[-1] == "p2 draw"
        p1 = shown(app, "#p0")
        assert "bag 6 · hand 3 · face down 0" in p1
        assert not [line for line in p1.splitlines() if line.startswith(("hand", "face down "))]
        assert "p1 draw swordsman" not in shown(app, "#log")
        assert "player 1's action · public view" in shown(app, "#top")
        await keys(pilot, "v")
        p1 = shown(app, "#p0")
        assert "hand       royal 1 · swordsman 2" in p1 and "EXACT: next hand" in p1
        assert "p1 draw swordsman,swordsman,royal" in shown(app, "#log")
        assert "ESTIMATE" in shown(app, "#p1")                          # the opponent stays an estimate
    run(j, body)


def test_w16_a_refused_key_names_its_rule_and_saves_nothing(tmp_path):
    j = new_journal(tmp_path)

    async def body(app, pilot):
        await both_draw(pilot)
        await keys(pilot, "i", "1")                     # the coin face down, then the rules refuse
        assert shown(app, "#status").startswith("refused: W16: player 1 holds the initiative marker already")
        assert app.query_one("#status").has_class("refused")
        assert on_disk(j) == ["p1 draw swordsman,swordsman,royal", "p2 draw"]
        await keys(pilot, "P")
        assert shown(app, "#status").startswith("refused: W30")
        await keys(pilot, "m")
        assert shown(app, "#status") == "refused: W14: player 1 has no unit on the board: deploy one first"
    run(j, body)


def test_w14_w21_w28_deploy_attack_a_tactics_free_attack_and_undo(tmp_path):
    j = new_journal(tmp_path)

    async def body(app, pilot):
        await both_draw(pilot)
        await keys(pilot, "d", "1")                     # player 1: swordsman (his first type)
        await keys(pilot, "d", "1")                     # player 2: archer
        assert on_disk(j)[-2:] == ["p1 deploy swordsman", "p2 deploy archer"]
        await keys(pilot, "a", "1", "1")                # the swordsman attacks the archer
        assert on_disk(j)[-1] == "p1 attack swordsman p2:archer"
        assert "box        archer 1" in shown(app, "#p1")
        await keys(pilot, "u")
        assert on_disk(j)[-1] == "p2 deploy archer" and "box        —" in shown(app, "#p1")
        assert shown(app, "#status") == "undone: p1 attack swordsman p2:archer"
        await keys(pilot, "p", "1", "a", "1", "1")      # player 1 passes; player 2's archer may not attack
        assert shown(app, "#status").startswith("refused: W28: archers attack only by their own tactic")
        await keys(pilot, "t", "1", "f", "a", "1", "1")     # its tactic, then the tactic's attack
        assert on_disk(j)[-2:] == ["p2 tactic archer", "p2 attack archer p1:swordsman free"]
        assert "box        swordsman 1" in shown(app, "#p0") and "FREE" not in shown(app, "#top")
    run(j, body)


def test_a_crash_loses_nothing_the_file_resumes_the_game(tmp_path):
    j = new_journal(tmp_path)
    seen = {}

    async def body(app, pilot):
        await both_draw(pilot)
        await keys(pilot, "r", "3", "2")                # recruit crossbowman, light_cavalry... paid face down
        seen["top"], seen["p0"], seen["log"] = shown(app, "#top"), shown(app, "#p0"), shown(app, "#log")
    first = run(j, body)
    assert on_disk(j)[-1] == "p1 recruit crossbowman coin=swordsman"
    again = Journal.load(j.path)                        # as after a crash: only the file is left

    async def resumed(app, pilot):
        assert (shown(app, "#top"), shown(app, "#p0"), shown(app, "#log")) == (seen["top"], seen["p0"], seen["log"])
    second = run(again, resumed)
    assert second.game.state() == first.game.state()


def test_the_view_key_without_an_owner_and_the_help(tmp_path):
    j = new_journal(tmp_path, known=())

    async def body(app, pilot):
        await keys(pilot, "v")
        assert "no player's coins are entered" in shown(app, "#status")
        await keys(pilot, "question_mark")
        assert isinstance(app.screen, Help)
        await keys(pilot, "escape")
        assert not isinstance(app.screen, Help)
        await keys(pilot, "w", "w")                     # both hidden: the draws need no pick
        assert on_disk(j) == ["p1 draw", "p2 draw"]
    run(j, body, size=(80, 24))


def test_ctrl_c_names_q_as_the_monitor_does(tmp_path):
    """Issue 42 item 10: Ctrl-C said "Press ctrl+q" here and "Press q" in the monitor."""
    async def body(app, pilot):
        await pilot.press("ctrl+c")
        await pilot.pause()
        said = [n.message for n in app._notifications]
        assert said and said[-1] == "Press [b]q[/b] to quit the app", said
    run(new_journal(tmp_path), body)


def test_at_100x30_the_panels_fit_and_a_dialog_leaves_the_table_in_view(tmp_path):
    """Issue 42 item 10: at 100×30 the players' panels ran into the log (cut, no bottom border) and a coin
    dialog blanked the whole screen behind it."""
    def screen_text(app):
        return ["".join(seg.text for seg in strip) for strip in app.screen._compositor.render_strips()]

    async def body(app, pilot):
        await both_draw(pilot)
        await pilot.pause()
        for p in (0, 1):
            panel = app.query_one("#p%d" % p)
            assert panel.region.height == len(panel.content.plain.splitlines()) + 2 or \
                panel.region.height >= panel.virtual_size.height, "player %d's panel is cut" % (p + 1)
            assert panel.region.bottom <= app.query_one("#log").region.y
        assert app.query_one("#log").region.height >= 4
        await pilot.press("d")
        await pilot.pause()
        shown_now = "\n".join(screen_text(app))
        assert "Player 1 deploys:" in shown_now
        assert "round 1 · player 1's action" in shown_now and "supply" in shown_now    # the table still shows
    run(new_journal(tmp_path), body, size=(100, 30))
