"""Plain-text picture of the board, for `osada demo` and error reports.

The monitor's orientation (osada.monitor.board): one column a sector, 1 to 6
left to right, and one row a line, rear at the top, then air, artillery,
tank, the wall and the city, so a player who knows one knows the other.  It
fits an 80-column terminal and wraps nothing: one short tag (texts.short, e.g.
"Tgr3", "# held") a text row, so a cell holding more enemies takes more rows
of its line (the rows after the first have no label: the same line goes on).
"""

import textwrap
import unicodedata

from osada.words.texts import PHASES, short
from shared_rules.siege.catalog import LINES, SECTOR_COLOR

WIDTH = 80                 # no line of the picture is wider
LABEL_W = 11               # the rows' labels ("artillery" and two spaces)
COL_W = 11                 # a sector's column ("[building]" and a space)


def columns(text):
    """Terminal columns `text` takes (East Asian wide and full-width characters take two)."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def wrap(text, width=WIDTH, indent=""):
    """`text` as lines no wider than `width`, the lines after the first indented by `indent`."""
    return textwrap.wrap(text, width, subsequent_indent=indent, break_long_words=True,
                         break_on_hyphens=False) or [""]


def _tags(enemies):
    """One tag an enemy ("Tgr3", "PzIII2#" when held)."""
    return [short(e["kind"], e["armor"]) + ("#" if e["held"] else "") for e in enemies or ()]


def _pending(p):
    if p.get("choice") == "damage":
        return "pending: choose which enemy takes the damage: %s" % ", ".join(
            "#%s" % c for c in p.get("candidates") or ())
    if p.get("choice") == "marshal_extra":
        n = p.get("count")
        return "pending: the field marshal may play %s first" % (
            "the drawn token" if n == 1 else "%s drawn tokens" % n)
    return "pending: %s" % (p,)


def _column(state, cells, s, line):
    """What sector s shows in one row of the board: a list of text rows."""
    if line == "wall":
        if s not in state["walls"]:
            return ["no wall"]
        return ["wall+ДОТ" if s in state["dots"] else "wall"]
    tags = _tags(cells.get((s, line)))
    if line == "city":
        return (["[building]"] if s in state["buildings"] else [] if tags else ["ruins"]) + tags
    return tags or ["."]


def render(state):
    """Multi-line text of a spec state object, no line wider than WIDTH:
    columns sector 1..6, rows rear, air, artillery, tank, wall, city."""
    cells = {}
    for e in state["enemies"]:
        cells.setdefault((e["sector"], e["line"]), []).append(e)
    head = "turn %d  player %d  phase %d (%s)  pool %d  buildings %d/6  %s" % (
        state["turn"], state["player"], state["phase"], PHASES.get(state["phase"], "?"),
        state["pool"], len(state["buildings"]), state["outcome"].upper())
    rows = wrap(head, indent="  ")
    rows.append(_row("sector", ["%d %s" % (s, SECTOR_COLOR[s]) for s in range(1, 7)]))
    for line in LINES[:4] + ("wall", "city"):
        stacks = [_column(state, cells, s, line) for s in range(1, 7)]
        for k in range(max(len(c) for c in stacks)):
            rows.append(_row(line if k == 0 else "", [c[k] if k < len(c) else "" for c in stacks]))
    if state["pending"]:
        rows += wrap(_pending(state["pending"]), indent="  ")
    return "\n".join(rows)


def _row(label, cells):
    return (label.ljust(LABEL_W) + "".join(c.ljust(COL_W) for c in cells)).rstrip()
