"""Siege's ring as the device lights it, drawn by the device's own code
(osada_fw/siege/board.py's Board, into an osada_fw Frame) from the state the
device pushes: the web view shows it under the board.  One instant of it
(time 0): a shared cell shows its strongest enemy, the hedgehog's enemy white,
a pending choice's cells lit (they blink on the board).  The 24 sector LEDs
only (the city's 12, where a board has them, are the board's wall and city
rows already).  Each LED gets the letter of its line under it, for eyes
that do not read the colours."""

from osada.terminal.ringtext import Cells, done, header, led_row, letters_row, para
from osada_fw.frame import Frame
from osada_fw.layouts import Layout
from osada_fw.siege.board import Board
from shared_rules.siege.catalog import KIND_IDS, LINES

LINE_LETTERS = "RAGT"           # rear, air, artillery (guns), tank: the LEDs of a sector, outermost first
LEGEND = ("each sector's four LEDs from the outside in: R rear, A air, G artillery (guns), T tank; a lit LED is "
          "the strongest enemy of its cell in its kind's and armour's colour, its armour under it (* a special, "
          "# under the hedgehog, white on the board); dim: the sector's tint, an empty cell")

class _Enemy:
    """An enemy of the state as the fields Board reads of the engine's."""

    __slots__ = ("id", "kind", "sector", "line", "armor")

    def __init__(self, e):
        self.id, self.sector, self.armor = e["id"], e["sector"], e["armor"]
        self.kind = KIND_IDS.index(e["kind"])
        self.line = LINES.index(e["line"])


class _Game:
    """The state as the fields Board reads of the device's game (no log: drawn afresh)."""

    def __init__(self, st):
        self.enemies = [_Enemy(e) for e in st.get("enemies", ())]
        held = [e["id"] for e in st.get("enemies", ()) if e.get("held")]
        self.hedgehog = held[0] if held else 0
        self.pending = st.get("pending") or None
        self.walls, self.dots, self.buildings = st.get("walls", ()), st.get("dots", ()), st.get("buildings", ())


def colours(state):
    """The 24 sector LEDs' (r, g, b), sector 1's rear LED first (ringtext's order), as the device's
    Board paints them: the palette colours it chose (the frame's brightness and gamma left out)."""
    layout = Layout("spokes")
    frame = Frame(layout, brightness=255)
    frame.lut = bytearray(range(256))           # no brightness, no gamma: the colours as chosen
    Board(frame).draw(_Game(state), 0)
    return [frame.get_pixel(layout.index(s, line)) for s in range(1, 7) for line in range(4)]


def _dim(c):
    """An empty cell's tint stays dim on the page (ringtext brightens what is under 64, for the
    other rings' dim colours; a tint brightened would look like a lit enemy)."""
    top = max(c)
    if 0 < top < 64:
        return tuple(v * 64 // top for v in c)
    return c


def _marks(state):
    """Under each LED what it shows, in a character: the armour of its cell's strongest enemy
    (the one the board lights; * a special, # held by the hedgehog), · an empty cell."""
    from osada.words import texts

    from .board import board_cells, strongest
    cells = board_cells(state)
    out = []
    for s in range(1, 7):
        for line in LINES[:4]:
            e = strongest(cells.get((s, line), []))
            if e is None:
                out.append("·")
            elif e.get("held"):
                out.append("#")
            else:
                out.append("*" if texts.is_special(e["kind"]) else str(e["armor"]))
    return out


def render_ring(state, width, stale=False):
    """The ring as text rows (ringtext's), no row wider than width; None when there is no state."""
    if not state or width < 1:
        return None
    out_cells = Cells(width)
    from rich.text import Text
    out = Text()
    out.append(("STALE — the last ring seen" if stale else "The ring as the board lights it")[:width] + "\n",
               style="bold black on #d0a000" if stale else "bold")
    header(out, out_cells)
    try:
        px = colours(state)
    except (KeyError, ValueError, TypeError, IndexError) as exc:
        para(out, "the state cannot be drawn on the ring: %s" % exc, width, "bold #ffd24a")
        return done(out)
    led_row(out, out_cells, "ring", [_dim(c) for c in px])
    letters_row(out, out_cells, "line", [LINE_LETTERS[p % 4] for p in range(24)])
    letters_row(out, out_cells, "armour", _marks(state))
    para(out, LEGEND, width, "dim")
    return done(out)
