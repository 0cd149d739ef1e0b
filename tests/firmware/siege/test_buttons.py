"""Siege from the board's own inputs (osada_fw/siege/ui.py, menu.py): a whole
turn from the encoder and the two buttons (hit, move, reveal, end, undo by a
long BACK), a refused press reported, the R25 damage choice answered with
the encoder, the play menu, the new-game menus, the free die.  The marshal's
presses: test_marshal_buttons.py."""

import pytest
from rules_support import engine_state

from shared_rules.siege import scenario
from shared_rules.siege.catalog import MODES, VARIANTS
from shared_rules.siege.engine import Game
from tests.support.device import CHOICE_SETUP, Dev, choice_dev, snapshot, states_in, to_cell


def test_a_turn_from_the_buttons_alone(tmp_path):
    dev = Dev(tmp_path)
    dev.ok("new", seed=21)
    game = dev.app.siege.game
    e = max(game.enemies, key=lambda x: (x.armor, -x.id))
    assert e.line == 1 and e.armor >= 2
    # the encoder wraps backwards too: one step back is sector 6's city
    dev.turn(-1)
    assert dev.app.siege.ui.cursor_cell() == (6, 4)
    to_cell(dev, e.sector, e.line)
    dev.take()
    dev.press("action")                                   # hit it
    msgs = dev.take()
    assert msgs[0] == {"ev": "hit", "enemy": e.id, "armor": e.armor}
    assert msgs[-1]["ev"] == "state" and msgs[-1]["seq"] == 1
    assert dev.app.siege.game.log.dicts() == [{"do": "hit", "enemy": e.id}]
    after_hit = snapshot(dev)

    to_cell(dev, e.sector, 0)                           # an empty rear cell
    dev.take()
    dev.press("action")                                   # nothing there: nothing happens
    assert states_in(dev.take()) == [] and snapshot(dev) == after_hit

    dev.press("back")                                     # phase 4 -> the enemies move
    assert dev.app.siege.game.log.dicts()[-1] == {"do": "move"}
    assert dev.app.siege.game.phase == 6 and dev.app.siege.game.pending is None
    assert dev.app.siege.game.reveals >= 1
    dev.press("action")                                   # reveal one token
    assert dev.app.siege.game.log.dicts()[-1] == {"do": "reveal"}
    turn, player = dev.app.siege.game.turn, dev.app.siege.game.player
    dev.press("back")                                     # end the turn
    assert dev.app.siege.game.log.dicts()[-1] == {"do": "end_turn"}
    assert (dev.app.siege.game.turn, dev.app.siege.game.player) != (turn, player)
    assert dev.app.siege.game.phase == 4
    seq = len(dev.app.siege.game.log)
    assert seq == 4
    st, s = dev.state()
    assert s == seq

    dev.take()
    dev.press("back", long=True)                          # undo the end of turn: it revealed tokens (R30) ...
    assert len(dev.app.siege.game.log) == seq and states_in(dev.take()) == []   # ... so asked twice
    dev.press("back", long=True)                          # a second long BACK within 5 s: undone
    msgs = dev.take()
    assert {"ev": "undo", "seq": seq - 1, "seen": True} in msgs
    assert msgs[-1]["ev"] == "state" and msgs[-1]["seq"] == seq - 1
    assert dev.app.siege.game.log.dicts()[-1] == {"do": "reveal"}
    assert dev.app.siege.game.phase == 6
    for _ in range(4):                                    # the reveal (twice), the move, the hit
        dev.press("back", long=True)
    assert len(dev.app.siege.game.log) == 0
    dev.press("back", long=True)                          # nothing left to undo: harmless
    assert len(dev.app.siege.game.log) == 0
    assert dev.app.siege.game.phase == 4


def test_a_refused_button_action_reports_and_changes_nothing(tmp_path):
    dev = Dev(tmp_path)
    dev.ok("new", seed=21)
    dev.ok("act", action={"do": "push_back", "enemy": 1})   # enemy 1 now in the rear
    e = dev.app.siege.game.enemy(1)
    before = snapshot(dev)
    to_cell(dev, e.sector, 0)
    dev.take()
    dev.press("action")                       # hit an enemy in the rear: R10
    msgs = dev.take()
    assert [m for m in msgs if m.get("ev") == "refused"] == [
        {"ev": "refused", "rule": "R10", "error": msgs[0]["error"], "source": "buttons"}]
    assert states_in(msgs) == []
    assert snapshot(dev) == before


def test_damage_choice_answered_with_encoder_and_action(tmp_path):
    dev = choice_dev(tmp_path)
    dev.press("back")                                   # move: both attack the dotted wall
    p = dev.app.siege.game.pending
    assert p is not None and p["choice"] == "damage" and len(p["candidates"]) == 2
    cands = list(p["candidates"])
    before = snapshot(dev)
    dev.press("back")                                   # not an answer: ignored
    dev.hw.inputs.press("action", long=True)            # no play menu either
    dev.tick()
    assert snapshot(dev) == before
    dev.turn(1)
    dev.turn(1)
    dev.turn(-1)                                        # -> the second candidate
    dev.take()
    dev.press("action")
    assert dev.app.siege.game.log.dicts() == [{"do": "move"}, {"do": "choose", "enemy": cands[1]}]
    game, _ = scenario.run({**CHOICE_SETUP, "actions": [{"do": "move"}, {"do": "choose", "enemy": cands[1]}]})
    assert snapshot(dev) == (engine_state(game), 2)
    assert dev.take()[-1] == {"ev": "state", "seq": 2, "state": engine_state(game)}


