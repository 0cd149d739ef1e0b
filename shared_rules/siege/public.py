"""What the table can see of a Siege game beyond the device's state: the pool's
contents as counts by kind (siege-forecast FA1, `pool_kinds`), never its order.
Host-only (off the Pico's bundle): the device's state pushes leave it out, as
its heap has no room for the dict, and the host's mirror of a device is the
device's own state; the threat forecast reads it from here (public_state,
state_json: the state JSON with it, canonical text).  A host that mirrors a
device has only the device's state and the game's setup: pool_kinds_seen
counts the pool from them as the table does (FA1: the 49 tokens less R61's
removals, the board, the discard, the trophies and the marshal's tokens)."""

from shared_rules.siege.catalog import KIND_IDS, KINDS
from shared_rules.siege.newgame import SIMPLE_BATTLES_REMOVED


def pool_kinds(game):
    """{kind id: how many of it are in the pool}, kinds with none left out, in kind order."""
    pool = game.pool
    return _by_kind([pool.count(k) for k in range(len(KIND_IDS))])


def _by_kind(counts):
    """{kind id: count} of the kinds with any, in kind order."""
    return {KIND_IDS[k]: n for k, n in enumerate(counts) if n}


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


def pool_kinds_seen(state, setup=None):
    """The pool's counts by kind as the table works them out (FA1) from a
    state dict (Game.state(): enemies, discard, trophies, marshal_hand and
    marshal_queue) and the setup's variants (R61's removals): what a host
    mirroring a device gives the forecast.  None where it cannot be told: a
    scenario's own pool or board (its tokens are not the 49), or counts that
    do not add up to the state's `pool` (a state not from the 49)."""
    setup = setup or {}
    if setup.get("pool") is not None or setup.get("board") is not None:
        return None
    left = [row[1] for row in KINDS]
    gone = [e.get("kind") for e in state.get("enemies", ())] + list(state.get("discard", ()))
    for won in (state.get("trophies") or {}).values():
        gone += list(won)
    gone += list(state.get("marshal_hand", ())) + list(state.get("marshal_queue", ()))
    if "simple_battles" in (setup.get("variants") or state.get("variants") or ()):
        gone += list(SIMPLE_BATTLES_REMOVED)
    for name in gone:
        if name not in KIND_IDS:
            return None
        k = KIND_IDS.index(name)
        left[k] -= 1
        if left[k] < 0:
            return None
    if "pool" in state and sum(left) != state["pool"]:
        return None
    return _by_kind(left)


def table_state(state):
    """A state dict (Game.state()) as the whole table may see it: the field
    marshal's hand (FA5: his alone) replaced by how many tokens it holds."""
    if not state or "marshal_hand" not in state:
        return state
    st = dict(state)
    st["marshal_hand_count"] = len(st.pop("marshal_hand") or ())
    return st


def table_setup(setup):
    """A setup dict as the whole table may see it: without its seed, from
    which the pool's order (every token to come) could be worked out."""
    if not setup or "seed" not in setup:
        return setup
    out = dict(setup)
    del out["seed"]
    return out
