"""Who sees what on a shared screen (issue 59): the one place that decides it.
Every snapshot a page receives is made for one role (render.snapshot), and
the terminal's monitor asks here too (the field marshal's hand, shown on it
only while he asks for it).

    watcher   any page: the public game (the board, the public events, the
              forecast), nothing else
    player    a page that entered the players' PIN: what a watcher sees, and
              it may act
    marshal   the field marshal's page (his own PIN, printed apart): what a
              player sees, and his hand

What no page and no shared log ever shows: the PINs (the host's terminal
alone, osada.web.control.pin_words); the game's seed (with it the pool's
order can be worked out: shared_rules/siege/public.py table_setup); the
field marshal's hand, except to him (table_state)."""

from shared_rules.siege.public import table_setup, table_state

WATCHER = "watcher"
PLAYER = "player"
MARSHAL = "marshal"
ROLES = (WATCHER, PLAYER, MARSHAL)


def may_act(role):
    return role in (PLAYER, MARSHAL)


def plays_marshal(role):
    """Whether `role` may make the field marshal's play (his page: his PIN)."""
    return role == MARSHAL


def sees_hand(role):
    """Whether `role` sees the field marshal's hand."""
    return role == MARSHAL


def differs(state, a, b):
    """Whether roles a and b see different things of this state (its fields only: what each
    may do is the snapshot's own)."""
    return bool(state) and "marshal_hand" in state and sees_hand(a) != sees_hand(b)


def state_for(state, role):
    """The device's state as `role` may see it."""
    return state if sees_hand(role) else table_state(state)


def setup_for(setup, role):
    """The game's setup as any page may see it: never its seed."""
    return table_setup(setup)
