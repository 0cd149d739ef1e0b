"""`osada monitor`: the device mirrored live, full screen, with keys to play.

    Session      the Link (client.py) on its own thread: connects, polls,
                 reconnects every 0.5 s, sends what the UI asks; the UI only
                 drains its queue (every 20 ms), so serial I/O never blocks it
    render_board the board as a picture: one column per sector, rows rear ...
                 tank, the wall, the city
    MonitorApp   the textual app; KEYMAP is the one table of keys (help: ?)

`run_monitor(port, start_sim)` is what the CLI calls; `main(args)` takes the
argparse Namespace (`port`, `start_sim`)."""

import os
import queue
import subprocess
import sys
import threading
import time

from rich.style import Style
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Footer, Input, Label, RichLog, Select, SelectionList, Static

from osada import client, paths, texts
from osada.client import Link, ProtocolError, SerialTransport
from shared_rules.catalog import LINES, MODES, SECTOR_COLOR, VARIANTS, kind_index, strength

SIM_LINK = client.SIM_LINK
SIM_STATE = paths.SIM_STATE
RETRY_S = 0.5                 # reconnect / look for the device this often
POLL_S = 0.02                 # the UI drains the session's queue this often
REPLY_TIMEOUT_S = 5.0         # a request unanswered this long: the device is gone

# ------------------------------------------------------------------ key map
# The one table of keys: (textual key(s), action, keys as shown, short name, what it does, in the footer).
# The bindings, the footer, the help screen, the sidebar's key list and every hint
# that names a key (keys_for) are made from it, so none can name a key that does
# something else (tests/host/test_monitor_keys.py holds them to it).
KEYMAP = (
    ("left", "cursor(0,-1)", "← →", "sector", "cursor: previous / next sector (1…6, wraps)", False),
    ("right", "cursor(0,1)", "", "", "", False),
    ("up", "cursor(-1,0)", "↑ ↓", "line", "cursor: outwards / inwards (rear, air, artillery, tank, city)", False),
    ("down", "cursor(1,0)", "", "", "", False),
    ("tab", "next_enemy", "Tab", "next enemy",
     "next enemy in the cursor cell; with a pending choice: mark the next candidate", False),
    ("1,2,3,4,5,6,7,8,9", "digit", "1–9", "sector / candidate",
     "cursor to sector N (1–6); with a pending choice: choose candidate N at once", False),
    ("h", "hit", "h", "hit",
     "hit the selected enemy (default: the cell's strongest): 1 damage (R10)", True),
    ("k", "kill", "k", "kill", "kill the selected enemy: IL-2 (R12)", True),
    ("g", "hedgehog", "g", "hedgehog", "hedgehog (противотанковые ежи) on the selected enemy (R13)", False),
    ("p", "push_back", "p", "push back", "push the selected enemy back to the rear: Натиск (R15)", False),
    ("d", "dot", "d", "ДОТ", "ДОТ (dot) on the wall of the cursor's sector (R14)", False),
    ("b", "rebuild", "b", "rebuild", "rebuild the cursor sector's wall: sandbags + barbed wire (R16)", False),
    ("t", "patrol", "t", "patrol", "patrol: no reveals this turn; in marshal mode he only moves the enemies (R17)",
     False),
    ("m", "move", "m", "move", "the enemies move (phase 5), then the reveals (phase 6) or the marshal (phase 7)",
     False),
    ("r", "reveal", "r", "reveal", "reveal the next token (phase 6)", True),
    ("e", "end_turn", "e", "end turn", "end the turn: the enemies move, the reveals due, next player. Marshal mode:"
     " the enemies move, then the marshal draws and plays (phase 7: his play opens; after a patrol he only"
     " moves them)", True),
    ("c,enter", "choose", "c Enter", "choose",
     "choose the marked candidate of a pending choice; the marshal's extra play (after reveal3/reveal4)", True),
    ("M", "marshal", "M", "marshal", "the field marshal's play from his hand: phase 7, or his extra play after"
     " reveal3/reveal4 (R60)", False),
    ("u", "undo", "u", "undo", "undo the last action", True),
    ("o", "roll", "o", "roll", "a free die roll (the game is not touched)", False),
    ("n", "new_game", "n", "new game", "new game: players, mode, variants, seed", True),
    ("question_mark", "help", "?", "help", "this help (every key)", True),
    ("q", "quit", "q", "quit", "quit (stops a simulator the monitor started); Ctrl+Q too", True),
)


def keys_for(action):
    """The keys that do `action`, as the help shows them ('c/Enter'), from KEYMAP."""
    for _k, a, shown, _short, _w, _f in KEYMAP:
        if a == action:
            return shown.replace(" ", "/")
    raise KeyError(action)


# The hints of the game panel: (action, what its keys do there); keys from KEYMAP.
DAMAGE_HINTS = (("next_enemy", "mark the next"), ("choose", "choose the marked one"),
                ("digit", "choose that number at once"))
MARSHAL_HINTS = (("marshal", "his play"), ("end_turn", "his play too"))
EXTRA_HINTS = (("choose", "his play"), ("marshal", "his play"))


def hints(pairs):
    return " · ".join("%s %s" % (keys_for(a), what) for a, what in pairs)


# ------------------------------------------------------------- the picture

HEADER_BG = {"red": "#8b1a1a", "green": "#1d6b2a", "blue": "#1f4596"}
CELL_BG = {"red": "#2b1111", "green": "#0f2714", "blue": "#0f1a36"}
CURSOR_BG = "#5c5200"
NATION = {"red": "Soviet", "green": "US", "blue": "British"}
ROW_LABELS = {"rear": ("rear", "тыл"), "air": ("air", "авиация"), "artillery": ("artillery", "артиллерия"),
              "tank": ("tank", "танки"), "city": ("city", "город")}
