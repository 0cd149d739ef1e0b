"""Plain-text picture of the board, for `osada demo` and error reports."""

from osada.texts import PHASES, short
from shared_rules.catalog import LINES, SECTOR_COLOR


def _cell(enemies):
    if not enemies:
        return "."
    parts = []
    for e in enemies:
        tag = short(e["kind"], e["armor"])
        if e["held"]:
            tag += "#"
        parts.append(tag)
    return " ".join(parts)


def render(state):
    """Multi-line text of a spec state object."""
    cells = {}
    for e in state["enemies"]:
        cells.setdefault((e["sector"], e["line"]), []).append(e)
    head = "turn %d  player %d  phase %d (%s)  pool %d  buildings %d/6  %s" % (
        state["turn"], state["player"], state["phase"], PHASES.get(state["phase"], "?"),
        state["pool"], len(state["buildings"]), state["outcome"].upper())
    rows = [head]
    width = [10, 12, 12, 12, 12, 6, 12]
    hdr = ["sector"] + list(LINES[:4]) + ["wall"] + ["city"]
    rows.append("  ".join(h.ljust(w) for h, w in zip(hdr, width)))
    for s in range(1, 7):
        wall = ("W" if s in state["walls"] else "-") + ("D" if s in state["dots"] else "")
        city = _cell(cells.get((s, "city")))
        if s in state["buildings"]:
            city = "[B] " + city if city != "." else "[B]"
        cols = ["%d %s" % (s, SECTOR_COLOR[s])]
        cols += [_cell(cells.get((s, line))) for line in LINES[:4]]
        cols += [wall, city]
        rows.append("  ".join(c.ljust(w) for c, w in zip(cols, width)))
    if state["pending"]:
        rows.append("pending: %s" % (state["pending"],))
    return "\n".join(rows)
