"""War Chest's round tracker on the device (osada_fw/warchest/mode.py, its
ring osada_fw/warchest/view.py) on the fake hardware, through the buttons and
the encoder and through the protocol's requests: the rules it keeps (W2, W6,
W7, W8, W10, W11, W12, W16, W20, WA6 of docs/rules-war-chest.md; test
names carry them), the ring, switching to it and back with Siege's game kept,
and nothing of it loaded while Siege plays."""

import os
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs
from rules_support import engine_state

from osada_fw import forget
from osada_fw.games import SETTING
from osada_fw.warchest import view as wc_view
from osada_fw.warchest.mode import ALL_MARKERS, FIX_MS, HAND, HIST, START_MARKERS
from shared_rules.rng import Rng
from shared_rules.warchest.units import MARKERS
from tests.support.device import Dev

WC_MODULES = ("osada_fw.warchest.mode", "osada_fw.warchest.view", "osada_fw.warchest")


class Bits:
    """A stand-in for the device's Rng: below(2) gives these bits in order."""

    def __init__(self, bits):
        self.bits = list(bits)

    def below(self, n):
        assert n == 2
        return self.bits.pop(0)


def wc_dev(tmp_path, bit=0, **kw):
    """A device switched to War Chest, its flip giving `bit` (0: player 1)."""
    dev = Dev(tmp_path, **kw)
    dev.app.free_rng = Bits([bit])
    reply, pushed = dev.ok("game", game="warchest")
    assert reply["game"] == "warchest" and reply["changed"] is True
    assert {"ev": "game", "game": "warchest"} in pushed
    return dev


def counts(dev):
    return dev.ok("warchest")[0]["warchest"]


def pushed_of(dev, kind="warchest"):
    return [m for m in dev.take() if m.get("ev") == kind]


def unload(names):
    for name in names:
        forget(name, always=True)