LABEL_W = 11


def board_cells(state):
    """(sector, line) -> the enemies there (dicts, by id)."""
    cells = {}
    for e in (state or {}).get("enemies", ()):
        cells.setdefault((e["sector"], e["line"]), []).append(e)
    for lst in cells.values():
        lst.sort(key=lambda e: e["id"])
    return cells


def enemy_tag(e):
    """'Tgr3', 'Maus*3'; '#' marks the hedgehog."""
    return texts.short(e["kind"], e["armor"]) + ("#" if e.get("held") else "")


def candidates(state):
    p = (state or {}).get("pending") or {}
    return list(p.get("candidates") or ()) if p.get("choice") == "damage" else []


def strongest(enemies):
    """The cell's strongest enemy (state dicts), ranked as the device ranks
    them (shared_rules.catalog.strength); None for no enemy."""
    if not enemies:
        return None
    return max(enemies, key=lambda e: strength(kind_index(e["kind"]), e["armor"], e["id"]))


def _tag_style(e, bg, cand_no, selected):
    if cand_no:
        return Style.parse("bold black on #d050d0")
    if texts.is_special(e["kind"]):
        st = "bold #ff70ff"
    elif e["armor"] < texts.full_armor(e["kind"]):
        st = "bold #ffd24a"
    else:
        st = "bold #f0f0f0"
    if e.get("held"):
        st += " underline"
    st = Style.parse(st + " on " + bg)
    if selected:
        st += Style(reverse=True)
    return st


def _wrap(frags, width):
    """Fragments (text, style) laid out on lines of at most `width` cells."""
    lines = [[]]
    used = 0
    for text, style in frags:
        n = len(text)
        if used and used + 1 + n > width:
            lines.append([])
            used = 0
        if used:
            lines[-1].append((" ", None))
            used += 1
        if n > width:
            text = text[:width]
            n = width
        lines[-1].append((text, style))
        used += n
    return lines


def _row_label(out, text, style="bold"):
    """A row's label, in the left margin."""
    out.append(text.ljust(LABEL_W)[:LABEL_W], style=style)


def _cell(out, frags, col_w, bg):
    """One row of a cell: its fragments, padded to col_w on bg, then the column rule."""
    used = 0
    for text, style in frags:
        out.append(text, style=style if style is not None else Style(bgcolor=bg))
        used += len(text)
    out.append(" " * (col_w - used), style=Style(bgcolor=bg))
    out.append("│", style="grey35")


def _banners(out, state, width, stale):
    """The STALE line and the GAME WON / LOST line, when they apply."""
    if stale:
        out.append(" STALE — the connection is lost; this is the last board received ".ljust(width)[:width],
                   style="bold black on #d0a000")
        out.append("\n")
    if state.get("outcome") in ("won", "lost"):
        msg = " GAME WON " if state["outcome"] == "won" else " GAME LOST — the city has fallen "
        out.append(msg.center(width)[:width], style="bold white on " + ("#1d6b2a" if state["outcome"] == "won"
                                                                      else "#8b1a1a"))
        out.append("\n")


def _sector_headers(out, col_w, cur_s):
    """The two header rows: each sector's number and colour (the cursor's
    marked), then its nation, on the sector's colour."""
    _row_label(out, "sector")
    for s in range(1, 7):
        c = SECTOR_COLOR[s]
        label = "%d %s" % (s, c)
        if s == cur_s:
            label = "> %s <" % label
        out.append(label.center(col_w)[:col_w], style="bold white on " + HEADER_BG[c])
        out.append("│", style="grey35")
    out.append("\n")
    _row_label(out, "", "dim")
    for s in range(1, 7):
        c = SECTOR_COLOR[s]
        out.append(NATION[c].center(col_w)[:col_w], style="white on " + HEADER_BG[c])
        out.append("│", style="grey35")
    out.append("\n")


def _wall_row(out, col_w, walls, dots):
    """The wall row (between the tank line and the city): each sector's wall,
    with its ДОТ, or "no wall"."""
    _row_label(out, "wall", "bold")
    for s in range(1, 7):
        bg = CELL_BG[SECTOR_COLOR[s]]
        if s in walls:
            label = " wall+ДОТ " if s in dots else " wall "
            text = label.center(col_w, "═")[:col_w]
            out.append(text, style=Style.parse("bold #e8e8e8 on " + bg))
        else:
            out.append("· no wall ·".center(col_w)[:col_w], style=Style.parse("#c04040 on " + bg))
        out.append("│", style="grey35")
    out.append("\n")


def _enemy_frags(enemies, bg, cands, selected):
    """A cell's enemies as tag fragments; pending candidates numbered."""
    frags = []
    for e in enemies:
        no = cands.index(e["id"]) + 1 if e["id"] in cands else 0
        tag = ("%d:" % no if no else "") + enemy_tag(e)
        frags.append((tag, _tag_style(e, bg, no, e["id"] == selected)))
    return frags


def _line_rows(out, line, per, col_w):
    """A line's rows (at least two, as many as its fullest cell needs),
    labelled in English then Russian; per is each sector's (wrapped
    fragment lines, bg)."""
    height = max(2, max(len(fl) for fl, _bg in per))
    en, ru_label = ROW_LABELS[line]
    for k in range(height):
        _row_label(out, en if k == 0 else (ru_label if k == 1 else ""), "bold" if k == 0 else "dim")
        for fl, bg in per:
            _cell(out, fl[k] if k < len(fl) else [], col_w, bg)
        out.append("\n")


