"""Each game's legend on the simulator's board: the letter beside each LED
and the legend that says what the letters (and the colours) mean, as a line
under the board and as a column down its left margin.  Siege tags an LED
with its line; Tank battle («Кубики») with its place in its sector (its bars
and dice count around the ring); Victory Day's toss with the seat whose half
it is; War Chest with what it counts (warchest_lines).  view.Screen asks
`legend(game, layout)` for the game the device runs."""

from osada.sim import warchest_lines
from osada_fw.layouts import SECTOR_LEDS
from osada_fw.victory import view as victory_view

SIEGE_TAGS = {0: "R", 1: "A", 2: "G", 3: "T", "wall": "W", "city": "C"}
SIEGE = ("R rear · A air · G artillery · T tank · W wall · C city · sectors 1-6 clockwise",
         ("R rear", "A air", "G artillery", "T tank", "W wall", "C city", "", "sectors 1-6", "clockwise"))
TANK = ("1-4 a sector's LEDs in order · sectors 1-6 clockwise · bars and dice count from sector 1",
        ("1-4 a sector's", "  LEDs in order", "", "sectors 1-6", "clockwise", "", "bars and dice", "count from",
         "  sector 1"))
VICTORY = ("A seat A's half (sectors 1-3) · B seat B's (4-6) · red the USSR · blue-grey Germany",
           ("A seat A:", "  sectors 1-3", "B seat B:", "  sectors 4-6", "", "red: the USSR", "blue-grey:",
            "  Germany"))


def ring_tags(lay, tag):
    """Each LED's letter, by LED index: tag(position 0-23) for the ring's, none for a city LED."""
    out = [" "] * lay.count
    for p in range(SECTOR_LEDS):
        out[lay.index(p // 4 + 1, p % 4)] = tag(p)
    return out


def legend(game, lay):
    """(the legend's line, its column, each LED's letter) for `game` (a games.GAMES id) on layout `lay`."""
    if game == "warchest":
        return warchest_lines.LEGEND, warchest_lines.LEGEND_COLUMN, warchest_lines.tags(lay)
    if game == "tank":
        return TANK + (ring_tags(lay, lambda p: str(p % 4 + 1)),)
    if game == "victory":
        return VICTORY + (ring_tags(lay, lambda p: "AB"[p // victory_view.HALF]),)
    return SIEGE + ([SIEGE_TAGS.get(lay.cell_of(i)[1], "?") for i in range(lay.count)],)
