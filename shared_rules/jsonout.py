# Canonical JSON text, byte-identical on CPython and MicroPython.
#
# MicroPython's dict does not keep insertion order and its json.dumps differs
# from CPython's in details, so the state JSON is written here: object keys in
# a fixed order (KEY_ORDER first, then the rest sorted), ", " and ": "
# separators, non-ASCII kept as UTF-8, ints only (the engine has no floats).

KEY_ORDER = (
    # what an object is comes first
    "ev", "do", "id", "ok", "error", "rule", "enemy",
    # state
    "outcome", "turn", "player", "phase", "reveals", "patrol",
    "walls", "dots", "buildings", "enemies", "pool", "discard", "trophies",
    "pending", "out", "marshal_hand", "marshal_queue", "events",
    # enemy
    "kind", "sector", "line", "armor", "held",
    # events, pending, actions
    "choice", "candidates", "cause", "count",
    "card", "type", "arm", "color", "with", "tokens",
)
_RANK = {}
for _i in range(len(KEY_ORDER)):
    _RANK[KEY_ORDER[_i]] = _i

_ESC = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t",
        "\b": "\\b", "\f": "\\f"}


def _rank(k):
    return _RANK[k]


# Encoded strings, by string: the same few dozen (kind ids, line names, event
# names, keys) make up most of a state, so each is escaped once, not on
# every push.  Bounded, so free text (error messages) cannot grow it.
_ENC = {}
_ENC_MAX = 256


def _str(s, out):
    enc = _ENC.get(s)
    if enc is not None:
        out.append(enc)
        return
    part = []
    _escape(s, part)
    enc = "".join(part)
    if len(_ENC) < _ENC_MAX and len(s) <= 24:
        _ENC[s] = enc
    out.append(enc)


def _escape(s, out):
    out.append('"')
    start = 0
    n = len(s)
    i = 0
    while i < n:
        c = s[i]
        if c in _ESC or c < " ":
            if start < i:
                out.append(s[start:i])
            out.append(_ESC.get(c) or "\\u%04x" % ord(c))
            start = i + 1
        i += 1
    if start < n:
        out.append(s[start:] if start else s)
    out.append('"')


def _write(v, out):
    if v is None:
        out.append("null")
    elif v is True:
        out.append("true")
    elif v is False:
        out.append("false")
    elif isinstance(v, int):
        out.append(str(v))
    elif isinstance(v, str):
        _str(v, out)
    elif isinstance(v, (list, tuple)):
        out.append("[")
        first = True
        for x in v:
            if not first:
                out.append(", ")
            first = False
            _write(x, out)
        out.append("]")
    elif isinstance(v, dict):
        out.append("{")
        first = True
        # Known keys by their (distinct) rank, then the rest by name.  Two
        # plain sorts: MicroPython's sort is not stable, so no tie-breaking
        # may rest on a previous order.
        keys = [k for k in v if k in _RANK]
        keys.sort(key=_rank)
        rest = [k for k in v if k not in _RANK]
        if rest:
            rest.sort()
            keys.extend(rest)
        for k in keys:
            if not first:
                out.append(", ")
            first = False
            _str(k, out)
            out.append(": ")
            _write(v[k], out)
        out.append("}")
    else:
        raise TypeError("cannot write %r as JSON" % (v,))


def dumps(v):
    """JSON text of v with the canonical key order."""
    out = []
    _write(v, out)
    return "".join(out)
