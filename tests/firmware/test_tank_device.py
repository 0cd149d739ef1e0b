"""One device, several games (issue 13) on the fake hardware: the game
registry and menu (osada_fw/games.py), and «Кубики», the device's dice mode
for «Танковый бой» (osada_fw/tank/mode.py, its LEDs osada_fw/tank/view.py).
Rule ids T.. are docs/rules-tank.md's; test names carry them
(tests/rules/test_tank_rules.py checks every id the code names has a test)."""

import os
import random
import sys

import pytest
from rules_support import engine_state

from osada_fw import forget, games
from osada_fw.games import GAME_MENU_MS, SETTING
from osada_fw.siege.ui import M_MENU, MENU_COLORS
from osada_fw.tank import view as tank_view
from osada_fw.tank.mode import FIELDS, MAX_TIED, TEST_FIELDS, TESTS
from shared_rules.tank import dice
from tests.support.device import CFG, NLEDS, Dev
from tests.support.fw_extras import board_from_config

TANK_MODULES = ("osada_fw.tank.mode", "osada_fw.tank.view")


class Faces:
    """A stand-in for the device's Rng: die() gives these faces in order."""

    def __init__(self, faces):
        self.faces = list(faces)

    def die(self):
        return self.faces.pop(0)


def tank_dev(tmp_path, **kw):
    dev = Dev(tmp_path, **kw)
    reply, pushed = dev.ok("game", game="tank")
    assert reply["game"] == "tank" and reply["changed"] is True
    assert {"ev": "game", "game": "tank"} in pushed
    return dev


def roll(dev, **fields):
    reply, pushed = dev.ok("roll", **fields)
    ev = [m for m in pushed if m.get("ev") == "roll"]
    assert len(ev) == 1 and ev[0]["source"] == "host"
    body = dict(ev[0])
    del body["ev"]
    assert {k: v for k, v in reply.items() if k not in ("id", "ok")} == body
    return ev[0]


