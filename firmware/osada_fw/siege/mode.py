# War Thunder: Siege on the device: its game, journalled as it goes, its
# board and animations in light, its UI on the buttons (siege/ui.py).  The
# home game (games.HOME): the app makes it (Siege(app)) at every boot and
# keeps it while another game plays, so its game in progress is there when
# the player comes back.  Its requests: siege/commands.py.
# Runs on MicroPython and CPython alike.

from osada_fw import collect, forget
from osada_fw.siege.board import Board
from osada_fw.siege.ui import UI
from shared_rules.siege.engine import Game, load_rules, parse, replay

DEFAULT_SETUP = {"players": 2, "mode": "standard", "variants": []}
_SAVE_ACTION = 0           # what Siege._save writes
_SAVE_UNDO = 1
_SAVE_START = 2
_SAVE_GAME = 3             # the whole game, rewritten

def _built(now=True):
    """A game was just built (boot, new, undo, recover).  What builds one
    (shared_rules/siege/newgame.py: the setup's checks, the start board and pool)
    is needed by no game in progress: it leaves the heap (~3 KB: the code
    is in RAM, loaded from littlefs), and what the building left (that
    code, the old game) is collected before the journal and the replies
    allocate on top of it; at boot (now=False) by warm(), after the
    first frame, which it would otherwise delay."""
    forget("shared_rules.siege.newgame")
    if now:
        collect()


def _open_journal(hw):
    """The HAL's journal if it has one (the Pico's raw-flash log), else the
    littlefs file journal in hw.state_dir: only one backend is imported."""
    opener = getattr(hw, "open_journal", None)
    j = opener() if opener is not None else None
    if j is None:
        from osada_fw.store.journal import Journal
        j = Journal(hw.state_dir)
    return j


