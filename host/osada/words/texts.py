"""Words for people: token names as printed, modes and variants by name, line
names, points, one readable line per event.

Every token has its printed name (KINDS): the events' are Russian, as the
rulebook gives them (its sections «Раскрытие новых врагов» and
«События»).  The tanks' and the He-111's printed name is their Latin model name:
the Russian rulebook has no other name for them and writes that very name in its
Russian text («Возьмите три Sd. Kfz. 140/1, два Pz.Kpfw. III и один Tiger E»),
so for them the Latin name IS the Russian name (LATIN_NAMED).  The rulebook sets
"Sd. Kfz." with a space; the tokens print "Sd.Kfz.".  RU_CLASS is
the rulebook's Russian word for each kind of token.  The English glosses say
what the players must do.  Modes and variants (MODES, VARIANTS) carry the
rulebook's Russian name and an English one: label() shows both.
`describe(ev)` turns any message the device pushes ({"ev": ...}) into one line
for the monitor's log."""

from osada.words.game_names import game_name
from shared_rules.siege.catalog import (
    C_BOMBER,
    C_SPECIAL,
    C_TANK,
    KIND_ARMOR,
    KIND_CLASS,
    KIND_INDEX,
    KIND_TROPHY,
    PHASE_REVEAL,
    SECTOR_COLOR,
    opposite,
)

# The words for each kind of token, one row a kind (its rules data and its
# look are its row in shared_rules/siege/catalog.py):
# kind -> (name as printed on the token / in the rulebook, English gloss,
#          short tag for the board picture or None for tokens never on the board)
# Tags: kind + armor makes e.g. "Tgr3"; specials end in "*" before the armor
# ("Maus*3").  Every tag ends in a letter or "*", so the armor digit reads apart.
KINDS = {
    "sdkfz": ("Sd.Kfz. 140/1", "Sd.Kfz. 140/1: light tank, armor 1", "Sdk"),
    "pz3": ("Pz.Kpfw. III", "Pz.Kpfw. III: medium tank, armor 2", "PzIII"),
    "tiger": ("Tiger E", "Tiger E: heavy tank, armor 3", "Tgr"),
    "pz2h": ("Pz.Kpfw. II Ausf. H",
             "Pz.Kpfw. II Ausf. H (special): a tank column: 3 more tokens are revealed", "Pz2H*"),
    "pz4h": ("Pz.Kpfw. IV Ausf. H",
             "Pz.Kpfw. IV Ausf. H (special): every enemy in the sectors of its colour moves one step", "Pz4H*"),
    "maus": ("Maus", "Maus (special): every enemy on the board moves one step", "Maus*"),
    "panther": ("Panther G", "Panther G (special): every damaged enemy regains 1 armor", "Pnth*"),
    "he111": ("He-111", "He-111: the bomber flies across the board, destroying everything "
                        "in its path up to the first wall, dot or building", None),
    "move_red": ("Враги в красных секторах движутся",
                 "Enemies in the red sectors (1-2) move one step", None),
    "move_green": ("Враги в зелёных секторах движутся",
                   "Enemies in the green sectors (3-4) move one step", None),
    "move_blue": ("Враги в синих секторах движутся",
                  "Enemies in the blue sectors (5-6) move one step", None),
    "move_cw": ("Все враги движутся по часовой стрелке",
                "All enemies move one sector clockwise", None),
    "move_ccw": ("Все враги движутся против часовой стрелки",
                 "All enemies move one sector counter-clockwise", None),
    "sabotage_air": ("Диверсия: авиация",
                     "Sabotage: air — every player discards all air strike cards", None),
    "sabotage_artillery": ("Диверсия: артиллерия",
                           "Sabotage: artillery — every player discards all artillery strike cards", None),
    "sabotage_tank": ("Диверсия: танки",
                      "Sabotage: tanks — every player discards all tank strike cards", None),
    "discard_one": ("Все игроки сбрасывают по 1 карте",
                    "Every player discards 1 card of their choice", None),
    "reveal3": ("Раскройте 3 жетона врагов", "Reveal 3 more enemy tokens", None),
    "reveal4": ("Раскройте 4 жетона врагов", "Reveal 4 more enemy tokens", None),
}

