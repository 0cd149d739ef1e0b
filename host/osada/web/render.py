"""What a page shows, made from the shell (the monitor's app): one JSON-able
snapshot of everything, so a page opened mid-game or reconnected draws the
whole current state at once (issue 62).

The page draws the game from data, as a picture; it carries none of the
terminal's drawing.  Siege: its state as the role may see it (roles.py), which
static/siege.js draws.  The other games: their view's picture() (each game's
picture.py: the last roll, the toss, the round tracker, with the ring as the
device lights it), which static/ring.js draws.  Beside them the plain facts in
words (facts()), the last events (the monitor's log sentences), the connection,
the threat forecast when the host has one (its rows in words, and its risk on
each building, wall and ДОТ for the picture), a damaged save until it is
acknowledged, and the keys a controlling page may press (control.buttons)."""

import re

from osada.words import table
from osada.words.game_names import game_name

from . import control, roles

_PATH = re.compile(r"(?<![\w.:/~])~?/[^\s,;:()'\"]+")

EVENTS = table.EVENTS     # the last events a page lists, newest first


def facts(shell, role=roles.WATCHER):
    """[(label, words)]: Siege's essentials as plain text (readable on a phone, for a screen reader:
    osada.words.table, which the page with no host runs too), from the state as `role` may see
    it; the other games say theirs in their picture's words."""
    from osada.siege.panel import page_name
    if shell.game != "siege":
        return []
    return table.facts(roles.state_for(shell.state, role), page_name, shell.stale)


def connection(shell):
    """{kind, text, live}: live when the board is connected and what is shown is current."""
    kind = shell.conn_kind
    return {"kind": kind, "text": no_paths(shell.conn_text), "live": kind == "connected" and not shell.stale}


def no_paths(text):
    """A line for the pages without the host's local paths (a file's name is kept): what the
    monitor's log says of its files ("game journal in /home/…/build/sim-state") is the
    terminal's business (issue 59)."""
    if not text or "/" not in text:
        return text
    return _PATH.sub(lambda m: "…/" + m.group(0).rstrip("/").rsplit("/", 1)[-1], text)


def damaged(shell):
    """The device's damaged save, until acknowledged: {lost, kept} in words; None without one."""
    if shell.damaged is None:
        return None
    from osada.words.texts import kept_words
    lost, kept = shell.damaged
    return {"lost": no_paths(lost), "kept": no_paths(kept_words(kept).lstrip(" —"))}


def forecast(view):
    """The view's aside (Siege's threat forecast, when the host has one) as data: {"head",
    "rows": [[label, value]], "how", "risks"} once it has a result (live_forecast's rows, the
    words of forecast_words), {"lines": its words} while it has none; None without one."""
    aside = getattr(view, "aside", None)
    if aside is None:
        return None
    try:
        text = aside()
        get = getattr(view, "forecast_result", None)
        res = get() if get is not None else None
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    if text is None:
        return None
    if res is None:
        return {"lines": [ln.strip() for ln in text.plain.split("\n") if ln.strip()], "risks": None}
    return {"head": "Forecast for %s, if the turn ended now" % res.stamp_text(),
            "rows": [list(r) for r in res.rows()], "how": res.how(), "risks": risks(view, res)}


def risks(view, res=None):
    """The forecast on the picture (issue 62 item 2): {"B3": {"worst": "p/q" (bounds: {"low",
    "high"}), "text": the worst case's percentage (forecast_words), "level": F13's colour
    band (ring_forecast.BANDS)}, ..., "exact": bool}; None without a forecast for the state
    on the board."""
    if res is None:
        get = getattr(view, "forecast_result", None)
        res = get() if get is not None else None
    if res is None:
        return None
    from osada.siege.forecast_words import bounds_text, percent
    from osada.siege.ring_forecast import BANDS, band, high
    fc = res.forecast
    out = {"exact": bool(fc.exact)}
    for t in fc.targets:
        if not isinstance(t, tuple):
            continue
        worst = fc.values[t][0]
        data = str(worst) if fc.exact else {"low": str(worst[0]), "high": str(worst[1])}
        text = percent(worst) if fc.exact else bounds_text(worst[0], worst[1])     # the worst case (F6)
        out["%s%d" % t] = {"worst": data, "text": text, "level": BANDS[band(high(fc, t))]}
    return out


def siege_state(shell, role):
    """Siege's state and setup as `role` may see them (roles.py), for the page's picture
    (issue 62 item 1); None while another game runs or before the first state."""
    if shell.game != "siege" or not isinstance(shell.state, dict):
        return None
    setup = getattr(shell.view, "setup", None)
    return {"game": roles.state_for(shell.state, role), "setup": roles.setup_for(setup, role) if setup else None}


def picture(shell, role):
    """The running game's picture data for `role` (its view's picture()); None for Siege (its
    page draws from its state) or when the view has none."""
    if shell.game == "siege":
        return None
    try:
        return shell.view.picture(role)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        return {"game": shell.game, "ring": None, "words": ["the game cannot be drawn: %s" % exc]}


def snapshot(shell, rev, role=roles.WATCHER, control_on=False):
    """Everything a page of `role` (osada.web.roles: what it may see is decided there) shows,
    as a dict (JSON-able).  control_on: the host takes actions from pages (a watcher is
    offered the PIN's field)."""
    stale = shell.stale
    game = shell.game
    can_control = control_on and roles.may_act(role)
    return {
        "t": "snap", "rev": rev, "seq": shell.seq,
        "game": game, "game_name": game_name(game), "game_short": game_name(game, True),
        "conn": connection(shell), "stale": stale,
        "facts": [list(f) for f in facts(shell, role)],
        "events": [no_paths(line) for line, _style in shell.log_entries[-EVENTS:]][::-1],
        "status": {"text": no_paths(shell.status_text), "refused": bool(shell.status_refused)},
        "forecast": forecast(shell.view),
        "damaged": damaged(shell),
        "role": role,
        "state": siege_state(shell, role),
        "picture": picture(shell, role),
        "control": can_control,
        "buttons": control.buttons(game) if can_control else [],
    }


def snapshots(shell, rev, control_on=False):
    """{role: snapshot} for every role of roles.ROLES.  Where what a role sees is the same as
    the role before it (no field marshal's hand in the game), its snapshot is that one with its
    own role and controls, not drawn again."""
    out = {}
    prev = None
    for role in roles.ROLES:
        if prev is not None and not roles.differs(shell.state, prev[0], role):
            snap = dict(prev[1], role=role, control=control_on and roles.may_act(role))
            snap["buttons"] = control.buttons(shell.game) if snap["control"] else []
        else:
            snap = snapshot(shell, rev, role, control_on)
        out[role] = snap
        prev = (role, snap)
    return out