class Siege:
    id = "siege"
    modules = ()                   # never unloaded: its game waits while another plays

    def __init__(self, app):
        self.app = app
        self.journal = _open_journal(app.hw)
        self.board = Board(app.frame)
        self.game = None
        self.anims = []
        self.anim_end = 0
        self.positions = {}
        self.unsaved = None            # None: the journal holds the game; else why not (words)
        self.replaced = None           # the game a new game replaced: (setup, its actions encoded), for undo
        self.anim = None               # siege/anim.py once loaded (warm(), or the first change): kept here, as an
        self.requests = None           # ... import statement run per frame or request allocates on MicroPython;
                                       # siege/commands.py's HANDLERS once the host has spoken
        self.ui = UI(self)

    def boot(self):
        """Restore the game in progress from the journal, or start one.  No
        file system trouble (missing, full, read-only, a corrupt journal)
        stops the boot: the board comes up with a game and says what happened."""
        clock = self.app.hw.clock
        t0 = clock.ticks_ms()
        try:
            self.game = self.journal.restore()
        except Exception as exc:       # OSError, MemoryError: play on without it
            self.game = None
            self.journal.last_error = "journal unreadable: %r" % (exc,)
        restore_ms = clock.diff(clock.ticks_ms(), t0)
        lost = self.journal.damage or self.journal.last_error   # a saved game could not be read back
        if self.game is None:
            setup = dict(DEFAULT_SETUP)
            setup["seed"] = self.app.hw.free_roll_seed()
            self._start(setup)
            restored = False
        else:
            restored = True
        _built(now=False)
        self.ui.reset()
        self.positions = self.where_enemies()
        ev = {"ev": "boot", "restored": restored, "seq": len(self.game.log), "restore_ms": restore_ms}
        if self.unsaved is not None:
            ev["journal"] = self.unsaved
        if lost is not None:
            ev["lost"] = lost
        self.app.push(ev)

    def warm(self):
        """After the first frame, while the heap is nearly empty: load what
        the game's first change needs (siege/anim.py, and the engine's
        action rules when no restore loaded them), and drop what loading
        left, so that change (often a new game, the heaviest request) does
        not allocate the modules on top of its own garbage, nor on top of
        what building the game left (see _built)."""
        collect()
        self.animations()
        load_rules()
        collect()

    def animations(self):
        """siege/anim.py, loaded on first use: what Siege's events look like."""
        a = self.anim
        if a is None:
            from osada_fw.siege import anim as a
            self.anim = a
        return a

    # ------------------------------------------------- the app's game protocol

    def handlers(self):
        h = self.requests
        if h is None:
            from osada_fw.siege.commands import HANDLERS as h  # loaded with the host's first request
            self.requests = h
        return h

    def acting(self):
        self.ui.close_game_menu()
        return self

    def where_enemies(self):
        """Where every enemy stands (sector * 8 + line: a small int, no tuple
        kept per enemy), for animating what an action changes (anim.events)."""
        pos = {}
        for e in self.game.enemies:
            pos[e.id] = e.sector * 8 + e.line
        return pos

    def handle(self, ev, now):
        self.ui.handle(ev, now)

    def draw(self, now, frame):
        b = self.board
        b.draw(self.game, now)
        self.ui.overlay(now, frame)
        if self.anims:                 # queued by siege/anim.py, which is loaded then
            self.anim.run(self.anims, now, b)

    # ------------------------------------------------------------- the game

    def _start(self, setup):
        game = Game.from_setup(setup)
        self.game = game
        self._save(_SAVE_START, game.setup_dict())

    def _save(self, what, arg=None):
        """Write the change just made to self.game into the journal.  When
        flash fails (full, read-only, I/O error: any OSError) the game goes
        on in RAM: the failure is pushed as a `journal` event once, the ring
        shows the app's flash sign, and every later change retries by
        rewriting the whole game from RAM; the first that works clears it.
        Returns True if the game is saved."""
        j = self.journal
        try:
            if self.unsaved is not None or what == _SAVE_GAME:
                j.compact(self.game.setup_dict(), self.game.log.tuples())
            elif what == _SAVE_ACTION:
                j.append(arg)
            elif what == _SAVE_UNDO:
                j.undo()
            else:
                j.start(arg)
        except OSError as exc:
            from osada_fw.store import faults  # loaded only when flash fails
            words = faults.words(exc)
            if words != self.unsaved:
                self.unsaved = words
                self.app.push({"ev": "journal", "saved": False, "status": words})
            return False
        if self.unsaved is not None:
            self.unsaved = None
            self.app.push({"ev": "journal", "saved": True, "status": "ok"})
        return True

    def journal_status(self):
        """"ok"; why the game is not saved; or "damaged": a saved game could
        not be read back, and the table has not acknowledged it yet."""
        if self.unsaved is not None:
            return self.unsaved
        return "ok" if self.journal.damage is None else "damaged"

    def apply(self, action):
        """Apply one action (dict) from the protocol or the buttons; journal it
        before anything is acknowledged.  Returns the events; raises
        RuleError (nothing changed).  A flash that fails does not refuse the
        action (see _save): self.unsaved says so."""
        t = parse(action)
        events = self.game.apply_tuple(t)
        self._save(_SAVE_ACTION, t)
        self.after_change(events, now=self.app.hw.clock.ticks_ms())
        return events

    def undo(self, confirm=False):
        """Take back the last action, or in a new game with none yet bring back
        the game it replaced; past a reveal only when confirmed (R30).
        RuleError / CommandError with nothing changed (siege/takeback.py,
        loaded for it)."""
        from osada_fw.siege import takeback
        try:
            ev, whole = takeback.undo(self, confirm)
        finally:
            forget("osada_fw.siege.takeback")
            _built()
        self._save(_SAVE_GAME if whole else _SAVE_UNDO)
        self.after_change([ev], now=self.app.hw.clock.ticks_ms())

    def after_change(self, events, now):
        push = self.app.push
        for ev in events:
            push(ev)
        self.push_state()
        self.ui.on_events(events, now)

    def push_state(self):
        st = self.game.state()
        del st["events"]
        self.app.outbox.put({"ev": "state", "seq": len(self.game.log), "state": st})

    def new_game(self, setup):
        """Start a new game from setup (players, mode, variants, seed: each
        optional; a free seed if none).  RuleError('format') if it is bad,
        nothing changed then.  Returns True if the journal saved it."""
        setup = dict(setup)
        if "seed" not in setup:
            setup["seed"] = self.app.hw.free_roll_seed()
        old = self.game
        try:
            game = Game.from_setup(setup)
        finally:                       # a refused setup too
            _built()
        if old is not None and len(old.log):   # kept for undo (siege/replaced.py)
            from osada_fw.siege import replaced
            self.replaced = replaced.keep(old)
            forget("osada_fw.siege.replaced")
        self.game = game
        saved = self._save(_SAVE_START, game.setup_dict())
        self.ui.reset()
        self.after_change(game.events, now=self.app.hw.clock.ticks_ms())
        return saved

    def recover(self):
        """After an unexpected error the game in memory may be half-changed:
        rebuild it from its setup and log (an action is logged only once it
        is applied in full), which the journal holds too when it is saved."""
        try:
            self.game = replay(self.game.setup_dict(), self.game.log.tuples())
        except Exception:
            game = self.journal.restore() if self.unsaved is None else None
            if game is not None:
                self.game = game
        _built()
        self.push_state()
