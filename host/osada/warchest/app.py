"""`osada warchest track`: the bag tracker at the table, a textual app in the
monitor's idiom.  Events are entered by key as they happen (a key, then the
unit or coin picked by its number); the screen shows every player's zones,
the public view by default (safe on a shared screen, W24) and the owner view
behind `v`; `u` undoes the last event.  Every accepted event is saved at once
(journal.py), so a crash loses nothing and `track FILE` resumes the game."""

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Grid
from textual.screen import ModalScreen
from textual.widgets import Footer, OptionList, Static

from osada.files.paths import shown
from osada.trackerapp import TrackerShell
from shared_rules.errors import RuleError
from shared_rules.warchest import actions
from shared_rules.warchest import events as evs
from shared_rules.warchest.units import ROYAL
from shared_rules.warchest.zones import merged, size

from . import render
from .names import label

COMPACT_BELOW = 40      # rows: in a shorter window the players' panels close up (render.panel's compact)

# The one table of keys: (key, action, shown, what it does).  The bindings, the footer and the help come from it.
KEYS = (
    ("w", "draw", "draw", "the round's draw of the next player to draw (W8; the refill is automatic, W9)"),
    ("d", "hand('deploy')", "deploy", "deploy: a new unit on a location you control (W14)"),
    ("b", "hand('bolster')", "bolster", "bolster: a coin onto your unit (W15)"),
    ("i", "hand('initiative')", "initiative", "claim the initiative: a coin face down (W16)"),
    ("r", "hand('recruit')", "recruit", "recruit: a coin face down, one from the supply face up (W17)"),
    ("p", "hand('pass')", "pass", "pass: a coin face down (W18)"),
    ("m", "hand('move')", "move", "move a unit: its coin face up (W19)"),
    ("c", "hand('control')", "control", "control the unit's location: its coin face up (W20)"),
    ("a", "hand('attack')", "attack", "attack an enemy unit: its coin face up, one of the target's to the box (W21)"),
    ("t", "hand('tactic')", "tactic", "the unit's tactic: its coin face up (W22)"),
    ("f", "free", "free", "the next maneuver is free: a tactic's, a mercenary's or a berserker's (W23, W30)"),
    ("P", "priest", "priest draw", "the warrior priest's draw after its attack or control (W30)"),
    ("B", "berserker", "berserker pay", "a coin off the berserker unit pays another maneuver (W30)"),
    ("u", "undo", "undo", "undo the last event"),
    ("v", "view", "view", "public view / owner view (the entered players' coins and exact odds)"),
    ("question_mark", "help", "help", "every key"),
    ("q", "quit", "quit", "quit (the game is saved: `osada warchest track FILE` resumes it)"),
)


class Pick(ModalScreen):
    """A choice: its number (or the arrows and Enter); Escape cancels."""

    BINDINGS = [Binding("escape", "cancel", "cancel")]

    def __init__(self, title, options):
        super().__init__()
        self.title_text = title
        self.options = options

    def compose(self) -> ComposeResult:
        yield Static(Text(self.title_text), id="title")
        yield OptionList(*[Text("%d  %s" % (i + 1, o[0])) for i, o in enumerate(self.options)], id="choices")

    def on_option_list_option_selected(self, event):
        self.dismiss(self.options[event.option_index][1])

    def on_key(self, event):
        ch = event.character
        if ch and ch.isdigit() and 1 <= int(ch) <= len(self.options):
            event.stop()
            self.dismiss(self.options[int(ch) - 1][1])

    def action_cancel(self):
        self.dismiss(None)