def render_board(state, width=96, cursor=None, selected=None, stale=False):
    """The board as rich Text: a header per sector in its colour, the four lines,
    the walls (and dots), the city with its buildings; the cursor cell lit,
    pending candidates in magenta and numbered."""
    out = Text()
    if state is None:
        out.append("no board yet — waiting for the device", style="italic")
        return out
    col_w = max(8, (width - LABEL_W) // 6 - 1)
    cells = board_cells(state)
    cands = candidates(state)
    cur_s, cur_l = cursor if cursor else (None, None)
    walls, dots, blds = set(state.get("walls", ())), set(state.get("dots", ())), set(state.get("buildings", ()))
    _banners(out, state, width, stale)
    _sector_headers(out, col_w, cur_s)
    for li, line in enumerate(LINES):
        if line == "city":
            _wall_row(out, col_w, walls, dots)
        per = []
        for s in range(1, 7):
            bg = CURSOR_BG if (s == cur_s and li == cur_l) else CELL_BG[SECTOR_COLOR[s]]
            frags = _enemy_frags(cells.get((s, line), ()), bg, cands, selected)
            if line == "city":
                if s in blds:
                    frags.insert(0, ("[building]", Style.parse("bold #ffd24a on " + bg)))
                elif not frags:
                    frags.insert(0, ("ruins", Style.parse("#806040 on " + bg)))
            per.append((_wrap(frags, col_w), bg))
        _line_rows(out, line, per, col_w)
    out.rstrip()
    if stale:
        out.stylize("dim", 0, len(out))
    return out


def phase_text(state):
    ph = state.get("phase")
    return "phase %s — %s" % (ph, texts.PHASES.get(ph, "?"))


def trophy_points(kinds):
    return sum(texts.points(k) for k in kinds)


# ------------------------------------------------------------- the sidebar


def _info_game(t, st, setup, stale):
    """The game at a glance: turn, player, phase, pool, buildings and walls,
    the mode and variants (once the setup is known), who is out."""
    if stale:
        t.append("STALE (last board seen)\n", style="bold black on #d0a000")
    outcome = st.get("outcome")
    if outcome != "playing":
        t.append("GAME %s\n" % outcome.upper(), style="bold white on " + ("#1d6b2a" if outcome == "won"
                                                                         else "#8b1a1a"))
    players = len(st.get("trophies") or {}) or 1
    t.append("Turn %s" % st.get("turn"), style="bold")
    t.append(" · player %s of %s\n" % (st.get("player"), players))
    t.append(phase_text(st).capitalize() + "\n", style="bold #7fd7ff")
    t.append("Pool %s · discard %d · reveals due %s\n" % (st.get("pool"), len(st.get("discard", ())),
                                                         st.get("reveals", 0)))
    if st.get("patrol"):
        t.append("PATROL: no reveals this turn\n", style="bold #7fd7ff")
    t.append("Buildings %d/6 · walls %d · dots %d\n" % (
        len(st.get("buildings", ())), len(st.get("walls", ())), len(st.get("dots", ()))))
    if setup:
        mode = setup.get("mode", "standard")
        t.append("Mode %s\n" % texts.label(mode, texts.MODES))
        vs = setup.get("variants") or []
        t.append("Variants: %s · seed %s\n" % (", ".join(texts.label(v, texts.VARIANTS) for v in vs) if vs
                                               else "none", setup.get("seed")), style="dim")
    if st.get("out"):
        t.append("Out (house destroyed): %s\n" % ", ".join("P%s" % p for p in st["out"]), style="#ff7070")


def _info_trophies(t, st):
    """Each player's trophies and points; the player to move marked."""
    t.append("\nTrophies\n", style="bold underline")
    for p, kinds in sorted((st.get("trophies") or {}).items(), key=lambda kv: int(kv[0])):
        counts = {}
        for k in kinds:
            counts[k] = counts.get(k, 0) + 1
        listing = " ".join("%s×%d" % (texts.short(k), n) for k, n in sorted(counts.items())) or "—"
        me = int(p) == st.get("player")
        t.append("%sP%s %7s  " % ("▸" if me else " ", p, texts.points_text(trophy_points(kinds))),
                 style="bold" if me else "")
        t.append(listing + "\n", style="dim")


def _info_damage_choice(t, st, pend, cand_i):
    """The pending damage choice: why, and the candidates (the marked one, cand_i, first)."""
    cause = {"wall": "they broke the wall", "dot": "they broke the ДОТ",
             "building": "they destroyed the building"}.get(pend.get("cause"), pend.get("cause"))
    t.append("Which enemy takes 1 damage? (%s of sector %s)\n" % (cause, pend.get("sector")))
    by_id = {e["id"]: e for e in st.get("enemies", ())}
    for i, eid in enumerate(pend.get("candidates") or ()):
        e = by_id.get(eid)
        name = "%s #%s, armor %s" % (texts.ru(e["kind"]), eid, e["armor"]) if e else "#%s" % eid
        mark = "▸" if i == cand_i else " "
        t.append("%s%d) %s\n" % (mark, i + 1, name), style="bold" if i == cand_i else "")
    t.append(hints(DAMAGE_HINTS) + "\n", style="dim")


def _info_to_do(t, st, cand_i):
    """What the game waits for, if anything out of the ordinary: a pending
    choice, or the field marshal's turn; with the keys for it."""
    pend = st.get("pending")
    if pend:
        t.append("\nPending choice\n", style="bold black on #d050d0")
        if pend.get("choice") == "damage":
            _info_damage_choice(t, st, pend, cand_i)
        elif pend.get("choice") == "marshal_extra":
            t.append("The field marshal may play up to %s token(s) from his hand, placed by die rolls\n"
                     % pend.get("count"))
            t.append(hints(EXTRA_HINTS) + "\n", style="dim")
    elif "marshal_hand" in st and st.get("phase") == 7 and st.get("outcome") == "playing":
        t.append("\nField marshal's turn (phase 7)\n", style="bold black on #d050d0")
        if st.get("patrol"):
            t.append("Patrol (R17): he only moves the enemies — %s ends the turn\n" % keys_for("end_turn"))
        else:
            t.append("He plays one tank (into a sector he chooses), two tokens, or nothing (R60)\n")
            t.append(hints(MARSHAL_HINTS) + "\n", style="dim")


def _info_marshal_hand(t, st):
    """The field marshal's hand and what of it is being resolved (marshal mode only)."""
    if "marshal_hand" not in st:
        return
    t.append("\nField marshal's hand\n", style="bold underline")
    for k in st["marshal_hand"]:
        t.append(" %s — %s (%s)\n" % (texts.ru(k), texts.ru_class(k), k))
    if not st["marshal_hand"]:
        t.append(" (empty)\n", style="dim")
    if st.get("marshal_queue"):
        t.append(" being resolved: %s\n" % ", ".join(texts.ru(k) for k in st["marshal_queue"]), style="dim")


def _info_cursor(t, cursor, e):
    """The cursor's cell, and the selected enemy e (or None) in it."""
    s, li = cursor
    t.append("\nCursor: sector %d (%s) · %s\n" % (s, SECTOR_COLOR[s], texts.line_name(LINES[li])),
             style="bold #ffd24a")
    if e:
        t.append(" %s #%s, armor %s%s\n" % (texts.ru(e["kind"]), e["id"], e["armor"],
                                             ", under the hedgehog" if e.get("held") else ""))


# ---------------------------------------------------------------- session


class NoDevice(OSError):
    pass


class Session:
    """The Link on its own thread.  The UI calls submit() and drains `updates`:
    ("state", seq, state) · ("event", msg) · ("reply", cmd, fields, msg) ·
    ("status", kind, text, port, hello) with kind connected / lost / nodevice /
    cantopen / noanswer / mismatch."""

    def __init__(self, resolve, retry=RETRY_S, transport=SerialTransport):
        self.resolve = resolve
        self.retry = retry
        self.transport = transport
        self.updates = queue.Queue()
        self.outq = queue.Queue()
        self.port = None
        self.waiting = {}                       # request id -> (cmd, fields, time sent)
        self.was_connected = False
        self.last_status = None
        self._stop = threading.Event()
        self.link = Link(self._open, on_message=self._on_message)
        self.thread = threading.Thread(target=self._run, name="osada-monitor-link", daemon=True)

    def start(self):
        self.thread.start()

    def stop(self):
        self._stop.set()
        if self.thread.is_alive() and threading.current_thread() is not self.thread:
            self.thread.join(3.0)
        self.link.close()

    def submit(self, cmd, **fields):
        self.outq.put((cmd, fields))

    # ------------------------------------------------------ on the thread

    def _open(self):
        port = self.resolve()
        self.port = port
        return self.transport(port)

    def _status(self, kind, text):
        key = (kind, text)
        if key == self.last_status:
            return
        self.last_status = key
        self.updates.put(("status", kind, text, self.port, self.link.mirror.hello))

    def _on_message(self, msg):
        ev = msg.get("ev")
        if ev == "state":
            if isinstance(msg.get("state"), dict):
                self.updates.put(("state", msg.get("seq"), msg["state"]))
        elif ev is not None:
            self.updates.put(("event", msg))
        elif "ok" in msg:
            if msg.get("ok") and isinstance(msg.get("state"), dict):
                self.updates.put(("state", msg.get("seq"), msg["state"]))
            w = self.waiting.pop(msg.get("id"), None)
            if w is not None:
                self.updates.put(("reply", w[0], w[1], msg))

    def _fail_queued(self, why):
        while True:
            try:
                cmd, fields = self.outq.get_nowait()
            except queue.Empty:
                break
            self.updates.put(("reply", cmd, fields, {"ok": False, "error": why}))
        for rid, (cmd, fields, _t) in list(self.waiting.items()):
            self.updates.put(("reply", cmd, fields, {"ok": False, "error": why}))
        self.waiting = {}

    def _lost(self, why):
        self._fail_queued("not sent: no device (%s)" % why)
        self._status("lost", why)

    def _connect(self):
        try:
            self.link.connect()                 # hello (version check), then a full state
        except ProtocolError as exc:
            self._fail_queued("not sent: the device speaks another protocol")
            self._status("mismatch", str(exc))
            self._stop.wait(max(self.retry, 2.0))
            return
        except OSError as exc:                  # NoDevice, TimeoutError and the port's own errors
            if self.was_connected:
                self._lost(str(exc))            # keep saying "lost" until it is back
            elif isinstance(exc, NoDevice):
                self._status("nodevice", str(exc))
            elif isinstance(exc, TimeoutError):
                self._status("noanswer", "%s does not answer (%s): is it running the Osada firmware?"
                             % (self.port, exc))
            else:
                self._status("cantopen", str(exc))
            self._fail_queued("not sent: no device")
            self._stop.wait(self.retry)
            return
        self.was_connected = True
        self.waiting = {}
        self._status("connected", "connected")

    def _run(self):
        link = self.link
        while not self._stop.is_set():
            if not link.connected:
                self._connect()
                continue
            try:
                while True:
                    cmd, fields = self.outq.get_nowait()
                    rid = link.send(cmd, **fields)
                    self.waiting[rid] = (cmd, fields, time.monotonic())
            except queue.Empty:
                pass
            except OSError as exc:
                self.updates.put(("reply", cmd, fields, {"ok": False, "error": "not sent: %s" % exc}))
                self._lost(str(exc))
                continue
            link.poll()                         # at most ~20 ms (the transport's timeout)
            link.replies.clear()                # ours went through _on_message already
            if not link.connected:
                self._lost(link.error or "connection lost")
                continue
            now = time.monotonic()
            for rid, (cmd, _f, t) in list(self.waiting.items()):
                if now - t > REPLY_TIMEOUT_S:
                    link.drop()
                    self._lost("no reply to %r within %.0f s" % (cmd, REPLY_TIMEOUT_S))
                    break
        link.close()


# ----------------------------------------------------------- the simulator


class SimProcess:
    """`osada sim --headless` as a subprocess, stopped on quit."""

    def __init__(self, link=SIM_LINK, state=SIM_STATE):
        self.link = link
        self.state = state
        self.proc = None
        self.errfile = None

    def start(self):
        env = dict(os.environ)
        root = paths.REPO                       # a checkout; installed, the package is on sys.path
        search = [os.path.join(root, "host"), root, os.path.join(root, "firmware")] if root else []
        if env.get("PYTHONPATH"):
            search.append(env["PYTHONPATH"])
        if search:
            env["PYTHONPATH"] = os.pathsep.join(search)
        os.makedirs(self.state, exist_ok=True)
        import tempfile
        self.errfile = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "osada.cli", "sim", "--headless", "--link", self.link, "--state", self.state],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self.errfile, env=env,
            start_new_session=True)
        return self.proc.pid

    def died(self):
        """None while it runs (or was never started), else a line saying why it stopped."""
        if self.proc is None or self.proc.poll() is None:
            return None
        tail = ""
        try:
            self.errfile.seek(0)
            lines = [ln for ln in self.errfile.read().decode("utf-8", "replace").splitlines() if ln.strip()]
            tail = lines[-1] if lines else ""
        except (OSError, ValueError):
            pass
        return "the simulator exited (code %s)%s" % (self.proc.returncode, ": " + tail if tail else "")

    def stop(self):
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(3.0)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(2.0)
        if self.errfile is not None:
            self.errfile.close()
            self.errfile = None


