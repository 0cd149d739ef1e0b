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

import textwrap

from rich.style import Style
from rich.text import Text

from osada.tank import ring as tank_ring
from osada.tank.rolls import check
from osada.words.tank_rolls import describe, odds_line

DARK = "grey30"
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


class Cells:
    """How the ring fits a width: each LED `led` cells wide, `gap` between
    LEDs of a sector, `sep` between sectors, a row label margin of `label`."""

    def __init__(self, width):
        for led, gap, sep, label in ((2, 1, " │ ", 9), (1, 1, " │ ", 9), (1, 1, " │ ", 0), (1, 0, "│", 0)):
            self.led, self.gap, self.sep, self.label = led, gap, sep, label
            if self.row_width() <= width:
                break

    def group(self):
        return 4 * self.led + 3 * self.gap

    def row_width(self):
        return self.label + 6 * self.group() + 5 * len(self.sep)


def _rgb(c):
    """A device colour as the terminal shows it: a dim LED brightened, as on paper (tank_ring.svg)."""
    r, g, b = c
    if max(r, g, b) < 64:
        r, g, b = r * 4, g * 4, b * 4
    return "#%02x%02x%02x" % (r, g, b)


def _label(out, cells, text):
    if cells.label:
        out.append(text.ljust(cells.label - 1)[:cells.label - 1] + " ", style="bold")


def _header(out, cells):
    _label(out, cells, "sector")
    for s in range(6):
        if s:
            out.append(" " * len(cells.sep))
        out.append(str(s + 1).center(cells.group()), style="dim")
    out.append("\n")


def _led_row(out, cells, label, px):
    _label(out, cells, label)
    glyph = "█" * cells.led if cells.led > 1 else "●"
    off = "░" * cells.led if cells.led > 1 else "○"
    for p in range(24):
        if p and p % 4 == 0:
            out.append(cells.sep, style="grey35")
        elif p:
            out.append(" " * cells.gap)
        if px[p] == (0, 0, 0):
            out.append(off, style=DARK)
        else:
            out.append(glyph, style=Style(color=_rgb(px[p])))
    out.append("\n")


def _para(out, text, width, style=None):
    for line in textwrap.wrap(text, max(1, width)) or [""]:
        out.append(line[:width], style=style)
        out.append("\n")


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
    _header(out, cells)
    try:
        return _roll(out, cells, ev, width, compact)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:   # a roll that cannot be read
        out = Text(title[:width] + "\n")
        _header(out, cells)
        _led_row(out, cells, "ring", [(0, 0, 0)] * 24)
        _para(out, "the last roll cannot be read (%s): %r" % (exc, ev), width, "bold #ffd24a")
        return _done(out)


def _roll(out, cells, ev, width, compact):
    bad = check(ev) if ev is not None else []
    if ev is None or bad:
        _led_row(out, cells, "ring", [(0, 0, 0)] * 24)
        if ev is None:
            _para(out, "no roll yet — roll on the device (ACTION) or with o here; each roll shows here "
                       "as the ring lights it, with its odds", width, "italic")
        else:
            _para(out, "the last roll does not add up: " + "; ".join(bad), width, "bold #ffd24a")
        return _done(out)
    fire = ev["test"] in ("fire", "suppress")
    _led_row(out, cells, "outcome" if fire else "ring", tank_ring.colours(ev))
    if fire and not compact:
        _led_row(out, cells, "faces", tank_ring.colours(ev, page=1))
    _para(out, describe(ev), width)
    _para(out, odds_line(ev), width, "bold #7fd7ff")
    if not compact:
        _para(out, LEGENDS[ev["test"]], width, "dim")
    return _done(out)


def _done(out):
    out.rstrip()
    return out