# kind -> tag, for the kinds that stand on the board (derived from KINDS)
SHORT = {k: row[2] for k, row in KINDS.items() if row[2]}

# Tokens whose printed name is the Latin model name, which the Russian rulebook
# uses as it is (it gives them no Russian name): the tanks and the bomber.
LATIN_NAMED = frozenset(k for k in KINDS if KIND_CLASS[KIND_INDEX[k]] <= C_BOMBER)

# The rulebook's Russian word for each class of token.
RU_CLASS = {"tank": "вражеский танк", "special": "особый враг", "bomber": "бомбардировщик", "event": "событие"}

# line -> (Russian, English)
LINE_NAMES = {
    "rear": ("тыл", "rear"),
    "air": ("авиационный рубеж", "air line"),
    "artillery": ("артиллерийский рубеж", "artillery line"),
    "tank": ("танковый рубеж", "tank line"),
    "city": ("город", "city"),
}
LINE_SHORT_RU = {"rear": "тыл", "air": "авиация", "artillery": "артиллерия",
                 "tank": "танки", "city": "город"}

COLOR_NAMES = {"red": ("красный", "red"), "green": ("зелёный", "green"), "blue": ("синий", "blue")}

PHASES = {4: "play cards", 5: "enemies move", 6: "reveal", 7: "field marshal"}

# mode / variant id -> (the rulebook's Russian name, English name, what it changes)
MODES = {
    "standard": ("Обычный", "standard", "the rules as they are; trophies count"),
    "shoulder": ("Плечом к плечу", "shoulder to shoulder", "no trophies: every enemy destroyed goes to the discard"),
    "solo": ("Одиночный режим", "solo", "one player: hand limit 6, discard and draw 2"),
    "marshal": ("Фельдмаршал", "field marshal", "one player commands the enemy"),
}
VARIANTS = {
    "caught_off_guard": ("Застали врасплох", "caught off guard", "no walls at the start"),
    "simple_battles": ("Простые битвы", "simple battles", "11 of the hardest tokens out of the pool"),
    "one_for_all": ("Один за всех!", "one for all!", "a counterattack also hits the city of its colour"),
    "all_for_one": ("Все за одного!", "all for one!", "3 strike cards of one colour destroy an enemy"),
    "my_house": ("Мой дом – моя крепость", "my house is my fortress",
                 "each player owns a building; lose it and you are out"),
    "supplies_low": ("Запасы на исходе", "supplies running low", "the card deck only; the engine records it"),
}


PLAYERS_WORDS = "Players (2–6; solo 1; marshal: 1–5 defenders)"     # a new game's players, as its dialogs ask


def label(ident, table=None):
    """«Russian name» (English name) of a mode or variant id; the id itself if unknown."""
    row = (table or (MODES if ident in MODES else VARIANTS)).get(ident)
    return "«%s» (%s)" % (row[0], row[1]) if row else str(ident)


def count(n, one, many):
    """'1 player', '2 players'; an event's field that may be missing or not a
    number reads as it is ('None players' never reads as '1 player')."""
    return "%s %s" % (n, one if n == 1 else many)


def plural_ru(n, one, few, many):
    """Russian plural: 1 очко, 2 очка, 5 очков, 11 очков, 21 очко, 22 очка."""
    if n % 10 == 1 and n % 100 != 11:
        word = one
    elif 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        word = few
    else:
        word = many
    return "%d %s" % (n, word)


def points_text(n, lang="en"):
    """'1 pt', '7 pts'; in Russian '1 очко', '3 очка', '7 очков'."""
    return plural_ru(n, "очко", "очка", "очков") if lang == "ru" else count(n, "pt", "pts")


def ru(kind):
    """The token's name as printed, which is its Russian name: events in
    Russian; tanks and the He-111 by their Latin model name (LATIN_NAMED)."""
    return KINDS.get(kind, (kind, kind))[0]


