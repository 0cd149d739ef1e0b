# One device, several games (issue 13): switching games, the remembered
# choice, and the game menu while a game other than Siege runs.  The games
# are the registry's (osada_fw/games.py); the menu at a Siege boot is
# Siege's own UI menu (siege/ui.py), so Siege loads none of this unless the
# player switches.  While Siege plays this module is unloaded again (done()).
#
# A game other than Siege is its package osada_fw/<id>/, whose mode.py has
# start(app) -> the game's object (app.py says what it answers); it is
# loaded when chosen and its `modules` unloaded when another game is.
# Siege's game and journal are never touched by a switch: switching back
# finds them as they were.  The choice is remembered in the state dir
# (games.SETTING); a flash that cannot keep it is no error.
#
# The menu here (Menu) looks and works as Siege's: sector k lit in
# games.MENU_COLORS[k], the highlighted game blinking; turns move it, ACTION
# takes it, BACK closes it (the running game goes on); other inputs are the
# running game's.  It opens at boot when the remembered game is not Siege
# (for GAME_MENU_MS), and when BACK is held long while ACTION is held (for
# OPEN_MENU_MS); when the time is up the highlighted game is taken.  While it
# is open it stands in as app.mode in front of the running game (`inner`):
# requests go to that game, and one that changes something closes the menu
# first (acting()).
#
# Runs on MicroPython and CPython alike.

import sys

from osada_fw import forget, later
from osada_fw.games import GAME_MENU_MS, GAMES, HOME, MENU_COLORS, OPEN_MENU_MS, SETTING, remembered
from osada_fw.link.protocol import CommandError


def _unknown(gid):
    return "unknown game %r; the games are %s" % (gid, ", ".join(GAMES))


def save_setting(app, gid):
    """Remember gid in flash; a flash that fails is no error (it stays in RAM)."""
    try:
        with open(app.hw.state_dir + SETTING, "w") as f:
            f.write(gid)
        return True
    except Exception:
        return False


def done(app):
    """Nothing of this is needed while Siege plays: let it go."""
    if app.mode is app.siege and not app.siege.ui.game_menu_open():
        forget("osada_fw.gamemenu", always=True)


def switch(app, gid, save=True):
    """Run game gid.  ValueError (nothing changed) if there is no such game.
    Returns True if the running game changed.  Closes the game menu."""
    if gid not in GAMES:
        raise ValueError(_unknown(gid))
    mode = app.mode.acting()           # the game menu, either one, closes
    app.mode = mode
    if save:
        save_setting(app, gid)
    if gid == mode.id:
        return False
    app.mode = app.siege
    for name in mode.modules:
        forget(name, always=True)
    if gid != HOME:
        mod = "osada_fw.%s.mode" % gid      # one package a game: osada_fw/<id>/mode.py
        __import__(mod)
        app.mode = sys.modules[mod].start(app)
    app.siege.ui.reset()
    app.push({"ev": "game", "game": gid})
    return True


def cmd_game(app, req):
    """{"cmd": "game"}: which game runs and which there are; {"cmd": "game",
    "game": "tank"}: switch.  (Not "id": that is every request's own integer id.)"""
    gid = req.get("game")
    if gid is None:
        out = {"game": app.mode.id, "games": list(GAMES)}
    elif not isinstance(gid, str) or gid not in GAMES:
        done(app)
        raise CommandError(_unknown(gid))
    else:
        changed = switch(app, gid)
        out = {"game": app.mode.id, "changed": changed}
    done(app)
    return out


class Menu:
    def __init__(self, app, now, ms):
        self.app = app
        self.inner = app.mode
        self.id = self.inner.id
        self.modules = ()
        self.sel = GAMES.index(self.id)
        self.until = later(now, ms)

    def handlers(self):
        return self.inner.handlers()

    def acting(self):
        """A request that changes something: the menu closes, the running game takes it."""
        return self.inner.acting()

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
            self.inner.handle(ev, now)

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
    """From a game's own menu: run game gid (None: open this module's menu)."""
    if gid is None:
        open_menu(app, now)
    elif gid != app.mode.id:
        switch(app, gid)
    done(app)


def open_menu(app, now, ms=OPEN_MENU_MS):
    if isinstance(app.mode, Menu):
        return
    app.mode = app.mode.acting()       # Siege's own game menu, if open, closes
    app.mode = Menu(app, now, ms)


def boot(app, now):
    """At boot, the remembered game not Siege: run it and offer the menu."""
    gid = remembered(app.hw.state_dir)
    try:
        switch(app, gid, save=False)
    except Exception as exc:           # unknown, or a game that cannot start: Siege, and say why
        app.mode = app.siege
        app.push({"ev": "error", "error": "game %r did not start: %r" % (gid, exc), "source": "boot"})
    if app.mode is app.siege:
        app.siege.ui.game_menu(now)
        done(app)
    else:
        open_menu(app, now, GAME_MENU_MS)
