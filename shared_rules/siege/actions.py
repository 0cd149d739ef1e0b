# Actions: parsing the spec's action objects, and a compact binary codec.
#
# The engine works on normalized action tuples (op, a, b):
#   op  index into OPS
#   a   enemy id (hit, kill, hedgehog, push_back, choose) or sector (dot,
#       rebuild, marshal_play's chosen sector, 0 if none) or 0
#   b   card code (hit, kill; 0 = no card named) or, for marshal_play, a tuple
#       of kind indices; 0 otherwise
# The action log keeps them as a few bytes each (ActionLog), so a 300-action
# game costs about a kilobyte on the Pico; the flash journal reuses encode().

from shared_rules.siege.catalog import ARMS, KIND_IDS, kind_index

OPS = ("hit", "kill", "hedgehog", "dot", "push_back", "rebuild", "patrol",
       "move", "reveal", "end_turn", "choose", "marshal_play")
HIT = 0
KILL = 1
HEDGEHOG = 2
DOT = 3
PUSH_BACK = 4
REBUILD = 5
PATROL = 6
MOVE = 7
REVEAL = 8
END_TURN = 9
CHOOSE = 10
MARSHAL_PLAY = 11
PLAYS = (HIT, KILL, HEDGEHOG, DOT, PUSH_BACK, REBUILD, PATROL)   # phase 4

_OP_INDEX = {}
for _i in range(len(OPS)):
    _OP_INDEX[OPS[_i]] = _i
_ENEMY_OPS = (HIT, KILL, HEDGEHOG, PUSH_BACK, CHOOSE)
_SECTOR_OPS = (DOT, REBUILD)

# Card codes: type | arm << 3 | color << 5   (all fit in 7 bits)
CARD_NONE = 0
CARD_STRIKE = 1
CARD_COUNTER = 2
CARD_PRECISE_STRIKE = 3     # precise shot with a strike card
CARD_IL2 = 4
CARD_ALL_FOR_ONE = 5
CARD_COLORS = ("red", "green", "blue", "any")


class ActionError(ValueError):
    """An action that cannot be played as written: 'format' when malformed,
    or the rule id its card breaks whatever the board (R12)."""

    def __init__(self, message, rule="format"):
        super().__init__(message)
        self.rule = rule


def card_arm(code):
    """Arm name of a strike code."""
    return ARMS[(code >> 3) & 3]


def card_color(code):
    return CARD_COLORS[(code >> 5) & 3]


def _color(card, allow_any):
    c = card.get("color")
    if c == "any" and allow_any:
        return 3
    if c in ("red", "green", "blue"):
        return CARD_COLORS.index(c)
    raise ActionError("card color must be red, green, blue%s (got %r)"
                      % (" or any" if allow_any else "", c))


def _strike(card):
    arm = card.get("arm")
    if arm not in ARMS:
        raise ActionError("strike card arm must be air, artillery or tank (got %r)" % (arm,))
    return ARMS.index(arm), _color(card, True)


def parse_card(card):
    """Card object (spec) -> card code."""
    if card is None:
        return CARD_NONE
    if not isinstance(card, dict):
        raise ActionError("card must be an object")
    t = card.get("type", "strike")
    if t == "strike":
        arm, color = _strike(card)
        return CARD_STRIKE | arm << 3 | color << 5
    if t == "counterattack":
        return CARD_COUNTER | _color(card, False) << 5
    if t == "precise_shot":
        inner = card.get("with")
        if not isinstance(inner, dict):
            raise ActionError("precise_shot needs the strike card it is played with, under 'with'")
        code = parse_card(inner)
        ct = code & 7
        if ct == CARD_STRIKE:
            return (code & ~7) | CARD_PRECISE_STRIKE
        if ct == CARD_COUNTER:
            raise ActionError("a precise shot improves a strike card only («Улучшает обычную"
                              " ударную карту»); a counterattack cannot carry it", "R12")
        raise ActionError("precise_shot is played with a strike card")
    if t == "il2":
        return CARD_IL2
    if t == "all_for_one":
        return CARD_ALL_FOR_ONE | _color(card, False) << 5
    raise ActionError("unknown card type %r" % (t,))