# ----------------------------------------------------------------- modals


class HelpScreen(ModalScreen):
    BINDINGS = [Binding("escape,question_mark,q", "dismiss", "Close")]
    CLOSE_KEYS = ("Esc", "?", "q")           # BINDINGS' keys as shown

    def compose(self) -> ComposeResult:
        t = Text()
        t.append("Osada monitor — keys\n\n", style="bold")
        for _k, _a, shown, _short, what, _f in KEYMAP:
            if shown:
                t.append(shown.ljust(11), style="bold #ffd24a")
                t.append(what + "\n")
        tanks = [k for k in texts.SHORT if not texts.is_special(k)]
        specials = [k for k in texts.SHORT if texts.is_special(k)]
        t.append("\nThe board: one column per sector; rows rear (outermost) … tank, the wall, the city.\n"
                 "Tags are kind + armor: %s;\n" % ", ".join("%s = %s" % (texts.short(k), texts.ru(k)) for k in tanks)
                 + "specials end in * (magenta): %s. Yellow: damaged.\n"
                 % ", ".join("%s = %s" % (texts.short(k), texts.ru(k)) for k in specials)
                 + "(Tanks are printed with their Latin model names; the Russian rulebook uses them as they are.)\n"
                 "# (underlined): under the hedgehog. Magenta with a number: a pending damage choice.\n"
                 "\n%s or %s closes." % (", ".join(self.CLOSE_KEYS[:-1]), self.CLOSE_KEYS[-1]), style="dim")
        with Vertical(id="dialog"):
            yield Static(t)


