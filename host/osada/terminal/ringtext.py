"""A game's ring as text rows, for every view that shows the LEDs (Tank battle's
roll, War Chest's tracker, Victory Day's toss): the 24 sector LEDs in six
groups of four, sector 1 first as the ring runs clockwise, each LED a glyph
in its colour (a dim LED brightened, as on paper), sized to a width."""

import textwrap

from rich.style import Style
from rich.text import Text

DARK = "grey30"


class Ring:
    """Stands in for the device's frame (osada_fw/frame.py): the view only clears and sets pixels."""

    def __init__(self):
        self.px = [(0, 0, 0)] * 24

    def clear(self):
        self.px = [(0, 0, 0)] * 24

    def set_pixel(self, i, r, g, b):
        self.px[i] = (r, g, b)


class Layout:
    """Position p (0-23) is LED p: sector (p // 4 + 1), line p % 4."""

    def index(self, sector, line):
        return (sector - 1) * 4 + line


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


def rgb(c):
    """A device colour as the terminal shows it: a dim LED brightened, as on paper (tank_ring.svg)."""
    r, g, b = c
    if max(r, g, b) < 64:
        r, g, b = r * 4, g * 4, b * 4
    return "#%02x%02x%02x" % (r, g, b)


def ring_rgb(colours, state, errors=(KeyError, TypeError, IndexError, ValueError)):
    """The 24 LEDs a game's state lights, as rgb() gives them (colours(state): its ring module's),
    for a page's picture; all dark with no state, or one it cannot draw (`errors`: the picture's
    words say why)."""
    px = [(0, 0, 0)] * 24
    if state is not None:
        try:
            px = colours(state)
        except errors:
            pass
    return [rgb(c) for c in px]


def label(out, cells, text):
    if cells.label:
        out.append(text.ljust(cells.label - 1)[:cells.label - 1] + " ", style="bold")


def header(out, cells):
    label(out, cells, "sector")
    for s in range(6):
        if s:
            out.append(" " * len(cells.sep))
        out.append(str(s + 1).center(cells.group()), style="dim")
    out.append("\n")


def led_row(out, cells, label_text, px):
    label(out, cells, label_text)
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
            out.append(glyph, style=Style(color=rgb(px[p])))
    out.append("\n")


def para(out, text, width, style=None):
    for line in textwrap.wrap(text, max(1, width)) or [""]:
        out.append(line[:width], style=style)
        out.append("\n")


def letters_row(out, cells, label_text, letters):
    """A row of one letter under each LED (what that LED shows, for those who do not read the colours)."""
    label(out, cells, label_text)
    for p in range(24):
        if p and p % 4 == 0:
            out.append(cells.sep, style="grey35")
        elif p:
            out.append(" " * cells.gap)
        out.append(letters[p].center(cells.led)[:cells.led], style="dim")
    out.append("\n")


def titled(width, title, stale_title, stale):
    """A ring board's start, (text, cells): its title (the stale one, marked, when the
    connection is lost) and the sector numbers, sized to `width`; None when nothing fits."""
    if width < 1:
        return None, None
    out = Text()
    cells = Cells(width)
    out.append((stale_title if stale else title)[:width] + "\n", style="bold black on #d0a000" if stale else "bold")
    header(out, cells)
    return out, cells


def done(out):
    out.rstrip()
    return out
