"""The tracker's screen as text: the round line, one panel per player (the
public view, W24, or with `owner` the exact zones and odds of a player whose
coins are entered), the event log as the table may read it, and the replay's
summary.  Plain strings; the app (app.py) lays them out."""

from osada.words.game_names import game_name
from shared_rules.warchest import events as evs
from shared_rules.warchest import odds, views

from .names import label


def coins(ms):
    """"archer 2 · royal 1", "—" for none."""
    return " · ".join("%s %d" % (t, ms[t]) for t in sorted(ms) if ms[t]) or "—"


def units(u):
    parts = []
    for t in sorted(u):
        stacks = u[t]
        if len(stacks) == 1:
            parts.append("%s %d" % (t, stacks[0]))
        else:
            parts += ["%s #%d: %d" % (t, i + 1, h) for i, h in enumerate(stacks)]
    return " · ".join(parts) or "—"


def side_name(g, s):
    if g.players == 2:
        return "player %d" % (s + 1)
    return "team %d+%d" % (s + 1, s + 3)


def round_line(g, owner=False, free=False, app=True):
    """War Chest · round 2 · player 1's action · public view (app=False:
    without the view and the key to press)."""
    parts = [game_name("warchest"), "round %d" % g.round]
    phase = g.phase()
    if phase == "over":
        parts.append("game over: %s placed the last control marker and won (W7)" % side_name(g, g.winner))
    elif phase == "draw":
        undrawn = [p for p in range(g.players) if not g.drawn[p]] if not g.round_over() else list(range(g.players))
        who = ", ".join("player %d" % (p + 1) for p in undrawn)
        parts.append(("next round: " if g.round_over() else "") + ("draw (w): " if app else "draw: ") + who)
    else:
        parts.append("player %d's action" % (g.expected() + 1))
    if not app:
        return " · ".join(parts)
    parts.append("owner view" if owner else "public view")
    if free:
        parts.append("FREE maneuver armed (f)")
    return " · ".join(parts)


def _head(g, p):
    v = views.public(g, p)
    left, placed = v["markers"]
    head = "Player %d%s · control markers to place: %d (on the board: %d)" % (
        p + 1, " (team %d)" % (g.side(p) + 1) if g.players == 4 else "", left, placed)
    if v["initiative"]:
        head += " · ★ initiative%s" % (" (claimed this round)" if g.moved else "")
    return v, [head, " · ".join(label(t) for t in v["types"])]


def _odds_rows(types, cols):
    """One row per type: its chance in each column, the columns aligned."""
    cells = [[t] + [odds.text(c[t]) for c in cols] for t in sorted(types)]
    if not cells:
        return []
    widths = [max(len(row[i]) for row in cells) for i in range(len(cells[0]))]
    return ["  " + "  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in cells]


def panel(g, p, owner=False, rounds=2, compact=False):
    """One player's panel.  Public: what anyone at the table can know, with
    the estimated odds of his hand; owner (his coins entered): exact.
    compact (a short window): without the unit types' names and the coins of
    the cycle (the supply and the odds rows name them)."""
    v, lines = _head(g, p)
    if compact:
        lines = lines[:1]
    lines += ["supply     " + coins(v["supply"]),
              "board      " + units(v["units"]),
              "face up    " + coins(v["up"]),
              "box        " + coins(v["box"])]
    exact = owner and g.coins[p].known
    if exact:
        o = views.owner(g, p, rounds)
        lines += ["bag        " + coins(o["bag"]), "hand       " + coins(o["hand"]),
                  "face down  " + coins(o["down"]),
                  "refill in %d coins (%d rounds)" % (v["bag"], v["rounds_to_refill"]),
                  "EXACT: next hand · within %d rounds (the hand counted in the discard)" % rounds]
        lines += _odds_rows(o["next_hand"], [o["next_hand"], o["within"]])
        return "\n".join(lines)
    lines += ["bag %d · hand %d · face down %d · refill in %d coins (%d rounds)"
              % (v["bag"], v["hand"], v["down"], v["to_refill"], v["rounds_to_refill"])]
    if compact:
        lines.append("ESTIMATE, bag+hand+face down as a uniform sample: next hand" + (" · holds now" if v["hand"]
                                                                                     else ""))
    else:
        lines += ["U (bag+hand+face down) " + coins(v["cycle"]),
                  "ESTIMATE, U as a uniform sample: next hand" + (" · holds now" if v["hand"] else "")]
    cols = [v["estimate"]] + ([v["holds"]] if v["hand"] else [])
    lines += _odds_rows(v["cycle"], cols)
    return "\n".join(lines)


def public_event(ev):
    """An event as the table may read it: the coins an owner entered for his
    draws and face-down discards are left out (W24)."""
    shown = dict(ev)
    if ev["e"] in ("draw", "priest_draw"):
        shown["coins"] = None
    if ev["e"] in evs.DOWN:
        shown["coin"] = None
    return evs.text(shown)


def log_lines(g, owner=False, last=12):
    start = max(0, len(g.log) - last)
    return ["%3d  %s" % (i + 1, evs.text(g.log[i]) if owner else public_event(g.log[i]))
            for i in range(start, len(g.log))]


def summary(g):
    """The state at the end of a replay, in a few lines (public: no hidden coin)."""
    out = [round_line(g, app=False)]
    for s in range(2):
        left, placed = g.markers[s]
        out.append("%s: %d control markers to place, %d on the board" % (side_name(g, s).capitalize(), left, placed))
    for p in range(g.players):
        v = views.public(g, p)
        out.append("Player %d: bag %d, hand %d, face down %d, face up %s, board %s, box %s"
                   % (p + 1, v["bag"], v["hand"], v["down"], coins(v["up"]), units(v["units"]), coins(v["box"])))
    return out