class AskSimScreen(ModalScreen):
    BINDINGS = [Binding("y,enter", "answer(True)", "Yes"), Binding("n,escape", "answer(False)", "No")]

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static("No device found. Start the simulator? [Y/n]", id="asksim")

    def action_answer(self, yes):
        self.dismiss(yes)


class NewGameScreen(ModalScreen):
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, players=2, mode="standard", variants=()):
        super().__init__()
        self.players, self.mode, self.variants = players, mode, set(variants)

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label("New game", classes="title")
            yield Label("Players (2–6; solo 1; marshal: 1–5 defenders)")
            yield Input(str(self.players), id="players", type="integer")
            yield Label("Mode")
            yield Select([("%s — %s" % (texts.label(m, texts.MODES), texts.MODES[m][2]), m) for m in MODES],
                         value=self.mode, allow_blank=False, id="mode")
            yield Label("Variants (Space toggles)")
            yield SelectionList(*[("%s — %s" % (texts.label(v, texts.VARIANTS), texts.VARIANTS[v][2]), v,
                                   v in self.variants) for v in VARIANTS], id="variants")
            yield Label("Seed (empty: the device picks one)")
            yield Input("", id="seed", type="integer", placeholder="random")
            with Horizontal(classes="buttons"):
                yield Button("Start", variant="primary", id="start")
                yield Button("Cancel", id="cancel")

    def _result(self):
        fields = {"mode": self.query_one("#mode", Select).value,
                  "variants": list(self.query_one("#variants", SelectionList).selected)}
        p = self.query_one("#players", Input).value.strip()
        if p:
            fields["players"] = int(p)
        seed = self.query_one("#seed", Input).value.strip()
        if seed:
            fields["seed"] = int(seed)
        return fields

    def on_button_pressed(self, event):
        self.dismiss(self._result() if event.button.id == "start" else None)

    def on_input_submitted(self, event):
        self.dismiss(self._result())

    def action_cancel(self):
        self.dismiss(None)


