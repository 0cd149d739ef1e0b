"""The end of a game and the series (L22, L23).

L22: a player holding 3 adjacent fields (neighbours in the line) or any 5 wins,
and the game ends at once; only the active player claims, so only one player
can reach it.  L23: in a series the winner scores 5, the loser one point per
field he captured; the winner starts the next game.  How many games a series
has is the players' choice (NOT STATED): the companion only adds up.
"""

from shared_rules.errors import RuleError

FIELDS = 9
SIDES = ("south", "north")
IN_A_ROW = 3
ANY = 5
WIN_POINTS = 5


def other(side):
    return SIDES[1] if side == SIDES[0] else SIDES[0]


def won_by(held):
    """Why fields `held` win (L22): ('adjacent', [i, i+1, i+2]) for the first 3
    in a row, ('any', the fields) for 5 or more, or None."""
    held = sorted(set(held))
    for f in held:
        if all(f + i in held for i in range(IN_A_ROW)):
            return "adjacent", [f + i for i in range(IN_A_ROW)]
    if len(held) >= ANY:
        return "any", held
    return None


def winner(claims):
    """(side, how, fields) of the player who has won, or None.  `claims`:
    {field number: side}.  Both at once cannot happen: the game ends at the
    first win (L22)."""
    found = []
    for side in SIDES:
        why = won_by([f for f, s in claims.items() if s == side])
        if why:
            found.append((side,) + why)
    if len(found) > 1:
        raise RuleError("L22", "both players hold a winning set of fields, but the game ends at the first win")
    return found[0] if found else None


def game_points(win_side, claims):
    """{side: points} of one finished game (L23): 5 for the winner, the loser's captured fields for him."""
    lose = other(win_side)
    return {win_side: WIN_POINTS, lose: sum(1 for s in claims.values() if s == lose)}


def check_game(game, where=""):
    """A finished game of a series: {"winner": side, "loser_fields": 0-4} -> (winner, loser_fields).
    The loser cannot hold 5 fields or 3 in a row (the game would have been his, L22): at most 4."""
    if not isinstance(game, dict) or set(game) - {"winner", "loser_fields"}:
        raise RuleError("format", "a series game is {\"winner\": \"south\" or \"north\", \"loser_fields\": 0-4}"
                                  "%s, not %r" % (where, game))
    win = game.get("winner")
    if win not in SIDES:
        raise RuleError("format", "the winner%s must be south or north, not %r" % (where, win))
    n = game.get("loser_fields", 0)
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise RuleError("format", "loser_fields%s must be a whole number, not %r" % (where, n))
    if n > ANY - 1:
        raise RuleError("L22", "the loser%s cannot hold %d fields: with 5 the game would have been his" % (where, n))
    return win, n


def series_points(games):
    """{side: points} over finished games [(winner, loser_fields)] (L23)."""
    total = {s: 0 for s in SIDES}
    for win, n in games:
        total[win] += WIN_POINTS
        total[other(win)] += n
    return total