def ring(dev):
    """The 24 positions of tank_view (position p = sector p//4+1, line p%4), as RGB."""
    dev.app.draw(dev.clock.ticks_ms(), force=True)
    rgb = dev.app.frame.rgb_list()
    lay = dev.app.layout
    return [tuple(rgb[lay.index(p // 4 + 1, p % 4)]) for p in range(24)]


def unload(names):
    """Forget modules, as a board that never loaded them (a fresh device)."""
    for name in names:
        forget(name, always=True)


def gid(dev):
    """The game that runs, as `hello` says it."""
    return dev.app.mode.id


def menu_sel(dev):
    """The highlighted game of the open game menu (Siege's or gamemenu.Menu), None if closed."""
    app = dev.app
    if hasattr(app.mode, "inner"):                          # gamemenu.Menu, in front of the game
        return app.mode.sel
    if app.siege.ui.mode == M_MENU and app.siege.ui.menu[0] == "game":
        return app.siege.ui.sel
    return None


def after_tumble(dev):
    dev.tick(n=2, ms=tank_view.ROLL_MS)


# ============================================================ the registry


def test_hello_state_and_game_say_which_game_runs(tmp_path):
    dev = Dev(tmp_path)
    assert dev.ok("hello")[0]["game"] == "siege"
    assert dev.ok("state")[0]["game"] == "siege"
    reply, _ = dev.ok("game")
    assert reply["game"] == "siege" and reply["games"] == list(games.GAMES) and reply["games"][:2] == ["siege", "tank"]
    dev.ok("game", game="tank")
    assert dev.ok("hello")[0]["game"] == "tank"
    st = dev.ok("state")[0]
    assert st["game"] == "tank" and st["tank"]["test"] == "fire" and st["tank"]["tests"] == list(TESTS)


@pytest.mark.parametrize("bad", ["chess", 3, None, "", "Tank"])
def test_unknown_game_is_refused_and_changes_nothing(tmp_path, bad):
    dev = Dev(tmp_path)
    dev.ok("act", action={"do": "patrol"})
    before = engine_state(dev.app.siege.game)
    fields = {"game": bad} if bad is not None else {"game": []}
    reply, pushed = dev.request("game", **fields)
    assert reply["ok"] is False and "unknown game" in reply["error"] and "siege, tank" in reply["error"]
    assert pushed == [] and gid(dev) == "siege" and dev.app.mode is dev.app.siege
    assert engine_state(dev.app.siege.game) == before
    assert not os.path.exists(str(tmp_path) + SETTING)


def test_siege_in_progress_survives_tank_and_back_journal_untouched(tmp_path):
    dev = Dev(tmp_path)
    dev.ok("act", action={"do": "patrol"})
    dev.ok("act", action={"do": "move"})
    before = engine_state(dev.app.siege.game)
    seq = len(dev.app.siege.game.log)
    journal = {f: open(os.path.join(str(tmp_path), f), "rb").read()
               for f in os.listdir(str(tmp_path)) if "/" + f != SETTING}
    dev.ok("game", game="tank")
    for _ in range(5):
        roll(dev, test="fire", dice=12, hit=4, protection=2)
    r, _ = dev.request("act", action={"do": "patrol"})             # Siege's, refused, says how back
    assert r["ok"] is False and '"game": "siege"' in r["error"]
    for cmd in ("new", "undo", "log"):
        assert dev.request(cmd)[0]["ok"] is False
    dev.ok("game", game="siege")
    assert engine_state(dev.app.siege.game) == before and len(dev.app.siege.game.log) == seq
    assert dev.ok("state")[0]["seq"] == seq
    now = {f: open(os.path.join(str(tmp_path), f), "rb").read()
           for f in os.listdir(str(tmp_path)) if "/" + f != SETTING}
    assert now == journal
    # and after a reboot in Siege, the same game from the journal
    dev2 = Dev(tmp_path)
    assert gid(dev2) == "siege" and engine_state(dev2.app.siege.game) == before


def test_the_choice_is_remembered_across_a_reboot(tmp_path):
    tank_dev(tmp_path)
    dev2 = Dev(tmp_path, menu=True)
    assert gid(dev2) == "tank" and dev2.app.mode.inner.id == "tank"
    assert menu_sel(dev2) == 1                                       # preselected
    assert {"ev": "game", "game": "tank"} in dev2.boot_msgs
    assert dev2.boot_msgs[0] == {"ev": "boot", "restored": True, "seq": 0}
    dev2.ok("game", game="siege")
    dev3 = Dev(tmp_path)
    assert gid(dev3) == "siege" and dev3.app.mode is dev3.app.siege


def test_a_flash_that_cannot_keep_the_choice_does_not_stop_the_switch(tmp_path):
    dev = Dev(tmp_path)
    os.mkdir(str(tmp_path) + SETTING)             # the setting cannot be written
    reply, _ = dev.ok("game", game="tank")
    assert reply["game"] == "tank"
    roll(dev, test="morale", dice=2, steadiness=7)
    assert gid(Dev(tmp_path)) == "siege"                     # not remembered, no crash


def test_a_garbled_setting_boots_siege(tmp_path):
    with open(str(tmp_path) + SETTING, "w") as f:
        f.write("\x00garbage\n")
    dev = Dev(tmp_path, menu=True)
    assert gid(dev) == "siege" and dev.app.mode is dev.app.siege and menu_sel(dev) == 0
    err = [m for m in dev.boot_msgs if m.get("ev") == "error"]
    assert len(err) == 1 and "unknown game" in err[0]["error"] and err[0]["source"] == "boot"


def test_siege_does_not_load_the_tank_mode_nor_keep_the_menu(tmp_path):
    unload(TANK_MODULES + ("osada_fw.gamemenu",))          # as a fresh device
    dev = Dev(tmp_path, menu=True)
    assert menu_sel(dev) == 0 and not any(m in sys.modules for m in TANK_MODULES + ("osada_fw.gamemenu",))
    dev.ok("act", action={"do": "patrol"})                          # a host that acts closes the menu
    assert menu_sel(dev) is None and "osada_fw.gamemenu" not in sys.modules
    dev.ok("game", game="tank")
    assert all(m in sys.modules for m in TANK_MODULES)
    dev.ok("game", game="siege")
    assert not any(m in sys.modules for m in TANK_MODULES + ("osada_fw.gamemenu",))


# ================================================================ the menu


def seen_colour(dev, c):
    """Colour c as the strip shows it (brightness, gamma)."""
    r = board_from_config(CFG)
    r.frame.set_pixel(0, c[0], c[1], c[2])
    return tuple(r.frame.rgb_list()[0])


def menu_colours(dev):
    lay = dev.app.layout
    rgb = dev.app.frame.rgb_list()
    return [tuple(rgb[lay.index(s, 0)]) for s in (1, 2, 3)]


def test_boot_menu_shows_the_games_and_times_out_on_the_highlighted_one(tmp_path):
    dev = Dev(tmp_path, menu=True)
    assert menu_sel(dev) == 0
    seen = set()
    for _ in range(8):
        dev.tick(ms=130)
        seen.add(tuple(menu_colours(dev)))
    # over the board: sector 1 (Siege, highlighted) blinks orange, sector 2 (Tank) steady white
    assert {s[0] for s in seen} == {(0, 0, 0), seen_colour(dev, MENU_COLORS[0])}
    assert {s[1] for s in seen} == {seen_colour(dev, MENU_COLORS[1])}
    r, _ = dev.ok("hello")                                   # read-only: the menu stays
    assert r["game"] == "siege" and menu_sel(dev) == 0
    unload(("osada_fw.gamemenu",))
    dev.tick(n=2, ms=GAME_MENU_MS)
    assert menu_sel(dev) is None and gid(dev) == "siege"
    assert "osada_fw.gamemenu" not in sys.modules                 # taking Siege loads nothing
    assert [m for m in dev.take() if m.get("ev") == "game"] == []


def test_boot_menu_encoder_and_action_pick_tank(tmp_path):
    dev = Dev(tmp_path, menu=True)
    dev.turn(1)
    assert menu_sel(dev) == 1 and gid(dev) == "siege"
    dev.press("action")
    assert menu_sel(dev) is None and gid(dev) == "tank"
    assert {"ev": "game", "game": "tank"} in dev.take()
    with open(str(tmp_path) + SETTING) as f:
        assert f.read() == "tank"


def test_boot_menu_back_cancels_other_buttons_are_the_games(tmp_path):
    dev = Dev(tmp_path, menu=True)
    dev.press("encoder")                                    # Siege's free die roll, the menu stays
    assert menu_sel(dev) == 0
    assert [m for m in dev.take() if m.get("ev") == "roll"][0].keys() == {"ev", "value"}
    before = engine_state(dev.app.siege.game)
    dev.press("back")                                       # cancels: Siege goes on, nothing played
    assert menu_sel(dev) is None and gid(dev) == "siege" and engine_state(dev.app.siege.game) == before
    dev.press("back")                                       # now it is Siege's BACK (the enemies move)
    assert engine_state(dev.app.siege.game) != before


def test_boot_menu_turned_then_left_takes_the_highlighted_game(tmp_path):
    dev = Dev(tmp_path, menu=True)
    dev.tick(ms=2000)
    dev.turn(1)
    assert menu_sel(dev) == 1 and gid(dev) == "siege"
    dev.tick(n=2, ms=600)
    assert menu_sel(dev) is None and gid(dev) == "tank"


def test_action_and_back_held_long_open_the_menu_without_undoing(tmp_path):
    dev = Dev(tmp_path)
    dev.ok("act", action={"do": "patrol"})
    seq = len(dev.app.siege.game.log)
    dev.hw.inputs.held_buttons = {"action", "back"}
    dev.hw.inputs.press("back", long=True)
    dev.hw.inputs.press("action", long=True)
    dev.tick()
    assert menu_sel(dev) == 0 and len(dev.app.siege.game.log) == seq   # no undo, no play menu
    dev.hw.inputs.held_buttons = set()
    dev.turn(1)
    dev.press("action")
    assert gid(dev) == "tank"
    # and from the tank mode back to Siege
    dev.hw.inputs.held_buttons = {"action", "back"}
    dev.hw.inputs.press("action", long=True)                # (ACTION's own long press first)
    dev.press("back", long=True)
    dev.hw.inputs.held_buttons = set()
    assert menu_sel(dev) == 1
    dev.turn(-1)
    dev.press("action")
    assert gid(dev) == "siege" and len(dev.app.siege.game.log) == seq
    # BACK held alone is still Siege's undo
    dev.press("back", long=True)
    assert len(dev.app.siege.game.log) == seq - 1


def test_a_protocol_press_during_the_menu_goes_to_the_running_game(tmp_path):
    dev = Dev(tmp_path, menu=True)
    dev.ok("press", turn=1)                                 # Siege's cursor, not the menu
    assert menu_sel(dev) is None and dev.app.siege.ui.cursor == 1


# ================================================================ the rolls


def test_t12_t13_t35_fire_hits_are_the_faces_at_or_below_the_hit_number(tmp_path):
    dev = tank_dev(tmp_path)
    for k in range(60):
        n = 1 + k % 12
        v = 1 + k % 6
        amb = k % 5 == 0
        ev = roll(dev, test="fire", dice=n, hit=v, ambush=amb, protection=0)
        eff = min(6, v + 1) if amb else v
        assert ev["n"] == n == len(ev["dice"]) and all(1 <= f <= 6 for f in ev["dice"])
        assert ev["hit"] == eff and ev["ambush"] is amb
        assert ev["hits"] == sum(1 for f in ev["dice"] if f <= eff)
        assert ev["absorbed"] == 0 and ev["damage"] == ev["hits"]


def test_t16_t19_t20_protection_absorbs_then_damage_and_the_rest_carries_to_the_next_shot(tmp_path):
    dev = tank_dev(tmp_path)
    seen_absorb = seen_damage = False
    for k in range(40):
        p = k % 6
        ev = roll(dev, test="fire", dice=8, hit=3, protection=p)
        h = ev["hits"]
        assert ev["protection"] == p and ev["absorbed"] == min(h, p) and ev["damage"] == max(0, h - p)
        assert ev["morale"] is (ev["damage"] > 0)                        # T20: damage -> morale test
        # T16/T19: the next shot at this target this turn starts from what is left
        assert dev.ok("state")[0]["tank"]["numbers"]["protection"] == p - ev["absorbed"]
        nxt = roll(dev, test="fire")
        assert nxt["protection"] == p - ev["absorbed"]
        seen_absorb |= 0 < ev["absorbed"] < p
        seen_damage |= ev["damage"] > 0
    assert seen_absorb and seen_damage


def test_t17_holding_back_starts_a_new_turn_protection_restored(tmp_path):
    dev = tank_dev(tmp_path)
    ev = roll(dev, test="fire", dice=12, hit=6, protection=5)         # every die hits
    assert ev["hits"] == 12 and ev["absorbed"] == 5 and ev["damage"] == 7
    assert dev.ok("state")[0]["tank"]["numbers"]["protection"] == 0
    dev.press("back", long=True)
    assert dev.ok("state")[0]["tank"]["numbers"]["protection"] == 5


def test_t27_t20_suppression_fire_rolls_n_plus_half_and_always_tests_morale(tmp_path):
    dev = tank_dev(tmp_path)
    for n in range(1, 13):
        ev = roll(dev, test="suppress", dice=n, hit=2, protection=12)
        assert ev["intensity"] == n and ev["n"] == n + (n + 1) // 2 == len(ev["dice"])
        assert ev["damage"] == 0 and ev["morale"] is True


def test_t21_morale_passes_when_the_sum_is_at_most_the_steadiness(tmp_path):
    dev = tank_dev(tmp_path)
    results = set()
    for k in range(60):
        n = 1 + k % 4
        s = 2 + k % 20
        ev = roll(dev, test="morale", dice=n, steadiness=s)
        assert len(ev["dice"]) == n and ev["sum"] == sum(ev["dice"])
        assert ev["passed"] is (ev["sum"] <= s)
        results.add(ev["passed"])
    assert results == {True, False}


def test_t29_counter_attack_never_ties_the_higher_die_wins(tmp_path):
    dev = tank_dev(tmp_path)
    for _ in range(60):
        ev = roll(dev, test="counter")
        a, b = ev["dice"]
        assert a != b and ev["winner"] == ("a" if a > b else "b")


def test_t39_collision_die_plus_steadiness_equal_totals_both_stop(tmp_path):
    dev = tank_dev(tmp_path)
    winners = set()
    for k in range(80):
        sa, sb = 7, 7 + k % 3
        ev = roll(dev, test="collision", a=sa, b=sb)
        a, b = ev["dice"]
        assert ev["a"] == [sa] and ev["b"] == [sb]                 # one unit a side
        assert ev["totals"] == [a + sa, b + sb]
        want = None if a + sa == b + sb else ("a" if a + sa > b + sb else "b")
        assert ev["winner"] == want
        assert ev["enter"] == ([] if want is None else [0] if want == "a" else [1])
        winners.add(want)
    assert winners == {"a", "b", None}


def test_t39_ta9_collision_several_units_each_die_plus_its_own_steadiness(tmp_path):
    """E3's five units (Soviet S7, S7; German S8, S5, S7), rolled on the device:
    every unit whose total beats every opposing total moves in (TA9)."""
    dev = tank_dev(tmp_path)
    seen = set()
    for k in range(300):
        sa, sb = ([7, 7], [8, 5, 7]) if k % 2 else ([9, 2, 5], [6])
        ev = roll(dev, test="collision", a=sa, b=sb)
        faces = ev["dice"]
        assert len(faces) == len(sa) + len(sb) and all(1 <= f <= 6 for f in faces)
        assert ev["a"] == sa and ev["b"] == sb
        totals = [f + s for f, s in zip(faces, sa + sb)]
        assert ev["totals"] == totals
        ta, tb = totals[:len(sa)], totals[len(sa):]
        enter_a, enter_b = dice.collision_result(ta, tb)
        assert ev["enter"] == enter_a + [len(sa) + i for i in enter_b]
        assert ev["winner"] == ("a" if enter_a else "b" if enter_b else None)
        seen.add((ev["winner"], len(ev["enter"])))
    assert {("a", 1), ("a", 2), ("b", 1), (None, 0)} <= seen
    assert dev.ok("state")[0]["tank"]["numbers"] == {"a": [7, 7], "b": [8, 5, 7]}
    ev = roll(dev, test="collision", a=4)                         # a side not given stays as it was
    assert ev["a"] == [4] and ev["b"] == [8, 5, 7]


def test_t39_e3_the_example_faces_on_the_device(tmp_path):
    dev = tank_dev(tmp_path)
    dev.app.mode.rng = Faces([5, 3, 2, 3, 4])
    ev = roll(dev, test="collision", a=[7, 7], b=[8, 5, 7])
    assert ev["totals"] == [12, 10, 10, 8, 11] and ev["enter"] == [0] and ev["winner"] == "a"
    after_tumble(dev)
    lit = ring(dev)
    sectors = [lit[4 * s:4 * s + 4] for s in range(6)]
    norm = [[_hue(x) for x in sec] for sec in sectors]
    # Soviet 5+7=12 moves in: face 5 = one white and three green; Soviet 3+7=10 < 11: three red
    assert norm[0] == ["W", "G", "G", "G"] and norm[1] == ["R", "R", "R", "-"]
    assert norm[2] == ["-"] * 4                                   # side A has two units
    assert norm[3] == ["R", "R", "-", "-"] and norm[4] == ["R", "R", "R", "-"] and norm[5] == ["R"] * 4


def _hue(x):
    if x == (0, 0, 0):
        return "-"
    if x[0] == x[1] == x[2]:
        return "W"
    if x[1] > 0 and x[0] == 0:
        return "G"
    if x[0] > 0 and x[1] == 0:
        return "R"
    if x[0] > 0 and x[1] > 0:
        return "A"
    return "?"


def test_t39_ta9_a_tie_with_the_best_opposing_total_is_amber_and_nobody_enters(tmp_path):
    dev = tank_dev(tmp_path)
    dev.app.mode.rng = Faces([4, 1, 6, 2])                         # A 4+7=11, 1+7=8; B 6+5=11, 2+5=7
    ev = roll(dev, test="collision", a=[7, 7], b=[5, 5])
    assert ev["totals"] == [11, 8, 11, 7] and ev["enter"] == [] and ev["winner"] is None
    after_tumble(dev)
    lit = ring(dev)
    norm = [[_hue(x) for x in lit[4 * s:4 * s + 4]] for s in range(6)]
    assert norm[0] == ["A"] * 4 and norm[1] == ["R", "-", "-", "-"]
    assert norm[3] == ["W", "W", "A", "A"] and norm[4] == ["R", "R", "-", "-"]


def test_t39_ta9_buttons_set_each_sides_units_and_their_steadiness(tmp_path):
    dev = tank_dev(tmp_path)
    dev.turn(1, times=4)                                    # fire -> ... -> collision
    dev.press("encoder")                                    # A's units (1)
    lit = ring(dev)
    assert [p for p in range(24) if lit[p][1] > 40] == [0, 1, 2, 3]        # one sector bright, two dim
    assert [p for p in range(24) if 0 < lit[p][1] <= 40] == list(range(4, 12))
    dev.turn(1)                                             # 2 units
    dev.press("encoder")                                    # A1's steadiness (7)
    dev.turn(-2)                                            # 5
    dev.press("encoder")                                    # A2's
    dev.turn(1)                                             # 8
    seen = set()
    for _ in range(4):                                      # the bar (8 of 12), sector 3 + 2 blinking
        dev.tick(ms=130)
        lit = ring(dev)
        assert [p for p in range(12) if lit[p][1] > 40] == list(range(8))
        assert lit[12:16] == [(0, 0, 0)] * 4 and lit[20:24] == [(0, 0, 0)] * 4
        seen.add(tuple(lit[16:20]))
    assert len(seen) == 2 and ((0, 0, 0),) * 4 in seen
    dev.press("encoder")                                    # A3 skipped: B's units
    dev.turn(2)                                             # 3 units
    for d in (0, 2, -3):                                    # B1 7, B2 9, B3 4
        dev.press("encoder")
        dev.turn(d)
    assert dev.ok("state")[0]["tank"]["numbers"] == {"a": [5, 8], "b": [7, 9, 4]}
    dev.take()
    dev.press("action")
    ev = [m for m in dev.take() if m.get("ev") == "roll"][0]
    assert ev["a"] == [5, 8] and ev["b"] == [7, 9, 4] and len(ev["dice"]) == 5
    dev.press("back")                                       # result -> the numbers (B3's)
    dev.press("back")                                       # B2
    dev.press("back")                                       # B1
    dev.press("back")                                       # B's units
    dev.press("back")                                       # A2 (A3 skipped)
    dev.turn(1)
    assert dev.ok("state")[0]["tank"]["numbers"]["a"] == [5, 9]
    assert dev.ok("state")[0]["tank"]["cursor"] == "a2"      # what the encoder changes, as hosts show it
    dev.press("encoder")
    assert dev.ok("state")[0]["tank"]["cursor"] == "b units"
    dev.press("encoder")                                    # B1 (A3 skipped, B's units)
    assert dev.app.mode.cursor == 6 and dev.ok("state")[0]["tank"]["cursor"] == "b1"
    for _ in range(3):
        dev.press("encoder")                                # B2, B3, wraps to the test
    assert dev.app.mode.cursor == 0 and dev.ok("state")[0]["tank"]["cursor"] == "test"


def test_t29_ta8_the_counter_attack_event_counts_the_ties_rerolled(tmp_path):
    dev = tank_dev(tmp_path)
    dev.app.mode.rng = Faces([3, 3, 5, 5, 2, 6])
    ev = roll(dev, test="counter")
    assert ev["dice"] == [2, 6] and ev["winner"] == "b" and ev["ties"] == 2 and ev["tied"] == [3, 5]
    dev.app.mode.rng = Faces([4, 1])
    ev = roll(dev, test="counter")
    assert ev["dice"] == [4, 1] and ev["winner"] == "a" and ev["ties"] == 0 and ev["tied"] == []
    dev.app.mode.rng = Faces([6, 6] * 30 + [1, 2])               # more ties than the buffer keeps
    ev = roll(dev, test="counter")
    assert ev["ties"] == 30 and ev["tied"] == [6] * MAX_TIED and ev["winner"] == "b"


@pytest.mark.parametrize("fields, words", [
    ({"test": "fire", "dice": 0}, "dice must be 1..12"),
    ({"test": "fire", "dice": 13}, "dice must be 1..12"),
    ({"test": "fire", "dice": 6.0}, "dice must be 1..12"),
    ({"test": "fire", "dice": True}, "dice must be 1..12"),
    ({"test": "fire", "hit": 7}, "hit must be 1..6"),
    ({"test": "fire", "protection": -1}, "protection must be 0..12"),
    ({"test": "fire", "ambush": "yes"}, "ambush must be true or false"),
    ({"test": "suppress", "dice": 13}, "dice must be 1..12"),
    ({"test": "morale", "dice": 5}, "dice must be 1..4"),
    ({"test": "morale", "steadiness": 0}, "steadiness must be 1..24"),
    ({"test": "morale", "hit": 3}, 'morale takes dice, steadiness; not "hit"'),
    ({"test": "counter", "dice": 1}, "counter takes no numbers"),
    ({"test": "collision", "a": 13}, "a must be 0..12"),
    ({"test": "collision", "b": []}, "b must be 0..12, its unit's steadiness, or a list of 1..3"),
    ({"test": "collision", "a": [7, 7, 7, 7]}, "a list of 1..3"),
    ({"test": "collision", "a": [7, 13]}, "a must be 0..12"),
    ({"test": "collision", "a": [7, True]}, "a must be 0..12"),
    ({"test": "collision", "b": "7"}, "b must be 0..12"),
    ({"test": "collision", "a": [7], "units": 2}, 'collision takes a, b; not "units"'),
    ({"test": "dance"}, "test must be one of fire, suppress, morale, counter, collision"),
    ({"test": "fire", "protecton": 2}, 'not "protecton"'),
])
def test_bad_roll_requests_get_a_clear_error_and_change_nothing(tmp_path, fields, words):
    dev = tank_dev(tmp_path)
    roll(dev, test="morale", dice=3, steadiness=9)
    before = dev.ok("state")[0]["tank"]
    reply, pushed = dev.request("roll", **fields)
    assert reply["ok"] is False and words in reply["error"], reply
    assert [m for m in pushed if m.get("ev") == "roll"] == []
    assert dev.ok("state")[0]["tank"] == before


def test_random_requests_and_buttons_never_stop_the_tank_mode(tmp_path):
    dev = tank_dev(tmp_path)
    rng = random.Random(13)
    keys = ["test", "dice", "hit", "ambush", "protection", "steadiness", "a", "b", "x"]
    values = [-1, 0, 1, 3, 6, 12, 13, 24, 99, True, None, "fire", "morale", "counter", "collision", 2.5, [1]]
    for _ in range(300):
        k = rng.random()
        if k < 0.5:
            fields = {rng.choice(keys): rng.choice(values) for _ in range(rng.randint(0, 4))}
            reply, _ = dev.request("roll", **fields)
            assert "internal error" not in reply.get("error", "")
        elif k < 0.8:
            dev.hw.inputs.turn(rng.choice((1, -1)))
            dev.tick()
        else:
            dev.press(rng.choice(("action", "back", "encoder")), long=rng.random() < 0.2)
    assert dev.ok("hello")[0]["game"] == "tank"


# ============================================================== the buttons


def test_buttons_pick_the_test_and_numbers_and_action_rolls(tmp_path):
    dev = tank_dev(tmp_path)
    dev.take()
    dev.turn(1, times=2)                                    # fire -> suppress -> morale
    dev.press("encoder")                                    # -> its dice
    dev.turn(1)                                             # 2 -> 3 dice
    dev.press("encoder")                                    # -> steadiness
    dev.turn(1, times=2)                                    # 7 -> 9
    dev.press("action")
    ev = [m for m in dev.take() if m.get("ev") == "roll"]
    assert len(ev) == 1 and ev[0]["test"] == "morale" and ev[0]["source"] == "buttons"
    assert len(ev[0]["dice"]) == 3 and ev[0]["steadiness"] == 9
    dev.press("action")                                     # again, the same numbers
    ev2 = [m for m in dev.take() if m.get("ev") == "roll"]
    assert ev2[0]["test"] == "morale" and ev2[0]["steadiness"] == 9
    dev.press("back")                                       # result -> the numbers
    dev.press("back")                                       # steadiness -> dice
    dev.turn(-1, times=4)                                   # wraps: 3 -> 1..4 -> 3
    dev.press("action")
    assert len([m for m in dev.take() if m.get("ev") == "roll"][0]["dice"]) == 3


def test_edit_view_shows_the_number_as_a_bar(tmp_path):
    dev = tank_dev(tmp_path)
    dev.press("encoder")                                    # fire: dice (default 6)
    lit = ring(dev)
    white = tank_view.FIELD_COLORS[0]
    bright = [p for p in range(24) if lit[p] != (0, 0, 0) and lit[p][0] > 20]
    dim = [p for p in range(24) if lit[p] != (0, 0, 0) and lit[p][0] <= 20]
    assert bright == list(range(6)) and dim == list(range(6, FIELDS[0][2]))
    assert lit[0][0] == lit[0][1] == lit[0][2] and white == (255, 255, 255)
    dev.turn(1)
    lit = ring(dev)
    assert [p for p in range(24) if lit[p][0] > 20] == list(range(7))


def _count(lit, colour_of):
    return sum(1 for c in lit if colour_of(c))


def test_outcome_view_one_led_per_die_blue_absorbed_red_damage_dim_miss(tmp_path):
    dev = tank_dev(tmp_path)
    checked = 0
    for k in range(30):
        ev = roll(dev, test="fire", dice=12, hit=3, protection=k % 5)
        after_tumble(dev)
        blink = set()
        for _ in range(4):
            dev.tick(ms=130)
            lit = ring(dev)
            blue = [p for p in range(20) if lit[p][2] > 50 and lit[p][0] == 0]
            red = [p for p in range(20) if lit[p][0] > 50 and lit[p][1] == 0 and lit[p][2] == 0]
            dim = [p for p in range(20) if lit[p] != (0, 0, 0) and max(lit[p]) < 10]
            assert blue == list(range(ev["absorbed"]))
            assert red == list(range(ev["absorbed"], ev["hits"]))
            assert dim == list(range(ev["hits"], 12))
            blink.add(tuple(lit[20:24]))
        if ev["morale"]:
            assert len(blink) == 2                           # sector 6 blinks amber
        else:
            assert blink == {((0, 0, 0),) * 4}
        checked += 1
    assert checked == 30


def test_faces_view_counts_the_dice_per_face(tmp_path):
    dev = tank_dev(tmp_path)
    ev = roll(dev, test="fire", dice=12, hit=2, protection=0)
    after_tumble(dev)
    dev.turn(1)                                             # the faces page
    lit = ring(dev)
    for f in range(1, 7):
        c = ev["dice"].count(f)
        leds = lit[4 * (f - 1):4 * f]
        on = [x for x in leds if x != (0, 0, 0)]
        if c <= 8:
            assert len(on) == min(c, 4)
            assert sum(1 for x in on if x[0] == x[1] == x[2]) == max(0, c - 4)     # white: the 5th-8th
            colour = (lambda x: x[1] > 0 and x[0] == 0) if f <= 2 else (lambda x: x[0] > 0 and x[1] == 0)
            assert all(colour(x) for x in on if not x[0] == x[1] == x[2])


def test_morale_and_duel_views(tmp_path):
    dev = tank_dev(tmp_path)
    ev = roll(dev, test="morale", dice=4, steadiness=14)
    after_tumble(dev)
    lit = ring(dev)
    for q in range(4):
        block = lit[6 * q:6 * q + 6]
        assert sum(1 for x in block if x != (0, 0, 0)) == ev["dice"][q]
    want = (0, 1) if ev["passed"] else (1, 0)                # green or red
    assert all((x[1] > 0, x[0] > 0) == (want == (0, 1), want == (1, 0)) for x in lit if x != (0, 0, 0))
    for _ in range(10):
        ev = roll(dev, test="counter")
        after_tumble(dev)
        lit = ring(dev)
        a = [x for x in lit[0:6] if x != (0, 0, 0)]
        b = [x for x in lit[12:18] if x != (0, 0, 0)]
        assert len(a) == ev["dice"][0] and len(b) == ev["dice"][1]
        win, lose = (a, b) if ev["winner"] == "a" else (b, a)
        assert all(x[1] > 0 and x[0] == 0 for x in win) and all(x[0] > 0 and x[1] == 0 for x in lose)
    kinds = set()
    for _ in range(40):                                     # one unit a side: sector 1 against sector 4
        ev = roll(dev, test="collision", a=7, b=7)
        after_tumble(dev)
        lit = ring(dev)
        assert lit[4:12] == [(0, 0, 0)] * 8 and lit[16:24] == [(0, 0, 0)] * 8
        a, b = [_hue(x) for x in lit[0:4]], [_hue(x) for x in lit[12:16]]
        for hues, f in ((a, ev["dice"][0]), (b, ev["dice"][1])):
            assert 4 - hues.count("-") == min(f, 4) and hues.count("W") == max(0, f - 4)
        ca, cb = {h for h in a if h not in "W-"}, {h for h in b if h not in "W-"}
        want = {None: ({"A"}, {"A"}), "a": ({"G"}, {"R"}), "b": ({"R"}, {"G"})}[ev["winner"]]
        assert (ca, cb) == want
        kinds.add(ev["winner"])
    assert kinds == {"a", "b", None}


def test_every_test_has_its_numbers_and_colours_defined_once():
    assert len(TESTS) == len(TEST_FIELDS) == len(tank_view.TEST_COLORS)
    assert len(FIELDS) == len(tank_view.FIELD_COLORS) == len(tank_view.FIELD_SIDE) == len(tank_view.FIELD_UNIT)
    assert all(hi - lo + 1 <= 24 and lo <= d <= hi for _name, lo, hi, d in FIELDS)
    assert NLEDS >= 24


def test_the_led_selftest_runs_in_the_tank_game_and_a_button_ends_it(tmp_path):
    dev = tank_dev(tmp_path)
    reply, _ = dev.ok("selftest")
    assert dev.app.selftest_led is not None
    dev.tick(ms=10)
    lit = [i for i, c in enumerate(dev.app.frame.rgb_list()) if c != [0, 0, 0] and tuple(c) != (0, 0, 0)]
    assert lit == [dev.app.selftest_led]
    dev.take()
    dev.press("action")                                     # ends it: no roll
    assert dev.app.selftest_led is None
    assert [m for m in dev.take() if m.get("ev") == "roll"] == []
    dev.press("action")
    assert [m for m in dev.take() if m.get("ev") == "roll"][0]["source"] == "buttons"
