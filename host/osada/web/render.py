"""What a page shows, made from the shell (the monitor's app): one JSON-able
snapshot of everything, so a page opened mid-game or reconnected draws the
whole current state at once.

The board and the game panel are the running game's view drawing itself
(osada.gameview: `render`, `panel`), the very Rich text the monitor shows,
exported as HTML fragments by Rich's own exporter (inline styles, text kept
as text); the page swaps them in.  Two widths of the board: NARROW (the
smallest the Siege board fits, a phone held upright) and WIDE (a TV, a
laptop).  Beside them the plain facts in words (facts()), the last events
(the monitor's log sentences), the connection, the threat forecast when the
host has one, and the keys a controlling page may press (control.buttons)."""

import hashlib
import io
import re
from html import escape

from rich.cells import cell_len
from rich.console import Console
from rich.segment import Segment
from rich.terminal_theme import DEFAULT_TERMINAL_THEME
from rich.text import Text

from osada.words.game_names import game_name

from . import control, roles

_PATH = re.compile(r"(?<![\w.:/~])~?/[^\s,;:()'\"]+")

NARROW = 66               # the Siege board's smallest width (osada.siege.board)
WIDE = 100
PANEL = 60
EVENTS = 14               # the last events a page lists, newest first


_STYLE = re.compile(r'style="([^"]*)"')
STYLES = {}               # class name -> the CSS Rich wrote inline: the page's stylesheet (css())


def _class_attr(rule):
    """The class attribute that stands for an inline CSS rule (its rule kept for css())."""
    name = "s" + hashlib.sha1(rule.encode("utf-8")).hexdigest()[:8]      # the same name in every process
    STYLES[name] = rule
    return 'class="%s"' % name


def _class(m):
    return _class_attr(m.group(1))


def _console(width, record=True):
    return Console(record=record, width=width, file=io.StringIO(), color_system="truecolor", force_terminal=True,
                   legacy_windows=False, emoji=False, highlight=False)


_CONSOLES = {}            # width -> a Console for the quick path (it keeps nothing between calls)
_RULES = {}               # Style -> the class attribute of its CSS, as Rich's export writes the rule


def html(renderable, width):
    """A Rich renderable as an HTML fragment: Rich's own export (the text escaped), its inline
    styles made classes (half the bytes, a quicker redraw; their rules are css()'s).  A Text
    whose every line fits the width (the views' boards, rings and panels) takes a quicker
    path to the very same fragment (tests/host/web/test_web_render.py holds them equal)."""
    if isinstance(renderable, Text) and _fits(renderable, width):
        return _text_html(renderable, width)
    return rich_html(renderable, width)


def rich_html(renderable, width):
    """html() the long way, through Rich's Console and its exporter: anything Rich draws."""
    con = _console(width)
    con.print(renderable, crop=True, overflow="crop")
    return _STYLE.sub(_class, con.export_html(inline_styles=True, code_format="{code}"))


def _fits(text, width):
    return "\t" not in text.plain and all(cell_len(line) <= width for line in text.plain.split("\n"))


def _text_html(text, width):
    """What Console.print(text, crop=True) then export_html(inline_styles=True) give, for a
    Text that needs no wrapping: its segments, cut into lines, styles as classes."""
    con = _CONSOLES.get(width)
    if con is None:
        con = _CONSOLES[width] = _console(width, record=False)
    whole = Text("\n").join(text.split("\n", allow_blank=True))      # as Text.__rich_console__: each line's
    segs = []                                                          # style a span of its own
    for line in Segment.split_and_crop_lines(whole.render(con, end=text.end), width, pad=False):
        segs.extend(line)
    out = []
    for seg_text, style, _ in Segment.filter_control(Segment.simplify(segs)):
        seg_text = escape(seg_text)
        if style:
            attr = _RULES.get(style)
            if attr is None:
                rule = style.get_html_style(DEFAULT_TERMINAL_THEME)
                attr = _RULES[style] = _class_attr(rule) if rule else ""
            if style.link:
                seg_text = '<a href="%s">%s</a>' % (style.link, seg_text)
            if attr:
                seg_text = "<span %s>%s</span>" % (attr, seg_text)
        out.append(seg_text)
    return "".join(out)


_SHEET = ["", 0]          # css() as last written, and how many classes it held


def css():
    """The stylesheet of every class html() has written in this process.  It only grows (the
    views use a few dozen styles), so a page takes a new one only when a style is first drawn,
    not at every change: a new stylesheet is the whole page's style worked out again."""
    if _SHEET[1] != len(STYLES):
        _SHEET[:] = ["".join(".%s{%s}" % (name, STYLES[name]) for name in sorted(STYLES)), len(STYLES)]
    return _SHEET[0]


def plain(renderable, width):
    con = Console(record=True, width=width, file=io.StringIO(), color_system=None, legacy_windows=False,
                  emoji=False, highlight=False)
    con.print(renderable, crop=True, overflow="crop")
    return con.export_text()