def ring(dev):
    """The 24 positions of the view (position p = sector p//4+1, line p%4), as wire RGB."""
    dev.app.draw(dev.clock.ticks_ms(), force=True)
    rgb = dev.app.frame.rgb_list()
    lay = dev.app.layout
    return [tuple(rgb[lay.index(p // 4 + 1, p % 4)]) for p in range(24)]


def hue(x):
    r, g, b = x
    if x == (0, 0, 0):
        return "-"
    if r == g == b:
        return "W"
    if r == 0 and b > 0 and g < b:
        return "B"                     # player 1's blue
    if r > 0 and g == 0 and b == 0:
        return "R"                     # player 2's red
    if r > g > 0 and b == 0:
        return "G"                     # the initiative's gold
    if r > 0 and b > 0 and g == 0:
        return "M"                     # a refused press
    return "?"


def hues(dev):
    return "".join(hue(x) for x in ring(dev))


def past_flip(dev):
    dev.tick(n=2, ms=wc_view.FLIP_MS)


# ======================================================= the game, the menu


def test_hello_state_and_game_list_war_chest(tmp_path):
    dev = wc_dev(tmp_path)
    assert dev.ok("hello")[0]["game"] == "warchest"
    assert "warchest" in dev.ok("game")[0]["games"]
    st = dev.ok("state")[0]
    assert st["game"] == "warchest" and st["warchest"] == counts(dev) and st["seq"] == 0


def test_siege_in_progress_survives_war_chest_and_back_journal_untouched(tmp_path):
    dev = Dev(tmp_path)
    dev.ok("act", action={"do": "patrol"})
    dev.ok("act", action={"do": "move"})
    before = engine_state(dev.app.siege.game)
    seq = len(dev.app.siege.game.log)
    journal = {f: open(os.path.join(str(tmp_path), f), "rb").read()
               for f in os.listdir(str(tmp_path)) if "/" + f != SETTING}
    dev.ok("game", game="warchest")
    for _ in range(7):
        dev.press("action")
    dev.press("back")
    r, _ = dev.request("act", action={"do": "patrol"})             # Siege's, refused, says how back
    assert r["ok"] is False and '"game": "siege"' in r["error"] and "War Chest" in r["error"]
    for cmd in ("new", "undo", "log"):
        assert dev.request(cmd)[0]["ok"] is False
    dev.ok("game", game="siege")
    assert engine_state(dev.app.siege.game) == before and len(dev.app.siege.game.log) == seq
    now = {f: open(os.path.join(str(tmp_path), f), "rb").read()
           for f in os.listdir(str(tmp_path)) if "/" + f != SETTING}
    assert now == journal
    assert dev.request("warchest")[0]["ok"] is False                 # the tracker's request is its own
    dev2 = Dev(tmp_path)                                             # a reboot in Siege: the same game
    assert dev2.app.mode is dev2.app.siege and engine_state(dev2.app.siege.game) == before


def test_siege_loads_nothing_of_the_war_chest_tracker(tmp_path):
    unload(WC_MODULES + ("osada_fw.gamemenu",))                      # as a fresh device
    dev = Dev(tmp_path, menu=True)
    dev.ok("act", action={"do": "patrol"})
    assert not any(m in sys.modules for m in WC_MODULES + ("osada_fw.gamemenu",))
    dev.ok("game", game="warchest")
    assert all(m in sys.modules for m in WC_MODULES)
    dev.ok("game", game="siege")
    assert not any(m in sys.modules for m in WC_MODULES + ("osada_fw.gamemenu",))


def test_the_game_menu_picks_war_chest_and_the_choice_is_remembered(tmp_path):
    from osada_fw.games import GAMES
    dev = Dev(tmp_path, menu=True)
    dev.turn(1, times=GAMES.index("warchest"))
    dev.press("action")
    assert dev.app.mode.id == "warchest"
    with open(str(tmp_path) + SETTING) as f:
        assert f.read() == "warchest"
    dev2 = Dev(tmp_path, menu=True)                                  # boots into it, the menu offered
    assert dev2.app.mode.inner.id == "warchest" and dev2.app.mode.sel == GAMES.index("warchest")
    # and from the tracker, ACTION and BACK held: the game menu, without a claim or an undo
    dev2.app.mode.take(-1)
    before = counts(dev2)
    dev2.hw.inputs.held_buttons = {"action", "back"}
    dev2.hw.inputs.press("action", long=True)
    dev2.press("back", long=True)
    dev2.hw.inputs.held_buttons = set()
    assert hasattr(dev2.app.mode, "inner")
    dev2.press("back")                                               # closes it: the tracker goes on
    assert counts(dev2) == before


# ======================================================= the rules, by buttons


def test_w6_wa6_entering_the_game_flips_the_initiative_one_random_bit(tmp_path):
    for bit in (0, 1):
        dev = wc_dev(tmp_path / str(bit), bit=bit)
        ev = pushed_of(dev)
        st = counts(dev)
        assert st["initiative"] == st["flipped"] == st["turn"] == bit + 1      # W11: the holder acts first
        assert st["round"] == 1 and st["moved"] is False and st["winner"] is None
        assert ev == [] or ev[0]["what"] == "new"


class _Clock:
    def ticks_ms(self):
        return 0


class _App:
    """What the tracker takes of the app at a new game: the clock and the free generator."""

    def __init__(self, seed):
        self.hw = type("HW", (), {"clock": _Clock()})()
        self.free_rng = Rng(seed)


def test_w6_the_flip_is_fair_over_the_devices_random_source():
    """The device's flip (mode.WarChest.new_game) over its generator, Rng,
    seeded from the hardware's entropy at boot.  Over the seed it is exactly
    fair: xorshift is linear over GF(2), so the first bit is the seed's low
    bit XOR others, and seeds 2k and 2k+1 always flip opposite ways (1/2 of
    any uniform seed).  Over one generator's stream (new games one after the
    other), 10000 flips give player 1 a binomial(10000, 1/2) count: sd 50, so
    4800..5200 is four standard deviations (a fair coin fails it about once
    in 16000 runs; the seed is fixed, so this run never does: it gives 4990)."""
    from osada_fw.warchest.mode import WarChest
    flips = [WarChest(_App(seed)).holder for seed in range(4000)]
    assert all(flips[2 * k] != flips[2 * k + 1] for k in range(2000))
    wc = WarChest(_App(7))
    ones = 0
    for _ in range(10000):
        wc.new_game(0, -1)
        ones += wc.holder
        assert wc.flipped == wc.holder and wc.turn == wc.holder
    assert 4800 <= ones <= 5200


def test_w6_the_flip_shows_on_the_ring_then_the_counts(tmp_path):
    for bit in (0, 1):
        dev = wc_dev(tmp_path / str(bit), bit=bit)
        sides = set()
        for _ in range(8):
            dev.tick(ms=125)
            h = hues(dev)
            if dev.clock.ticks_ms() % 2000 < 900:
                sides.add(h)
        dev.tick(n=2, ms=100)                                        # past the tumble: the holder's half
        h = hues(dev)
        assert h == ("G" * 12 + "-" * 12 if bit == 0 else "-" * 12 + "G" * 12)
        assert "G" * 12 + "-" * 12 in sides and "-" * 12 + "G" * 12 in sides   # it tumbled
        past_flip(dev)
        h = hues(dev)
        assert h[0:3] == "WWW" and h[12:15] == "WWW"                  # 3 coins each, the counts


def test_w8_w11_action_done_alternates_from_the_holder_and_the_round_ends_when_both_hands_are_empty(tmp_path):
    dev = wc_dev(tmp_path, bit=1)                                   # player 2 holds the initiative
    dev.take()
    turns = []
    evs = []
    for _ in range(6):
        turns.append(counts(dev)["turn"])
        dev.press("action")
        evs += pushed_of(dev)
    assert turns == [2, 1, 2, 1, 2, 1]                               # W11: the holder first, in turn
    assert [e["what"] for e in evs] == ["action"] * 6 and all(e["source"] == "buttons" for e in evs)
    assert [e["warchest"]["hand"] for e in evs[:5]] == [[3, 2], [2, 2], [2, 1], [1, 1], [1, 0]]
    last = evs[-1]
    assert last["round_ended"] == 1                                  # both hands empty: round 2
    st = counts(dev)
    assert st["round"] == 2 and st["hand"] == [HAND, HAND] == [3, 3] and st["turn"] == 2   # W8
    assert last["warchest"] == st


def test_w10_a_short_hand_the_other_player_goes_on_alone(tmp_path):
    dev = wc_dev(tmp_path, bit=0)
    dev.press("encoder")                                            # the other player's markers
    dev.press("encoder")                                            # player 1's hand
    dev.press("encoder")                                            # player 2's hand
    assert counts(dev)["cursor"] == "hand 2"
    dev.turn(-2)                                                    # player 2 drew 1 coin only (W10)
    assert counts(dev)["hand"] == [3, 1]
    turns = []
    for _ in range(4):
        turns.append(counts(dev)["turn"])
        dev.press("action")
    assert turns == [1, 2, 1, 1]                                     # after his last coin, player 1 goes on
    st = counts(dev)
    assert st["round"] == 2 and st["hand"] == [3, 3] and st["turn"] == 1


def test_w10_w11_a_player_with_no_coin_at_all_is_passed_over(tmp_path):
    dev = wc_dev(tmp_path, bit=0)
    dev.ok("warchest", do="set", player=1, hand=0)                  # the holder drew none
    assert counts(dev)["turn"] == 2                                 # so player 2 acts first
    for want in (2, 2, 2):
        assert counts(dev)["turn"] == want
        dev.press("action")
    assert counts(dev)["round"] == 2 and counts(dev)["turn"] == 1   # the holder starts the next round


def test_w12_w16_claiming_the_initiative_spends_the_coin_and_the_claimer_starts_the_next_round(tmp_path):
    dev = wc_dev(tmp_path, bit=0)
    dev.press("action")                                             # player 1
    dev.take()
    dev.press("back")                                               # player 2 claims: his action
    ev = pushed_of(dev)
    assert len(ev) == 1 and ev[0]["what"] == "claim"
    st = counts(dev)
    assert st["initiative"] == 2 and st["moved"] is True
    assert st["hand"] == [2, 2] and st["turn"] == 1                 # W12: paid with a coin; the turn passed
    for _ in range(4):
        dev.press("action")
    st = counts(dev)
    assert st["round"] == 2 and st["turn"] == 2 and st["initiative"] == 2 and st["moved"] is False


def test_w16_the_holder_cannot_claim_and_the_marker_changes_hands_once_a_round(tmp_path):
    dev = wc_dev(tmp_path, bit=0)
    before = counts(dev)
    dev.take()
    dev.press("back")                                               # player 1 holds it
    ref = pushed_of(dev, "refused")
    assert len(ref) == 1 and ref[0]["rule"] == "W16" and "holds the initiative marker already" in ref[0]["error"]
    assert counts(dev) == before
    dev.press("action")                                             # player 1
    dev.press("back")                                               # player 2 claims
    dev.take()
    dev.press("back")                                               # player 1 held it earlier this round
    ref = pushed_of(dev, "refused")
    assert ref[0]["rule"] == "W16" and "earlier this round" in ref[0]["error"]
    reply, _ = dev.request("warchest", do="claim")                  # the request: the same rule
    assert reply["ok"] is False and reply["rule"] == "W16"
    assert counts(dev)["hand"] == [2, 2] and counts(dev)["initiative"] == 2
    for _ in range(4):
        dev.press("action")
    dev.press("action")                                             # round 2: player 2 first
    dev.take()
    dev.press("back")                                               # a new round: player 1 may claim again
    assert pushed_of(dev)[0]["what"] == "claim" and counts(dev)["initiative"] == 1


def test_w2_w20_w7_control_markers_the_encoder_fixes_and_the_last_one_wins(tmp_path):
    # W2: 6 a player, 2 on his starting locations: the device's copy of the rules core's numbers
    assert (ALL_MARKERS, START_MARKERS) == (MARKERS[2][0], MARKERS[2][0] - MARKERS[2][1]) == (6, 4)
    dev = wc_dev(tmp_path, bit=0)
    assert counts(dev)["markers"] == [4, 4]
    dev.turn(-1)                                                    # W20: player 1 took a neutral location
    assert counts(dev)["markers"] == [3, 4]
    dev.press("encoder")                                            # ... it was player 2's: his marker back
    dev.turn(1)
    assert counts(dev)["markers"] == [3, 5]
    dev.turn(1, times=5)                                            # at most 6
    assert counts(dev)["markers"] == [3, 6]
    dev.press("action")
    dev.ok("warchest", do="set", player=2, markers=1)
    dev.take()
    dev.turn(-1)                                                    # player 2 places his last (W7)
    st = counts(dev)
    assert st["markers"] == [3, 0] and st["winner"] == 2 and st["turn"] is None
    dev.take()
    dev.press("action")
    ref = pushed_of(dev, "refused")
    assert ref[0]["rule"] == "W7" and "game is over" in ref[0]["error"]
    assert dev.request("warchest", do="action")[0]["rule"] == "W7"
    past = counts(dev)
    dev.turn(1)                                                     # a correction: not his last after all
    st = counts(dev)
    assert st["markers"] == [3, 1] and st["winner"] is None and st["turn"] == 2
    assert past["hand"] == st["hand"]
    dev.turn(-1, times=3)                                           # stops at 0
    assert counts(dev)["markers"] == [3, 0]


def test_hold_back_undoes_the_last_change_even_a_round_end_and_a_new_game(tmp_path):
    dev = wc_dev(tmp_path, bit=0)
    first = counts(dev)
    seen = [first]
    for _ in range(6):
        dev.press("action")
        seen.append(counts(dev))
    assert seen[-1]["round"] == 2
    dev.app.free_rng = Bits([1])
    dev.press("encoder", long=True)                                 # a new game, flipped again
    assert counts(dev)["round"] == 1 and counts(dev)["flipped"] == 2
    dev.press("back", long=True)
    assert {k: v for k, v in counts(dev).items() if k != "undo"} == \
        {k: v for k, v in seen[-1].items() if k != "undo"}
    for k in range(6):
        dev.press("back", long=True)
        assert counts(dev)["hand"] == seen[5 - k]["hand"] and counts(dev)["round"] == seen[5 - k]["round"]
    dev.take()
    dev.press("back", long=True)                                    # nothing left
    assert pushed_of(dev, "refused")[0]["error"] == "nothing to undo"


def test_a_run_of_encoder_clicks_is_one_change_and_undo_keeps_at_most_hist(tmp_path):
    dev = wc_dev(tmp_path, bit=0)
    dev.turn(-1, times=3)
    assert counts(dev)["markers"] == [1, 4] and counts(dev)["undo"] == 1
    dev.press("back", long=True)
    assert counts(dev)["markers"] == [4, 4]
    for _ in range(HIST + 5):
        dev.press("action")
    assert counts(dev)["undo"] == HIST


def test_the_encoder_cursor_cycles_and_returns_to_the_current_players_markers(tmp_path):
    dev = wc_dev(tmp_path, bit=1)
    names = [counts(dev)["cursor"]]
    for _ in range(5):
        dev.press("encoder")
        names.append(counts(dev)["cursor"])
    assert names == ["markers 2", "markers 1", "hand 2", "hand 1", "initiative", "markers 2"]
    dev.press("encoder")
    dev.tick(n=2, ms=FIX_MS // 2 + 10)
    assert counts(dev)["cursor"] == "markers 2"                      # time is up: back to the default
    dev.press("encoder")
    dev.press("action")                                              # an action too
    assert counts(dev)["cursor"] == "markers 1"


def test_w11_the_initiative_fix_before_the_first_action_moves_the_first_player_too(tmp_path):
    """W3's first game (player A holds it) and W26's draft (the second picker):
    the players set the holder instead of the flip."""
    dev = wc_dev(tmp_path, bit=1)
    for _ in range(4):
        dev.press("encoder")
    assert counts(dev)["cursor"] == "initiative"
    dev.turn(1)
    st = counts(dev)
    assert st["initiative"] == 1 and st["turn"] == 1 and st["moved"] is False
    dev.press("action")
    for _ in range(4):
        dev.press("encoder")
    dev.turn(1)                                                     # after an action: the marker only
    st = counts(dev)
    assert st["initiative"] == 2 and st["turn"] == 2 and st["hand"] == [2, 3]
    dev.ok("warchest", do="new", holder=1)                           # the request: set, not flipped
    st = counts(dev)
    assert st["initiative"] == 1 and st["flipped"] is None and st["turn"] == 1


# ======================================================= the requests


def test_requests_do_what_the_buttons_do_and_push_the_same_events(tmp_path):
    a = wc_dev(tmp_path / "a", bit=0)
    b = wc_dev(tmp_path / "b", bit=0)
    a.take()
    b.take()
    script = [("press", "action", {"do": "action"}), ("press", "back", {"do": "claim"}),
              ("turn", -1, {"do": "set", "player": 1, "markers": 3}), ("long", "back", {"do": "undo"})]
    for kind, what, req in script:
        if kind == "turn":
            a.turn(what)
        else:
            a.press(what, long=kind == "long")
        reply, pushed = b.ok("warchest", **req)
        ev_a = pushed_of(a)
        ev_b = [m for m in pushed if m.get("ev") == "warchest"]
        assert len(ev_a) == len(ev_b) == 1 and ev_b[0]["source"] == "host"
        assert ev_a[0]["warchest"]["hand"] == ev_b[0]["warchest"]["hand"] == reply["warchest"]["hand"]
        assert ev_a[0]["warchest"]["markers"] == ev_b[0]["warchest"]["markers"]
        assert ev_a[0]["what"] == ev_b[0]["what"] == ("set" if kind == "turn" else req["do"])


def test_a_set_request_fixes_both_counts_and_the_holder(tmp_path):
    dev = wc_dev(tmp_path, bit=0)
    reply, pushed = dev.ok("warchest", do="set", player=2, markers=2, hand=1)
    assert reply["warchest"]["markers"] == [4, 2] and reply["warchest"]["hand"] == [3, 1]
    assert reply["warchest"]["undo"] == 1                            # one change
    reply, _ = dev.ok("warchest", do="set", holder=2)
    assert reply["warchest"]["initiative"] == 2 and reply["warchest"]["turn"] == 2
    reply, _ = dev.ok("warchest", do="set", player=1, hand=0)
    reply, _ = dev.ok("warchest", do="set", player=2, hand=0)        # both hands empty: the next round
    assert reply["warchest"]["round"] == 2 and reply["warchest"]["hand"] == [3, 3]
    assert [m for m in pushed if m.get("ev") == "warchest"][0]["what"] == "set"


@pytest.mark.parametrize("fields, words", [
    ({"do": "dance"}, "do must be one of action, claim, set, undo, new"),
    ({"do": "action", "player": 1}, "action takes nothing more; not 'player'"),
    ({"do": "new", "holder": 3}, "holder must be 1 or 2"),
    ({"do": "new", "holder": True}, "holder must be 1 or 2"),
    ({"do": "set", "player": 1, "markers": 7}, "markers must be 0..6"),
    ({"do": "set", "player": 1, "markers": -1}, "markers must be 0..6"),
    ({"do": "set", "player": 2, "hand": 4}, "hand must be 0..3"),
    ({"do": "set", "player": 2, "hand": 1.0}, "hand must be 0..3"),
    ({"do": "set", "player": 0, "hand": 1}, "player must be 1 or 2"),
    ({"do": "set", "markers": 2}, "set takes a player with his markers and/or hand, or the holder alone"),
    ({"do": "set", "player": 1}, "set takes a player"),
    ({"do": "set", "holder": 1, "player": 1, "hand": 2}, "or the holder alone"),
    ({"do": "set", "round": 3}, "set takes player, markers, hand, holder; not 'round'"),
    ({"do": "undo"}, "nothing to undo"),
])
def test_bad_requests_get_one_clear_error_and_change_nothing(tmp_path, fields, words):
    dev = wc_dev(tmp_path)
    before = counts(dev)
    reply, pushed = dev.request("warchest", **fields)
    assert reply["ok"] is False and words in reply["error"], reply
    assert [m for m in pushed if m.get("ev") == "warchest"] == []
    assert counts(dev) == before


ACTIONS = hs.lists(hs.sampled_from([("press", "action"), ("press", "back"), ("press", "encoder"),
                                    ("long", "back"), ("long", "encoder"), ("turn", 1), ("turn", -1),
                                    ("wait", FIX_MS)]), max_size=60)


@settings(max_examples=40, deadline=None)
@given(ACTIONS, hs.integers(0, 1))
def test_w10_w11_w16_any_inputs_keep_the_counts_in_their_ranges_and_the_turn_with_a_coin(tmp_path_factory, seq, bit):
    dev = wc_dev(tmp_path_factory.mktemp("wc"), bit=bit)
    dev.app.free_rng = Rng(bit + 3)
    prev = counts(dev)
    for what, value in seq:
        if what == "wait":
            dev.tick(ms=value)
        elif what == "turn":
            dev.turn(value)
        else:
            dev.press(value, long=what == "long")
        st = counts(dev)
        assert all(0 <= h <= 3 for h in st["hand"]) and all(0 <= m <= 6 for m in st["markers"])
        if st["winner"] is None:
            assert st["hand"][st["turn"] - 1] > 0                    # whose action it is has a coin
            assert 0 not in st["markers"]
        else:
            assert st["markers"][st["winner"] - 1] == 0 and st["turn"] is None
        if st["round"] == prev["round"] and st["moved"] and prev["moved"] and (what, value) != ("long", "back"):
            assert st["initiative"] == prev["initiative"] or what == "turn"     # W16: once a round
        if (what, value) == ("press", "action") and prev["winner"] is None:
            spent = sum(prev["hand"]) - sum(st["hand"])
            assert spent == 1 or (st["round"] == prev["round"] + 1 and sum(prev["hand"]) == 1)
        prev = st
    assert dev.ok("hello")[0]["game"] == "warchest"


# ======================================================= the ring


def test_the_ring_shows_hands_initiative_markers_and_whose_action(tmp_path):
    dev = wc_dev(tmp_path, bit=0)
    past_flip(dev)
    dev.press("action")                                            # player 1: 2 coins, player 2's action
    dev.ok("warchest", do="set", player=2, markers=3)              # player 2 placed one (no cursor shown)
    h = hues(dev)
    # player 1: hand 2 of 3, the initiative (gold), 4 markers blue, his action LEDs dark
    assert h[0:12] == "WW-G" + "BBBB--" + "--"
    # player 2: hand 3, no initiative, 3 markers red, his action LEDs pulsing red
    assert h[12:16] == "WWW-" and h[16:22] == "RRR---" and h[22:24] == "RR"
    levels = set()
    for _ in range(12):
        dev.tick(ms=100)
        lit = ring(dev)
        levels.add(lit[22])
        assert hue(lit[22]) == "R" and hue(lit[10]) == "-"
    assert len(levels) >= 3                                         # it pulses


def test_w16_the_initiative_led_blinks_once_the_marker_moved_this_round(tmp_path):
    dev = wc_dev(tmp_path, bit=0)
    past_flip(dev)
    dev.press("action")
    seen = set()
    for _ in range(6):
        dev.tick(ms=130)
        seen.add((hue(ring(dev)[3]), hue(ring(dev)[15])))
    assert seen == {("G", "-")}                                     # steady: not moved
    dev.press("back")                                              # player 2 claims
    seen = set()
    for _ in range(8):
        dev.tick(ms=130)
        seen.add((hue(ring(dev)[3]), hue(ring(dev)[15])))
    assert seen == {("-", "G"), ("-", "-")}                         # blinking in player 2's half


def test_w7_the_winners_half_pulses_in_his_colour(tmp_path):
    dev = wc_dev(tmp_path, bit=1)
    past_flip(dev)
    dev.ok("warchest", do="set", player=2, markers=0)
    levels = set()
    for _ in range(12):
        dev.tick(ms=100)
        lit = ring(dev)
        assert {hue(x) for x in lit[12:24]} == {"R"}
        assert hue(lit[0]) == "W" and hue(lit[22]) == "R"
        levels.add(lit[12])
    assert len(levels) >= 3


def test_a_refused_press_flashes_the_action_leds(tmp_path):
    dev = wc_dev(tmp_path, bit=0)
    past_flip(dev)
    dev.press("back")                                              # the holder: refused (W16)
    seen = set()
    for _ in range(5):
        dev.tick(ms=50)
        seen.add(hue(ring(dev)[10]))
    assert "M" in seen
    dev.tick(n=2, ms=wc_view.REFUSED_MS)
    assert hue(ring(dev)[10]) == "B"


def test_the_count_the_encoder_fixes_blinks_its_empty_places_dim(tmp_path):
    dev = wc_dev(tmp_path, bit=0)
    past_flip(dev)
    dev.press("encoder")                                           # player 2's markers
    dev.press("encoder")                                           # player 1's hand
    dev.turn(-1)                                                   # 2 coins
    seen = set()
    for _ in range(6):
        dev.tick(ms=70)
        lit = ring(dev)
        seen.add(tuple(lit[0:3]))
        assert lit[2] != (0, 0, 0) and max(lit[2]) < max(lit[12])   # the empty place, dim
    assert len(seen) == 2                                           # the two coins blink
    dev.tick(n=2, ms=FIX_MS)
    lit = ring(dev)
    assert lit[2] == (0, 0, 0) and hue(lit[0]) == "W"


def test_drawing_the_ring_allocates_no_new_objects_per_frame(tmp_path):
    """CPython's view of the rule (MicroPython's: test_warchest_device_mpy.py)."""
    import tracemalloc
    dev = wc_dev(tmp_path, bit=0)
    past_flip(dev)
    dev.press("encoder")
    wc = dev.app.mode
    frame = dev.app.frame
    for now in range(0, 200, 10):
        wc.draw(dev.clock.ticks_ms() + now, frame)
    tracemalloc.start()
    snap = tracemalloc.take_snapshot()
    for now in range(200, 2000, 10):
        wc.draw(dev.clock.ticks_ms() + now, frame)
    grown = [s for s in tracemalloc.take_snapshot().compare_to(snap, "filename")
             if os.path.join("osada_fw", "warchest") in s.traceback[0].filename and s.size_diff > 0]
    tracemalloc.stop()
    assert grown == []
