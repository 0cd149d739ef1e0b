"""The table's page in words: the facts a page lists beside Siege's picture.  One
home for both kinds of page: the host's (osada.web.render makes every snapshot's
facts here) and the page with no host, whose device is the firmware in
MicroPython's WebAssembly VM (issue 63): the static site runs this very module in
that VM (osada.site.reader), so a browser-only game says its facts in the host's
words.

It runs unchanged on CPython and on MicroPython (tests/mpy/table_words.py runs it
on both and compares), as the rest of osada.words but board_text does: no `re`,
no Rich, nothing host-only is imported.

    phase_text, trophy_points, next_text   pieces the monitor's panel shares
    siege_facts(seen, name, stale)  [(label, words)] of a Siege state as a role may
                                    see it (osada.web.roles decides; the page with
                                    no host: shared_rules.siege.public.table_state);
                                    facts() the same for none yet, or a broken one
"""

from osada.words import texts

# What the cards at the table do here: the actions of phase 4 (R10–R17)
CARD_ACTIONS = ("hit", "kill", "hedgehog", "push_back", "dot", "rebuild", "patrol")
EVENTS = 14               # the last events a page lists, newest first


def phase_text(state):
    ph = state.get("phase")
    return "phase %s — %s" % (ph, texts.PHASES.get(ph, "?"))


def trophy_points(kinds):
    return sum(texts.points(k) for k in kinds)


def next_text(st, k, stale=False, page=False):
    """What to do next, one line, from the state: phase 4 is the cards at the
    table and then their keys, a pending choice says what to choose, phase 7 is
    the marshal's play, a finished game a new one.  k(action): how the action is
    named (the monitor's keys, or the page's buttons); page: the table's page's
    words (its buttons and taps, no keys)."""
    pend = st.get("pending") or {}
    if stale:
        return "the board is not connected: plug it in (or start the simulator) and this reconnects"
    if st.get("outcome", "playing") != "playing":
        return "%s starts a new game" % ("“New game…”" if page else k("new_game"))
    if pend.get("choice") == "damage":
        if page:
            return "choose which enemy takes the damage: tap a lit one, then “choose it”"
        return "choose which enemy takes the damage: %s marks the next, %s takes the marked one" % (
            k("next_enemy"), k("choose"))
    if pend.get("choice") == "marshal_extra":
        return "the field marshal's extra play, up to %s: %s" % (
            texts.count(pend.get("count"), "token", "tokens"), "on his own page" if page else k("marshal"))
    phase = st.get("phase")
    if phase == 7:
        if st.get("patrol"):
            return "%s ends the turn (a patrol: the marshal only moved the enemies)" % k("end_turn")
        if page:
            return "the field marshal plays from his hand, on his own page (his PIN)"
        return "the field marshal plays from his hand: %s" % k("marshal")
    if phase in (5, 6):
        if st.get("reveals"):
            return "%s reveals the next token (%s due), or %s reveals them all and ends the turn" % (
                k("reveal"), st.get("reveals"), k("end_turn"))
        return "%s ends the turn" % k("end_turn")
    if page:
        return "play your cards at the table, then tap the enemy or the wall each is for; %s ends the turn" % (
            k("end_turn"))
    return "play your cards at the table, then %s here; %s ends the turn" % (
        "/".join(k(a) for a in CARD_ACTIONS), k("end_turn"))


def siege_facts(seen, name, stale=False):
    """[(label, words)]: Siege's essentials as plain text (readable on a phone, for a screen
    reader), from `seen`, the state as the page's role may see it: the field marshal's hand as
    its tokens to him, as `marshal_hand_count` to the others.  name(action): the page's button."""
    out = []
    if seen.get("outcome", "playing") != "playing":
        out.append(("Game", "%s (turn %s)" % (str(seen.get("outcome")).upper(), seen.get("turn"))))
    players = len(seen.get("trophies") or {}) or 1
    out.append(("Turn", "%s · player %s of %s" % (seen.get("turn"), seen.get("player"), players)))
    out.append(("Phase", _capital(phase_text(seen))))
    pend = seen.get("pending") or {}
    if pend:
        what = str(pend.get("choice", "?")).replace("_", " ")
        if pend.get("choice") == "damage":
            what = "which enemy takes the damage: candidates %s" % ", ".join(
                "#%s" % e for e in pend.get("candidates") or ())
        out.append(("Pending", what))
    out.append(("Next", next_text(seen, name, stale, page=True)))
    out.append(("Walls · ДОТ · buildings", "%d · %d · %d of 6" % (
        len(seen.get("walls", ())), len(seen.get("dots", ())), len(seen.get("buildings", ())))))
    out.append(("Trophies", " · ".join(
        "%sP%s %s" % ("▸" if int(p) == seen.get("player") else "", p, texts.points_text(trophy_points(kinds)))
        for p, kinds in sorted((seen.get("trophies") or {}).items(), key=lambda kv: int(kv[0])))))
    if "marshal_hand_count" in seen:
        out.append(("Field marshal's hand", "%s, his alone" % texts.count(seen["marshal_hand_count"], "token",
                                                                          "tokens")))
    elif "marshal_hand" in seen:
        out.append(("Field marshal's hand", ", ".join("%s (%s)" % (texts.ru(k), texts.ru_class(k))
                                                      for k in seen["marshal_hand"]) or "empty"))
    return out


def facts(seen, name, stale=False):
    """siege_facts of a state (None: none yet), or one line why it cannot be said: what a page
    lists, the host's (osada.web.render) and the one with no host (osada.site.reader)."""
    if not seen:
        return [("Game", "waiting for the board")]
    try:
        return siege_facts(seen, name, stale)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        return [("", "the board cannot be put in words: %s" % exc)]


def _capital(text):
    """str.capitalize's first letter (MicroPython's str has no capitalize)."""
    return text[:1].upper() + text[1:]
