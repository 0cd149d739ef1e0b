"""«День Победы»'s toss on the fake hardware (osada_fw/victory/mode.py, its
ring osada_fw/victory/view.py): the lot for the first game and the
alternation after it (rule V8 of docs/rules-victory-day.md), through the
buttons and the encoder and through link requests; the seats' factions; the
game kept in the state dir; switching to it and back keeps Siege's game; and
nothing of it is loaded while Siege plays."""

import os
import random
import sys

import pytest
from rules_support import engine_state

from osada_fw import forget, games
from osada_fw.games import SETTING
from osada_fw.victory import mode as victory_mode
from osada_fw.victory import view as victory_view
from osada_fw.victory.mode import MAX_GAME, STATE_FILE
from shared_rules.victory.toss import starter
from tests.support.device import CFG, Dev
from tests.support.fw_extras import board_from_config

MODULES = ("osada_fw.victory.mode", "osada_fw.victory.view")
RED = victory_view.USSR_RGB
GREY = victory_view.GERMANY_RGB


class Bits:
    """A stand-in for the device's Rng: below(2) gives these bits in order, and
    counts the calls (a lot drawn where none may be fails the test)."""

    def __init__(self, *bits):
        self.bits = list(bits)
        self.calls = 0

    def below(self, n):
        assert n == 2, "the lot is one bit"
        self.calls += 1
        return self.bits.pop(0)


def victory_dev(tmp_path, bit=None, **kw):
    dev = Dev(tmp_path, **kw)
    reply, pushed = dev.ok("game", game="victory")
    assert reply["game"] == "victory" and reply["changed"] is True
    assert {"ev": "game", "game": "victory"} in pushed
    if bit is not None:
        dev.app.mode.rng = Bits(bit)
    return dev


def events(msgs):
    return [m for m in msgs if m.get("ev") == "victory"]


def vstate(dev):
    reply, pushed = dev.ok("state")
    assert reply["game"] == "victory" and pushed == []
    return reply["victory"]


def seen(c, dim=0):
    """Colour c (divided by 2**dim) as the strip shows it (brightness, gamma)."""
    r = board_from_config(CFG)
    r.frame.set_pixel(0, c[0] >> dim, c[1] >> dim, c[2] >> dim)
    return tuple(r.frame.rgb_list()[0])


