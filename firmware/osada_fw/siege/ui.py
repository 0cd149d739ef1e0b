# Playing from the device alone: the encoder and two buttons drive every
# action, shown on the LEDs.  (firmware/README.md has the player's guide.)
#
#   PLAY   encoder: move the cursor over the cells (sector 1 rear ... city, then sector 2 ...)
#          ACTION: phase 4 hit the strongest enemy under the cursor; phase 6 reveal
#          hold ACTION: the play menu for the cursor's cell (kill, hedgehog,
#                       push back, dot, rebuild, patrol)
#          BACK: phase 4 enemies move (marshal mode: end the turn: they move,
#                then the marshal's phase 7); phase 6 end the turn; phase 7 the
#                marshal plays nothing (after a patrol: end the turn)
#          hold BACK: undo the last action
#          press ENCODER: a free die roll (does not touch the game)
#          hold ENCODER: new game setup (players, mode, variants)
#   CHOOSE a damage choice is pending: the encoder cycles the candidates, ACTION picks
#   MENU   the items light the six sectors in their colours; encoder picks, ACTION
#          takes, BACK cancels
#   MARSHAL his hand, ACTION toggles a token, BACK plays the picked ones (none:
#          nothing); only R60 plays go: one tank (then its sector), two tokens,
#          or nothing -- a lone non-tank or a third token is refused with its
#          reason ({"ev": "refused", "rule": "R60", ...}); after his reveal3/4,
#          up to that many, placed by die rolls
#
# The menus are data (item lists) so they take no code per item.

from osada_fw import elapsed, later
from osada_fw.games import GAME_MENU_MS, GAMES, MENU_COLORS
from osada_fw.layouts import NONE, NPARTS
from shared_rules.siege.catalog import strength
from shared_rules.siege.engine import PHASE_MARSHAL, PHASE_PLAY, PHASE_REVEAL, RuleError

CURSOR_CELLS = 30          # 6 sectors x (4 lines + city)
PLAY_MENU = ("kill", "hedgehog", "push_back", "dot", "rebuild", "patrol")
CURSOR = (255, 255, 255)
CURSOR_CITY = (0, 255, 255)
CHOSEN = (255, 0, 255)
# The game menu at a Siege boot is one of this UI's menus ("game", the
# registry's games, osada_fw/gamemenu.py): turns pick, ACTION takes, BACK
# cancels (Siege goes on); after GAME_MENU_MS the highlighted one is taken.
# Switching: osada_fw/gamemenu.py, loaded only then (app.pick_game).

M_PLAY = 0
M_CHOOSE = 1
M_MENU = 2