def _siege_facts(st, stale):
    from osada.siege.panel import next_text, phase_text, trophy_points
    out = []
    if st.get("outcome", "playing") != "playing":
        out.append(("Game", "%s (turn %s)" % (str(st.get("outcome")).upper(), st.get("turn"))))
    players = len(st.get("trophies") or {}) or 1
    out.append(("Turn", "%s · player %s of %s" % (st.get("turn"), st.get("player"), players)))
    out.append(("Phase", phase_text(st).capitalize()))
    pend = st.get("pending") or {}
    if pend:
        what = pend.get("choice", "?").replace("_", " ")
        if pend.get("choice") == "damage":
            what = "which enemy takes the damage: candidates %s" % ", ".join(
                "#%s" % e for e in pend.get("candidates") or ())
        out.append(("Pending", what))
    out.append(("Next", next_text(st, stale)))
    out.append(("Walls · ДОТ · buildings", "%d · %d · %d of 6" % (
        len(st.get("walls", ())), len(st.get("dots", ())), len(st.get("buildings", ())))))
    out.append(("Trophies", " · ".join(
        "%sP%s %d pts" % ("▸" if int(p) == st.get("player") else "", p, trophy_points(kinds))
        for p, kinds in sorted((st.get("trophies") or {}).items(), key=lambda kv: int(kv[0])))))
    return out


def facts(shell):
    """[(label, words)]: the running game's essentials as plain text (readable on a phone, for a screen reader)."""
    game = shell.game
    try:
        if game == "siege":
            return _siege_facts(shell.state, shell.stale) if shell.state else [("Game", "waiting for the board")]
        lines = [ln.strip() for ln in plain(shell.view.panel(True, shell.stale), PANEL).splitlines() if ln.strip()]
        return [("", ln) for ln in lines[:6]]
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        return [("", "the board cannot be put in words: %s" % exc)]


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
    """The view's aside (Siege's threat forecast, when the host has one) as {html, text}; None without one."""
    aside = getattr(view, "aside", None)
    if aside is None:
        return None
    try:
        text = aside()
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    if text is None:
        return None
    return {"html": html(text, PANEL), "text": plain(text, PANEL), "risks": risks(view)}


def risks(view):
    """The forecast on the picture (issue 62 item 2): {"B3": {"worst": "p/q" (bounds: {"low",
    "high"}), "text": the worst case's percentage (forecast_words), "level": F13's colour
    band (ring_forecast.BANDS)}, ..., "exact": bool}; None without a forecast for the state
    on the board."""
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


class Fragments:
    """The board and panel fragments of the last snapshot, drawn again only when what
    they are drawn from changed: the running game, its view's revision (the shell's
    `revision`, bumped by every change a view shows), the state, the connection."""

    def __init__(self):
        self.key = {}
        self.value = {}

    def get(self, shell, role=roles.WATCHER):
        key = (shell.game, shell.revision, id(shell.state), shell.seq, shell.stale, shell.conn_kind)
        if key != self.key.get(role):
            view, stale = shell.view, shell.stale
            board = {name: html(view.render(width, False, stale), width)
                     for name, width in (("narrow", NARROW), ("wide", WIDE))}
            panel = html(view.panel(False, stale, role), PANEL)
            ring = None
            if shell.game == "siege" and shell.state:       # the other games' boards are their rings
                from osada.siege.ring import render_ring
                ring = {name: html(render_ring(shell.state, width, stale), width)
                        for name, width in (("narrow", NARROW), ("wide", WIDE))}
            self.key[role], self.value[role] = key, (board, ring, panel)
        return self.value[role]


def siege_state(shell, role):
    """Siege's state and setup as `role` may see them (roles.py), for the page's picture
    (issue 62 item 1); None while another game runs or before the first state."""
    if shell.game != "siege" or not isinstance(shell.state, dict):
        return None
    setup = getattr(shell.view, "setup", None)
    return {"game": roles.state_for(shell.state, role), "setup": roles.setup_for(setup, role) if setup else None}


def snapshot(shell, rev, role=roles.WATCHER, cache=None, control_on=False):
    """Everything a page of `role` (osada.web.roles: what it may see is decided there) shows,
    as a dict (JSON-able).  cache: a Fragments kept from call to call; control_on: the host
    takes actions from pages (a watcher is offered the PIN's field)."""
    view = shell.view
    stale = shell.stale
    game = shell.game
    can_control = control_on and roles.may_act(role)
    board, ring, panel = (cache or Fragments()).get(shell, role)
    fc = forecast(view)
    sheet = css()                                   # after every fragment is drawn: their classes are in
    return {
        "t": "snap", "rev": rev, "seq": shell.seq,
        "game": game, "game_name": game_name(game), "game_short": game_name(game, True),
        "conn": connection(shell), "stale": stale,
        "board": board, "ring": ring, "cols": {"narrow": NARROW, "wide": WIDE},
        "panel": panel, "css": sheet,
        "facts": [list(f) for f in facts(shell)],
        "events": [no_paths(line) for line, _style in shell.log_entries[-EVENTS:]][::-1],
        "status": {"text": no_paths(shell.status_text), "refused": bool(shell.status_refused)},
        "forecast": fc,
        "damaged": damaged(shell),
        "role": role,
        "state": siege_state(shell, role),
        "control": can_control,
        "buttons": control.buttons(game) if can_control else [],
    }


def snapshots(shell, rev, cache=None, control_on=False):
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
            snap = snapshot(shell, rev, role, cache, control_on)
        out[role] = snap
        prev = (role, snap)
    return out
