"""War Chest's round tracker as the table's page draws it (issue 62 item 2): the
game as data, JSON-able, for static/ring.js.  The round, and for each player his
colour, his coins in hand (of the hand's size), the control markers he has still
to place (of all of them), whether he holds the initiative (and claimed it this
round, W16) and whether it is his action; the winner; the counts in words
(device_words.py, the lines `osada warchest watch` prints) and the ring as the
device lights it (ring.py), each LED's letter beside its colour.

table_part() is all of it but the ring's colours: the page with no host
(osada.site.reader, in the static site's MicroPython VM) draws them from the
device's own LEDs, and it runs on both runtimes; the ring's drawing code (the
terminal's) loads only for picture()."""

from osada.sim.warchest_lines import letters

from .device_words import FACTIONS, flip_line, status_lines


def table_part(counts):
    """The picture of the tracker's counts `counts` (None before the device said them), but the
    ring's colours."""
    out = {"game": "warchest", "letters": letters(), "players": [], "words": []}
    if counts is None:
        out["words"] = ["waiting for the device's counts"]
        return out
    try:
        out["players"] = [{"player": p, "colour": FACTIONS[p - 1], "hand": counts["hand"][p - 1],
                           "hand_size": counts["hand_size"], "markers": counts["markers"][p - 1],
                           "markers_all": counts["markers_all"], "initiative": counts["initiative"] == p,
                           "claimed": bool(counts["initiative"] == p and counts.get("moved")),
                           "turn": counts.get("turn") == p, "won": counts.get("winner") == p}
                          for p in range(1, counts["players"] + 1)]
        out["round"] = counts["round"]
        words = [line.strip() for line in status_lines(counts)]
        if counts.get("flipped") and counts.get("round") == 1:
            words.append(flip_line(counts))
        out["words"] = words
    except (KeyError, TypeError, IndexError, ValueError):
        out["words"] = ["the device sent counts this tool cannot read: %r" % (counts,)]
    return out


def picture(counts):
    """The page's picture of the tracker's counts `counts` (None before the device said them)."""
    from osada.terminal.ringtext import ring_rgb

    from . import ring
    out = table_part(counts)
    out["ring"] = ring_rgb(ring.colours, counts)
    return out
