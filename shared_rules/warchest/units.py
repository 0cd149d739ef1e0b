# «Сундук войны» (War Chest): the unit types, the fixed sets of the first game
# and the scenarios, and the setup numbers of 2 and 4 players (spec
# docs/rules-war-chest.md, W1-W5, W25, W27, W28).  The coin count of each
# type is printed on its card and not in the rulebook (WA1): CARD_COUNTS are the
# published game's cards, the players may enter others; checked here to sum to
# the rulebook's 74 coins.

from shared_rules.errors import bad

# W28: the 16 types, by the English names of the original game
TYPES = ("archer", "crossbowman", "light_cavalry", "cavalry", "lancer", "knight", "marshall", "ensign",
         "footman", "mercenary", "royal_guard", "warrior_priest", "berserker", "pikeman", "swordsman", "scout")
ROYAL = "royal"                 # the royal coin (W13): one per player, no unit on it
TOTAL_COINS = 74                # W1: 74 unit coins over the 16 types
PRINTED = {"archer": 4}         # W28: the one count the rulebook prints (the archers' card, «x4»)
# the counts the published game's 16 unit cards print: 4 for six types, 5 for the other ten (74 in all, W1)
CARD_COUNTS = {"archer": 4, "cavalry": 4, "knight": 4, "lancer": 4, "pikeman": 4, "swordsman": 4,
               "crossbowman": 5, "light_cavalry": 5, "marshall": 5, "ensign": 5, "footman": 5, "mercenary": 5,
               "royal_guard": 5, "warrior_priest": 5, "berserker": 5, "scout": 5}
START_EACH = 2                  # W4: 2 coins of each of a player's types go into his bag

# W3: the first game's fixed sets; player A (the first) holds the initiative
FIRST_GAME = (("swordsman", "pikeman", "crossbowman", "light_cavalry"),
              ("archer", "cavalry", "lancer", "scout"))
# W27: the scenarios' fixed sets (who holds the initiative: NOT STATED, flip: WA6)
SCENARIOS = {
    "gaugamela": (("knight", "light_cavalry", "pikeman", "marshall"),
                  ("cavalry", "footman", "mercenary", "royal_guard")),
    "bannockburn": (("archer", "cavalry", "lancer", "footman"),
                    ("light_cavalry", "pikeman", "warrior_priest", "swordsman")),
    "crecy": (("archer", "ensign", "knight", "royal_guard"),
              ("cavalry", "crossbowman", "lancer", "scout")),
}

TYPES_EACH = {2: 4, 4: 3}       # W3: 4 cards each with 2 players; W25: 3 with 4
# control markers of a side (a player with 2, a team with 4): (in all, on the starting locations)
MARKERS = {2: (6, 2), 4: (8, 3)}    # W2, W25


def side_of(players, p):
    """The side (player, or team with 4 players) of player p: W25 seats the teams
    alternately, so players 1 and 3 (0 and 2 here) are one team."""
    return p % 2 if players == 4 else p


def check_counts(counts):
    """WA1, W1, W28, W4: a count for each of the 16 types, whole numbers, the
    archers' 4 as printed, at least the 2 a starting bag needs, 74 in all.
    Returns the counts as a new dict."""
    if not isinstance(counts, dict):
        bad("WA1", "the coin counts are a table of type: count")
    out = {}
    for t in counts:
        if t not in TYPES:
            bad("W28", "%r is not a unit type (the types: %s)" % (t, ", ".join(TYPES)))
        n = counts[t]
        if not isinstance(n, int) or isinstance(n, bool):
            bad("WA1", "the count of %s must be a whole number (got %r)" % (t, n))
        if n < START_EACH:
            bad("W4", "%s has %d coins: a starting bag takes %d of each type" % (t, n, START_EACH))
        out[t] = n
    missing = [t for t in TYPES if t not in out]
    if missing:
        bad("WA1", "the coin counts lack %s: enter all 16 from the cards" % ", ".join(missing))
    for t in PRINTED:
        if out[t] != PRINTED[t]:
            bad("W28", "the %s card prints x%d coins, not %d" % (t, PRINTED[t], out[t]))
    total = 0
    for t in out:
        total += out[t]
    if total != TOTAL_COINS:
        bad("W1", "the counts sum to %d coins; the game has %d (check the cards)" % (total, TOTAL_COINS))
    return out


def check_types(players, types):
    """W3, W25: each player's unit types, 4 each with 2 players, 3 with 4; no
    card dealt twice.  Returns them as a list of lists."""
    if players not in TYPES_EACH:
        bad("W3", "War Chest is for 2 or 4 players, not %r" % (players,))
    if not isinstance(types, (list, tuple)) or len(types) != players:
        bad("W3", "give the unit types of each of the %d players" % players)
    need = TYPES_EACH[players]
    seen = []
    out = []
    for p in range(players):
        mine = list(types[p])
        if len(mine) != need:
            bad("W25" if players == 4 else "W3", "player %d has %d unit cards; each has %d with %d players"
                % (p + 1, len(mine), need, players))
        for t in mine:
            if t not in TYPES:
                bad("W28", "%r is not a unit type (the types: %s)" % (t, ", ".join(TYPES)))
            if t in seen:
                bad("W3", "%s is dealt twice: there is one card of each type" % t)
            seen.append(t)
        out.append(mine)
    return out


def preset(name):
    """The fixed sets of a first game ("first", W3) or a scenario (W27), as two lists."""
    if name == "first":
        sets = FIRST_GAME
    elif name in SCENARIOS:
        sets = SCENARIOS[name]
    else:
        bad("W27", "no set named %r (first, %s)" % (name, ", ".join(sorted(SCENARIOS))))
    return [list(sets[0]), list(sets[1])]
