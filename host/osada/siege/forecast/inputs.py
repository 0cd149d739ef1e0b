"""F1, F2: the forecast's input, read from the engine's state JSON (with
`pool_kinds`, FA1) and the game's setup (mode, variants, houses) -- and
nothing else: never the pool's order, the seed, the generator's state or a
scenario's `rolls` (the state JSON does not carry them, and no other key is
read).  Refusals (ForecastError): a state that is not "the turn could end
now" (F1), a field marshal's game (FA5), a state without pool_kinds (FA1).
"""

from osada.siege.forecast.model import (
    FULL,
    KIND_OF,
    NKINDS,
    PLACED,
    code,
    sectors_bits,
)
from shared_rules.siege.catalog import LINES, MODES


class ForecastError(ValueError):
    """The forecast refuses this input; `rule` names why (F1, FA1, FA5, format)."""

    def __init__(self, rule, message):
        super().__init__("%s: %s" % (rule, message))
        self.rule = rule
        self.message = message


class Public:
    """The public state a forecast starts from.

    board      walls | dots << 6 | buildings << 12 (model.py)
    groups     {cell: members tuple}, the enemy under the hedgehog left out (R13, FA4, F9 b)
    counts     the pool by forecast kind (model.KIND_OF), 16 ints
    due        reveals phase 6 will make: 2, or 0 after a patrol (R17)
    lossmask   buildings whose fall together loses the game (R50; R62 under my_house, FA6)
    """

    def __init__(self, board, groups, counts, due, lossmask):
        self.board = board
        self.groups = groups
        self.counts = counts
        self.due = due
        self.lossmask = lossmask


def _bad(rule, message):
    raise ForecastError(rule, message)


def _sectors(state, key):
    v = state.get(key, [])
    if not isinstance(v, list) or any(not isinstance(s, int) or isinstance(s, bool) or not 1 <= s <= 6 for s in v):
        _bad("format", "the state's %s must be a list of sectors 1-6" % key)
    return sectors_bits(v)


def _moment(state, setup):
    if not isinstance(state, dict):
        _bad("format", "a state is a JSON object (the engine's state)")
    mode = (setup or {}).get("mode", state.get("mode", "standard"))
    if mode == "marshal" or "marshal_hand" in state:
        _bad("FA5", "no forecast in a field marshal's game: his play is a secret choice from a hidden hand")
    if mode not in MODES:
        _bad("format", "unknown mode %r" % (mode,))
    if state.get("outcome") != "playing":
        _bad("F1", "the game is over (%s): there is no enemy phase to come" % (state.get("outcome"),))
    if state.get("phase") != 4:
        _bad("F1", "the forecast is for phase 4 (the turn could end now); this state is in phase %s"
             % (state.get("phase"),))
    if state.get("pending") is not None:
        _bad("F1", "a choice is pending: answer it first")


def _counts(state):
    kinds = state.get("pool_kinds")
    if not isinstance(kinds, dict):
        _bad("FA1", "the state has no pool_kinds (the pool's counts by kind)")
    counts = [0] * NKINDS
    total = 0
    for name, n in kinds.items():
        if name not in KIND_OF:
            _bad("format", "unknown token kind %r in pool_kinds" % (name,))
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            _bad("format", "pool_kinds[%r] must be a count" % (name,))
        counts[KIND_OF[name]] += n
        total += n
    if "pool" in state and state["pool"] != total:
        _bad("FA1", "pool_kinds counts %d tokens but the pool holds %s" % (total, state["pool"]))
    return tuple(counts)


def _groups(state):
    enemies = state.get("enemies", [])
    if not isinstance(enemies, list):
        _bad("format", "the state's enemies must be a list")
    groups = {}
    for e in enemies:
        if not isinstance(e, dict):
            _bad("format", "an enemy is an object {kind, sector, line, armor, held}")
        if e.get("held"):
            continue                                   # R13: it moves neither in phase 5 nor by a token
        k = KIND_OF.get(e.get("kind"))
        s, line, armor = e.get("sector"), e.get("line"), e.get("armor")
        if k not in PLACED or line not in LINES or not isinstance(s, int) or not 1 <= s <= 6 \
                or not isinstance(armor, int) or not 1 <= armor <= FULL[k]:
            _bad("format", "not an enemy on the board: %r" % (e,))
        c = LINES.index(line) * 6 + s - 1
        groups[c] = tuple(sorted(groups.get(c, ()) + (code(armor, FULL[k]),)))
    return groups


def _lossmask(state, setup, blds):
    """R50: every building; FA6 (R62, my_house): the houses of the players still in."""
    setup = setup or {}
    if "my_house" not in setup.get("variants", state.get("variants", ())):
        return 0b111111
    players = setup.get("players") or len(state.get("trophies", {})) or 2
    houses = setup.get("houses") or list(range(1, players + 1))
    out = state.get("out", [])
    mask = 0
    for p in range(1, players + 1):
        if p in out:
            continue
        bit = 1 << (houses[p - 1] - 1)
        if not blds & bit:
            return 0b111111                    # a player in whose house is gone already: never all out
        mask |= bit
    return mask or 0b111111


def read(state, setup=None):
    """The Public of an engine state (dict) and its game's setup (dict:
    mode, variants, players, houses; optional).  ForecastError if refused."""
    _moment(state, setup)
    walls, dots, blds = _sectors(state, "walls"), _sectors(state, "dots"), _sectors(state, "buildings")
    if not blds:
        _bad("F1", "no building stands: that is a lost game (R50), not a game in play (a scenario's board "
             "without \"buildings\"?)")
    board = walls | dots << 6 | blds << 12
    counts = _counts(state)
    due = 0 if state.get("patrol") else 2
    return Public(board, _groups(state), counts, due, _lossmask(state, setup, blds))
