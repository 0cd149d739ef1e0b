# One device, several games (issue 13): switching games, the remembered
# choice, and the game menu while a game other than Siege runs.  The table of
# games is ui.GAMES (ids, in menu order); the menu at a Siege boot is the
# UI's own ("game", ui.py), so Siege loads none of this unless the player
# switches.  While Siege plays this module is unloaded again (done()).
#
# Adding a game = its id in ui.GAMES and one device package osada_fw/<id>/ (mode.py):
# start(app) -> an object with id, handle(ev, now), draw(now, r), `handlers`
# (protocol commands it answers itself, before commands.HANDLERS) and
# `modules` (the module names to unload when another game is chosen).
# Siege's game and journal are never touched by a switch: switching back
# finds them as they were.  The choice is remembered in the state dir
# (app.SETTING); a flash that cannot keep it is no error.
#
# The menu here (Menu) looks and works as the UI's: sector k lit in
# ui.MENU_COLORS[k], the highlighted game blinking; turns move it, ACTION
# takes it, BACK closes it (the running game goes on); other inputs are the
# running game's.  It opens at boot when the remembered game is not Siege
# (for GAME_MENU_MS), and when BACK is held long while ACTION is held (for
# OPEN_MENU_MS); when the time is up the highlighted game is taken.  While it
# is open it stands in as app.mode in front of the running game (`inner`):
# requests go to that game, and one that changes something closes the menu
# first, as with the UI's menu.
#
# Runs on MicroPython and CPython alike.

import sys

from osada_fw.app import SETTING
from osada_fw.ui import GAMES, M_MENU, M_PLAY, MENU_COLORS

OPEN_MENU_MS = 8000
GAME_MENU_MS = 2500     # the menu at boot (ui.py's too)


def index_of(gid):
    return GAMES.index(gid) if gid in GAMES else -1


def ids():
    return list(GAMES)


def close_ui_menu(app):
    ui = app.ui
    if ui.mode == M_MENU and ui.menu[0] == "game":
        ui.mode = M_PLAY


def save_setting(app, gid):
    """Remember gid in flash; a flash that fails is no error (it stays in RAM)."""
    try:
        with open(app.hw.state_dir + SETTING, "w") as f:
            f.write(gid)
        return True
    except Exception:
        return False


def unload(names):
    """Forget modules so the garbage collector can take their code."""
    for name in names:
        if name in sys.modules:
            del sys.modules[name]
        dot = name.rfind(".")
        parent = sys.modules.get(name[:dot]) if dot > 0 else None
        if parent is not None and hasattr(parent, name[dot + 1:]):
            try:
                delattr(parent, name[dot + 1:])
            except (AttributeError, TypeError):
                pass


def game_id(app):
    return app.mode.id if app.mode is not None else "siege"


def done(app):
    """Nothing of this is needed while Siege plays: let it go."""
    if app.mode is None and (app.ui.mode != M_MENU or app.ui.menu[0] != "game"):
        unload(("osada_fw.games",))


def switch(app, gid, save=True):
    """Run game gid.  ValueError (nothing changed) if there is no such game.
    Returns True if the running game changed.  Closes the game menu."""
    k = index_of(gid)
    if k < 0:
        raise ValueError("unknown game %r; the games are %s" % (gid, ", ".join(ids())))
    if isinstance(app.mode, Menu):
        app.mode = app.mode.inner
    close_ui_menu(app)
    if save:
        save_setting(app, gid)
    if gid == game_id(app):
        return False
    old = app.mode
    app.mode = None
    if old is not None:
        unload(old.modules)
    if gid != "siege":
        mod = "osada_fw.%s.mode" % gid      # one package a game: osada_fw/<id>/mode.py
        __import__(mod)
        app.mode = sys.modules[mod].start(app)
    app.ui.reset()
    app.push({"ev": "game", "game": gid})
    return True


def cmd_game(app, req):
    """{"cmd": "game"}: which game runs and which there are; {"cmd": "game",
    "game": "tank"}: switch.  (Not "id": that is every request's own integer id.)"""
    from osada_fw.protocol import CommandError
    gid = req.get("game")
    if gid is None:
        out = {"game": game_id(app), "games": ids()}
    elif not isinstance(gid, str) or index_of(gid) < 0:
        done(app)
        raise CommandError("unknown game %r; the games are %s" % (gid, ", ".join(ids())))
    else:
        changed = switch(app, gid)
        out = {"game": game_id(app), "changed": changed}
    done(app)
    return out


READ_ONLY = ("hello", "state", "log", "leds", "game")


def _acting(app, req):
    """A request that changes something, while the menu is open: it closes
    the menu, then goes to the running game."""
    from osada_fw.commands import HANDLERS
    app.mode = app.mode.inner
    fn = HANDLERS.get(req["cmd"])
    if app.mode is not None:
        fn = app.mode.handlers.get(req["cmd"], fn)
    return fn(app, req)


class Menu:
    def __init__(self, app, now, ms):
        self.app = app
        self.inner = app.mode
        self.id = game_id(app)
        self.modules = ()
        self.sel = index_of(self.id)
        self.until = (now + ms) & 0x3FFFFFFF
        from osada_fw.commands import HANDLERS
        h = dict(self.inner.handlers) if self.inner is not None else {}
        for cmd in HANDLERS:
            if cmd not in READ_ONLY:
                h[cmd] = _acting
        self.handlers = h

    def handle(self, ev, now):
        app = self.app
        what, value = ev
        if what == "turn":
            self.sel = (self.sel + value) % len(GAMES)
        elif what == "press" and value in ("action", "back"):
            self.take(self.sel if value == "action" else -1)
        elif what == "long" and value != "encoder" and app.hw.inputs.held("action"):
            pass                       # the combination that opened it
        else:                          # anything else is the running game's
            (app.ui if self.inner is None else self.inner).handle(ev, now)

    def take(self, k):
        app = self.app
        if app.mode is self:
            app.mode = self.inner
        if k >= 0:
            switch(app, GAMES[k])
        done(app)

    def draw(self, now, r):
        app = self.app
        r.clear()
        if app.hw.clock.diff(now, self.until) >= 0:
            self.take(self.sel)        # time is up: the highlighted game
            return
        lay = app.layout
        blink = (now // 250) & 1
        for k in range(len(GAMES)):
            c = MENU_COLORS[k]
            if k == self.sel and not blink:
                continue
            for line in range(4):
                r.set_pixel(lay.index(k + 1, line), c[0], c[1], c[2])


def pick(app, gid, now):
    """From the UI's game menu: run game gid (None: open this module's menu)."""
    if gid is None:
        open_menu(app, now)
    elif gid != game_id(app):
        switch(app, gid)
    done(app)


def open_menu(app, now, ms=OPEN_MENU_MS):
    if isinstance(app.mode, Menu):
        return
    close_ui_menu(app)                 # the UI's, if it was open
    app.mode = Menu(app, now, ms)


def boot(app, now):
    """At boot, the remembered game not Siege: run it and offer the menu."""
    try:
        with open(app.hw.state_dir + SETTING) as f:
            gid = f.read(16).strip()
    except Exception:
        gid = "siege"
    try:
        switch(app, gid, save=False)
    except Exception as exc:           # unknown, or a game that cannot start: Siege, and say why
        app.mode = None
        app.push({"ev": "error", "error": "game %r did not start: %r" % (gid, exc), "source": "boot"})
    if app.mode is None:
        app.ui.game_menu(now)
        done(app)
    else:
        open_menu(app, now, GAME_MENU_MS)
