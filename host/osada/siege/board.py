"""The board as a picture (rich Text): one column per sector, rows rear ...
tank, the wall, the city.  Pure functions of the mirrored state.

Each line is one row, and as many more as its fullest cell needs; those rows
are marked "↳" in the label margin, never with a line's name, so they read as
the same line going on.  Where the board is wide the rulebook's Russian name
of a line stands beside the English one ("rear · тыл").  Under the sector
numbers, their colour's army (Soviet, US, British: the rulebook's countries
of the red, green and blue sectors), and under the board a line saying what
the colours mean: a strike card hits only in the sectors of its colour
(not in a compact board: a short window has no row to spare)."""

from rich.style import Style
from rich.text import Text

from osada.words import texts
from shared_rules.siege.catalog import LINES, SECTOR_COLOR, kind_index, strength

HEADER_BG = {"red": "#8b1a1a", "green": "#1d6b2a", "blue": "#1f4596"}
CELL_BG = {"red": "#2b1111", "green": "#0f2714", "blue": "#0f1a36"}
CURSOR_BG = "#5c5200"
# the rulebook: six sectors, "two for each country: red (Soviet), green
# (American) and blue (British)"; a strike card hits in the sectors of its colour
NATION = {"red": "Soviet", "green": "US", "blue": "British"}
# line -> (English, the rulebook's Russian): "rear" or, on a wide board, "rear · тыл"
ROW_LABELS = {"rear": ("rear", "тыл"), "air": ("air", "авиация"), "artillery": ("artillery", "артиллерия"),
              "tank": ("tank", "танки"), "city": ("city", "город")}
ROW_SHORT = {"rear": "rear", "air": "air", "artillery": "art.", "tank": "tank", "city": "city"}
MORE = "  ↳"                  # the label of a line's second row and after: the same line goes on
LABEL_W = 11                  # the row labels' margin
SHORT_LABEL_W = 6             # ... in a narrow board (ROW_SHORT)
BOTH_LABEL_W = 24             # ... in a wide board: "artillery · артиллерия"
BOTH_MIN_COL = 18             # the cells' width the Russian names leave at least
WALL_LABELS = ("wall", "укрепление")
# under the board (not when compact): what the colours are; the first that fits
LEGEND = ("Sector colours: red Soviet (1–2), green US (3–4), blue British (5–6) — "
          "a strike card hits only in the sectors of its colour",
          "Colours: red Soviet, green US, blue British — a strike card hits only in sectors of its colour",
          "red Soviet, green US, blue British: cards hit only their colour's sectors",
          "red Soviet, green US, blue British: a strike card hits only its colour",
          "Colours: a strike card hits only in sectors of its colour")


def board_cells(state):
    """(sector, line) -> the enemies there (dicts, by id)."""
    cells = {}
    for e in (state or {}).get("enemies", ()):
        cells.setdefault((e["sector"], e["line"]), []).append(e)
    for lst in cells.values():
        lst.sort(key=lambda e: e["id"])
    return cells


def enemy_tag(e):
    """'Tgr3', 'Maus*3'; '#' marks the hedgehog."""
    return texts.short(e["kind"], e["armor"]) + ("#" if e.get("held") else "")


def candidates(state):
    p = (state or {}).get("pending") or {}
    return list(p.get("candidates") or ()) if p.get("choice") == "damage" else []


def strongest(enemies):
    """The cell's strongest enemy (state dicts), ranked as the device ranks
    them (shared_rules.siege.catalog.strength); None for no enemy."""
    if not enemies:
        return None
    return max(enemies, key=lambda e: strength(kind_index(e["kind"]), e["armor"], e["id"]))


def _tag_style(e, bg, cand_no, selected):
    if cand_no:
        return Style.parse("bold black on #d050d0")
    if texts.is_special(e["kind"]):
        st = "bold #ff70ff"
    elif e["armor"] < texts.full_armor(e["kind"]):
        st = "bold #ffd24a"
    else:
        st = "bold #f0f0f0"
    if e.get("held"):
        st += " underline"
    st = Style.parse(st + " on " + bg)
    if selected:
        st += Style(reverse=True)
    return st


