"""One "strongest enemy" for the whole project (issue 10, item 3).

The device's ACTION key hits it, the LEDs show it first in a shared cell and
the monitor selects it by default.  All three must name the same enemy, ties
included: a pz3 #1 and a panther #2 both at armor 2 in one cell."""

import pytest
from test_leds import _wire

from osada.siege import board as siege_board
from osada_fw.frame import Frame
from osada_fw.layouts import Layout
from osada_fw.siege.board import Board
from shared_rules.siege.catalog import kind_index, strength
from shared_rules.siege.engine import Game
from tests.support.device import Dev, to_cell  # the app tests' device driver
from tests.support.fw_extras import palette_rgb

TIE = [{"kind": "pz3", "sector": 2, "line": "artillery"},
       {"kind": "panther", "sector": 2, "line": "artillery"}]


def tie_game(enemies=TIE):
    return Game(board={"walls": [1, 2, 3, 4, 5, 6], "dots": [], "buildings": [1, 2, 3, 4, 5, 6],
                       "enemies": [dict(e) for e in enemies]}, pool=["pz3"], seed=3)


def test_strength_ranks_armor_then_trophy_value_then_lower_id():
    k = kind_index
    assert strength(k("sdkfz"), 3, 9) > strength(k("maus"), 2, 1)          # armor first
    assert strength(k("panther"), 2, 9) > strength(k("pz3"), 2, 1)         # then trophy value
    assert strength(k("tiger"), 2, 9) > strength(k("pz3"), 2, 1)           # a damaged tiger too
    assert strength(k("pz3"), 2, 1) > strength(k("pz3"), 2, 2)             # then the lower id
    assert strength(k("pz3"), 2, 5000) >= 0                                # clamped, never negative


def test_the_tie_is_broken_the_same_way_by_keys_leds_and_monitor(tmp_path):
    g = tie_game()
    panther = g.enemy(2)
    assert panther.kind == kind_index("panther") and panther.armor == g.enemy(1).armor == 2

    # the monitor's default selection, from the state JSON
    cell = [e for e in g.state()["enemies"] if e["sector"] == 2 and e["line"] == "artillery"]
    assert siege_board.strongest(cell)["id"] == 2

    # the LEDs: the first slot of the shared cell shows the panther's colour
    r = Board(Frame(Layout("spokes"), 96))
    r.render(g, 0)
    i = r.layout.index(2, 2)
    assert tuple(r.frame.buf[3 * i:3 * i + 3]) == _wire(palette_rgb("panther"))

    # the device's ACTION key hits the panther
    dev = Dev(tmp_path)
    dev.app.siege.game = g
    dev.app.siege.journal.start(g.setup_dict())
    to_cell(dev, 2, 2)
    dev.take()
    dev.press("action")
    assert dev.take()[0] == {"ev": "hit", "enemy": 2, "armor": 1}


@pytest.mark.parametrize("order", [TIE, TIE[::-1]])
def test_listing_order_does_not_change_the_pick(order):
    g = tie_game(order)
    want = [e.id for e in g.enemies if e.kind == kind_index("panther")][0]
    cell = [e for e in g.state()["enemies"]]
    assert siege_board.strongest(cell)["id"] == want
