"""The board area while the device runs Tank battle («Кубики»): the ring as
the device lights it for the last roll, then the roll in words with its
odds.  The colours are the device's own drawing code run on the host
(osada.tank.ring.colours -> osada_fw/tank/view.py), so what is shown here
is what the ring shows; the words and odds are osada.words.tank_rolls's,
the check of its counts osada.tank.rolls's.

Layout, every row at most `width` cells: a title; the sector numbers; one
row of 24 LEDs in six groups of four (sector 1 first, as the ring runs
clockwise), and for a fire or suppression roll a second row with the
faces (the device's other page, a turn of the encoder away); the roll in
words, the odds, a legend.  Compact (a short window): no faces row, no
legend.  Before the first roll: the ring dark and "no roll yet"."""

from rich.text import Text

from osada.tank import ring as tank_ring
from osada.tank.rolls import check
from osada.terminal.ringtext import Cells, done, header, led_row, para
from osada.words.tank_rolls import describe, odds_line

LEGENDS = {
    "fire": "blue: a hit the protection absorbed · red: a hit that is damage · dim: a miss · "
            "amber sector 6: a morale test is due. Faces: sector f = the dice showing f "
            "(green: hits, red: misses, white: a 5th-8th die)",
    "morale": "die q on six LEDs from position 6q, its face as lit LEDs: green passed, red failed",
    "counter": "A's die from sector 1, B's from sector 4: green moves in, red stops (ties re-rolled)",
    "collision": "one sector per unit, A's from sector 1, B's from sector 4; its face as lit LEDs "
                 "(white: a 5 or 6): green moves in, red beaten, amber tied with the best opposing total",
}
LEGENDS["suppress"] = LEGENDS["fire"]


def render_tank(ev, width, compact=False, stale=False):
    """The board area for the last roll event `ev` (None: no roll yet), no row wider than `width`."""
    out = Text()
    if width < 1:
        return out
    cells = Cells(width)
    title = "Tank battle («Кубики»): the ring for the last roll"
    if stale:
        title = "STALE — connection lost: the last roll seen"
    out.append(title[:width], style="bold black on #d0a000" if stale else "bold")
    out.append("\n")
    header(out, cells)
    try:
        return _roll(out, cells, ev, width, compact)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:   # a roll that cannot be read
        out = Text(title[:width] + "\n")
        header(out, cells)
        led_row(out, cells, "ring", [(0, 0, 0)] * 24)
        para(out, "the last roll cannot be read (%s): %r" % (exc, ev), width, "bold #ffd24a")
        return done(out)


def _roll(out, cells, ev, width, compact):
    bad = check(ev) if ev is not None else []
    if ev is None or bad:
        led_row(out, cells, "ring", [(0, 0, 0)] * 24)
        if ev is None:
            para(out, "no roll yet — roll on the device (ACTION) or with o here; each roll shows here "
                       "as the ring lights it, with its odds", width, "italic")
        else:
            para(out, "the last roll does not add up: " + "; ".join(bad), width, "bold #ffd24a")
        return done(out)
    fire = ev["test"] in ("fire", "suppress")
    led_row(out, cells, "outcome" if fire else "ring", tank_ring.colours(ev))
    if fire and not compact:
        led_row(out, cells, "faces", tank_ring.colours(ev, page=1))
    para(out, describe(ev), width)
    para(out, odds_line(ev), width, "bold #7fd7ff")
    if not compact:
        para(out, LEGENDS[ev["test"]], width, "dim")
    return done(out)