def _wrap(frags, width):
    """Fragments (text, style) laid out on lines of at most `width` cells."""
    lines = [[]]
    used = 0
    for text, style in frags:
        n = len(text)
        if used and used + 1 + n > width:
            lines.append([])
            used = 0
        if used:
            lines[-1].append((" ", None))
            used += 1
        if n > width:
            text = text[:width]
            n = width
        lines[-1].append((text, style))
        used += n
    return lines


class Fit:
    """How the board fits a width: the label margin, the cells' width, and
    which words fit in a cell.  Every row is label_w + 6 × (col_w + 1) ≤ width
    cells: no row is wider than the board widget, so none wraps."""

    MIN_COL = 9                      # a numbered, held tag ("1:Maus*3#"); narrower: no board (a window < 80 columns)

    def __init__(self, width, compact=False):
        self.width = width
        self.compact = compact
        self.label_w = LABEL_W
        self.col_w = (width - LABEL_W) // 6 - 1
        if (width - BOTH_LABEL_W) // 6 - 1 >= BOTH_MIN_COL:     # wide: the Russian names too
            self.label_w = BOTH_LABEL_W
            self.col_w = (width - BOTH_LABEL_W) // 6 - 1
        elif self.col_w < 10:        # narrow: the short labels, to keep the cells wide
            self.label_w = SHORT_LABEL_W
            self.col_w = (width - SHORT_LABEL_W) // 6 - 1
        self.short = self.col_w < 10

    def fits(self):
        return self.col_w >= self.MIN_COL

    def both(self, en, ru):
        """'wall · укрепление' on a wide board, else 'wall'."""
        return "%s · %s" % (en, ru) if self.label_w == BOTH_LABEL_W else en

    def label(self, line, k):
        """Row k's label of a line: its name on its first row (English, and
        Russian beside it on a wide board; short when narrow), MORE after."""
        if k:
            return MORE
        if self.label_w < LABEL_W:
            return ROW_SHORT[line]
        return self.both(*ROW_LABELS[line])


def fit(options, width, fill=" "):
    """The first of `options` that fits `width`, centred; the last one cut if none does."""
    for o in options:
        if len(o) <= width:
            return o.center(width, fill)
    return options[-1][:width]


def _row_label(out, fitting, text, style="bold"):
    """A row's label, in the left margin."""
    w = fitting.label_w - 1                   # and a space before the first cell
    out.append(text.ljust(w)[:w] + " ", style=style)


def _cell(out, frags, col_w, bg):
    """One row of a cell: its fragments, padded to col_w on bg, then the column rule."""
    used = 0
    for text, style in frags:
        out.append(text, style=style if style is not None else Style(bgcolor=bg))
        used += len(text)
    out.append(" " * (col_w - used), style=Style(bgcolor=bg))
    out.append("│", style="grey35")


def _banners(out, state, width, stale):
    """The STALE line and the GAME WON / LOST line, when they apply."""
    if stale:
        out.append(fit([" STALE — the connection is lost; this is the last board received ",
                        " STALE — connection lost: the last board received ", " STALE "], width).ljust(width),
                   style="bold black on #d0a000")
        out.append("\n")
    if state.get("outcome") in ("won", "lost"):
        msgs = [" GAME WON "] if state["outcome"] == "won" else [" GAME LOST — the city has fallen ", " GAME LOST "]
        out.append(fit(msgs, width), style="bold white on " + ("#1d6b2a" if state["outcome"] == "won"
                                                              else "#8b1a1a"))
        out.append("\n")


def _sector_headers(out, fitting, cur_s):
    """The header rows: each sector's number and colour (the cursor's
    marked), then its nation (not when compact), on the sector's colour."""
    col_w = fitting.col_w
    _row_label(out, fitting, "sect." if fitting.label_w < LABEL_W else "sector")
    for s in range(1, 7):
        c = SECTOR_COLOR[s]
        labels = ["%d %s" % (s, c)]
        if s == cur_s:
            labels = ["> %d %s <" % (s, c), ">%d %s<" % (s, c), ">%d %s" % (s, c), ">%d" % s]
        out.append(fit(labels, col_w), style="bold white on " + HEADER_BG[c])
        out.append("│", style="grey35")
    out.append("\n")
    if fitting.compact:
        return
    _row_label(out, fitting, "army", "dim")
    for s in range(1, 7):
        c = SECTOR_COLOR[s]
        out.append(fit([NATION[c]], col_w), style="white on " + HEADER_BG[c])
        out.append("│", style="grey35")
    out.append("\n")