class TrackerApp(TrackerShell, App):
    KEYS = KEYS
    HELP_TITLE = "War Chest tracker: keys"
    HELP_TAIL = "A refused event is named by its rule (docs/rules-war-chest.md) and changes nothing."
    TITLE = "Osada: War Chest tracker"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    #top { height: 1; padding: 0 1; background: $panel; }
    #players { grid-size: 2; grid-gutter: 0 1; grid-rows: auto; height: auto; max-height: 80%; overflow-y: auto; }
    .panel { height: auto; border: round $primary-darken-2; padding: 0 1; }
    #log { height: 1fr; min-height: 4; border: round $primary-darken-2; padding: 0 1; }
    #status { height: 1; padding: 0 1; background: $boost; }
    #status.refused { background: #6b4a00; color: white; }
    Pick, KeysHelp { align: center middle; background: $background 50%; }
    #choices { width: 60; max-width: 100%; height: auto; max-height: 12; }
    #title { width: 60; max-width: 100%; background: $primary; padding: 0 1; }
    #helptext { width: 100; max-width: 100%; height: auto; border: thick $primary; background: $surface; padding: 1 2; }
    """
    BINDINGS = [Binding(k, a, s, show=k not in ("question_mark",)) for k, a, s, _w in KEYS]

    def __init__(self, journal, rounds=2):
        super().__init__()
        self.journal = journal
        self.game = journal.game()
        self.rounds = rounds
        self.owner = False
        self.free = False

    def compose(self) -> ComposeResult:
        yield Static(id="top")
        with Grid(id="players"):
            for p in range(self.game.players):
                yield Static(id="p%d" % p, classes="panel")
        yield Static(id="log")
        yield Static(id="status")
        yield Footer()

    def on_mount(self):
        self.show()
        self.say("saved in %s as you go; ? for the keys" % shown(self.journal.path))

    # ------------------------------------------------------------ the screen

    def show(self):
        g = self.game
        self.query_one("#top", Static).update(Text(render.round_line(g, self.owner, self.free)))
        for p in range(g.players):
            self.query_one("#p%d" % p, Static).update(Text(render.panel(g, p, self.owner, self.rounds,
                                                                        self.size.height < COMPACT_BELOW)))
        log = self.query_one("#log", Static)
        room = log.content_size.height or 12            # the newest events that fit
        lines = render.log_lines(g, self.owner, room) or ["(no event yet: w draws the first hand)"]
        log.update(Text("\n".join(lines)))

    def submit(self, ev):
        """Play the event; saved at once if the rules take it, else its rule said and nothing changes."""
        try:
            ev = self.game.apply(ev)
        except RuleError as exc:
            self.say("refused: %s" % exc, refused=True)
            return False
        self.journal.events.append(evs.text(ev))
        if ev["e"] in evs.MANEUVERS and ev["free"]:
            self.free = False
        self.show()
        if self.saved():
            self.say(evs.text(ev) if self.owner else render.public_event(ev))
        return True

    def pick(self, title, options, then, empty="nothing to choose"):
        """Ask `title`, then `then(the value chosen)`; with no option, say `empty` instead."""
        if not options:
            self.say("refused: %s" % empty, refused=True)
            return

        def chosen(value):
            if value is None:
                self.say("cancelled")
            else:
                then(value)
        self.push_screen(Pick(title, options), chosen)

    # ------------------------------------------------------------ whose coins

    def known(self, p):
        return self.game.coins[p].known

    def unit_options(self, players):
        out = []
        for q in players:
            c = self.game.coins[q]
            for t in c.types:
                n = c.unit_count(t)
                for u in range(n):
                    name = "%s%s (%d coin%s)" % (label(t), " #%d" % (u + 1) if n > 1 else "", c.units[t][u],
                                                "" if c.units[t][u] == 1 else "s")
                    out.append((("player %d: " % (q + 1) if len(players) > 1 else "") + name, (q, t, u)))
        return out

    def face_down(self, p, then):
        """The coin discarded face down: asked of an entered player only."""
        if not self.known(p):
            then(None)
            return
        hand = self.game.coins[p].hand
        if len(hand) == 1:
            then(list(hand)[0])
            return
        self.pick("Player %d: which coin goes face down?" % (p + 1),
                  [("%s (%d in hand)" % (label(t), hand[t]), t) for t in sorted(hand)], then)

    def free_players(self):
        g = self.game
        f = g.follow
        if f is None:
            return [max(g.last, 0)]
        if f["one"] is not None:
            return [f["one"][0]]
        if f["move"] >= 0:
            return [f["move"]]
        return [q for q in range(g.players) if g.side(q) == f["side"]]

    # ------------------------------------------------------------ the keys

    def action_hand(self, op):
        g = self.game
        if op in evs.MANEUVERS and self.free:
            self.pick("Free %s: which unit?" % op, self.unit_options(self.free_players()),
                      lambda v: self.maneuver(op, v, True), "W14: no unit on the board to make it")
            return
        p = g.expected()
        if p < 0:
            self.say("no action is due: %s" % render.round_line(g).split(" · ")[2], refused=True)
            return
        mine = g.coins[p]
        if op == "deploy":
            self.pick("Player %d deploys:" % (p + 1), [(label(t), t) for t in mine.types],
                      lambda t: self.submit({"e": "deploy", "p": p, "t": t}))
        elif op == "bolster":
            self.pick("Player %d bolsters:" % (p + 1), self.unit_options([p]),
                      lambda v: self.submit({"e": "bolster", "p": p, "t": v[1], "u": v[2]}),
                      "W14: player %d has no unit on the board to bolster" % (p + 1))
        elif op in ("initiative", "pass"):
            self.face_down(p, lambda coin: self.submit({"e": op, "p": p, "coin": coin}))
        elif op == "recruit":
            self.pick("Player %d recruits from the supply:" % (p + 1),
                      [("%s (%d in supply)" % (label(t), mine.supply.get(t, 0)), t) for t in mine.types],
                      lambda t: self.face_down(p, lambda coin: self.submit(
                          {"e": "recruit", "p": p, "t": t, "coin": coin})))
        else:
            self.pick("Player %d: which unit makes the %s?" % (p + 1, op), self.unit_options([p]),
                      lambda v: self.maneuver(op, v, False),
                      "W14: player %d has no unit on the board: deploy one first" % (p + 1))

    def maneuver(self, op, unit, free):
        q, t, u = unit
        ev = {"e": op, "p": q, "t": t, "u": u, "free": 1 if free else 0}
        if op == "control":
            self.pick("Whose location does the %s take?" % t,
                      [("a neutral one", 0), ("the enemy's (his marker goes back to him)", 1)],
                      lambda taken: self.submit(dict(ev, taken=taken)))
        elif op == "attack":
            enemies = [e for e in range(self.game.players) if self.game.side(e) != self.game.side(q)]
            self.pick("The %s attacks:" % t, self.unit_options(enemies),
                      lambda v: self.submit(dict(ev, q=v[0], y=v[1], yu=v[2])), "W21: no enemy unit on the board")
        elif op == "tactic" and t == "royal_guard" and not free:
            self.pick("The royal guard's tactic is paid with:", [("a royal guard coin", "royal_guard"),
                                                                ("the royal coin (W13)", ROYAL)],
                      lambda coin: self.submit(dict(ev, coin=None if coin == "royal_guard" else coin)))
        else:
            self.submit(ev)

    def action_free(self):
        self.free = not self.free
        self.show()
        self.say("the next maneuver is free (a tactic's or a property's)" if self.free else "free maneuver off")

    def next_to_draw(self):
        g = self.game
        if g.round_over():
            return g.holder
        for i in range(g.players):
            q = (g.holder + i) % g.players
            if not g.drawn[q]:
                return q
        return -1

    def action_draw(self):
        p = self.next_to_draw()
        if p < 0:
            self.say("refused: W11: the round goes on until every hand is empty", refused=True)
            return
        self.draw_coins(p, "draw", 3)

    def draw_coins(self, p, op, m):
        """An entered player's coins picked one by one: the bag's, then (W9) the discard's."""
        c = self.game.coins[p]
        if not c.known:
            self.submit({"e": op, "p": p})
            return
        m = min(m, c.drawable())
        if size(c.bag) >= m:
            self.pick_coins(p, op, [], dict(c.bag), m, "from the bag")
        else:
            last = [t for t in sorted(c.bag) for _ in range(c.bag[t])]
            self.pick_coins(p, op, last, merged(c.up, c.down), m,
                            "the bag's last %d first, then the refilled bag (W9)" % len(last))

    def pick_coins(self, p, op, got, pool, m, where):
        if len(got) >= m:
            self.submit({"e": op, "p": p, "coins": got})
            return
        options = [("%s (%d)" % (label(t), pool[t]), t) for t in sorted(pool) if pool[t]]

        def take(t):
            rest = dict(pool)
            rest[t] -= 1
            self.pick_coins(p, op, got + [t], rest, m, where)
        self.pick("Player %d draws: coin %d of %d (%s)" % (p + 1, len(got) + 1, m, where), options, take)

    def action_priest(self):
        g = self.game
        f = g.follow
        p = f["priest"] if f is not None and f["priest"] >= 0 else max(g.last, 0)
        try:
            actions.priest_due(g, p)
        except RuleError as exc:
            self.say("refused: %s" % exc, refused=True)
            return
        self.draw_coins(p, "priest_draw", 1)

    def action_berserker(self):
        g = self.game
        f = g.follow
        self.submit({"e": "berserker_pay", "p": f["pay"] if f is not None and f["pay"] >= 0 else max(g.last, 0)})

    def rebuild(self):
        self.game = self.journal.game()
        self.free = False

    def action_undo(self):
        gone = self.undo_last()
        if gone is not None:
            self.say("undone: %s" % (gone if self.owner else render.public_event(evs.parse(
                gone, self.game.players))))

    def action_view(self):
        if not any(c.known for c in self.game.coins):
            self.say("no player's coins are entered: start a game with --owner N for the owner view",
                     refused=True)
            return
        self.owner = not self.owner
        self.show()
        self.say("owner view: keep this screen to yourself" if self.owner else "public view")


