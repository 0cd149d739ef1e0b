"""The game panel: the game at a glance, the trophies, what the game waits
for (with the keys for it), the marshal's hand, the cursor."""

from rich.text import Text

from osada.words import table, texts
from osada.words.table import phase_text, trophy_points
from shared_rules.siege.catalog import LINES, SECTOR_COLOR

from .keys import DAMAGE_HINTS, EXTRA_HINTS, KEYMAP, MARSHAL_HINTS, hints, keys_for


def page_name(action):
    """An action as the table's page offers it: its button's name (KEYMAP's short name), quoted."""
    return "“%s”" % next(row[3] for row in KEYMAP if row[1] == action)


def next_text(st, stale=False, page=False):
    """What to do next, one line (osada.words.table.next_text), every key from KEYMAP; page: the
    table's page's words (its buttons and taps, no keys)."""
    return table.next_text(st, page_name if page else keys_for, stale, page)


def _info_game(t, st, setup, stale, compact=False):
    """The game at a glance: turn, player, phase, pool, buildings and walls,
    the mode and variants (once the setup is known), who is out.  Compact:
    no mode and variants (the new-game dialog has them)."""
    if stale:
        t.append("STALE (last board seen)\n", style="bold black on #d0a000")
    outcome = st.get("outcome")
    if outcome != "playing":
        t.append("GAME %s\n" % outcome.upper(), style="bold white on " + ("#1d6b2a" if outcome == "won"
                                                                         else "#8b1a1a"))
    players = len(st.get("trophies") or {}) or 1
    t.append("Turn %s" % st.get("turn"), style="bold")
    t.append(" · player %s of %s\n" % (st.get("player"), players))
    t.append(phase_text(st).capitalize() + "\n", style="bold #7fd7ff")
    t.append("Next: ", style="bold #a0ffa0")
    t.append(next_text(st, stale) + "\n", style="#a0ffa0")
    t.append("Pool %s · discard %d · reveals due %s\n" % (st.get("pool"), len(st.get("discard", ())),
                                                         st.get("reveals", 0)))
    if st.get("patrol"):
        t.append("PATROL: no reveals this turn\n", style="bold #7fd7ff")
    t.append("Buildings %d/6 · walls %d · dots %d\n" % (
        len(st.get("buildings", ())), len(st.get("walls", ())), len(st.get("dots", ()))))
    if setup and not compact:
        mode = setup.get("mode", "standard")
        t.append("Mode %s\n" % texts.label(mode, texts.MODES))
        vs = setup.get("variants") or []
        t.append("Variants: %s%s\n" % (", ".join(texts.label(v, texts.VARIANTS) for v in vs) if vs else "none",
                                       " · seed %s" % setup["seed"] if "seed" in setup else ""), style="dim")
    if st.get("out"):
        t.append("Out (house destroyed): %s\n" % ", ".join("P%s" % p for p in st["out"]), style="#ff7070")


def _info_trophies_line(t, st):
    """Compact: every player's points on one line, the player to move marked."""
    t.append("Trophies", style="bold")
    for p, kinds in sorted((st.get("trophies") or {}).items(), key=lambda kv: int(kv[0])):
        me = int(p) == st.get("player")
        t.append(" %sP%s %d" % ("▸" if me else "", p, trophy_points(kinds)), style="bold" if me else "")
    t.append(" pts\n")


def _info_trophies(t, st):
    """Each player's trophies and points; the player to move marked."""
    t.append("\nTrophies\n", style="bold underline")
    for p, kinds in sorted((st.get("trophies") or {}).items(), key=lambda kv: int(kv[0])):
        counts = {}
        for k in kinds:
            counts[k] = counts.get(k, 0) + 1
        listing = ", ".join(texts.ru(k) + (" ×%d" % n if n > 1 else "")      # the tokens' printed names
                            for k, n in sorted(counts.items())) or "—"
        me = int(p) == st.get("player")
        t.append("%sP%s %7s  " % ("▸" if me else " ", p, texts.points_text(trophy_points(kinds))),
                 style="bold" if me else "")
        t.append(listing + "\n", style="dim")


def _info_damage_choice(t, st, pend, cand_i):
    """The pending damage choice: why, and the candidates (the marked one, cand_i, first)."""
    cause = {"wall": "they broke the wall", "dot": "they broke the ДОТ",
             "building": "they destroyed the building"}.get(pend.get("cause"), pend.get("cause"))
    t.append("Which enemy takes 1 damage? (%s of sector %s)\n" % (cause, pend.get("sector")))
    by_id = {e["id"]: e for e in st.get("enemies", ())}
    for i, eid in enumerate(pend.get("candidates") or ()):
        e = by_id.get(eid)
        name = "%s #%s, armor %s" % (texts.ru(e["kind"]), eid, e["armor"]) if e else "#%s" % eid
        mark = "▸" if i == cand_i else " "
        t.append("%s%d) %s\n" % (mark, i + 1, name), style="bold" if i == cand_i else "")
    t.append(hints(DAMAGE_HINTS) + "\n", style="dim")