def test_play_menu_hedgehog_and_dot(tmp_path):
    dev = Dev(tmp_path)
    dev.ok("new", seed=21)
    e = dev.app.siege.game.enemies[2]
    to_cell(dev, e.sector, e.line)
    before = snapshot(dev)
    dev.press("action", long=True)                      # the play menu ...
    dev.press("back")                                   # ... cancelled
    assert snapshot(dev) == before
    dev.press("action", long=True)
    dev.turn(1)                                         # kill, [hedgehog], ...
    dev.press("action")
    assert dev.app.siege.game.log.dicts() == [{"do": "hedgehog", "enemy": e.id}]
    st, _ = dev.state()
    assert [x["held"] for x in st["enemies"] if x["id"] == e.id] == [True]
    dev.press("action", long=True)
    dev.turn(1, 3)                                      # ..., push_back, [dot]
    dev.press("action")
    assert dev.app.siege.game.log.dicts()[-1] == {"do": "dot", "sector": e.sector}
    assert dev.state()[0]["dots"] == [e.sector]
    dev.press("action", long=True)
    dev.turn(-1)                                        # wraps to the last: patrol
    dev.press("action")
    assert dev.app.siege.game.log.dicts()[-1] == {"do": "patrol"}
    # back in play mode: ACTION hits again
    dev.press("action")
    assert dev.app.siege.game.log.dicts()[-1] == {"do": "hit", "enemy": e.id}
    assert len(dev.app.siege.game.log) == 4


@pytest.mark.parametrize("players_i,mode_i,variant_is,expect_players", [
    (2, 1, (2, 4), 3),          # 3 players, shoulder, one_for_all + my_house
    (5, 3, (), 5),              # 6 players, marshal: capped to 5 defenders
    (3, 2, (0,), 1),            # solo: one player whatever was picked
    (0, 0, (5,), 2),            # 1 player in standard: made 2
])
def test_setup_menu_starts_a_new_game(tmp_path, players_i, mode_i, variant_is, expect_players):
    dev = Dev(tmp_path)
    dev.ok("new", seed=3)
    dev.ok("act", action={"do": "hit", "enemy": 1})
    dev.press("encoder", long=True)                   # players 1..6
    dev.turn(1, players_i)
    dev.press("action")
    dev.turn(1, mode_i)                               # MODES
    dev.press("action")
    sel = 0
    for v in variant_is:                              # VARIANTS, toggled
        dev.turn(1, v - sel)
        sel = v
        dev.press("action")
    assert len(dev.app.siege.game.log) == 1                 # nothing started yet
    dev.take()
    dev.press("back")                                 # start
    msgs = dev.take()
    evs = [m["ev"] for m in msgs if "ev" in m]
    assert "setup" in evs and evs[-1] == "state" and evs.count("state") == 1
    setup = dev.app.siege.game.setup_dict()
    assert setup["players"] == expect_players
    assert setup["mode"] == MODES[mode_i]
    assert setup["variants"] == sorted(VARIANTS[i] for i in variant_is)
    assert setup["seed"] == dev.hw.free_roll_seed() & 0x3FFFFFFF
    assert len(dev.app.siege.game.log) == 0
    expected = Game.from_setup(setup)
    assert dev.state() == (engine_state(expected), 0)
    assert msgs[-1] == {"ev": "state", "seq": 0, "state": engine_state(expected)}


def test_setup_menu_cancelled_changes_nothing(tmp_path):
    dev = Dev(tmp_path)
    dev.ok("new", seed=3)
    before = snapshot(dev)
    dev.press("encoder", long=True)
    dev.turn(1, 2)
    dev.press("back")                                 # cancel at the players menu
    dev.press("encoder", long=True)
    dev.press("action")
    dev.press("back")                                 # cancel at the mode menu
    assert snapshot(dev) == before
    assert dev.app.siege.game.setup_dict()["seed"] == 3
    dev.turn(1)
    dev.press("action")                               # play mode again: a hit
    assert len(dev.app.siege.game.log) == 1


def test_encoder_press_rolls_the_free_die(tmp_path):
    dev = Dev(tmp_path)
    dev.ok("new", seed=3)
    before = snapshot(dev)
    seen = set()
    for _ in range(60):
        dev.press("encoder")
        msgs = dev.take()
        rolls = [m for m in msgs if m.get("ev") == "roll"]
        assert len(rolls) == 1 and 1 <= rolls[0]["value"] <= 6
        assert states_in(msgs) == []
        seen.add(rolls[0]["value"])
    assert seen == {1, 2, 3, 4, 5, 6}
    assert snapshot(dev) == before