def card_dict(code):
    t = code & 7
    if t == CARD_STRIKE:
        return {"arm": card_arm(code), "color": card_color(code)}
    if t == CARD_COUNTER:
        return {"type": "counterattack", "color": card_color(code)}
    if t == CARD_PRECISE_STRIKE:
        return {"type": "precise_shot", "with": card_dict((code & ~7) | CARD_STRIKE)}
    if t == CARD_IL2:
        return {"type": "il2"}
    if t == CARD_ALL_FOR_ONE:
        return {"type": "all_for_one", "color": card_color(code)}
    return None


def _int_field(action, key, lo, hi):
    v = action.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or v < lo or v > hi:
        raise ActionError("%s needs '%s', an integer from %d to %d (got %r)"
                          % (action.get("do"), key, lo, hi, v))
    return v


def parse(action):
    """Spec action object -> normalized tuple (op, a, b); ActionError if malformed."""
    if not isinstance(action, dict):
        raise ActionError("an action is a JSON object with a 'do' field")
    do = action.get("do")
    op = _OP_INDEX.get(do) if isinstance(do, str) else None
    if op is None:
        raise ActionError("unknown action %r; one of: %s" % (action.get("do"), ", ".join(OPS)))
    if op in _ENEMY_OPS:
        a = _int_field(action, "enemy", 1, 65535)
        b = parse_card(action.get("card")) if op <= KILL else 0
        return (op, a, b)
    if op in _SECTOR_OPS:
        return (op, _int_field(action, "sector", 1, 6), 0)
    if op == MARSHAL_PLAY:
        toks = action.get("tokens")
        if not isinstance(toks, list) or len(toks) > 8:
            raise ActionError("marshal_play needs 'tokens', a list of kind ids")
        kinds = []
        for t in toks:
            try:
                kinds.append(kind_index(t))
            except (ValueError, TypeError):
                raise ActionError("unknown enemy kind %r in tokens" % (t,))
        s = 0
        if action.get("sector") is not None:
            s = _int_field(action, "sector", 1, 6)
        return (op, s, tuple(kinds))
    return (op, 0, 0)


def to_dict(t):
    """Normalized tuple -> canonical spec action object."""
    op, a, b = t
    d = {"do": OPS[op]}
    if op in _ENEMY_OPS:
        d["enemy"] = a
        if b:
            d["card"] = card_dict(b)
    elif op in _SECTOR_OPS:
        d["sector"] = a
    elif op == MARSHAL_PLAY:
        d["tokens"] = [KIND_IDS[k] for k in b]
        if a:
            d["sector"] = a
    return d


def encode(t):
    """Normalized tuple -> bytes: op, a (2 bytes), then a card byte or n + kinds."""
    op, a, b = t
    if op == MARSHAL_PLAY:
        return bytes((op, a >> 8, a & 255, len(b))) + bytes(b)
    return bytes((op, a >> 8, a & 255, b))


def decode(buf, pos=0):
    """bytes at pos -> (normalized tuple, next pos); ValueError if truncated/invalid."""
    if pos + 4 > len(buf):
        raise ValueError("truncated action record")
    op = buf[pos]
    a = buf[pos + 1] << 8 | buf[pos + 2]
    b = buf[pos + 3]
    if op >= len(OPS):
        raise ValueError("bad action op %d" % op)
    if op == MARSHAL_PLAY:
        end = pos + 4 + b
        if end > len(buf):
            raise ValueError("truncated action record")
        return (op, a, tuple(buf[pos + 4:end])), end
    return (op, a, b), pos + 4


class ActionLog:
    """The accepted actions of a game, packed (4 bytes each, more for marshal_play)."""

    def __init__(self):
        self.buf = bytearray()
        self.count = 0

    def append(self, t):
        self.buf.extend(encode(t))
        self.count += 1

    def __len__(self):
        return self.count

    def __iter__(self):
        pos = 0
        buf = self.buf
        while pos < len(buf):
            t, pos = decode(buf, pos)
            yield t

    def tuples(self):
        return list(self)

    def dicts(self):
        return [to_dict(t) for t in self]