def marshal_play_problem(kinds, extra=0, patrol=False):
    """Why the field marshal may not play these tokens (kind ids), or None if
    he may (R60): one tank, two tokens (tanks, others or one of each), or
    nothing; a lone token that is not a tank is no play.  After his
    reveal3/reveal4 (`extra` = n): up to n tokens of any kind.  Patrol (R17):
    nothing at all."""
    n = len(kinds)
    if extra:
        if n > extra:
            return "R60: after his reveal%d he plays up to %d tokens, not %d" % (extra, extra, n)
        return None
    if patrol and n:
        return "R17: patrol — the marshal only moves the enemies this turn; he plays nothing"
    if n > 2:
        return "R60: he plays one tank or two tokens (more only after his reveal3/reveal4), not %d" % n
    if n == 1 and not texts.is_enemy(kinds[0]):
        return ("R60: a lone %s is no play — one token alone must be a tank («Выбирает 1 танк»); "
                "pick a tank, or two tokens" % texts.ru(kinds[0]))
    return None


class MarshalScreen(ModalScreen):
    """The field marshal's play: only plays R60 allows can be sent (Play is
    disabled otherwise, and #why says why); the sector is asked only for a
    lone tank."""
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, hand, extra=0, patrol=False):
        super().__init__()
        self.hand = list(hand)
        self.extra = extra
        self.patrol = patrol

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            if self.extra:
                yield Label("Field marshal: play up to %d token(s) from your hand, placed by die rolls (R60)"
                            % self.extra, classes="title")
            elif self.patrol:
                yield Label("Field marshal: patrol (R17) — you only move the enemies; play nothing",
                            classes="title")
            else:
                yield Label("Field marshal (R60): play one tank (into the rear of a sector you choose), or two "
                            "tokens (tanks placed by die rolls), or nothing", classes="title")
            yield SelectionList(*[("%s — %s  (%s)" % (texts.ru(k), texts.ru_class(k), k), i)
                                  for i, k in enumerate(self.hand)], id="tokens")
            yield Label("Sector for a lone tank")
            opts = [("by die roll", 0)] + [("sector %d (%s)" % (s, SECTOR_COLOR[s]), s) for s in range(1, 7)]
            yield Select(opts, value=0, allow_blank=False, id="sector", disabled=True)
            yield Static("", id="why")
            with Horizontal(classes="buttons"):
                yield Button("Play", variant="primary", id="play")
                yield Button("Play nothing", id="none")
                yield Button("Cancel", id="cancel")

    def on_mount(self):
        self._update()

    def picked(self):
        return [self.hand[i] for i in sorted(self.query_one("#tokens", SelectionList).selected)]

    def _lone_tank(self, kinds):
        return not self.extra and len(kinds) == 1 and texts.is_enemy(kinds[0])

    def _update(self):
        kinds = self.picked()
        why = marshal_play_problem(kinds, self.extra, self.patrol)
        self.query_one("#play", Button).disabled = why is not None or not kinds
        self.query_one("#sector", Select).disabled = not self._lone_tank(kinds)
        if why is None and kinds:
            why = "plays: " + ", ".join(texts.ru(k) for k in kinds)
        elif why is None:
            why = "pick tokens (Space), or play nothing"
        self.query_one("#why", Static).update(why)

    def on_selection_list_selected_changed(self, event):
        self._update()

    def on_button_pressed(self, event):
        if event.button.id == "cancel":
            self.dismiss(None)
            return
        kinds = [] if event.button.id == "none" else self.picked()
        if marshal_play_problem(kinds, self.extra, self.patrol) is not None:
            self._update()                  # not sent: #why says why
            return
        action = {"do": "marshal_play", "tokens": kinds}
        s = self.query_one("#sector", Select).value
        if s and self._lone_tank(kinds):
            action["sector"] = s
        self.dismiss(action)

    def action_cancel(self):
        self.dismiss(None)


# ------------------------------------------------------------ main screen


def keys_text():
    """The key map, two keys a line (the sidebar's short version of the help)."""
    items = [(shown, short) for _k, _a, shown, short, _w, _f in KEYMAP if shown]
    t = Text()
    for i in range(0, len(items), 2):
        for shown, short in items[i:i + 2]:
            t.append(shown.rjust(7) + " ", style="bold")
            t.append(short.ljust(13)[:13])
        t.append("\n")
    t.rstrip()
    return t


class BoardView(Static):
    pass


class EventLog(RichLog, can_focus=False):
    pass


class MainScreen(Screen):
    BINDINGS = [Binding(k, "app." + a, short or k, show=f) for k, a, _sh, short, _w, f in KEYMAP if a != "digit"]
    BINDINGS += [Binding(str(n), "app.digit(%d)" % n, str(n), show=False) for n in range(1, 10)]

    def compose(self) -> ComposeResult:
        yield Static("starting…", id="conn")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield BoardView(id="board")
                yield EventLog(id="log", wrap=True, max_lines=2000, markup=False)
            with Vertical(id="side"):
                yield Static(id="info")
                yield Static(keys_text(), id="keys")
        yield Static("", id="status")
        yield Footer()

    def on_mount(self):
        self.query_one("#log").border_title = "events (newest at the bottom)"
        self.query_one("#info").border_title = "game"
        self.query_one("#keys").border_title = "keys (? for more)"
        self.app.redraw()  # pyright: ignore[reportAttributeAccessIssue]  self.app is the MonitorApp

    def on_resize(self, event):
        self.app.redraw()  # pyright: ignore[reportAttributeAccessIssue]  self.app is the MonitorApp