def ru_class(kind):
    """The rulebook's Russian word for this kind of token (вражеский танк, особый враг, ...)."""
    k = KIND_INDEX.get(kind)
    if k is None:
        return ""
    return RU_CLASS[{C_TANK: "tank", C_SPECIAL: "special", C_BOMBER: "bomber"}.get(KIND_CLASS[k], "event")]


def gloss(kind):
    return KINDS.get(kind, (kind, kind))[1]


def short(kind, armor=None):
    row = KINDS.get(kind)
    tag = row[2] if row is not None and row[2] else kind[:4]
    return tag if armor is None else "%s%d" % (tag, armor)


def is_special(kind):
    k = KIND_INDEX.get(kind)
    return k is not None and KIND_CLASS[k] == C_SPECIAL


def is_enemy(kind):
    k = KIND_INDEX.get(kind)
    return k is not None and KIND_CLASS[k] <= C_SPECIAL


def points(kind):
    k = KIND_INDEX.get(kind)
    return KIND_TROPHY[k] if k is not None else 0


def full_armor(kind):
    k = KIND_INDEX.get(kind)
    return KIND_ARMOR[k] if k is not None else 0


def line_name(line, lang="en"):
    return LINE_NAMES.get(line, (line, line))[0 if lang == "ru" else 1]


def token_line(kind):
    """«Russian name» — English gloss, for events; the plain name for tanks."""
    k = KIND_INDEX.get(kind)
    if k is None:
        return "unknown token %r" % (kind,)
    if KIND_CLASS[k] <= C_BOMBER:
        return gloss(kind)
    return "«%s» — %s" % (ru(kind), gloss(kind))


# ------------------------------------------------------------------ events

def _enemy_name(eid, state, kind=None):
    """'Tiger E #5' (kind from the event, else from the state before it)."""
    if kind is None and state is not None and eid is not None:
        for e in state.get("enemies", ()):
            if e.get("id") == eid:
                kind = e.get("kind")
                break
    if kind is None:
        return "enemy #%s" % (eid,)
    return "%s #%s" % (ru(kind), eid)


def _where(eid, state):
    if state is None:
        return ""
    for e in state.get("enemies", ()):
        if e.get("id") == eid:
            return " (sector %s %s)" % (e.get("sector"), line_name(e.get("line")))
    return ""


def enemy_where(eid, state):
    """'Tiger E #5 (sector 5 artillery line)': an enemy by name, and where it is in `state`."""
    return _enemy_name(eid, state) + _where(eid, state)


_CAUSES = {"play": "by a play", "wall": "attacking a wall", "dot": "attacking a ДОТ (dot)",
           "building": "destroying a building", "he111": "by the He-111", "enemy": "by the enemy"}


def _move(ev, state):
    n = ev.get("count")
    what = "%s %s" % (n, "enemy" if n == 1 else "enemies")
    cause = ev.get("cause")
    if cause == "phase":
        return "  → %s moved one step" % what
    if cause in ("move_cw", "move_ccw"):
        return "  → %s moved one sector %s" % (what, "clockwise" if cause == "move_cw" else "counter-clockwise")
    if cause in KIND_INDEX:
        return "  → %s moved one step (%s)" % (what, ru(cause))
    return "  → %s moved (%s)" % (what, cause)


def _reveal(ev, state):
    kind = ev.get("kind")
    k = KIND_INDEX.get(kind)
    if k is None:
        return "Revealed %s" % (kind,)
    cls = KIND_CLASS[k]
    if cls == C_TANK:
        return "Revealed %s (armor %d) → sector %s rear" % (ru(kind), KIND_ARMOR[k], ev.get("sector"))
    if cls == C_SPECIAL:
        return "Revealed %s (special, armor %d) → sector %s rear: %s" % (
            ru(kind), KIND_ARMOR[k], ev.get("sector"), gloss(kind).split(": ", 1)[-1])
    if cls == C_BOMBER:
        s = ev.get("sector")
        return "Revealed He-111: the die says sector %s — it flies from sector %s towards sector %s" % (
            s, s, opposite(s) if isinstance(s, int) and 1 <= s <= 6 else "?")
    return token_line(kind)


