"""Siege in the monitor (osada.gameview's interface): the board and the game
panel drawn from the device's state (board.py, panel.py), the cursor on the
board and the enemy it picks (the strongest in the cell, Tab the next, a
pending choice's candidates), and the requests its keys (keys.KEYMAP) send;
its dialogs are screens.py's."""

import time

from rich.text import Text

from osada.gameview import GameView
from osada.words import texts
from shared_rules.siege.catalog import LINES
from shared_rules.siege.public import table_state

from . import ring_forecast
from .board import LEGEND, MORE, board_cells, candidates, render_board, strongest
from .keys import KEYMAP, keys_for
from .live_forecast import LiveForecast
from .panel import forecast_text, info_text
from .screens import ConfirmScreen, MarshalScreen, NewGameScreen
from .turn_actions import TurnActions


def action_text(action, state=None):
    """An action in words: "hit Tiger E #13", "move sector 2" (its enemy by name, as in `state`)."""
    what = action.get("do", "?").replace("_", " ")
    if "enemy" in action:
        what += " " + texts.named_enemies("enemy %s" % action["enemy"], state)
    if "sector" in action:
        what += " sector %s" % action["sector"]
    return what


HAND_SHOWN_S = 10          # the field marshal's hand on the monitor after H (issue 59)


class SiegeView(GameView):
    """Siege's board, panel and keys.  The device's state is the shell's
    (`shell.state`: it keeps Siege's game while another game runs); the
    setup (players, mode, variants: the reply to `log`), the cursor, the
    enemy Tab picked and the marked candidate are the view's."""

    GAME = "siege"
    KEYMAP = KEYMAP
    EVENT_STYLES = {"reveal": "#7fd7ff", "he111": "bold #ff8040", "destroyed": "#ff7070",
                    "building_destroyed": "bold #ff4040", "wall_destroyed": "#ff9f40", "dot_destroyed": "#ff9f40",
                    "won": "bold #40ff60", "lost": "bold #ff4040", "turn": "bold", "undo": "#c0a0ff",
                    "phase": "dim", "end_turn": "dim", "move": "#a0c0ff"}

    def __init__(self, shell):
        super().__init__(shell)
        self.setup = None             # players, mode, variants, seed (the reply to `log`)
        self.hand_until = 0.0         # the field marshal's hand is shown on the monitor until then (H)
        self.cursor = (1, 1)          # (sector 1..6, line index 0..4: rear .. city)
        self.sel_id = None            # the enemy Tab picked in the cursor cell
        self.cand_i = 0               # the marked candidate of a pending damage choice
        self.last_cands = None
        self.live = None              # the forecast's worker (live_forecast.py), while the panel is shown
        self.turns = TurnActions()    # the actions of this turn, for the forecast's stamp

    @property
    def state(self):
        return self.shell.state

    @property
    def seq(self):
        return self.shell.seq

    # ------------------------------------------------------ what the device says

    def on_connect(self):
        """The board (a state push comes with every connect); the setup once."""
        out = [("state", {})]
        if self.setup is None:
            out.append(("log", {"from": 0}))
        return out

    def on_state(self, state, seq):
        self._follow_pending()
        self._feed_forecast()

    def on_quit(self):
        if self.live is not None:
            self.live.stop()

    def _feed_forecast(self):
        """The forecast's worker follows the state while the panel is shown."""
        if not getattr(self.shell, "forecast", False):
            if self.live is not None:
                self.live.stop()
            return
        if self.live is None:
            self.live = LiveForecast(self.shell.changed_from_thread)
        st = self.state
        in_turn = self.turns.see(st.get("turn"), self.seq) if isinstance(st, dict) else None
        if in_turn is None and self.setup is not None:
            ask = self.turns.ask()
            if ask is not None:
                self.shell.send("log", **ask)
        self.live.update(st, self.setup, self.seq, in_turn)

    def on_event(self, ev):
        if ev.get("ev") == "setup" or (ev.get("ev") == "undo" and ev.get("game_back")):
            self.turns.reset()                     # a new game, or the game it replaced back (undo)
            self.shell.send("log", **{"from": 0})  # its setup: mode, variants, seed
        elif ev.get("ev") == "roll" and "test" not in ev:
            self.shell.set_status("die roll: %s" % ev.get("value"))

    def on_reply(self, cmd, fields, msg):
        if cmd == "undo" and not msg.get("ok") and msg.get("rule") == "R30" and not fields.get("confirm"):
            self._confirm_undo()
            return
        if not msg.get("ok"):
            return
        if cmd == "log":
            self.setup = msg.get("setup")
            st = self.state
            if isinstance(st, dict):
                self.turns.learn(msg, st.get("turn"), self.seq)
            self._feed_forecast()
            self.shell.changed()
        elif cmd == "roll":
            self.shell.set_status("die roll: %s" % msg.get("value"))
        elif cmd == "forecast":                    # F13: said, or F seemed to do nothing (issue 61 item 9)
            self.shell.set_status("the forecast is on the board's ring for %d s" % (msg.get("shown_ms", 3000) // 1000))
        elif cmd in ("act", "undo", "new"):
            self.shell.set_status("")

    def request_words(self, cmd, fields):
        """A request in words, for "not connected: … not sent" and "… refused"."""
        if cmd == "act":
            return action_text(fields.get("action") or {}, self.shell.state)
        return {"new": "new game", "forecast": "the forecast for the ring"}.get(cmd, cmd)

    # ------------------------------------------------------------- what to show

    def render(self, width, compact=False, stale=False):
        return render_board(self.state, width, self.cursor, self.selected_id(), stale, compact)

    def panel(self, compact=False, stale=False, role=None):
        """The game panel.  role: a page's (osada.web.roles decides what it sees); None: the
        monitor's own, where the field marshal's hand is shown only while he asks for it (H)."""
        st, setup = self.state, self.setup
        if role is not None:
            from osada.web.roles import setup_for, state_for
            st, setup = state_for(st, role), setup_for(setup, role)
        elif not self.hand_shown():
            st = table_state(st)
        return info_text(st, setup, stale, self.cand_i, self.cursor, self.selected_enemy(), compact)

    def hand_shown(self):
        return time.monotonic() < self.hand_until

    def key_show_hand(self):
        """The field marshal's hand on this screen for HAND_SHOWN_S (his alone: no page shows it)."""
        st = self.state or {}
        if "marshal_hand" not in st:
            self.shell.set_status("no field marshal in this game (mode marshal: %s)" % keys_for("new_game"),
                                  refused=True)
            return None
        self.hand_until = time.monotonic() + HAND_SHOWN_S
        self.shell.set_status("the field marshal's hand is shown here for %d s" % HAND_SHOWN_S)
        self.shell.set_timer(HAND_SHOWN_S + 0.05, self.shell.changed)
        return None

    def aside(self):
        """The threat forecast panel (F14), while it is shown."""
        if not getattr(self.shell, "forecast", False) or self.state is None:
            return None
        return forecast_text(self.live, self.state, self.setup)

    def forecast_result(self):
        """The forecast of the state on the board (live_forecast.LiveResult) while it is shown, or None."""
        if not getattr(self.shell, "forecast", False) or self.state is None or self.live is None:
            return None
        return self.live.current(self.state, self.setup)

    def aside_line(self):
        if not getattr(self.shell, "forecast", False) or self.state is None:
            return None
        return forecast_text(self.live, self.state, self.setup, compact=True)

    def help_tail(self, closes):
        tanks = [k for k in texts.SHORT if not texts.is_special(k)]
        specials = [k for k in texts.SHORT if texts.is_special(k)]
        return Text(
            "\nThe board: one column per sector; rows rear (outermost) … tank, the wall, the city.\n"
            + LEGEND[0] + " (Lancaster B, Strv-81, IS-3: any colour).\n"
            + MORE.strip() + " marks more rows of the same line (a cell holding more enemies than fit on one row).\n"
            "Tags are kind + armor: %s;\n" % ", ".join("%s = %s" % (texts.short(k), texts.ru(k)) for k in tanks)
            + "specials end in * (magenta): %s. Yellow: damaged.\n"
            % ", ".join("%s = %s" % (texts.short(k), texts.ru(k)) for k in specials)
            + "(Tanks are printed with their Latin model names; the Russian rulebook uses them as they are.)\n"
            "# (underlined): under the hedgehog. Magenta with a number: a pending damage choice.\n"
            + closes, style="dim")

    # ------------------------------------------------------------ selection

    def cell_enemies(self, sector=None, line=None):
        if self.state is None:
            return []
        s = self.cursor[0] if sector is None else sector
        ln = LINES[self.cursor[1]] if line is None else line
        return board_cells(self.state).get((s, ln), [])

    def selected_enemy(self):
        es = self.cell_enemies()
        for e in es:
            if e["id"] == self.sel_id:
                return e
        return strongest(es)

    def selected_id(self):
        if candidates(self.state):
            return None
        e = self.selected_enemy()
        return e["id"] if e else None

    def _follow_pending(self):
        """A new pending choice: select its first candidate, put the cursor on it."""
        cands = candidates(self.state)
        if cands != self.last_cands:
            self.last_cands = cands
            self.cand_i = 0
            if cands:
                self._cursor_to(cands[0])
        elif cands and self.cand_i >= len(cands):
            self.cand_i = 0

    def _cursor_to(self, eid):
        for e in (self.state or {}).get("enemies", ()):
            if e["id"] == eid:
                self.cursor = (e["sector"], LINES.index(e["line"]))
                self.sel_id = eid

    def key_cursor(self, dl, ds):
        s, li = self.cursor
        s = (s - 1 + ds) % 6 + 1
        li = min(4, max(0, li + dl))
        self.sel_id = None
        self.cursor = (s, li)

    # -------------------------------------------------------------- actions

    @staticmethod
    def act(action):
        """The request that plays `action` on the device."""
        return ("act", {"action": action})

    def _target(self, what):
        e = self.selected_enemy()
        if e is None:
            s, li = self.cursor
            self.shell.set_status("%s: no enemy in sector %d %s" % (what, s, LINES[li]), refused=True)
        return e

    def key_next_enemy(self):
        cands = candidates(self.state)
        if cands:
            self.cand_i = (self.cand_i + 1) % len(cands)
            self._cursor_to(cands[self.cand_i])
        else:
            es = self.cell_enemies()
            if es:
                cur = self.selected_enemy()
                ids = [e["id"] for e in es]
                self.sel_id = ids[(ids.index(cur["id"]) + 1) % len(ids)]

    def key_digit(self, n):
        """Choose candidate n while a choice is pending, else jump to sector n."""
        if candidates(self.state):
            return self.key_choose(n - 1)
        if n <= 6:
            self.sel_id = None
            self.cursor = (n, self.cursor[1])
        return None

    def _on_target(self, do):
        """`do` for the selected enemy (default: the strongest in the cell)."""
        e = self._target(do.replace("_", " "))
        return self.act({"do": do, "enemy": e["id"]}) if e else None

    def key_hit(self):
        return self._on_target("hit")

    def key_kill(self):
        return self._on_target("kill")

    def key_hedgehog(self):
        return self._on_target("hedgehog")

    def key_push_back(self):
        return self._on_target("push_back")

    def key_dot(self):
        return self.act({"do": "dot", "sector": self.cursor[0]})

    def key_rebuild(self):
        return self.act({"do": "rebuild", "sector": self.cursor[0]})

    def key_patrol(self):
        return self.act({"do": "patrol"})

    def key_move(self):
        return self.act({"do": "move"})

    def key_reveal(self):
        return self.act({"do": "reveal"})

    def key_end_turn(self):
        """End the turn.  In marshal mode (R60, R17) the engine's end_turn from
        phase 4 moves the enemies and stops in phase 7 for the marshal, who has
        drawn and must play (marshal_play, possibly nothing); after a patrol it
        only moves them and the next turn starts.  In phase 7 itself, or with
        his extra play pending, e opens his play: the turn ends with it."""
        st = self.state or {}
        pend = st.get("pending") or {}
        if "marshal_hand" in st and st.get("outcome") == "playing":
            if pend.get("choice") == "marshal_extra" or (st.get("phase") == 7 and not pend and not st.get("patrol")):
                return self.key_marshal()
        return self.act({"do": "end_turn"})     # the game panel then shows his turn (phase 7), if any

    def key_choose(self, index=None):
        st = self.state or {}
        pend = st.get("pending") or {}
        if pend.get("choice") == "marshal_extra":
            return self.key_marshal()
        cands = candidates(st)
        if not cands:
            self.shell.set_status("nothing to choose: no pending choice", refused=True)
            return None
        i = self.cand_i if index is None else index
        if not 0 <= i < len(cands):
            self.shell.set_status("there are %d candidates" % len(cands), refused=True)
            return None
        return self.act({"do": "choose", "enemy": cands[i]})

    def key_marshal(self):
        st = self.state or {}
        if "marshal_hand" not in st:
            self.shell.set_status("marshal_play is for mode marshal (%s: new game)" % keys_for("new_game"),
                                  refused=True)
            return None
        pend = st.get("pending") or {}
        extra = pend.get("count", 0) if pend.get("choice") == "marshal_extra" else 0
        if not extra and st.get("phase") != 7:
            self.shell.set_status("the field marshal plays in phase 7, after the defenders' turn: "
                                  "%s (or %s) moves the enemies and hands over to him"
                                  % (keys_for("end_turn"), keys_for("move")), refused=True)
            return None

        def done(action):
            if action is not None:
                self.shell.send("act", action=action)
        self.shell.push_screen(MarshalScreen(st["marshal_hand"], extra, bool(st.get("patrol")) and not extra), done)
        return None

    def key_forecast(self):
        self.shell.forecast = not getattr(self.shell, "forecast", False)
        self._feed_forecast()
        self.shell.set_status("threat forecast %s" % ("shown" if self.shell.forecast else "hidden"))
        return None

    def key_ring_forecast(self):
        """The forecast of the state on the board, sent for the ring to show (F13)."""
        res = self.live.current(self.state, self.setup) if self.live is not None else None
        if res is None:
            why = self.live.why if self.live is not None else "the forecast is hidden (%s)" % keys_for("forecast")
            self.shell.set_status("no forecast to show on the ring: %s" % (why or "still being worked out"),
                                  refused=True)
            return None
        return ring_forecast.request(res)

    def key_undo(self):
        return ("undo", {})

    def _confirm_undo(self):
        """The last action drew tokens or rolled the die (R30): the table has seen them, and
        an undo brings the same ones again; the device takes it back only when confirmed."""
        def done(yes):
            if yes:
                self.shell.send("undo", confirm=True)
            else:
                self.shell.set_status("not undone: the tokens and dice the table saw stand (R30)")
        self.shell.push_screen(ConfirmScreen(
            "Undo past a reveal? The table has seen the tokens and dice that came out; "
            "they will come out the same again (R30)."), done)

    def key_roll(self):
        return ("roll", {})

    def key_new_game(self):
        st = self.state or {}
        setup = self.setup or {}
        players = setup.get("players") or len(st.get("trophies") or {}) or 2

        def done(fields):
            if fields is not None:
                self.shell.send("new", **fields)
        in_progress = None
        if self.seq and st.get("outcome", "playing") == "playing":   # a game under way: Start asks first
            in_progress = "turn %s, %d action%s" % (st.get("turn", "?"), self.seq, "" if self.seq == 1 else "s")
        self.shell.push_screen(NewGameScreen(players, setup.get("mode", "standard"), setup.get("variants") or (),
                                             in_progress), done)
        return None


VIEW = SiegeView
