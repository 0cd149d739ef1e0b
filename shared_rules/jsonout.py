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
    "walls", "dots", "buildings", "enemies", "pool", "pool_kinds", "discard", "trophies",
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

_ESC = {'"': b'\\"', "\\": b"\\\\", "\n": b"\\n", "\r": b"\\r", "\t": b"\\t",
        "\b": b"\\b", "\f": b"\\f"}


def _rank(k):
    return _RANK[k]


# The text is written as UTF-8 straight into one bytearray, so a state push
# allocates about its own length and not a part per token (the Pico's heap
# is small).  Encoded strings are kept by string: the same few dozen (kind
# ids, line names, event names, keys) make up most of a state, so each is
# escaped once, not on every push.  Bounded, so free text (error messages)
# cannot grow it.
_ENC = {}
_ENC_MAX = 256
# Ordering an object's keys needs a list per nesting depth.  A caller that
# writes often on one thread (the device's outbox) passes its own stack of
# them, kept between calls, so that allocates nothing; otherwise each call
# builds its own, so two threads writing at once never share one.
_KEYS_MAX = 8


def _str(s, out):
    enc = _ENC.get(s)
    if enc is not None:
        out.extend(enc)
        return
    if len(_ENC) < _ENC_MAX and len(s) <= 24:
        enc = bytearray()
        _escape(s, enc)
        enc = bytes(enc)
        _ENC[s] = enc
        out.extend(enc)
    else:
        _escape(s, out)


def _escape(s, out):
    out.append(34)                     # "
    start = 0
    n = len(s)
    i = 0
    while i < n:
        c = s[i]
        if c in _ESC or c < " ":
            if start < i:
                out.extend(s[start:i].encode("utf-8"))
            out.extend(_ESC.get(c) or ("\\u%04x" % ord(c)).encode())
            start = i + 1
        i += 1
    if start < n:
        out.extend((s[start:] if start else s).encode("utf-8"))
    out.append(34)


def _int(v, out):
    if 0 <= v < 100:                   # most numbers in a state: no allocation
        if v >= 10:
            out.append(48 + v // 10)
        out.append(48 + v % 10)
    else:
        out.extend(str(v).encode())


def _write(v, out, depth, stack):
    if v is None:
        out.extend(b"null")
    elif v is True:
        out.extend(b"true")
    elif v is False:
        out.extend(b"false")
    elif isinstance(v, int):
        _int(v, out)
    elif isinstance(v, str):
        _str(v, out)
    elif isinstance(v, (list, tuple)):
        out.append(91)                 # [
        n = len(v)
        i = 0
        while i < n:
            if i:
                out.extend(b", ")
            _write(v[i], out, depth, stack)
            i += 1
        out.append(93)
    elif isinstance(v, dict):
        _write_dict(v, out, depth, stack)
    else:
        raise TypeError("cannot write %r as JSON" % (v,))


def _sorted_keys(v, depth, stack):
    """v's keys in the canonical order, in the stack's list for this depth.
    Known keys by their (distinct) rank, then the rest by name: two plain
    sorts, as MicroPython's sort is not stable, so no tie-breaking may rest
    on a previous order."""
    if depth < len(stack):
        keys = stack[depth]
        if keys:                       # left over by a write that failed midway
            del keys[:]
    else:
        keys = []
        if depth < _KEYS_MAX:
            stack.append(keys)
    rest = None
    for k in v:
        if k in _RANK:
            keys.append(k)
        elif rest is None:
            rest = [k]
        else:
            rest.append(k)
    keys.sort(key=_rank)
    if rest is not None:
        rest.sort()
        keys.extend(rest)
    return keys


def _write_dict(v, out, depth, stack):
    keys = _sorted_keys(v, depth, stack)
    out.append(123)                    # {
    n = len(keys)
    i = 0
    while i < n:
        if i:
            out.extend(b", ")
        k = keys[i]
        _str(k, out)
        out.extend(b": ")
        _write(v[k], out, depth + 1, stack)
        i += 1
    out.append(125)
    del keys[:]                        # keep the list, drop the references


def dump_into(v, out, keys=None):
    """Append the JSON text of v, UTF-8, to the bytearray out.  keys: a list
    the caller keeps between calls (one thread only) for the writer's key
    lists; by default each call has its own."""
    mark = len(out)
    try:
        _write(v, out, 0, [] if keys is None else keys)
    except Exception:
        out[mark:] = b""               # nothing half-written stays
        raise


def dumpb(v):
    """JSON text of v with the canonical key order, as UTF-8 bytes (a bytearray)."""
    out = bytearray()
    dump_into(v, out)
    return out


def dumps(v):
    """JSON text of v with the canonical key order."""
    return str(dumpb(v), "utf-8")
