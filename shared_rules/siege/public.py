"""What the table can see of a Siege game beyond the device's state: the pool's
contents as counts by kind (siege-forecast FA1, `pool_kinds`), never its order.
Host-only (off the Pico's bundle): the device's state pushes leave it out, as
its heap has no room for the dict, and the host's mirror of a device is the
device's own state; the threat forecast reads it from here (public_state,
state_json: the state JSON with it, canonical text)."""

from shared_rules.siege.catalog import KIND_IDS


def pool_kinds(game):
    """{kind id: how many of it are in the pool}, kinds with none left out, in kind order."""
    pool = game.pool
    kinds = {}
    for k in range(len(KIND_IDS)):
        n = pool.count(k)
        if n:
            kinds[KIND_IDS[k]] = n
    return kinds


def public_state(game):
    """The game's state (Game.state()) with `pool_kinds` beside `pool`."""
    st = game.state()
    st["pool_kinds"] = pool_kinds(game)
    return st


def state_json(game, events=None):
    """Game.state_json() with `pool_kinds` beside `pool` (jsonout's key order)."""
    from shared_rules.jsonout import dumps
    st = public_state(game)
    if events is not None:
        st["events"] = events
    return dumps(st)
