"""The device's round tracker in words (osada_fw/warchest/mode.py): its
counts (the `state` reply's "warchest", the `warchest` event's) as the lines
`osada warchest watch` and the simulator's window print, and each event the
device pushes as one line.  Plain strings from plain data: nothing here
talks to a device."""

from osada.words.game_names import game_name

FACTIONS = ("blue", "red")     # the players' colours on the ring (osada_fw/warchest/view.py)


def _plural(n, word):
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


def round_line(st):
    """'War Chest («Сундук войны») · round 2 · player 1's action · initiative: player 2'."""
    parts = [game_name("warchest"), "round %d" % st["round"]]
    if st.get("winner"):
        parts.append("game over: player %d placed his last control marker and won (W7)" % st["winner"])
    else:
        parts.append("player %d's action" % st["turn"])
    holder = "initiative: player %d" % st["initiative"]
    if st.get("moved"):
        holder += " (claimed this round: not again until the next, W16)"
    parts.append(holder)
    return " · ".join(parts)


def player_line(st, p):
    """'player 1 (blue): 2 of 3 coins in hand · 4 control markers to place · holds the initiative'."""
    q = p - 1
    hand = st["hand"][q]
    marks = st["markers"][q]
    parts = ["player %d (%s): %d of %d coins in hand" % (p, FACTIONS[q], hand, st["hand_size"]),
             "no control marker left to place" if marks == 0 else _plural(marks, "control marker") + " to place"]
    if st["initiative"] == p:
        parts.append("holds the initiative")
    if st.get("turn") == p:
        parts.append("his action")
    return "  " + " · ".join(parts)


def status_lines(st):
    """The round line and one line a player."""
    return [round_line(st)] + [player_line(st, p) for p in range(1, st["players"] + 1)]


def flip_line(st):
    """What the device's flip gave (W6)."""
    return "the device flipped the initiative marker: player %d holds it and acts first (W6)" % st["flipped"]


def event_line(ev, before=None):
    """One line for a pushed {"ev": "warchest"} or {"ev": "refused"} (None
    for other events); `before`: the counts before it, to say what a fix changed."""
    if ev.get("ev") == "refused":
        rule = ev.get("rule")
        return "refused: %s%s (nothing changed)" % ("%s: " % rule if rule else "", ev.get("error"))
    if ev.get("ev") != "warchest":
        return None
    st = ev["warchest"]
    what = ev.get("what")
    if what == "new":
        if st.get("flipped"):
            return "new game: " + flip_line(st)
        return "new game: player %d holds the initiative, as set (not flipped), and acts first" % st["initiative"]
    if what == "undo":
        return "undone: the last change"
    if what == "set":
        return "fixed: " + (", ".join(fixed(before, st)) or "nothing changed") if before else "counts fixed"
    if what == "claim":
        text = "player %d claimed the initiative with a coin (W12, W16): he acts first next round" % ev["player"]
    else:
        text = "player %d's action done" % ev["player"]
    if ev.get("round_ended"):
        text += "; round %d is over, both hands empty (W11): round %d, %d coins each (W8), player %d first" % (
            ev["round_ended"], st["round"], st["hand_size"], st["initiative"])
    return text


def fixed(before, st):
    """What a fix changed, in words: ['player 1's markers to place 4 -> 3', ...]."""
    out = []
    for q in range(st["players"]):
        for key, words in (("markers", "markers to place"), ("hand", "coins in hand")):
            if before[key][q] != st[key][q]:
                out.append("player %d's %s %d -> %d" % (q + 1, words, before[key][q], st[key][q]))
    if before["initiative"] != st["initiative"]:
        out.append("initiative: player %d -> player %d" % (before["initiative"], st["initiative"]))
    if before.get("round") != st["round"]:
        out.append("round %d: both hands empty (W11)" % st["round"])
    return out