def _wall_row(out, fitting, walls, dots):
    """The wall row (between the tank line and the city): each sector's wall,
    with its ДОТ, or "no wall"."""
    col_w = fitting.col_w
    _row_label(out, fitting, fitting.both(*WALL_LABELS), "bold")
    for s in range(1, 7):
        bg = CELL_BG[SECTOR_COLOR[s]]
        if s in walls:
            labels = [" wall+ДОТ ", "wall+ДОТ", "ДОТ"] if s in dots else [" wall ", "wall"]
            out.append(fit(labels, col_w, "═"), style=Style.parse("bold #e8e8e8 on " + bg))
        else:
            out.append(fit(["· no wall ·", "no wall", "—"], col_w), style=Style.parse("#c04040 on " + bg))
        out.append("│", style="grey35")
    out.append("\n")


def _enemy_frags(enemies, bg, cands, selected):
    """A cell's enemies as tag fragments; pending candidates numbered."""
    frags = []
    for e in enemies:
        no = cands.index(e["id"]) + 1 if e["id"] in cands else 0
        tag = ("%d:" % no if no else "") + enemy_tag(e)
        frags.append((tag, _tag_style(e, bg, no, e["id"] == selected)))
    return frags


def _line_rows(out, fitting, line, per):
    """A line's rows: one, and as many more as its fullest cell needs (marked
    MORE, not named); per is each sector's (wrapped fragment lines, bg)."""
    height = max(1, max(len(fl) for fl, _bg in per))
    for k in range(height):
        _row_label(out, fitting, fitting.label(line, k), "bold" if k == 0 else "dim")
        for fl, bg in per:
            _cell(out, fl[k] if k < len(fl) else [], fitting.col_w, bg)
        out.append("\n")


def _city_frags(frags, standing, bg, short):
    """A city cell: its building (or its ruins), then the enemies in it."""
    if standing:
        frags.insert(0, ("[bldg]" if short else "[building]", Style.parse("bold #ffd24a on " + bg)))
    elif not frags:
        frags.insert(0, ("ruins", Style.parse("#806040 on " + bg)))
    return frags


def render_board(state, width=96, cursor=None, selected=None, stale=False, compact=False):
    """The board as rich Text, no row wider than `width`: a header per sector
    in its colour, the four lines, the walls (and dots), the city with its
    buildings; the cursor cell lit, pending candidates in magenta and
    numbered; under it the legend of the colours.  Compact (a short window):
    one header row (no armies), no legend.  Narrow: short row labels and building tags; wide: the Russian
    names of the lines beside the English ones."""
    out = Text()
    if state is None:
        out.append("no board yet — waiting for the device"[:max(0, width)], style="italic")
        return out
    fitting = Fit(width, compact)
    if not fitting.fits():
        out.append("too narrow for the board"[:max(0, width)], style="italic")
        return out
    cells = board_cells(state)
    cands = candidates(state)
    cur_s, cur_l = cursor if cursor else (None, None)
    walls, dots, blds = set(state.get("walls", ())), set(state.get("dots", ())), set(state.get("buildings", ()))
    _banners(out, state, width, stale)
    _sector_headers(out, fitting, cur_s)
    for li, line in enumerate(LINES):
        if line == "city":
            _wall_row(out, fitting, walls, dots)
        per = []
        for s in range(1, 7):
            bg = CURSOR_BG if (s == cur_s and li == cur_l) else CELL_BG[SECTOR_COLOR[s]]
            frags = _enemy_frags(cells.get((s, line), ()), bg, cands, selected)
            if line == "city":
                frags = _city_frags(frags, s in blds, bg, fitting.short)
            per.append((_wrap(frags, fitting.col_w), bg))
        _line_rows(out, fitting, line, per)
    if not fitting.compact:
        out.append(next((t for t in LEGEND if len(t) <= width), LEGEND[-1][:width]), style="grey70")
    out.rstrip()
    if stale:
        out.stylize("dim", 0, len(out))
    return out