def _info_to_do(t, st, cand_i, gap="\n"):
    """What the game waits for, if anything out of the ordinary: a pending
    choice, or the field marshal's turn; with the keys for it."""
    pend = st.get("pending")
    if pend:
        t.append(gap + "Pending choice\n", style="bold black on #d050d0")
        if pend.get("choice") == "damage":
            _info_damage_choice(t, st, pend, cand_i)
        elif pend.get("choice") == "marshal_extra":
            t.append("The field marshal may play up to %s token(s) from his hand, placed by die rolls\n"
                     % pend.get("count"))
            t.append(hints(EXTRA_HINTS) + "\n", style="dim")
    elif (("marshal_hand" in st or "marshal_hand_count" in st) and st.get("phase") == 7
          and st.get("outcome") == "playing"):
        t.append(gap + "Field marshal's turn (phase 7)\n", style="bold black on #d050d0")
        if st.get("patrol"):
            t.append("Patrol (R17): he only moves the enemies — %s ends the turn\n" % keys_for("end_turn"))
        else:
            t.append("He plays one tank (into a sector he chooses), two tokens, or nothing (R60)\n")
            t.append(hints(MARSHAL_HINTS) + "\n", style="dim")


def _info_marshal_hand(t, st, gap="\n"):
    """The field marshal's hand and what of it is being resolved (marshal mode only); where
    it is not for this screen (osada.web.roles), how many tokens it holds."""
    if "marshal_hand_count" in st:
        n = st["marshal_hand_count"]
        t.append(gap + "Field marshal's hand: %s, his alone\n" % texts.count(n, "token", "tokens"),
                 style="bold underline")
        return
    if "marshal_hand" not in st:
        return
    t.append(gap + "Field marshal's hand\n", style="bold underline")
    for k in st["marshal_hand"]:
        t.append(" %s — %s (%s)\n" % (texts.ru(k), texts.ru_class(k), k))
    if not st["marshal_hand"]:
        t.append(" (empty)\n", style="dim")
    if st.get("marshal_queue"):
        t.append(" being resolved: %s\n" % ", ".join(texts.ru(k) for k in st["marshal_queue"]), style="dim")


def _info_cursor(t, cursor, e, gap="\n"):
    """The cursor's cell, and the selected enemy e (or None) in it."""
    s, li = cursor
    t.append(gap + "Cursor: sector %d (%s) · %s\n" % (s, SECTOR_COLOR[s], texts.line_name(LINES[li])),
             style="bold #ffd24a")
    if e:
        t.append(" %s #%s, armor %s%s\n" % (texts.ru(e["kind"]), e["id"], e["armor"],
                                             ", under the hedgehog" if e.get("held") else ""))


def info_text(st, setup=None, stale=False, cand_i=0, cursor=(1, 1), selected=None, compact=False):
    """The game panel: the game, the trophies, what it waits for, the
    marshal's hand, the cursor (and the selected enemy in its cell).
    Compact (a short window): no blank lines, no mode and variants, the
    trophies as one line of points; a pending choice first after the turn."""
    t = Text()
    if st is None:
        t.append("no game yet\n", style="italic")
        return t
    if compact and st.get("pending"):     # the choice the game waits for, and little else
        t.append("Turn %s · player %s · phase %s\n" % (st.get("turn"), st.get("player"), st.get("phase")),
                 style="bold")
        _info_to_do(t, st, cand_i, gap="")
        return t
    if compact:
        _info_game(t, st, setup, stale, compact=True)
        _info_to_do(t, st, cand_i, gap="")
        _info_trophies_line(t, st)
        _info_cursor(t, cursor, selected, gap="")
        _info_marshal_hand(t, st, gap="")
        return t
    _info_game(t, st, setup, stale)
    _info_trophies(t, st)
    _info_to_do(t, st, cand_i)
    _info_marshal_hand(t, st)
    _info_cursor(t, cursor, selected)
    return t


def forecast_text(live, st, setup, compact=False):
    """The threat forecast (live: a live_forecast.LiveForecast or None): for
    this very state only, bounds first and exact when ready; else what it
    waits for.  Compact: one line, L and E."""
    t = Text()
    res = live.current(st, setup) if live is not None else None
    if res is None:
        why = live.why if live is not None else "no game yet"
        t.append("Forecast: %s (%s hides)" % (why or "being worked out…", keys_for("forecast")), style="dim")
        return t
    if compact:
        t.append("\n".join(res.summary()), style="#c0a0ff")
        return t
    lines = res.lines()
    t.append(lines[0] + "\n", style="bold")
    t.append(lines[1] + "\n", style="dim")
    for line in lines[2:-1]:
        t.append(line + "\n")
    t.append(lines[-1] + "\n", style="dim")
    t.append(" %s hides" % keys_for("forecast"), style="dim")
    return t
