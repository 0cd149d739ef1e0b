"""What `osada sim` shows and reads in a terminal: the LEDs drawn where they
sit on the board, the device UI's header and the key help, within 80×24 or
the terminal's size (Screen, Layout); and the keys, escape sequences parsed
as whole keys (osada.terminal.termkeys.KeyParser).  The simulator itself is simulator.py."""

import math
import shutil
import sys

from osada.buildguide.geometry import polar
from osada.sim import legends, warchest_lines
from osada.terminal import gamekeys
from osada.words.game_names import game_name

WIDTH = 80                  # the window must not wrap on an 80-column terminal
MIN_COLS, MIN_ROWS = 80, 24  # the smallest terminal the window fits; below it says so
KEYS_HELP_LINES = (
    "keys: ←/→ or a/d turn · Enter/space ACTION · Backspace/b BACK · r roll",
    "      A play menu · B undo (hold BACK) · n new game · g game menu · q quit",
)
MARGIN_LEGEND_MAX_H = 22    # the tallest board that leaves its left margin to the legend
BOARD_MAX_H = 31            # the tallest board (width ~2.44 x height, to look round): 77 columns
OFF_RGB = (110, 110, 110)   # an unlit LED: still visible on a dark terminal
MIN_LIT = 170               # a lit LED's brightest channel is shown at least this bright
_ANSI = None


def visible_len(line):
    """Columns a line takes on the terminal (its ANSI colour codes take none)."""
    global _ANSI
    if _ANSI is None:
        import re
        _ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
    return len(_ANSI.sub("", line))


def fit(text, width=WIDTH):
    return text if len(text) <= width else text[:width - 1] + "…"


def _window(items, sel, width):
    """items joined by spaces, cut to `width` around the selected one."""
    text = " ".join(items)
    if len(text) <= width:
        return text
    lo = hi = sel
    used = len(items[sel])
    while True:
        grown = False
        for k in (hi + 1, lo - 1):
            if 0 <= k < len(items) and not lo <= k <= hi and used + 1 + len(items[k]) <= width - 4:
                used += 1 + len(items[k])
                lo, hi = min(lo, k), max(hi, k)
                grown = True
        if not grown:
            break
    return ("… " if lo > 0 else "") + " ".join(items[lo:hi + 1]) + (" …" if hi < len(items) - 1 else "")