CSS = """
#conn { height: 1; padding: 0 1; background: $panel; }
#conn.ok { background: #0c3d14; color: #e0ffe0; }
#conn.stale { background: #b08800; color: black; text-style: bold; }
#conn.bad { background: #7a1010; color: white; text-style: bold; }
#main { height: 1fr; }
#left { width: 1fr; }
#board { height: auto; padding: 0 0 0 1; }
#log { height: 1fr; border: round $primary-darken-2; padding: 0 1; }
#side { width: 46; }
#info { height: auto; border: round $primary-darken-2; padding: 0 1; }
#keys { height: 1fr; border: round $primary-darken-2; padding: 0 1; color: $text-muted; }
#status { height: 1; padding: 0 1; background: $boost; }
#status.refused { background: #6b4a00; color: white; }
ModalScreen { align: center middle; }
#dialog { width: 90; height: auto; max-height: 90%; border: thick $primary; background: $surface; padding: 1 2; }
#dialog .title { text-style: bold; }
#dialog SelectionList { height: auto; max-height: 9; }
#dialog .buttons { height: auto; margin-top: 1; }
#dialog Button { margin-right: 2; }
#asksim { text-style: bold; }
"""


class MonitorApp(App):
    TITLE = "Osada monitor"
    CSS = CSS
    ENABLE_COMMAND_PALETTE = False      # every key the footer shows is in the help (KEYMAP)

    def __init__(self, port="auto", start_sim=False, sim_link=SIM_LINK, sim_state=SIM_STATE, retry=RETRY_S,
                 handle_signals=False):
        super().__init__()
        self.handle_signals = handle_signals
        self.port_arg = port or "auto"
        self.auto = self.port_arg == "auto"
        self.forced_port = None if self.auto else self.port_arg
        self.start_sim = start_sim
        self.sim = SimProcess(sim_link, sim_state)
        self.sim_started = False
        self.retry = retry
        self.session = None
        self.main = None
        # the mirror, as the UI sees it
        self.state = None
        self.seq = None
        self.stale = True
        self.hello = None
        self.setup = None
        self.conn_kind = "starting"
        self.conn_text = "starting…"
        self.log_lines = []           # the event log as plain text (also for tests)
        self.events = []              # the events as pushed, newest last (at most 2000)
        self.status_text = ""
        self.cursor = [1, 1]          # sector 1..6, line index 0..4 (rear .. city)
        self.sel_id = None            # the enemy Tab picked in the cursor cell
        self.cand_i = 0
        self.last_cands = None
        self._down = False

    def get_default_screen(self):
        self.main = MainScreen()
        return self.main

    # ------------------------------------------------------------ lifecycle

    def on_mount(self):
        self.session = Session(self._resolve, retry=self.retry)
        self.session.start()
        self.set_interval(POLL_S, self._drain)
        if self.handle_signals:                # SIGTERM / SIGHUP: quit cleanly (and stop our simulator)
            import asyncio
            import signal
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGTERM, signal.SIGHUP):
                try:
                    loop.add_signal_handler(sig, self.action_quit)
                except (NotImplementedError, RuntimeError, ValueError):
                    pass
        if self.auto and client.find_device() is None:
            if self.start_sim:
                self.start_simulator()
            else:
                self.push_screen(AskSimScreen(), self._asked_sim)

    def _asked_sim(self, yes):
        if yes:
            self.start_simulator()
        else:
            self.set_status("no simulator started: plug in a Pico or run `osada sim`; the monitor keeps looking")

    def start_simulator(self):
        try:
            pid = self.sim.start()
        except OSError as exc:
            self.set_status("could not start the simulator: %s" % exc, refused=True)
            return
        self.sim_started = True
        self.forced_port = self.sim.link
        self.add_log("Started the simulator (pid %d) at %s, game journal in %s" % (pid, self.sim.link,
                                                                                     self.sim.state), "dim")

    def _resolve(self):
        if self.forced_port:
            return self.forced_port
        dev = client.find_device()
        if dev is None:
            raise NoDevice("no device found")
        return dev

    def shutdown(self):
        if self._down:
            return
        self._down = True
        if self.session is not None:
            self.session.stop()
        self.sim.stop()

    def on_unmount(self):
        self.shutdown()

    def action_quit(self):
        self.shutdown()
        self.exit()

    # ------------------------------------------------------- from the link

    def _drain(self):
        if self.session is None:
            return
        changed = False
        for _ in range(1000):
            try:
                item = self.session.updates.get_nowait()
            except queue.Empty:
                break
            kind = item[0]
            if kind == "state":
                self.seq, self.state, self.stale = item[1], item[2], False
                changed = True
            elif kind == "event":
                self._on_event(item[1])
            elif kind == "reply":
                self._on_reply(item[1], item[2], item[3])
            elif kind == "status":
                self._on_status(item[1], item[2], item[3], item[4])
                changed = True
        if self.sim_started and self.conn_kind != "connected":
            why = self.sim.died()
            if why and why != self.status_text:
                self.set_status(why, refused=True)
        if changed:
            self.redraw()

    def _on_status(self, kind, text, port, hello):
        was = self.conn_kind
        self.conn_kind = kind
        if kind == "connected":
            self.hello = hello or {}
            self.conn_text = "connected to %s (firmware %s, protocol %s)" % (
                port, self.hello.get("firmware", "?"), self.hello.get("protocol", "?"))
            self.add_log("— " + self.conn_text + " —", "dim")
            if was == "lost":
                self.set_status("reconnected: the board is live again")
            self.session.submit("log", **{"from": 0})          # the setup: players, mode, variants
            return
        self.stale = True
        if kind == "lost":
            self.conn_text = "connection lost — showing the last board (stale), reconnecting…"
            if was != "lost":
                self.add_log("— connection lost (%s) —" % text, "bold #d0a000")
        elif kind == "mismatch":
            self.conn_text = "protocol mismatch at %s: %s" % (port, text)
            self.add_log(self.conn_text, "bold red")
        elif kind == "noanswer":
            self.conn_text = text + " — retrying"
        elif self.sim_started:
            self.conn_text = "starting the simulator at %s…" % self.sim.link
        elif kind == "nodevice":
            self.conn_text = ("no device — plug in a Pico or start the simulator (osada sim); "
                              "looking every %.1f s" % self.retry)
        elif port and port in text:           # a sentence of its own (client.PortError): busy, stale link…
            self.conn_text = "%s — retrying every %.1f s" % (text, self.retry)
        else:
            self.conn_text = "no device at %s (%s) — retrying every %.1f s" % (port, text, self.retry)

    def _on_event(self, ev):
        name = ev.get("ev")
        self.events.append(ev)
        if len(self.events) > 2000:
            del self.events[:500]
        style = {"reveal": "#7fd7ff", "he111": "bold #ff8040", "destroyed": "#ff7070",
                 "building_destroyed": "bold #ff4040", "wall_destroyed": "#ff9f40", "dot_destroyed": "#ff9f40",
                 "won": "bold #40ff60", "lost": "bold #ff4040", "turn": "bold", "refused": "#ffd24a",
                 "error": "#ffd24a", "overflow": "#ffd24a", "line_timeout": "#ffd24a", "boot": "dim", "undo": "#c0a0ff",
                 "roll": "#c0a0ff", "phase": "dim", "end_turn": "dim", "move": "#a0c0ff"}.get(name)
        self.add_log(texts.describe(ev, self.state), style)
        if name == "setup":
            self.session.submit("log", **{"from": 0})
        if name == "roll":
            self.set_status("die roll: %s" % ev.get("value"))

    def _on_reply(self, cmd, fields, msg):
        if msg.get("ok"):
            if cmd == "log":
                self.setup = msg.get("setup")
                self.redraw()
            elif cmd == "roll":
                self.set_status("die roll: %s" % msg.get("value"))
            elif cmd in ("act", "undo", "new"):
                self.set_status("")
            return
        what = cmd
        if cmd == "act":
            what = _action_text(fields.get("action") or {})
        rule = msg.get("rule")
        text = "%s refused%s: %s" % (what, " (%s)" % rule if rule else "", msg.get("error", "?"))
        self.set_status(text, refused=True)
        self.add_log("✗ " + text, "bold #ffd24a")

    # ------------------------------------------------------------- drawing

    def add_log(self, line, style=None):
        self.log_lines.append(line)
        if len(self.log_lines) > 2000:
            del self.log_lines[:500]
        if self.main is not None and self.main.is_mounted:
            self.main.query_one("#log", RichLog).write(Text(line, style=style or ""))

    def set_status(self, text, refused=False):
        self.status_text = text
        if self.main is not None and self.main.is_mounted:
            w = self.main.query_one("#status", Static)
            w.update(Text(text))
            w.set_class(refused, "refused")

    def board_text(self):
        """The board picture as plain text."""
        return render_board(self.state, self._board_width(), tuple(self.cursor), self.selected_id(),
                            self.stale).plain

    def _board_width(self):
        try:
            w = self.main.query_one("#board").size.width
        except Exception:
            w = 0
        return (w or 96) - 1

    def redraw(self):
        if self.main is None or not self.main.is_mounted:
            return
        self._follow_pending()
        conn = self.main.query_one("#conn", Static)
        conn.update(Text(self.conn_text))
        conn.set_class(self.conn_kind == "connected", "ok")
        conn.set_class(self.conn_kind == "lost", "stale")
        conn.set_class(self.conn_kind not in ("connected", "lost", "starting"), "bad")
        self.main.query_one("#board", Static).update(
            render_board(self.state, self._board_width(), tuple(self.cursor), self.selected_id(), self.stale))
        self.main.query_one("#info", Static).update(self.info_text())

    def info_text(self):
        """The sidebar: the game, the trophies, what it waits for, the
        marshal's hand, the cursor."""
        t = Text()
        st = self.state
        if st is None:
            t.append("no game yet\n", style="italic")
            return t
        _info_game(t, st, self.setup, self.stale)
        _info_trophies(t, st)
        _info_to_do(t, st, self.cand_i)
        _info_marshal_hand(t, st)
        _info_cursor(t, self.cursor, self.selected_enemy())
        return t

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
                self.cursor = [e["sector"], LINES.index(e["line"])]
                self.sel_id = eid

    def action_cursor(self, dl, ds):
        s, li = self.cursor
        s = (s - 1 + ds) % 6 + 1
        li = min(4, max(0, li + dl))
        self.cursor = [s, li]
        self.sel_id = None
        self.redraw()

    # -------------------------------------------------------------- actions

    def send_action(self, action):
        if self.session is None:
            return
        if self.conn_kind != "connected":
            self.set_status("not connected: %s not sent" % _action_text(action), refused=True)
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
        self.redraw()

    def action_digit(self, n):
        """Choose candidate n while a choice is pending, else jump to sector n."""
        if candidates(self.state):
            self.action_choose(n - 1)
        elif n <= 6:
            self.cursor[0] = n
            self.sel_id = None
            self.redraw()

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
        self.push_screen(NewGameScreen(players, setup.get("mode", "standard"), setup.get("variants") or ()), done)

    def action_help(self):
        self.push_screen(HelpScreen())


def _action_text(action):
    what = action.get("do", "?").replace("_", " ")
    for k in ("enemy", "sector"):
        if k in action:
            what += " %s %s" % (k, action[k])
    return what


# ------------------------------------------------------------- entry points


def run_monitor(port="auto", start_sim=False):
    app = MonitorApp(port=port, start_sim=start_sim, handle_signals=True)
    try:
        app.run()
    finally:
        app.shutdown()
    return app.return_code or 0


def main(args):
    return run_monitor(getattr(args, "port", "auto"), getattr(args, "start_sim", False))
