"""The monitor's key bindings, made from every game's KEYMAP (osada/<game>/view.py's
views) and the shell's own (osada.gameview.COMMON_KEYMAP).  A game's key runs
the app's `key` action with the game's id first ("app.key('siege', 'hit')"),
so it is live only while the device runs that game (MonitorApp.check_action)
and never sends one game's action to another."""

import ast
import re

from textual.binding import Binding

from osada.gameview import COMMON_KEYMAP, view_classes

_CALL = re.compile(r"^(\w+)(?:\((.*)\))?$")


def _action(game, action, extra=()):
    """'app.key(...)' for a view's action ('cursor(0,-1)': the name, then its arguments)."""
    m = _CALL.match(action)
    if m is None:
        raise ValueError("a keymap's action is name or name(args): %r" % action)
    given = ast.literal_eval("(%s,)" % m.group(2)) if m.group(2) else ()
    args = [repr(a) for a in (game, m.group(1)) + tuple(given) + tuple(extra)]
    return "app.key(%s)" % ", ".join(args)


def bindings():
    """Every game's keys and the common ones, as textual Bindings.  A row whose
    action is "digit" binds each of its keys with its number ("digit", n)."""
    out = []
    for game, view in view_classes().items():
        for keys, action, _shown, short, _what, footer in view.KEYMAP:
            if action == "digit":
                out += [Binding(k, _action(game, action, (int(k),)), k, show=False) for k in keys.split(",")]
            else:
                out.append(Binding(keys, _action(game, action), short or keys, show=footer))
    out += [Binding(k, "app." + a, short or k, show=f) for k, a, _sh, short, _w, f in COMMON_KEYMAP]
    return out


def key_game(action, parameters):
    """The game whose key runs `action` with `parameters`; None for the common keys."""
    if action == "key" and parameters:
        return parameters[0]
    return None
