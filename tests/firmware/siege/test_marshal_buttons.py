"""The field marshal's turn (phase 7, R60) from the board's inputs
(osada_fw/siege/marshal_menu.py): his hand in a menu, only plays R60 allows
(a refusal says why and leaves the menu open), a lone tank placed where he
chooses, BACK to play nothing, a patrol that skips him, the extra play."""

from shared_rules.siege.catalog import KIND_CLASS, KIND_IDS
from tests.support.device import Dev, snapshot, states_in


def test_marshal_plays_from_the_buttons(tmp_path):
    dev = Dev(tmp_path)
    dev.ok("new", players=2, mode="marshal", seed=14)
    dev.press("back")                                  # phase 4 -> move, then phase 7
    assert dev.app.siege.game.phase == 7
    hand = list(dev.app.siege.game.state()["marshal_hand"])
    assert len(hand) >= 2
    dev.press("action")                                # the marshal's menu: his hand
    dev.press("action")                                # pick the first two tokens
    dev.turn(1)
    dev.press("action")
    n = len(dev.app.siege.game.log)
    dev.press("back")                                  # play them
    assert len(dev.app.siege.game.log) == n + 1
    assert dev.app.siege.game.log.dicts()[-1] == {"do": "marshal_play", "tokens": hand[:2]}


def _marshal_dev(tmp_path, seed=3):
    """Marshal mode in phase 7 from the buttons; seed 3: his hand is sabotage_air, tiger, pz3."""
    dev = Dev(tmp_path)
    dev.ok("new", players=2, mode="marshal", seed=seed)
    dev.press("back")                                  # phase 4: end the turn -> phase 7
    assert dev.app.siege.game.log.dicts() == [{"do": "end_turn"}]
    assert dev.app.siege.game.phase == 7
    return dev


def _refusals(msgs):
    return [m for m in msgs if m.get("ev") == "refused"]


def test_marshal_menu_offers_only_r60_plays(tmp_path):
    dev = _marshal_dev(tmp_path)
    assert dev.app.siege.game.state()["marshal_hand"] == ["sabotage_air", "tiger", "pz3"]
    before = snapshot(dev)
    dev.press("action")                                # his menu
    dev.press("action")                                # sabotage_air alone ...
    dev.take()
    dev.press("back")                                  # ... is no play: refused, with the reason
    msgs = dev.take()
    (r,) = _refusals(msgs)
    assert r["rule"] == "R60" and r["source"] == "buttons"
    assert r["error"].startswith("a lone sabotage_air is no play: one token alone must be a tank")
    assert states_in(msgs) == [] and snapshot(dev) == before
    assert dev.app.siege.ui.mode == 2 and dev.app.siege.ui.menu[0] == "marshal"       # the menu stays open
    dev.turn(1)
    dev.press("action")                                # + tiger
    dev.turn(1)
    dev.take()
    dev.press("action")                                # + pz3: a third token is refused
    (r,) = _refusals(dev.take())
    assert r["rule"] == "R60" and "at most 2" in r["error"]
    assert dev.app.siege.ui.menu[2] == [True, True, False]
    dev.press("back")                                  # two tokens: a play, tanks by die roll
    assert dev.app.siege.game.log.dicts()[-1] == {"do": "marshal_play", "tokens": ["sabotage_air", "tiger"]}
    assert dev.app.siege.game.turn == 2


def test_marshal_lone_tank_goes_where_he_chooses(tmp_path):
    dev = _marshal_dev(tmp_path)
    dev.press("action")
    dev.turn(1)
    dev.press("action")                                # the tiger alone
    dev.press("back")                                  # -> where? the sector menu
    assert dev.app.siege.ui.menu[0] == "sector"
    dev.turn(1, 3)
    dev.press("action")                                # sector 4
    assert dev.app.siege.game.log.dicts()[-1] == {"do": "marshal_play", "tokens": ["tiger"], "sector": 4}
    game = dev.app.siege.game
    assert [(e.sector, e.line) for e in game.enemies if e.id == game.next_id - 1] == [(4, 0)]


def test_marshal_back_plays_nothing_and_a_patrol_skips_him(tmp_path):
    dev = _marshal_dev(tmp_path)
    dev.press("back")                                  # phase 7: BACK = he plays nothing
    assert dev.app.siege.game.log.dicts()[-1] == {"do": "marshal_play", "tokens": []}
    assert (dev.app.siege.game.turn, dev.app.siege.game.phase) == (2, 4)
    hand = list(dev.app.siege.game.marshal_hand)
    dev.press("action", long=True)
    dev.turn(-1)                                       # the play menu's last item: patrol
    dev.press("action")
    dev.press("back")                                  # end the turn: with a patrol, no phase 7 stop
    assert dev.app.siege.game.log.dicts()[-2:] == [{"do": "patrol"}, {"do": "end_turn"}]
    assert (dev.app.siege.game.turn, dev.app.siege.game.phase) == (3, 4) and dev.app.siege.game.marshal_hand == hand


def test_marshal_extra_play_takes_a_lone_non_tank(tmp_path):
    dev = _marshal_dev(tmp_path, seed=11)              # his hand: reveal4, pz3, sabotage_air
    dev.ok("act", action={"do": "marshal_play", "tokens": ["reveal4", "sabotage_air"]})
    assert dev.app.siege.game.pending == {"choice": "marshal_extra", "count": 4}
    hand = [KIND_IDS[k] for k in dev.app.siege.game.marshal_hand]
    lone = [i for i, k in enumerate(hand) if KIND_CLASS[KIND_IDS.index(k)] > 1][0]
    dev.press("action")                                # the menu: up to 4, by die rolls
    dev.turn(1, lone)
    dev.press("action")
    dev.take()
    dev.press("back")
    assert _refusals(dev.take()) == []
    assert dev.app.siege.game.log.dicts()[-1] == {"do": "marshal_play", "tokens": [hand[lone]]}
