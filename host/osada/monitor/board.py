"""The board as a picture (rich Text): one column per sector, rows rear ...
tank, the wall, the city.  Pure functions of the mirrored state."""

from rich.style import Style
from rich.text import Text

from osada import texts
from shared_rules.catalog import LINES, SECTOR_COLOR, kind_index, strength

HEADER_BG = {"red": "#8b1a1a", "green": "#1d6b2a", "blue": "#1f4596"}
CELL_BG = {"red": "#2b1111", "green": "#0f2714", "blue": "#0f1a36"}
CURSOR_BG = "#5c5200"
NATION = {"red": "Soviet", "green": "US", "blue": "British"}
ROW_LABELS = {"rear": ("rear", "тыл"), "air": ("air", "авиация"), "artillery": ("artillery", "артиллерия"),
              "tank": ("tank", "танки"), "city": ("city", "город")}
LABEL_W = 11


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
    them (shared_rules.catalog.strength); None for no enemy."""
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


def _row_label(out, text, style="bold"):
    """A row's label, in the left margin."""
    out.append(text.ljust(LABEL_W)[:LABEL_W], style=style)


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
        out.append(" STALE — the connection is lost; this is the last board received ".ljust(width)[:width],
                   style="bold black on #d0a000")
        out.append("\n")
    if state.get("outcome") in ("won", "lost"):
        msg = " GAME WON " if state["outcome"] == "won" else " GAME LOST — the city has fallen "
        out.append(msg.center(width)[:width], style="bold white on " + ("#1d6b2a" if state["outcome"] == "won"
                                                                      else "#8b1a1a"))
        out.append("\n")


def _sector_headers(out, col_w, cur_s):
    """The two header rows: each sector's number and colour (the cursor's
    marked), then its nation, on the sector's colour."""
    _row_label(out, "sector")
    for s in range(1, 7):
        c = SECTOR_COLOR[s]
        label = "%d %s" % (s, c)
        if s == cur_s:
            label = "> %s <" % label
        out.append(label.center(col_w)[:col_w], style="bold white on " + HEADER_BG[c])
        out.append("│", style="grey35")
    out.append("\n")
    _row_label(out, "", "dim")
    for s in range(1, 7):
        c = SECTOR_COLOR[s]
        out.append(NATION[c].center(col_w)[:col_w], style="white on " + HEADER_BG[c])
        out.append("│", style="grey35")
    out.append("\n")


def _wall_row(out, col_w, walls, dots):
    """The wall row (between the tank line and the city): each sector's wall,
    with its ДОТ, or "no wall"."""
    _row_label(out, "wall", "bold")
    for s in range(1, 7):
        bg = CELL_BG[SECTOR_COLOR[s]]
        if s in walls:
            label = " wall+ДОТ " if s in dots else " wall "
            text = label.center(col_w, "═")[:col_w]
            out.append(text, style=Style.parse("bold #e8e8e8 on " + bg))
        else:
            out.append("· no wall ·".center(col_w)[:col_w], style=Style.parse("#c04040 on " + bg))
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


def _line_rows(out, line, per, col_w):
    """A line's rows (at least two, as many as its fullest cell needs),
    labelled in English then Russian; per is each sector's (wrapped
    fragment lines, bg)."""
    height = max(2, max(len(fl) for fl, _bg in per))
    en, ru_label = ROW_LABELS[line]
    for k in range(height):
        _row_label(out, en if k == 0 else (ru_label if k == 1 else ""), "bold" if k == 0 else "dim")
        for fl, bg in per:
            _cell(out, fl[k] if k < len(fl) else [], col_w, bg)
        out.append("\n")


def render_board(state, width=96, cursor=None, selected=None, stale=False):
    """The board as rich Text: a header per sector in its colour, the four lines,
    the walls (and dots), the city with its buildings; the cursor cell lit,
    pending candidates in magenta and numbered."""
    out = Text()
    if state is None:
        out.append("no board yet — waiting for the device", style="italic")
        return out
    col_w = max(8, (width - LABEL_W) // 6 - 1)
    cells = board_cells(state)
    cands = candidates(state)
    cur_s, cur_l = cursor if cursor else (None, None)
    walls, dots, blds = set(state.get("walls", ())), set(state.get("dots", ())), set(state.get("buildings", ()))
    _banners(out, state, width, stale)
    _sector_headers(out, col_w, cur_s)
    for li, line in enumerate(LINES):
        if line == "city":
            _wall_row(out, col_w, walls, dots)
        per = []
        for s in range(1, 7):
            bg = CURSOR_BG if (s == cur_s and li == cur_l) else CELL_BG[SECTOR_COLOR[s]]
            frags = _enemy_frags(cells.get((s, line), ()), bg, cands, selected)
            if line == "city":
                if s in blds:
                    frags.insert(0, ("[building]", Style.parse("bold #ffd24a on " + bg)))
                elif not frags:
                    frags.insert(0, ("ruins", Style.parse("#806040 on " + bg)))
            per.append((_wrap(frags, col_w), bg))
        _line_rows(out, line, per, col_w)
    out.rstrip()
    if stale:
        out.stylize("dim", 0, len(out))
    return out