def _he111(ev, state):
    n = len(ev.get("destroyed") or ())
    stop = ev.get("stop")
    at = ev.get("at")
    text = "He-111 from sector %s: destroyed %d %s" % (ev.get("sector"), n, "enemy" if n == 1 else "enemies")
    if stop == "wall":
        text += ", stopped at the wall of sector %s (wall destroyed)" % at
    elif stop == "dot":
        text += ", stopped at the ДОТ on the wall of sector %s (the dot is gone, the wall stands)" % at
    elif stop == "building":
        text += ", stopped at the building of sector %s (building destroyed)" % at
    else:
        text += ", crossed the whole board and left it"
    return text


# What an enemy did when the 1 damage it took for it (R21, R23) was its last armor.
_LAST_DAMAGE = {"wall": "attacked a wall", "dot": "attacked a ДОТ (dot)", "building": "destroyed a building"}


def _damaged(ev, state):
    """An enemy that lost armor but lives: by its own attack (R21, R23) said as the destroyed one is."""
    who = _enemy_name(ev.get("enemy"), state)
    cause = ev.get("cause")
    if cause in _LAST_DAMAGE:
        return "%s %s and took 1 damage: armor %s left" % (who, _LAST_DAMAGE[cause], ev.get("armor"))
    return "%s damaged %s: armor %s left" % (who, _CAUSES.get(cause, "(%s)" % cause), ev.get("armor"))


def _destroyed(ev, state):
    who = _enemy_name(ev.get("enemy"), state, ev.get("kind"))
    cause = ev.get("cause")
    if cause == "play":
        if ev.get("player") is not None:
            return "%s destroyed: trophy for player %s (+%d)" % (who, ev.get("player"), points(ev.get("kind")))
        return "%s destroyed (to the discard: no trophies in this mode)" % who
    if cause in _LAST_DAMAGE:       # the attacker's damage (R21, R23) took its last armor
        return "%s %s and took 1 damage: no armor left, so it is destroyed (to the discard)" % (
            who, _LAST_DAMAGE[cause])
    if cause == "he111":
        return "%s destroyed by the He-111 (to the discard)" % who
    return "%s destroyed (%s)" % (who, cause)


def _won(ev, state):
    text = "WON — the pool is empty and no enemy is left (%s)" % ev.get("rule", "R51")
    rank = ev.get("ranking")
    if rank:
        text += "; ranking: " + ", ".join("player %s %s (%s, %s)" % (
            p, points_text(pts), points_text(pts, "ru"), count(n, "trophy", "trophies")) for p, pts, n in rank)
    return text


def _lost(ev, state):
    if ev.get("rule") == "R62":
        return "LOST — every player's house is destroyed (R62)"
    return "LOST — the last building has fallen (%s)" % ev.get("rule", "R50")


def _setup(ev, state):
    mode = ev.get("mode", "standard")
    return "New game: %s, mode %s; hand limit %s, trades %s, discard-and-draw %s" % (
        count(ev.get("players"), "player", "players"), label(mode, MODES), ev.get("hand_limit"), ev.get("trades"),
        ev.get("discard_draw"))


def _no_reveal(ev, state):
    """After a patrol the reveal phase reveals nothing (R17): say so, or the log stops at "Phase 6: reveal"."""
    if ev.get("phase") == PHASE_REVEAL and isinstance(state, dict) and state.get("patrol"):
        return " — nothing is revealed this turn: the patrol was played (R17)"
    return ""


SOURCES = {"buttons": " (from the board's buttons)", "keys": " (from a key: the board's button it presses)"}


def _refused(ev, state):
    rule = ev.get("rule")
    src = SOURCES.get(ev.get("source"), "")
    return "Refused%s%s: %s" % (" by " + rule if rule else "", src, named_enemies(ev.get("error", ""), state))


