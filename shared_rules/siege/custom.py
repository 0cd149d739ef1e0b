# Scenario-supplied boards, pools and houses: validation and placement.
#
# Only scenario files (tests, replays, `osada scenario`) give these; a game
# started at the table uses the standard setup (R1, R2).  Kept out of
# newgame.py so the Pico does not load this code unless it is needed.

from shared_rules.errors import bad, need_int
from shared_rules.siege.catalog import C_SPECIAL, CITY, KIND_ARMOR, KIND_CLASS, KIND_IDS, LINES, kind_index


def _kind(name):
    try:
        return kind_index(name)
    except (ValueError, TypeError):
        return None


def _sectors(v, what):
    if not isinstance(v, list):
        bad("format", "board.%s must be a list of sectors 1-6" % what)
    flags = [0] * 7
    for s in v:
        need_int(s, 1, 6, "a sector in board.%s" % what)
        flags[s] = 1
    return flags


def place_board(game, board):
    """Set up game's walls, dots, buildings and enemies from a scenario board."""
    if not isinstance(board, dict):
        bad("format", "board must be an object")
    for k in board:
        if k not in ("walls", "dots", "buildings", "enemies"):
            bad("format", "unknown board key %r" % (k,))
    game.walls = _sectors(board.get("walls", []), "walls")
    game.dots = _sectors(board.get("dots", []), "dots")
    game.buildings = _sectors(board.get("buildings", []), "buildings")
    if sum(game.dots) > 2:
        bad("format", "R14: at most 2 dots")
    for s in range(1, 7):
        if game.dots[s] and not game.walls[s]:
            bad("format", "R14: a dot in sector %d needs a wall there" % s)
    enemies = board.get("enemies", [])
    if not isinstance(enemies, list):
        bad("format", "board.enemies must be a list")
    for e in enemies:
        if not isinstance(e, dict):
            bad("format", "each board enemy is an object {kind, sector, line, armor?}")
        k = _kind(e.get("kind"))
        if k is None or KIND_CLASS[k] > C_SPECIAL:       # only tanks and specials stand on the board
            bad("format", "board enemy kind must be a tank or special enemy (got %r)" % (e.get("kind"),))
        s = need_int(e.get("sector"), 1, 6, "board enemy sector")
        line = e.get("line")
        if line not in LINES:
            bad("format", "board enemy line must be one of %s (got %r)" % (", ".join(LINES), line))
        line = LINES.index(line)
        armor = e.get("armor", KIND_ARMOR[k])
        need_int(armor, 1, KIND_ARMOR[k], "%s armor" % KIND_IDS[k])
        if line == CITY and game.buildings[s]:
            bad("format", "R23: an enemy cannot stand in the city of sector %d while its building stands" % s)
        en = game.place(k, s, line, armor)
        if e.get("held"):
            if game.hedgehog:
                bad("format", "R13: only one enemy can be under the hedgehog")
            game.hedgehog = en.id


def pool_tokens(pool):
    """A scenario pool (top first) as kind indices with the top at the end."""
    if not isinstance(pool, list):
        bad("format", "pool must be a list of kind ids, top first")
    toks = []
    for name in pool:
        k = _kind(name)
        if k is None:
            bad("format", "unknown token kind %r in pool" % (name,))
        toks.append(k)
    toks.reverse()
    return toks


def set_houses(game, houses):
    """R62: the building sector each player owns, [p1, p2, ...]."""
    if not isinstance(houses, list) or len(houses) != game.players:
        bad("format", "houses must list one building sector per player (R62)")
    seen = [0] * 7
    for p in range(game.players):
        b = need_int(houses[p], 1, 6, "a house sector")
        if seen[b]:
            bad("format", "R62: two players cannot own the building of sector %d" % b)
        seen[b] = 1
        game.houses[p + 1] = b
