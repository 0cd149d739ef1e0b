"""Victory Day's toss as the table's page draws it (issue 62 item 2): the game as
data, JSON-able, for static/ring.js.  The two seats (the faction each plays, its
half of the ring, whether it starts this game), the game of the match, the lot's
chance as an exact fraction, the toss in words (toss_words.py's, the lines `osada
victory toss` prints) and the ring as the device lights it (ring.py).

table_part() is all of it but the ring: the page with no host (osada.site.reader,
in the static site's MicroPython VM) draws the ring from the device's own LEDs, and
it runs on both runtimes; the ring's drawing code (the terminal's) loads only for
picture()."""

from osada.words.tank_rolls import chance
from shared_rules.victory.toss import SEATS

from .toss_words import HALF_WORDS, LOT, TossError, checked, describe, faction


def table_part(toss):
    """The picture of the device's toss state `toss` (None before it said it), but its ring."""
    out = {"game": "victory", "seats": [], "lot": None, "words": []}
    if toss is None:
        out["words"] = ["waiting for the device's toss"]
        return out
    try:
        starter = toss.get("starter") if toss.get("lot") is not None else None
        out["seats"] = [{"seat": s, "faction": faction(toss, s), "half": HALF_WORDS[s], "starts": s == starter}
                        for s in SEATS]
        if toss.get("lot") is None:
            out["words"] = ["no lot yet: the toss draws it (V8)"]
            return out
        lines = describe(checked(toss), False)
    except (TossError, KeyError, TypeError, ValueError) as exc:
        out["words"] = ["the device's toss cannot be read: %s" % exc]
        return out
    out["match_game"] = toss["game"]
    out["lot"] = {"p": "%d/%d" % LOT, "text": chance(*LOT)}
    out["words"] = [line.strip() for line in lines]
    return out


def picture(toss):
    """The page's picture of the device's toss state `toss` (None before it said it)."""
    from osada.terminal.ringtext import ring_rgb

    from . import ring
    out = table_part(toss)
    out["ring"] = ring_rgb(ring.colours, toss, (TossError, KeyError, TypeError, ValueError))
    return out
