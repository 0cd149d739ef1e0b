"""Siege's keys in the monitor: the cursor on the board, the enemy it picks
(the strongest in the cell, Tab the next, a pending choice's candidates),
and the actions the keys (keymap.SIEGE_KEYMAP) send.  SiegeKeys is a base
of MonitorApp (app.py), which holds the mirror these read."""

from typing import Any

from shared_rules.siege.catalog import LINES

from .board import board_cells, candidates, strongest
from .keymap import keys_for
from .screens import MarshalScreen, NewGameScreen


def action_text(action):
    what = action.get("do", "?").replace("_", " ")
    for k in ("enemy", "sector"):
        if k in action:
            what += " %s %s" % (k, action[k])
    return what


class SiegeKeys:
    """MonitorApp's selection and Siege's actions: what they read and call
    of the app is declared here (the app's reactive mirror, its session)."""

    state: Any
    setup: Any
    seq: Any
    cursor: Any
    sel_id: Any
    cand_i: Any
    last_cands: Any
    session: Any
    conn_kind: Any
    set_status: Any
    push_screen: Any

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

    def action_cursor(self, dl, ds):
        s, li = self.cursor
        s = (s - 1 + ds) % 6 + 1
        li = min(4, max(0, li + dl))
        self.sel_id = None
        self.cursor = (s, li)

    # -------------------------------------------------------------- actions

    def send_action(self, action):
        if self.session is None:
            return
        if self.conn_kind != "connected":
            self.set_status("not connected: %s not sent" % action_text(action), refused=True)
            return
        self.session.submit("act", action=action)

    def _target(self, what):
        e = self.selected_enemy()
        if e is None:
            s, li = self.cursor
            self.set_status("%s: no enemy in sector %d %s" % (what, s, LINES[li]), refused=True)
        return e

    def action_next_enemy(self):
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

    def action_digit(self, n):
        """Choose candidate n while a choice is pending, else jump to sector n."""
        if candidates(self.state):
            self.action_choose(n - 1)
        elif n <= 6:
            self.sel_id = None
            self.cursor = (n, self.cursor[1])

    def _on_target(self, do):
        """Send `do` for the selected enemy (default: the strongest in the cell)."""
        e = self._target(do.replace("_", " "))
        if e:
            self.send_action({"do": do, "enemy": e["id"]})

    def action_hit(self):
        self._on_target("hit")

    def action_kill(self):
        self._on_target("kill")

    def action_hedgehog(self):
        self._on_target("hedgehog")

    def action_push_back(self):
        self._on_target("push_back")

    def action_dot(self):
        self.send_action({"do": "dot", "sector": self.cursor[0]})

    def action_rebuild(self):
        self.send_action({"do": "rebuild", "sector": self.cursor[0]})

    def action_patrol(self):
        self.send_action({"do": "patrol"})

    def action_move(self):
        self.send_action({"do": "move"})

    def action_reveal(self):
        self.send_action({"do": "reveal"})

    def action_end_turn(self):
        """End the turn.  In marshal mode (R60, R17) the engine's end_turn from
        phase 4 moves the enemies and stops in phase 7 for the marshal, who has
        drawn and must play (marshal_play, possibly nothing); after a patrol it
        only moves them and the next turn starts.  In phase 7 itself, or with
        his extra play pending, e opens his play: the turn ends with it."""
        st = self.state or {}
        pend = st.get("pending") or {}
        if "marshal_hand" in st and st.get("outcome") == "playing":
            if pend.get("choice") == "marshal_extra" or (st.get("phase") == 7 and not pend and not st.get("patrol")):
                self.action_marshal()
                return
        self.send_action({"do": "end_turn"})     # the game panel then shows his turn (phase 7), if any

    def action_choose(self, index=None):
        st = self.state or {}
        pend = st.get("pending") or {}
        if pend.get("choice") == "marshal_extra":
            self.action_marshal()
            return
        cands = candidates(st)
        if not cands:
            self.set_status("nothing to choose: no pending choice", refused=True)
            return
        i = self.cand_i if index is None else index
        if not 0 <= i < len(cands):
            self.set_status("there are %d candidates" % len(cands), refused=True)
            return
        self.send_action({"do": "choose", "enemy": cands[i]})

    def action_marshal(self):
        st = self.state or {}
        if "marshal_hand" not in st:
            self.set_status("marshal_play is for mode marshal (n: new game)", refused=True)
            return
        pend = st.get("pending") or {}
        extra = pend.get("count", 0) if pend.get("choice") == "marshal_extra" else 0
        if not extra and st.get("phase") != 7:
            self.set_status("the field marshal plays in phase 7, after the defenders' turn: "
                            "%s (or %s) moves the enemies and hands over to him"
                            % (keys_for("end_turn"), keys_for("move")), refused=True)
            return

        def done(action):
            if action is not None:
                self.send_action(action)
        self.push_screen(MarshalScreen(st["marshal_hand"], extra, bool(st.get("patrol")) and not extra), done)

    def action_undo(self):
        if self.conn_kind == "connected":
            self.session.submit("undo")

    def action_roll(self):
        if self.conn_kind == "connected":
            self.session.submit("roll")

    def action_new_game(self):
        st = self.state or {}
        setup = self.setup or {}
        players = setup.get("players") or len(st.get("trophies") or {}) or 2

        def done(fields):
            if fields is None:
                return
            if self.conn_kind != "connected":
                self.set_status("not connected: new game not sent", refused=True)
                return
            self.session.submit("new", **fields)
        in_progress = None
        if self.seq and st.get("outcome", "playing") == "playing":   # a game under way: Start asks first
            in_progress = "turn %s, %d action%s" % (st.get("turn", "?"), self.seq, "" if self.seq == 1 else "s")
        self.push_screen(NewGameScreen(players, setup.get("mode", "standard"), setup.get("variants") or (),
                                       in_progress), done)