def named_enemies(text, state):
    """A refusal of the rules core ("enemy 13 is in the rear") with each enemy by
    its name as everything else says it ("Tiger E #13 is in the rear"); one not
    on the board in `state` as "enemy #13".  "enemy N" as words of their own, found
    without `re` (MicroPython's has no \\b, and the page with no host says it too)."""
    text, out, at = str(text), [], 0
    word = lambda k: 0 <= k < len(text) and (text[k].isalpha() or text[k].isdigit() or text[k] == "_")  # noqa: E731
    while text.find("enemy ", at) >= 0:
        i = j = text.find("enemy ", at) + 6
        while j < len(text) and text[j].isdigit():
            j += 1
        whole = j > i and not word(i - 7) and not word(j)
        out += [text[at:i - 6], _enemy_name(int(text[i:j]), state)] if whole else [text[at:j]]
        at = j
    return "".join(out) + text[at:]


def _victory(ev):
    """Victory Day's toss on the device (osada_fw/victory/): who starts (V8)."""
    starter = ev.get("starter")
    if starter is None:
        return "Victory Day's toss: ready, seat %s plays the USSR (%s)" % (ev.get("ussr"), ev.get("did"))
    side = "USSR" if starter == ev.get("ussr") else "Germany"
    how = "the lot" if ev.get("game") == 1 else "alternating, V8"
    return "Victory Day: game %s, seat %s (%s) starts: %s" % (ev.get("game"), starter, side, how)


_WARCHEST_DID = {"action": "player %s's action done", "claim": "player %s claimed the initiative (W16)",
                 "undo": "undone", "new": "a new game, the initiative flipped (W6)", "set": "a count fixed"}


def _warchest(ev):
    """War Chest's round tracker on the device (osada_fw/warchest/)."""
    what = _WARCHEST_DID.get(ev.get("what"), str(ev.get("what")))
    if "%s" in what:
        what = what % ev.get("player")
    return "War Chest: %s%s" % (what, "; the round ended" if ev.get("round_ended") else "")


def kept_words(kept):
    """Where a damaged save's bytes are kept, for the sentence after what was lost."""
    if kept == "flash":
        return " — its bytes are kept on the board's flash (osada journal save FILE copies them)"
    if kept:
        return " — its bytes are kept in %s" % kept
    return ""


def _boot(ev, state):
    text = "The device started: %s (%s)" % (
        "game restored from its journal" if ev.get("restored") else "a new game",
        count(ev.get("seq"), "action", "actions"))
    if ev.get("lost"):
        text += "; the saved game could not be read back (%s)" % ev["lost"]
    if ev.get("journal"):
        text += "; NOT SAVED: %s" % ev["journal"]
    return text


def _sector_with_color(s):
    if isinstance(s, int) and 1 <= s <= 6:
        return "sector %d (%s)" % (s, SECTOR_COLOR[s])
    return "sector %s" % (s,)


def _tank_roll(ev):
    """A «Кубики» roll (the device runs Tank battle) with the odds of its result."""
    from osada.words import tank_rolls
    return "%s — %s" % (tank_rolls.describe(ev), tank_rolls.odds_line(ev))


