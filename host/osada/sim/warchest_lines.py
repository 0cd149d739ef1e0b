"""The simulator's window while the device runs War Chest's round tracker
(osada_fw/warchest/mode.py): its two lines (the round, whose action, the
initiative; the counts and what the encoder fixes), and each
LED's letter beside it on the board: what that LED shows in the tracker
(osada_fw/warchest/view.py), with a legend, so the ring reads without its
colours too (its keys are the monitor's: gamekeys.py).  view.py's Screen asks
these while the tracker runs."""

from osada_fw.layouts import SECTOR_LEDS
from osada_fw.warchest import view as wc_view

LEGEND = "c coins in hand · i initiative · m markers to place · > his action · 1-3 | 4-6"
LEGEND_COLUMN = ("c coins in hand", "i initiative", "m markers", "  to place", "> his action", "",
                 "sectors 1-3:", " player 1, blue", "sectors 4-6:", " player 2, red")


def role(position):
    """The letter of ring position 0-23 (view.py's halves): c, i, m or >."""
    k = position % wc_view.HALF
    if k < wc_view.INIT_AT:
        return "c"
    if k == wc_view.INIT_AT:
        return "i"
    if k < wc_view.TURN_AT:
        return "m"
    return ">"


def letters():
    """Each LED's letter, ring position 0-23: c coins in hand, i initiative, m markers to place, > his action."""
    return [role(p) for p in range(24)]


def tags(lay):
    """Each LED's letter, by LED index (a city LED: none)."""
    out = [" "] * lay.count
    for p in range(SECTOR_LEDS):
        out[lay.index(p // 4 + 1, p % 4)] = role(p)
    return out


def lines(st):
    """The two lines under the header, from the tracker's state()."""
    if st["winner"]:
        head = "WAR CHEST · round %d · GAME OVER: player %d placed his last control marker (W7)" % (
            st["round"], st["winner"])
    else:
        head = "WAR CHEST · round %d · player %d's action · initiative: player %d%s" % (
            st["round"], st["turn"], st["initiative"], " (moved, W16)" if st["moved"] else "")
    return head, "coins in hand %s · markers to place %s · the encoder fixes %s" % (
        " | ".join(str(n) for n in st["hand"]), " | ".join(str(n) for n in st["markers"]), st["cursor"])


def key(wc):
    """What of the tracker its lines show (the window redraws when it changes)."""
    return (wc.round, bytes(wc.hand), bytes(wc.markers), wc.holder, wc.moved, wc.turn, wc.winner,
            wc.cur, wc.cur_p, wc.touched)
