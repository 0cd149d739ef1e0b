# One device, several games (issue 13): the table of games, the remembered
# choice and the game menu on the ring.  Loaded at boot and when the menu or
# a switch is asked for; while Siege plays it is unloaded again (unload()),
# so Siege pays no heap for it.
#
# Adding a game = one row in GAMES and one device module: a module with
# start(app) -> an object with handle(app, ev, now), draw(app, now, r) and
# `handlers` (protocol commands it answers itself, see commands.handle_line),
# and MODULES, the names to unload when another game is chosen.  Siege is
# the App itself (module None).
#
# The menu: sector k of the ring lights in game k's colour, the highlighted
# game blinks.  Encoder turns move the highlight; ACTION takes it; any other
# input closes the menu, keeping the running game, and goes on to that game
# (so Siege's buttons work at boot exactly as before).  It opens at boot
# for BOOT_MENU_MS with the remembered game highlighted (and running: a host
# talks to it meanwhile), and on a long press of ACTION and BACK together
# (OPEN_MENU_MS).  When the time is up the highlighted game is taken; a turn
# gives the player the full time again.  A request from the host that
# changes something closes it, keeping the running game.
#
# Runs on MicroPython and CPython alike.

import sys

# id, name, device module (None: Siege, the App itself), menu colour
GAMES = (
    ("siege", "Siege", None, (255, 60, 0)),
    ("tank", "Tank battle", "osada_fw.tank_mode", (0, 200, 40)),
)
SETTING = "game"              # the file in the HAL's state dir: the last game chosen
BOOT_MENU_MS = 2500
OPEN_MENU_MS = 8000


def index_of(gid):
    for i in range(len(GAMES)):
        if GAMES[i][0] == gid:
            return i
    return -1


def ids():
    return [g[0] for g in GAMES]


def load_setting(app):
    """The remembered game's id; "siege" if none, unreadable or unknown."""
    try:
        with open(app.hw.state_dir + "/" + SETTING) as f:
            gid = f.read(16).strip()
    except Exception:          # no file, no file system: the first game
        return "siege"
    return gid if index_of(gid) >= 0 else "siege"


def save_setting(app, gid):
    """Remember gid in flash; a flash that fails is no error (it stays in RAM)."""
    try:
        with open(app.hw.state_dir + "/" + SETTING, "w") as f:
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


def done(app):
    """Nothing of the menu is needed while Siege plays: let it go."""
    if app.mode is None and app.menu is None:
        unload(("osada_fw.games",))


def switch(app, gid, save=True):
    """Run game gid.  ValueError (nothing changed) if there is no such game.
    Siege's game and journal are left as they are: switching back finds them."""
    k = index_of(gid)
    if k < 0:
        raise ValueError("unknown game %r; the games are %s" % (gid, ", ".join(ids())))
    if save:
        save_setting(app, gid)
    if gid == app.game_id:
        return False
    old = app.mode
    app.mode = None
    if old is not None:
        unload(old.modules)
    mod = GAMES[k][2]
    if mod is not None:
        __import__(mod)
        app.mode = sys.modules[mod].start(app)
    app.game_id = gid
    app.ui.reset()
    app.push({"ev": "game", "game": gid})
    return True


def cmd_game(app, req):
    """{"cmd": "game"}: which game runs and which there are; {"cmd": "game",
    "game": "tank"}: switch.  (Not "id": that is every request's own integer id.)"""
    from osada_fw.commands import CommandError
    gid = req.get("game")
    if gid is None:
        out = {"game": app.game_id, "games": ids()}
    elif not isinstance(gid, str) or index_of(gid) < 0:
        done(app)
        raise CommandError("unknown game %r; the games are %s" % (gid, ", ".join(ids())))
    else:
        app.menu = None
        out = {"game": app.game_id, "changed": switch(app, gid)}
        out["game"] = app.game_id
    done(app)
    return out


class Menu:
    def __init__(self, app, now, ms):
        self.sel = index_of(app.game_id)
        self.ms = ms
        self.until = (now + ms) & 0x3FFFFFFF

    def handle(self, app, ev, now):
        what, value = ev
        if what == "turn":
            self.sel = (self.sel + value) % len(GAMES)
            self.until = (now + self.ms) & 0x3FFFFFFF
        elif what == "press" and value == "action":
            self.take(app, self.sel)
        elif what == "long" and value != "encoder" and app.hw.inputs.held("back" if value == "action" else "action"):
            pass                       # the combination that opened it
        else:                          # anything else is the running game's
            self.take(app, -1)
            app.game_input(ev, now)

    def take(self, app, k):
        app.menu = None
        if k >= 0:
            switch(app, GAMES[k][0])
        done(app)

    def draw(self, app, now, r):
        """The menu's frame into r; False once the time is up (the highlighted
        game taken)."""
        if app.hw.clock.diff(now, self.until) >= 0:
            self.take(app, self.sel)
            return False
        r.clear()
        lay = app.layout
        blink = (now // 250) & 1
        for k in range(len(GAMES)):
            c = GAMES[k][3]
            if k == self.sel and not blink:
                continue
            for line in range(4):
                r.set_pixel(lay.index(k + 1, line), c[0], c[1], c[2])
        return True


def open_menu(app, now, ms=OPEN_MENU_MS):
    app.menu = Menu(app, now, ms)


def boot(app, now):
    """At boot: run the remembered game and offer the menu for BOOT_MENU_MS."""
    gid = load_setting(app)
    if gid != app.game_id:
        try:
            switch(app, gid, save=False)
        except Exception as exc:   # a game that cannot start: Siege, and say why
            app.mode = None
            app.push({"ev": "error", "error": "game %s did not start: %r" % (gid, exc), "source": "boot"})
    open_menu(app, now, BOOT_MENU_MS)
