"""Plain-text picture of the board, for `osada demo` and error reports.

It fits an 80-column terminal and wraps nothing: one column a line, one short
tag (texts.short, e.g. "Tgr3", "# held") a text row, so a cell holding more
enemies takes more rows of its sector instead of a wider column."""

import textwrap
import unicodedata

from osada.texts import PHASES, short
from shared_rules.catalog import LINES, SECTOR_COLOR

WIDTH = 80                 # no line of the picture is wider
# sector | rear | air | artillery | tank | wall | city: widths of the columns
COLS = (7, 7, 7, 9, 7, 4, 11)
GAP = "  "


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
        return "pending: the field marshal may play %s drawn token(s) first" % p.get("count")
    return "pending: %s" % (p,)


def render(state):
    """Multi-line text of a spec state object, no line wider than WIDTH."""
    cells = {}
    for e in state["enemies"]:
        cells.setdefault((e["sector"], e["line"]), []).append(e)
    head = "turn %d  player %d  phase %d (%s)  pool %d  buildings %d/6  %s" % (
        state["turn"], state["player"], state["phase"], PHASES.get(state["phase"], "?"),
        state["pool"], len(state["buildings"]), state["outcome"].upper())
    rows = wrap(head, indent="  ")
    rows.append(_row(["sector"] + list(LINES[:4]) + ["wall", "city"]))
    for s in range(1, 7):
        wall = ("W" if s in state["walls"] else "-") + ("D" if s in state["dots"] else "")
        stacks = [["%d %s" % (s, SECTOR_COLOR[s])]]
        stacks += [_tags(cells.get((s, line))) or ["."] for line in LINES[:4]]
        stacks.append([wall])
        city = _tags(cells.get((s, "city")))
        if s in state["buildings"]:
            city = ["[B] " + t for t in city[:1]] + ["    " + t for t in city[1:]] if city else ["[B]"]
        stacks.append(city or ["."])
        for k in range(max(len(c) for c in stacks)):
            rows.append(_row([c[k] if k < len(c) else "" for c in stacks]))
    if state["pending"]:
        rows += wrap(_pending(state["pending"]), indent="  ")
    return "\n".join(rows)


def _row(cells):
    return GAP.join(c.ljust(w) for c, w in zip(cells, COLS)).rstrip()