_EVENTS = {
    "setup": _setup,
    "hit": lambda ev, st: "Hit %s%s: %s" % (_enemy_name(ev.get("enemy"), st), _where(ev.get("enemy"), st),
                                            "no armor left" if ev.get("armor") == 0 else
                                            "armor %s left" % ev.get("armor")),
    "kill": lambda ev, st: "IL-2 / precise shot: %s%s destroyed outright" % (
        _enemy_name(ev.get("enemy"), st), _where(ev.get("enemy"), st)),
    "damaged": _damaged,
    "destroyed": _destroyed,
    "hedgehog": lambda ev, st: "Противотанковые ежи (hedgehog) on %s%s: it does not move this turn" % (
        _enemy_name(ev.get("enemy"), st), _where(ev.get("enemy"), st)),
    "dot": lambda ev, st: "ДОТ (dot) placed on the wall of %s" % _sector_with_color(ev.get("sector")),
    "push_back": lambda ev, st: "Натиск (push back): %s back to the rear of sector %s" % (
        _enemy_name(ev.get("enemy"), st), ev.get("sector")),
    "rebuild": lambda ev, st: "Wall rebuilt in %s (sandbags + barbed wire)" % _sector_with_color(ev.get("sector")),
    "patrol": lambda ev, st: "Патруль (patrol): no tokens are revealed this turn",
    "end_turn": lambda ev, st: "Player %s ends the turn" % ev.get("player"),
    "phase": lambda ev, st: "Phase %s: %s%s" % (ev.get("phase"), PHASES.get(ev.get("phase"), "?"), _no_reveal(ev, st)),
    "move": _move,
    "wall_destroyed": lambda ev, st: "Wall of %s destroyed %s" % (
        _sector_with_color(ev.get("sector")), _CAUSES.get(ev.get("cause"), "")),
    "dot_destroyed": lambda ev, st: "ДОТ on the wall of %s destroyed %s (the wall stands)" % (
        _sector_with_color(ev.get("sector")), _CAUSES.get(ev.get("cause"), "")),
    "building_destroyed": lambda ev, st: "Building of %s destroyed %s" % (
        _sector_with_color(ev.get("sector")), _CAUSES.get(ev.get("cause"), "")),
    "reveal": _reveal,
    "he111": _he111,
    "repaired": lambda ev, st: "Panther G: %s 1 armor" % (
        "1 damaged enemy regains" if ev.get("count") == 1 else "%s damaged enemies regain" % ev.get("count")),
    "pool_empty": lambda ev, st: "The pool is empty: nothing more to reveal",
    "marshal_draw": lambda ev, st: "The field marshal draws %s" % count(ev.get("count"), "token", "tokens"),
    "marshal_play": lambda ev, st: "The field marshal plays: %s" % (
        ", ".join(ru(k) for k in ev.get("tokens") or ()) or "nothing"),
    "player_out": lambda ev, st: "Player %s is out: their house is destroyed (R62)" % ev.get("player"),
    "turn": lambda ev, st: "— Turn %s: player %s —" % (ev.get("turn"), ev.get("player")),
    "won": _won,
    "lost": _lost,
    "refused": _refused,
    "error": lambda ev, st: "Error%s: %s" % (SOURCES.get(ev.get("source"), ""), ev.get("error", "")),
    # the firmware's and the protocol's own
    "boot": _boot,
    "journal": lambda ev, st: ("The game is saved to flash again" if ev.get("saved") else
                               "NOT SAVED: %s. The game goes on; the device retries with every action"
                               % ev.get("status")),
    "undo": lambda ev, st: ("Undo: the game the new game replaced is back (%s)" % count(ev.get("seq"), "action",
                                                                                          "actions")
                            if ev.get("game_back") else "Undo: back to action %s%s" % (
                                ev.get("seq"), "; the table has seen the tokens and dice that came out, and "
                                "they come out the same again (R30)" if ev.get("seen") else "")),
    "roll": lambda ev, st: _tank_roll(ev) if "test" in ev else "Free die roll: %s" % ev.get("value"),
    "game": lambda ev, st: "The device now runs %s" % game_name(ev.get("game")),
    "victory": lambda ev, st: _victory(ev),
    "warchest": lambda ev, st: _warchest(ev),
    "line_timeout": lambda ev, st: "The device dropped an unfinished request (%s, no line end "
                                   "within 2 s)" % count(ev.get("bytes"), "byte", "bytes"),
    "overflow": lambda ev, st: "The device dropped %s (the host was slow): resyncing" % count(
        ev.get("dropped"), "line", "lines"),
    "state": lambda ev, st: "State #%s" % ev.get("seq"),
    "selftest": lambda ev, st: ("LED self-test done" if ev.get("done") else
                                "LED self-test: LED %s lit (sector %s, %s)" % (ev.get("led"), ev.get("sector"),
                                                                              ev.get("line"))),
}

EVENT_NAMES = frozenset(_EVENTS)


def describe(ev, state=None):
    """One readable line for a pushed event.  `state` is the state before the
    event (to name the enemies events give only by id)."""
    name = ev.get("ev")
    fn = _EVENTS.get(name)
    if fn is None:
        return "%s: %s" % (name, ", ".join("%s=%s" % (k, v) for k, v in ev.items() if k != "ev"))
    try:
        return fn(ev, state)
    except (TypeError, ValueError, KeyError):        # a malformed event still gets a line
        return "%s: %r" % (name, ev)