def display_rgb(r, g, b):
    """The LED's wire colour made readable on a screen: the wire values are
    dimmed (brightness, gamma) for eyes a hand's length from real LEDs, so a lit
    LED keeps its hue and is brought up to at least MIN_LIT; None when off."""
    m = max(r, g, b)
    if m == 0:
        return None
    target = MIN_LIT + (255 - MIN_LIT) * m // 255
    return tuple(min(255, (c * target + m // 2) // m) for c in (r, g, b))


class Layout:
    """Where the window's parts go in a terminal of `cols` x `rows`: the board
    (H rows of W columns, `pad` columns in from the left, from row `top`), the
    legend down the board's left margin (`margin_legend`) or as a line under
    it, and `small` when the terminal is below MIN_COLS x MIN_ROWS.  At 80x24:
    3 header lines, a 19-row board with the legend beside it, 2 lines of keys;
    a taller terminal gets a bigger board (up to BOARD_MAX_H rows)."""

    HEADER = 3

    def __init__(self, cols=MIN_COLS, rows=MIN_ROWS):
        self.cols, self.rows = cols, rows
        self.small = cols < MIN_COLS or rows < MIN_ROWS
        fixed = self.HEADER + len(KEYS_HELP_LINES)
        self.margin_legend = rows - fixed <= MARGIN_LEGEND_MAX_H
        self.H = min(rows - fixed - (0 if self.margin_legend else 1), BOARD_MAX_H)
        self.W = int(round(self.H * 61 / 25)) | 1     # 61 x 25 looks round on the usual terminal font
        self.pad = (WIDTH - self.W) // 2
        self.top = self.HEADER


class Screen:
    """The virtual LEDs at their places on the board (layout polar positions),
    each tagged with a letter the legend explains (the running game's:
    legends.py; Siege's its line, R/A/G/T, W wall, C city), the sectors numbered
    around the edge; above them the game, and what the device's UI is doing
    (play cursor, a menu, a choice), so the new-game menu reads as a menu.
    It fits the terminal (Layout): 80x24 at least, a bigger board when taller."""

    def __init__(self, app):
        self.app = app
        self.last = None
        lay = app.layout
        self.polar = [polar(lay, i) for i in range(lay.count)]
        self.places = {}
        self._legend = None           # (the game, its legend): made again when the device runs another

    def _xy(self, ang, rad, W, H):
        a = math.radians(ang)
        x = int(round(W / 2 + math.sin(a) * rad * (W / 2 - 3)))
        y = int(round(H / 2 - math.cos(a) * rad * (H / 2 - 1)))
        return min(max(x, 0), W - 2), min(max(y, 0), H - 1)

    def spots(self, W, H):
        """(the LEDs' (x, y), the sector numbers' (x, y)) on a W x H board."""
        if (W, H) not in self.places:
            self.places[W, H] = ([self._xy(a, r, W, H) for a, r in self.polar],
                                 [self._xy((s - 1) * 60, 1.08, W, H) for s in range(1, 7)])
        return self.places[W, H]

    # --------------------------------------------------------------- text

    def running(self, gid):
        """The device's game `gid` while it runs (behind the game menu too), else None."""
        mode = self.app.mode
        mode = getattr(mode, "inner", mode)
        return mode if getattr(mode, "id", None) == gid else None

    def tank(self):
        """The device's Tank battle mode while it runs (behind the game menu too), else None."""
        return self.running("tank")

    def _victory_key(self):
        """What of Victory Day's toss its lines show, None while it does not run."""
        v = self.running("victory")
        return None if v is None else (v.lot, v.game, v.ussr)

    def _tank_key(self):
        """What of Tank battle's mode its lines show (draw() redraws when it changes), None in Siege."""
        t = self.tank()
        return None if t is None else (t.test, bytes(t.vals), t.cursor, t.view, t.at)

    def legend(self):
        """The running game's legend (legends.legend): its line, its column, each LED's letter."""
        game = next((g for g in ("tank", "victory", "warchest") if self.running(g) is not None), "siege")
        if self._legend is None or self._legend[0] != game:
            self._legend = (game, legends.legend(game, self.app.layout))
        return self._legend[1]

    def keys_help(self):
        """The keys of the game the buttons work: a game's own (gamekeys.py, the monitor's), or
        the buttons' (Siege, the game menu)."""
        game = gamekeys.working(self.app)
        if gamekeys.table(game) is not None:
            return gamekeys.help_lines(game)
        return KEYS_HELP_LINES

    def game_line(self, st):
        """The window's header, whole: render() cuts it to the terminal's width."""
        for gid in ("tank", "victory", "warchest"):
            if self.running(gid) is not None:
                return ("Osada simulator · %s · Siege's game kept (turn %d, %d actions)"
                        % (game_name(gid), st["turn"], len(self.app.siege.game.log)))
        text = "Osada simulator · turn %d · player %d · phase %d · pool %d · buildings %d/6" % (
            st["turn"], st["player"], st["phase"], st["pool"], len(st["buildings"]))
        if st["outcome"] != "playing":
            text += " · " + str(st["outcome"]).upper()
        return text

    def ui_lines(self, st):
        """What the device UI is doing and what the buttons do now (two lines),
        from the UI's own state."""
        from osada_fw.siege import ui as U
        ui = self.app.siege.ui
        if self.app.selftest_led is not None:
            return "SELF-TEST · LED %d lit" % self.app.selftest_led, "any button stops it"
        mode = self.app.mode
        if hasattr(mode, "inner"):                      # the game menu in front of the running game
            from osada_fw.siege.ui import GAMES
            names = ["[%s]" % g if k == mode.sel else g for k, g in enumerate(GAMES)]
            return (fit("GAME: %s · now: %s" % (" ".join(names), game_name(mode.id))),
                    "turn to pick · ACTION takes · BACK closes (the game goes on)")
        if self.tank() is not None:
            return self.tank_lines(self.tank())
        if self.running("victory") is not None:
            return self.victory_lines(self.running("victory"))
        if self.running("warchest") is not None:
            return tuple(fit(x) for x in warchest_lines.lines(self.running("warchest").state()))
        if ui.mode == U.M_MENU and ui.menu is not None:
            kind, items, picked = ui.menu
            title, hint = {
                "players": ("NEW GAME 1/3 · players", "turn to pick · ACTION takes · BACK cancels"),
                "mode": ("NEW GAME 2/3 · mode", "turn to pick · ACTION takes · BACK cancels"),
                "variants": ("NEW GAME 3/3 · variants", "turn to pick · ACTION toggles (+) · BACK starts the game"),
                "play": ("PLAY MENU", "turn to pick · ACTION does it · BACK cancels"),
                "marshal": ("MARSHAL · tokens", "turn to pick · ACTION toggles (+) · BACK plays them"),
                "sector": ("MARSHAL · sector", "turn to pick · ACTION places · BACK cancels"),
                "game": ("GAME", "turn to pick · ACTION takes · BACK cancels (soon: the highlighted one)"),
            }.get(kind, ("MENU " + str(kind), "ACTION takes · BACK cancels"))
            shown = []
            for k, item in enumerate(items):
                name = str(item)
                if picked is not None and picked[k]:
                    name = "+" + name
                shown.append("[%s]" % name if k == ui.sel else name)
            return fit("%s: %s" % (title, _window(shown, ui.sel, WIDTH - len(title) - 2))), hint
        pending = st.get("pending")
        if pending is not None and pending.get("choice") == "damage":
            cands = pending.get("candidates") or []
            pick = cands[ui.cand % len(cands)] if cands else "?"
            return (fit("CHOOSE which enemy takes the damage: #%s (of %s)"
                        % (pick, ", ".join("#%s" % c for c in cands))), "turn to cycle · ACTION picks")
        if pending is not None:
            return fit("CHOOSE: %s" % (pending.get("choice"),)), "ACTION opens the tokens"
        from shared_rules.siege.catalog import LINES
        sector, part = ui.cursor // 5 + 1, ui.cursor % 5
        return ("PLAY · cursor: sector %d, %s" % (sector, LINES[part]),
                "ACTION hit/reveal · BACK move/end turn · hold A/B: menu/undo")

    def tank_lines(self, tank):
        """Tank battle: the test and its numbers, the one the encoder turns in
        [brackets]; after a roll, the roll in words until a button goes back."""
        from osada.words import tank_rolls
        from osada_fw.tank import mode as M
        if tank.view == M.V_RESULT and tank.last is not None:
            return (fit("ROLLED · " + tank_rolls.describe(tank.last)),
                    "Enter again · r or b back to the numbers" + (" · ←/→ outcome/faces"
                                                                   if tank.rolled <= M.T_SUPPRESS else ""))
        return fit("TANK · " + tank_rolls.setting_line(tank.state())), "Enter rolls these numbers"

    def victory_lines(self, game):
        """Victory Day: toss ready (and which seat plays which faction), then who starts this game (V8)."""
        from osada.victory import toss_words as toss
        st = game.state()
        if st["starter"] is None:
            return (fit("VICTORY DAY · toss ready · seat A %s, seat B %s"
                        % (toss.faction(st, "A"), toss.faction(st, "B"))),
                    "Enter tosses for the first player (V8) · ←/→ swap the factions")
        return (fit("TOSS · " + toss.headline(st)),
                "n next game: the other seat starts · p back a game · N new match (a new lot)")

    # ------------------------------------------------------------ drawing

    def render(self, cols=MIN_COLS, rows=MIN_ROWS):
        """The window as lines of text (ANSI colours) for a terminal of `cols`
        x `rows`: at most `rows` lines, none wider than WIDTH (nor `cols`) but
        the header, which has the terminal's width."""
        st = self.app.siege.game.state()
        lay = Layout(cols, rows)
        if lay.small:
            import textwrap
            say = textwrap.wrap("Make this window at least %d×%d to see the board (it is %d×%d). q quits."
                                % (MIN_COLS, MIN_ROWS, cols, rows), max(cols, 10))
            return (say + [fit(self.game_line(st), cols)])[:rows]
        lines = [fit(self.game_line(st), cols)] + list(self.ui_lines(st))
        margin = [""] * lay.H
        line, column, _tags = self.legend()
        if lay.margin_legend:
            first = (lay.H - len(column)) // 2
            margin[first:first + len(column)] = column
        lines += [(m.ljust(lay.pad) + "".join(row)).rstrip() for m, row in zip(margin, self.board(lay.W, lay.H))]
        if not lay.margin_legend:
            lines.append(line)
        lines += list(self.keys_help())
        return lines

    def board(self, W, H):
        """The LEDs on a W x H grid of cells (each one character, maybe with its colour)."""
        frame = self.app.frame.rgb_list()
        leds, sectors = self.spots(W, H)
        grid = [[" "] * W for _ in range(H)]
        for s, (x, y) in enumerate(sectors, 1):
            grid[y][x] = "\x1b[1m%d\x1b[0m" % s
        tags = self.legend()[2]
        for (x, y), (r, g, b), tag in zip(leds, frame, tags):
            rgb = display_rgb(r, g, b)
            if rgb is None:
                grid[y][x] = "\x1b[38;2;%d;%d;%dm○\x1b[0m" % OFF_RGB
            else:
                grid[y][x] = "\x1b[1;38;2;%d;%d;%dm●\x1b[0m" % rgb
            if x + 1 < W and grid[y][x + 1] == " ":
                grid[y][x + 1] = tag
        return grid

    def draw(self, size=None):
        """Redraw the window when anything on it changed (the terminal's size too)."""
        cols, rows = size or shutil.get_terminal_size((MIN_COLS, MIN_ROWS))
        ui = self.app.siege.ui
        menu = ui.menu
        game = self.app.siege.game
        key = (cols, rows, tuple(tuple(c) for c in self.app.frame.rgb_list()), id(game),
               len(game.log), game.pending is not None, ui.mode, ui.sel, ui.cand, ui.cursor,
               None if menu is None else (menu[0], tuple(menu[2] or ())), self.app.selftest_led,
               getattr(self.app.mode, "sel", None), self._tank_key(), self._victory_key(),
               None if self.running("warchest") is None else warchest_lines.key(self.running("warchest")))
        if key == self.last:
            return
        self.last = key
        sys.stdout.write("\x1b[H" + "\x1b[K\n".join(self.render(cols, rows)) + "\x1b[K\x1b[J")
        sys.stdout.flush()