def ring(dev):
    """The 24 positions (position p = sector p//4+1, line p%4), as the strip shows them."""
    dev.app.draw(dev.clock.ticks_ms(), force=True)
    rgb = dev.app.frame.rgb_list()
    lay = dev.app.layout
    return [tuple(rgb[lay.index(p // 4 + 1, p % 4)]) for p in range(24)]


def halves(lit):
    return lit[:12], lit[12:]


def settled(dev):
    dev.tick(n=2, ms=victory_view.TOSS_MS)
    return ring(dev)


DARK = [(0, 0, 0)] * 12


# =============================================================== the lot


@pytest.mark.parametrize("bit, seat", [(0, "A"), (1, "B")])
@pytest.mark.parametrize("ussr", ["A", "B"])
def test_v8_action_draws_the_lot_and_lights_the_seats_half_in_its_factions_colour(tmp_path, bit, seat, ussr):
    dev = victory_dev(tmp_path, bit=bit)
    if ussr == "B":
        dev.turn(1)                                          # before the lot: the seats' factions swap
    assert vstate(dev)["ussr"] == ussr
    dev.take()
    dev.press("action")
    ev = events(dev.take())
    assert ev == [{"ev": "victory", "did": "toss", "source": "buttons", "lot": seat, "game": 1, "starter": seat,
                   "ussr": ussr, "saved": True}]
    assert dev.app.mode.rng.calls == 1
    lit = settled(dev)
    colour = seen(RED if seat == ussr else GREY)
    mine, other = halves(lit) if seat == "A" else halves(lit)[::-1]
    assert mine == [colour] * 12 and other == DARK
    st = vstate(dev)
    assert (st["lot"], st["game"], st["starter"], st["ussr"]) == (seat, 1, seat, ussr)


@pytest.mark.parametrize("bit, seat", [(0, "A"), (1, "B")])
def test_v8_the_toss_request_draws_the_lot_once(tmp_path, bit, seat):
    dev = victory_dev(tmp_path, bit=bit)
    reply, pushed = dev.ok("toss")
    assert reply["tossed"] is True and reply["lot"] == seat and reply["starter"] == seat and reply["game"] == 1
    assert events(pushed) == [{"ev": "victory", "did": "toss", "source": "host", "lot": seat, "game": 1,
                               "starter": seat, "ussr": "A", "saved": True}]
    again, pushed = dev.ok("toss")                           # the lot stands (V8): read, not drawn again
    assert again["tossed"] is False and again["lot"] == seat and pushed == []
    assert dev.app.mode.rng.calls == 1


def test_v8_action_on_a_lot_already_drawn_shows_it_again_and_draws_nothing(tmp_path):
    dev = victory_dev(tmp_path, bit=1)
    dev.press("action")
    lit = settled(dev)
    dev.take()
    dev.press("action")
    assert events(dev.take()) == [] and dev.app.mode.rng.calls == 1
    shown = set()
    for _ in range(victory_view.BLINK_MS // 50):             # the half blinks, then stays
        dev.tick(ms=50)
        shown.add(tuple(ring(dev)))
    assert shown == {tuple(lit), tuple([(0, 0, 0)] * 24)}
    dev.tick(ms=victory_view.BLINK_MS)
    assert ring(dev) == lit and vstate(dev)["lot"] == "B"


def test_v8_the_toss_animation_flips_between_the_halves_and_stops_on_the_lot(tmp_path):
    for bit in (0, 1):
        dev = victory_dev(tmp_path / str(bit), bit=bit)
        dev.press("action")
        sides = []
        t = 0
        while t < victory_view.TOSS_MS:                         # every 10 ms, from the press
            lit = ring(dev)
            a, b = halves(lit)
            assert (a == DARK) != (b == DARK)                       # one half at a time
            side = 0 if b == DARK else 1
            if not sides or sides[-1] != side:
                sides.append(side)
            dev.tick(ms=10)
            t += 10
        assert len(sides) == len(victory_view.FLIP_MS) and sides[-1] == bit
        assert all(sides[k] != sides[k + 1] for k in range(len(sides) - 1))
    assert sum(victory_view.FLIP_MS) == victory_view.TOSS_MS
    assert [victory_view.flip(a) for a in (0, 59, 60, 119, 120, victory_view.TOSS_MS - 1)] == [9, 9, 8, 8, 7, 0]


# ========================================================== the later games


def v8_starters(lot, games):
    """The first players of games 1..games by shared_rules' V8 (the host's rule)."""
    first, _ = starter(("A", "B").index(lot))
    out = [first]
    for _ in range(games - 1):
        first, _ = starter(None, previous_starter=first)
        out.append(first)
    return out


@pytest.mark.parametrize("bit", [0, 1])
def test_v8_later_games_alternate_the_first_move_without_a_new_bit(tmp_path, bit):
    dev = victory_dev(tmp_path, bit=bit)
    dev.press("action")
    seat = "AB"[bit]
    want = v8_starters(seat, 9)
    got = [vstate(dev)["starter"]]
    for g in range(2, 10):
        if g % 2:
            reply, pushed = dev.ok("next")                  # a link request
            assert reply["game"] == g and events(pushed)[0]["did"] == "next"
            assert events(pushed)[0]["source"] == "host"
        else:
            dev.take()
            dev.press("encoder")                            # the encoder's button
            assert [(e["did"], e["source"], e["game"]) for e in events(dev.take())] == [("next", "buttons", g)]
        st = vstate(dev)
        assert st["game"] == g and st["lot"] == seat
        got.append(st["starter"])
        lit = settled(dev)
        mine, other = halves(lit) if st["starter"] == "A" else halves(lit)[::-1]
        assert other == DARK and mine == [seen(RED if st["starter"] == "A" else GREY)] * 12
    assert got == want == [seat, "BA"[bit]] * 4 + [seat]
    assert dev.app.mode.rng.calls == 1                      # one lot for the whole match


def test_v8_back_undoes_a_next_game_and_stops_at_game_1(tmp_path):
    dev = victory_dev(tmp_path, bit=0)
    dev.press("back")                                       # before the lot: nothing
    assert vstate(dev) == {"lot": None, "game": 1, "starter": None, "ussr": "A", "saved": True}
    dev.press("action")
    dev.press("encoder")
    dev.press("encoder")
    assert vstate(dev)["game"] == 3 and vstate(dev)["starter"] == "A"
    dev.take()
    dev.press("back")
    assert [(e["did"], e["game"], e["starter"]) for e in events(dev.take())] == [("back", 2, "B")]
    reply, _ = dev.ok("next", back=True)
    assert reply["game"] == 1 and reply["starter"] == "A"
    dev.press("back")                                       # game 1: there is none before
    assert vstate(dev)["game"] == 1
    reply, pushed = dev.request("next", back=True)
    assert reply["ok"] is False and "game 1" in reply["error"] and pushed == []
    assert dev.app.mode.rng.calls == 1


def test_v8_next_before_the_lot_is_refused_naming_the_rule(tmp_path):
    dev = victory_dev(tmp_path, bit=0)
    dev.press("encoder")                                    # the button: nothing happens
    reply, pushed = dev.request("next")
    assert reply["ok"] is False and reply["rule"] == "V8" and "no lot yet" in reply["error"]
    assert pushed == [] and vstate(dev) == {"lot": None, "game": 1, "starter": None, "ussr": "A", "saved": True}


def test_v8_holding_the_encoder_starts_a_new_match_with_a_new_lot(tmp_path):
    dev = victory_dev(tmp_path, bit=0)
    dev.press("action")
    dev.press("encoder")
    dev.app.mode.rng = Bits(1)
    dev.take()
    dev.press("encoder", long=True)
    assert [(e["did"], e["lot"], e["game"]) for e in events(dev.take())] == [("new", None, 1)]
    assert vstate(dev)["starter"] is None and dev.app.mode.rng.calls == 0
    dev.press("action")
    assert vstate(dev)["lot"] == "B" and dev.app.mode.rng.calls == 1
    dev.app.mode.rng = Bits(0)
    reply, pushed = dev.ok("toss", again=True)               # the same from the host
    assert [e["did"] for e in events(pushed)] == ["new", "toss"]
    assert reply["tossed"] is True and reply["lot"] == "A" and reply["game"] == 1


def test_v8_the_game_counter_stops_at_its_last_game(tmp_path):
    dev = victory_dev(tmp_path, bit=1)
    dev.press("action")
    dev.app.mode.game = MAX_GAME - 1
    reply, _ = dev.ok("next")
    assert reply["game"] == MAX_GAME and reply["starter"] == v8_starters("B", MAX_GAME)[-1] == "B"
    reply, _ = dev.request("next")
    assert reply["ok"] is False and "%d games at most" % MAX_GAME in reply["error"]
    dev.press("encoder")
    assert vstate(dev)["game"] == MAX_GAME


# ========================================================== the seats' factions


def test_the_encoder_swaps_the_seats_factions_before_the_lot_and_the_idle_ring_follows(tmp_path):
    dev = victory_dev(tmp_path, bit=0)
    lit = ring(dev)
    for ussr, (a_col, b_col) in (("A", (RED, GREY)), ("B", (GREY, RED))):
        if ussr == "B":
            dev.take()
            dev.turn(-1)
            assert [(e["did"], e["ussr"]) for e in events(dev.take())] == [("seats", "B")]
        assert vstate(dev)["ussr"] == ussr
        sparks = set()
        for _ in range(24):                                  # toss ready: dim halves, one brighter LED going round
            dev.tick(ms=victory_view.SPARK_MS)
            lit = ring(dev)
            a, b = halves(lit)
            dim_a, dim_b = seen(a_col, 4), seen(b_col, 4)
            bright = [p for p in range(24) if lit[p] != (dim_a if p < 12 else dim_b)]
            assert len(bright) == 1
            p = bright[0]
            assert lit[p] == seen(a_col if p < 12 else b_col, 1)
            sparks.add(p)
        assert len(sparks) > 12
    dev.press("action")
    dev.turn(1)                                              # after the lot: the encoder leaves the seats alone
    assert vstate(dev)["ussr"] == "B"
    lit = settled(dev)
    assert halves(lit) == ([seen(GREY)] * 12, DARK)          # seat A starts, and plays Germany
    reply, pushed = dev.ok("toss", ussr="A")                 # the host may set them at any time
    assert reply["ussr"] == "A" and reply["tossed"] is False and [e["did"] for e in events(pushed)] == ["seats"]
    assert halves(ring(dev)) == ([seen(RED)] * 12, DARK)


# ================================================================ requests


@pytest.mark.parametrize("cmd, fields, words", [
    ("toss", {"ussr": "C"}, 'ussr is the seat that plays the USSR, "A" or "B" (got "C")'),
    ("toss", {"ussr": 0}, '"A" or "B" (got 0)'),
    ("toss", {"again": "yes"}, 'again must be true or false (got "yes")'),
    ("toss", {"again": 1}, "again must be true or false"),
    ("toss", {"seat": "A"}, 'toss takes ussr, again; not "seat"'),
    ("next", {"back": None}, "back must be true or false"),
    ("next", {"games": 2}, 'next takes back; not "games"'),
    ("roll", {}, "unknown command"),
])
def test_bad_requests_get_one_clear_error_and_change_nothing(tmp_path, cmd, fields, words):
    dev = victory_dev(tmp_path, bit=1)
    dev.ok("toss")
    dev.ok("next")
    before = vstate(dev)
    reply, pushed = dev.request(cmd, **fields)
    assert reply["ok"] is False and words in reply["error"], reply
    assert events(pushed) == [] and vstate(dev) == before and dev.app.mode.rng.calls == 1


def test_siege_requests_are_refused_saying_how_to_go_back(tmp_path):
    dev = victory_dev(tmp_path)
    for cmd, fields in (("act", {"action": {"do": "patrol"}}), ("new", {}), ("undo", {}), ("log", {})):
        reply, _ = dev.request(cmd, **fields)
        assert reply["ok"] is False and "the device runs Victory Day" in reply["error"]
        assert '"game": "siege"' in reply["error"]
    assert dev.ok("hello")[0]["game"] == "victory"


def test_state_answers_behind_the_game_menu_too(tmp_path):
    dev = victory_dev(tmp_path, bit=0)
    dev.ok("toss")
    dev.hw.inputs.press_with("action", "back")              # the game menu opens in front
    dev.tick()
    assert hasattr(dev.app.mode, "inner") and dev.app.mode.sel == games.GAMES.index("victory")
    st = vstate(dev)                                         # read-only: the menu stays open
    assert st["starter"] == "A" and hasattr(dev.app.mode, "inner")
    reply, _ = dev.ok("next")                                # a request that acts closes it
    assert reply["game"] == 2 and not hasattr(dev.app.mode, "inner")


def test_random_requests_and_buttons_never_stop_the_toss(tmp_path):
    dev = victory_dev(tmp_path)
    rng = random.Random(30)
    values = [None, True, False, 0, 1, "A", "B", "C", [], {}, 2.5]
    for _ in range(300):
        k = rng.random()
        if k < 0.4:
            fields = {rng.choice(["ussr", "again", "back", "x"]): rng.choice(values)
                      for _ in range(rng.randint(0, 2))}
            reply, _ = dev.request(rng.choice(["toss", "next", "state"]), **fields)
            assert "internal error" not in reply.get("error", "")
        elif k < 0.6:
            dev.turn(rng.choice((1, -1)))
        else:
            dev.press(rng.choice(("action", "back", "encoder")), long=rng.random() < 0.15)
        st = vstate(dev)
        assert st["starter"] is None or st["starter"] == v8_starters(st["lot"], st["game"])[-1]
    assert dev.ok("hello")[0]["game"] == "victory"


# ====================================================== kept, and switching


def test_v8_the_lot_and_game_are_kept_when_the_game_is_left_and_over_a_restart(tmp_path):
    dev = victory_dev(tmp_path, bit=1)
    dev.ok("toss", ussr="B")
    dev.ok("next")
    dev.ok("next")
    kept = vstate(dev)
    assert (kept["lot"], kept["game"], kept["starter"], kept["ussr"]) == ("B", 3, "B", "B")
    with open(str(tmp_path) + STATE_FILE) as f:
        assert f.read() == "1 3 1\n"
    dev.ok("game", game="siege")
    dev.ok("game", game="victory")
    assert vstate(dev) == kept
    dev2 = Dev(tmp_path)                                     # a restart: the device boots into Victory Day again
    assert dev2.app.mode.id == "victory" and vstate(dev2) == kept
    dev2.ok("next")
    assert vstate(dev2)["starter"] == "A" and vstate(dev2)["game"] == 4


@pytest.mark.parametrize("text", ["", "garbage", "2 1 0", "0 0 0", "-1 3 0", "1 1000 0", "0 1 2", "1 2"])
def test_a_kept_state_that_makes_no_sense_is_a_fresh_match(tmp_path, text):
    with open(str(tmp_path) + STATE_FILE, "w") as f:
        f.write(text)
    dev = victory_dev(tmp_path)
    assert vstate(dev) == {"lot": None, "game": 1, "starter": None, "ussr": "A", "saved": True}


def test_a_flash_that_cannot_keep_the_lot_does_not_stop_the_toss(tmp_path):
    os.mkdir(str(tmp_path) + STATE_FILE)                     # the file cannot be written
    dev = victory_dev(tmp_path, bit=0)
    reply, _ = dev.ok("toss")
    assert reply["lot"] == "A" and reply["saved"] is False
    assert dev.ok("next")[0]["starter"] == "B"


def journal_files(tmp_path):
    return {f: open(os.path.join(str(tmp_path), f), "rb").read() for f in os.listdir(str(tmp_path))
            if "/" + f not in (SETTING, STATE_FILE)}


def test_siege_in_progress_survives_victory_and_back_journal_untouched(tmp_path):
    dev = Dev(tmp_path)
    dev.ok("act", action={"do": "patrol"})
    dev.ok("act", action={"do": "move"})
    before = engine_state(dev.app.siege.game)
    seq = len(dev.app.siege.game.log)
    journal = journal_files(tmp_path)
    dev.ok("game", game="victory")
    dev.ok("toss")
    for _ in range(3):
        dev.ok("next")
        dev.press("encoder")
    dev.ok("game", game="siege")
    assert engine_state(dev.app.siege.game) == before and len(dev.app.siege.game.log) == seq
    assert dev.ok("state")[0]["seq"] == seq and journal_files(tmp_path) == journal
    dev2 = Dev(tmp_path)                                     # after a reboot in Siege, the same game
    assert dev2.app.mode is dev2.app.siege and engine_state(dev2.app.siege.game) == before


def test_siege_loads_nothing_of_the_toss(tmp_path):
    for name in MODULES + ("osada_fw.gamemenu",):          # as a fresh device
        forget(name, always=True)
    dev = Dev(tmp_path, menu=True)
    assert not any(m in sys.modules for m in MODULES + ("osada_fw.gamemenu",))
    dev.ok("act", action={"do": "patrol"})
    dev.ok("game", game="victory")
    assert all(m in sys.modules for m in MODULES)
    dev.ok("toss")
    dev.ok("game", game="siege")
    assert not any(m in sys.modules for m in MODULES + ("osada_fw.gamemenu",))
    dev.ok("act", action={"do": "move"})
    assert not any(m in sys.modules for m in MODULES)


def test_the_device_code_imports_nothing_of_the_host_only_rules_core():
    """shared_rules/victory/ is off the device bundle: the toss's own arithmetic is a bit and a counter."""
    import ast
    for mod in (victory_mode, victory_view):
        with open(mod.__file__, encoding="utf-8") as f:
            tree = ast.parse(f.read())
        names = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
        names += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
        assert not [n for n in names if n.startswith("shared_rules.victory")], mod.__name__


def test_the_game_menu_picks_victory_day_in_sector_3_and_leaves_it_keeping_the_lot(tmp_path):
    k = games.GAMES.index("victory")
    assert k == 2
    dev = Dev(tmp_path, menu=True)                           # Siege's boot menu
    dev.turn(1, times=k)
    dev.press("action")
    assert dev.app.mode.id == "victory"
    dev.app.mode.rng = Bits(1)
    dev.press("action")
    dev.hw.inputs.held_buttons = {"action", "back"}          # ACTION and BACK held: the game menu
    dev.hw.inputs.press("action", long=True)                 # (ACTION's own long press first: nothing)
    dev.press("back", long=True)
    dev.hw.inputs.held_buttons = set()
    assert dev.app.mode.sel == k and vstate(dev)["lot"] == "B"
    lay = dev.app.layout
    blink = set()
    for _ in range(6):                                       # sector 3 (Victory Day, highlighted) blinks
        dev.tick(ms=130)
        rgb = dev.app.frame.rgb_list()
        blink.add(tuple(rgb[lay.index(3, 0)]))
    assert blink == {(0, 0, 0), seen(games.MENU_COLORS[k])}
    dev.turn(-1, times=k)                                    # to Siege
    dev.press("action")
    assert dev.app.mode is dev.app.siege
    dev.ok("game", game="victory")
    assert vstate(dev)["lot"] == "B"