class UI:
    def __init__(self, siege):
        self.siege = siege             # siege/mode.py: the game, its actions; siege.app: the device
        self.reset()

    def reset(self):
        self.mode = M_PLAY
        self.cursor = 0
        self.menu = None           # (kind, items, selected flags or None)
        self.marshal_limit = 0     # the marshal menu: 0 his turn's play (R60), n after his reveal3/4
        self.pending_action = None # an action waiting for its sector (the sector menu)
        self.sel = 0
        self.cand = 0
        self.setup = None
        self.roll_until = 0
        self.roll_value = 0
        self.message_until = 0

    def game_menu(self, now):
        self.open_menu("game", GAMES)
        self.menu_until = later(now, GAME_MENU_MS)

    def game_menu_open(self):
        return self.mode == M_MENU and self.menu[0] == "game"

    def close_game_menu(self):
        """A host's request that changes something closes the game menu."""
        if self.game_menu_open():
            self.close()

    def close(self):
        """Back to play: whatever menu was open is closed."""
        self.mode = M_PLAY
        self.menu = None

    def pick(self, gid, now):
        """Run game gid (None: the game menu of gamemenu.py); Siege runs already."""
        if gid != "siege":
            self.siege.app.pick_game(gid, now)

    # ------------------------------------------------------------- helpers

    def cursor_cell(self):
        return self.cursor // 5 + 1, self.cursor % 5

    def top_enemy(self, sector, line):
        """The cell's strongest enemy (catalog.strength), as the LEDs show it."""
        best = None
        top = -1
        for e in self.siege.game.enemies:
            if e.sector == sector and e.line == line:
                sc = strength(e.kind, e.armor, e.id)
                if sc > top:
                    best = e
                    top = sc
        return best

    def act(self, action, now):
        """Apply an action from the buttons; a refusal is told to the host
        and flashed red on the cursor.  True if it was applied."""
        try:
            self.siege.apply(action)
            return True
        except RuleError as exc:
            self.siege.app.push({"ev": "refused", "rule": exc.rule, "error": exc.message, "source": "buttons"})
        except Exception as exc:       # CommandError (flash): told to the host
            self.siege.app.push({"ev": "error", "error": str(exc), "source": "buttons"})
        self.flash_red(now, 600)
        return False

    def flash_red(self, now, ms):
        """The cursor red for ms: that did nothing."""
        self.message_until = later(now, ms)

    def open_menu(self, kind, items, multi=False):
        self.mode = M_MENU
        self.menu = (kind, items, [False] * len(items) if multi else None)
        self.sel = 0

    # -------------------------------------------------------------- events

    def handle(self, ev, now):
        what, value = ev
        siege = self.siege
        game = siege.game
        if what == "press" and value == "encoder":
            self.show_roll(siege.app.free_rng.die(), now)
            siege.app.push({"ev": "roll", "value": self.roll_value})
            return
        if what == "long" and value == "back" and siege.app.hw.inputs.held("action"):
            self.pick(None, now)           # ACTION and BACK held together: the game menu
            return
        if what == "long" and value == "encoder":
            self.setup = {}
            self.open_menu("players", (1, 2, 3, 4, 5, 6))
            return
        if what == "long" and value == "back":
            try:
                siege.undo(None)           # None: from the buttons (past a reveal, asked twice: takeback.py)
            except Exception:
                self.flash_red(now, 600)
            self.mode = M_PLAY
            return
        if self.mode == M_MENU:
            self._menu_event(what, value, now)
        elif game.pending is not None and game.pending["choice"] == "damage":
            self._choose_event(what, value, now)
        elif game.pending is not None:                          # marshal_extra
            if what == "press" and value == "action":
                self._marshal_menu(game.pending["count"])
        else:
            self._play_event(what, value, now)

    def _play_event(self, what, value, now):
        game = self.siege.game
        if what == "turn":
            self.cursor = (self.cursor + value) % CURSOR_CELLS
        elif what == "press" and value == "action":
            if game.phase == PHASE_PLAY:
                s, line = self.cursor_cell()
                e = self.top_enemy(s, line)
                if e is None:
                    self.flash_red(now, 300)
                else:
                    self.act({"do": "hit", "enemy": e.id}, now)
            elif game.phase == PHASE_REVEAL:
                self.act({"do": "reveal"}, now)
            elif game.phase == PHASE_MARSHAL:
                self._marshal_menu(0)
        elif what == "long" and value == "action":
            if game.phase == PHASE_PLAY:
                self.open_menu("play", PLAY_MENU)
        elif what == "press" and value == "back":
            if game.phase == PHASE_PLAY and game.mode != "marshal":
                self.act({"do": "move"}, now)
            elif game.phase == PHASE_MARSHAL and not game.patrol:
                self.act({"do": "marshal_play", "tokens": []}, now)   # R60: he plays nothing
            else:
                # marshal mode, phase 4: the engine moves the enemies, then stops in
                # phase 7 for the marshal (after a patrol it ends the turn, R17)
                self.act({"do": "end_turn"}, now)

    def _choose_event(self, what, value, now):
        cands = self.siege.game.pending["candidates"]
        if what == "turn":
            self.cand = (self.cand + value) % len(cands)
        elif what == "press" and value == "action":
            eid = cands[self.cand % len(cands)]
            self.cand = 0
            self.act({"do": "choose", "enemy": eid}, now)

    def _marshal_menu(self, limit):
        from osada_fw.siege import marshal_menu  # marshal mode only: no heap in other games
        marshal_menu.open_menu(self, limit)

    def _menu_event(self, what, value, now):
        """A turn moves the highlight here; a press is siege/menu.py's,
        loaded for it and dropped after (menus are rare: no heap between)."""
        items = self.menu[1]
        if what == "turn":
            if items:
                self.sel = (self.sel + value) % len(items)
            return
        from osada_fw import forget
        from osada_fw.siege import menu
        try:
            menu.press(self, what, value, now)
        finally:
            forget("osada_fw.siege.menu")

    # ------------------------------------------------------------ feedback

    def _before(self, now, until):
        """now is before `until` (wrap-aware, as time.ticks_diff)."""
        return until and elapsed(now, until) < 0

    def show_roll(self, value, now):
        self.roll_value = value
        self.roll_until = later(now, 1500)
        self.siege.animations().roll(self.siege, value, now)

    def on_events(self, events, now):
        if self.siege.game.pending is not None:
            self.cand = 0
        self.siege.animations().events(self.siege, events, now)

    def overlay(self, now, r):
        """Draw the cursor, the menu or the choice over the board, into frame r."""
        lay = self.siege.app.layout
        blink = (now // 250) & 1
        game = self.siege.game
        if self.mode == M_MENU:
            kind, items, picked = self.menu
            if kind == "game" and not self._before(now, self.menu_until):
                self.mode = M_PLAY                 # time is up: the highlighted game
                self.pick(items[self.sel], now)
                return
            inv = lay.inv                  # lay.index(i + 1, line) without its checks: a frame is hot
            for i in range(min(6, len(items))):
                on = (i == self.sel and blink) or (picked is not None and picked[i])
                c = MENU_COLORS[i] if (on or i != self.sel) else (0, 0, 0)
                for code in range(i * NPARTS, i * NPARTS + 4):
                    r.set_pixel(inv[code], c[0], c[1], c[2])
            return
        if game.pending is not None and game.pending["choice"] == "damage":
            cands = game.pending["candidates"]
            e = game.enemy(cands[self.cand % len(cands)])
            if e is not None and blink:
                self._light_cell(r, e.sector, e.line, CHOSEN)
            return
        if not blink or self._before(now, self.roll_until):
            return                     # the cursor's dark half; or the die roll animation has the board
        s = self.cursor // 5 + 1          # inline, not cursor_cell(): no tuple per frame
        line = self.cursor % 5
        color = (255, 0, 0) if self._before(now, self.message_until) else (CURSOR_CITY if line == 4 else CURSOR)
        self._light_cell(r, s, line, color)

    def _light_cell(self, r, s, line, c):
        inv = self.siege.app.layout.inv    # layouts.cell_code(s, line) -> LED, without its checks: a frame is hot
        code = (s - 1) * NPARTS + line
        i = inv[code]
        if line == 4 and i == NONE:
            i = inv[code - 1]           # no city LEDs: the tank LED stands for the city
        r.set_pixel(i, c[0], c[1], c[2])
