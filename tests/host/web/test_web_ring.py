"""Siege's ring on the web page (osada.siege.ring): the device's own Board code
paints it from the pushed state.  An empty cell is its sector's tint, an
occupied one the colour the board gives its strongest enemy, the hedgehog's
enemy white; the row under the LEDs says the same without colours."""

from osada.siege.ring import _marks, colours
from osada_fw.siege import colors as C
from shared_rules.siege.catalog import KIND_IDS
from tests.support.monitor_fakes import mid_game


def pal(n):
    return tuple(C.PALETTE[n * 3:n * 3 + 3])


def test_the_ring_is_the_boards_colours_of_the_state():
    g, _ = mid_game()
    st = g.state()
    px = colours(st)
    marks = _marks(st)
    occupied = {(e["sector"], ["rear", "air", "artillery", "tank"].index(e["line"]))
                for e in st["enemies"] if e["line"] != "city"}
    for s in range(1, 7):
        for line in range(4):
            p = (s - 1) * 4 + line
            if (s, line) in occupied:
                assert px[p] != pal(C.SECTOR_TINT[s]) and marks[p] != "·", (s, line)
            else:
                assert px[p] == pal(C.SECTOR_TINT[s]) and marks[p] == "·", (s, line)
    held = [e for e in st["enemies"] if e.get("held")][0]
    p = (held["sector"] - 1) * 4 + ["rear", "air", "artillery", "tank"].index(held["line"])
    assert px[p] == pal(C.HELD) and marks[p] == "#"
    tiger_alone = [e for e in st["enemies"] if e["kind"] == "tiger" and e["armor"] == 3
                   and sum(1 for f in st["enemies"] if (f["sector"], f["line"]) == (e["sector"], e["line"])) == 1][0]
    p = (tiger_alone["sector"] - 1) * 4 + ["rear", "air", "artillery", "tank"].index(tiger_alone["line"])
    assert px[p] == pal(C.enemy_pal(KIND_IDS.index("tiger"), 3)) and marks[p] == "3"


def test_the_legend_names_every_line_letter_under_the_leds():
    """Issue 61 item 13: the page's ring legend did not say what "G" is."""
    from osada.siege.ring import LEGEND, LINE_LETTERS
    for letter, line in zip(LINE_LETTERS, ("rear", "air", "artillery", "tank")):
        assert "%s %s" % (letter, line) in LEGEND, (letter, LEGEND)
