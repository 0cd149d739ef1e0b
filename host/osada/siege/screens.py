"""Siege's dialogs in the monitor: the new game (players, mode, variants, seed;
over a game in progress it says so, and its button replaces the game) and the field
marshal's play (R60)."""

from rich.segment import Segment
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.strip import Strip
from textual.widgets import Button, Input, Label, RadioButton, RadioSet, Select, SelectionList, Static

from osada.words import texts
from shared_rules.siege.catalog import MODES, SECTOR_COLOR, VARIANTS


class TickList(SelectionList):
    """A SelectionList whose box says its state in a mark, not in colour alone: "✓"
    ticked, blank not (textual draws "X" either way; issue 61 item 12)."""

    def render_line(self, y):
        strip = super().render_line(y)
        segs = list(strip)
        _, top = self.scroll_offset
        try:
            option = self.get_option_at_index(top + y)
        except Exception:                     # OptionDoesNotExist: a line below the options
            return strip
        if len(segs) < 3 or segs[1].text != "X":
            return strip
        segs[1] = Segment("✓" if option.value in self.selected else " ", segs[1].style)
        return Strip(segs, strip.cell_length)


class SectorChoice(RadioSet):
    """The lone tank's sector: by die roll (0) or 1-6, in one row; `value` is the choice."""

    def compose(self) -> ComposeResult:
        yield RadioButton("die", value=True)
        for s in range(1, 7):
            yield RadioButton("%d %s" % (s, SECTOR_COLOR[s]))

    @property
    def value(self):
        i = self.pressed_index
        return 0 if i < 0 else i

    @value.setter
    def value(self, s):
        self.query(RadioButton)[s].value = True


class ConfirmScreen(ModalScreen):
    """A yes/no question whose safe answer is the default: only y says yes."""
    BINDINGS = [Binding("y", "answer(True)", "Yes"), Binding("n,escape,enter", "answer(False)", "No")]

    def __init__(self, question):
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.question + "  [y/N]", id="confirm")

    def action_answer(self, yes):
        self.dismiss(yes)


class NewGameScreen(ModalScreen):
    """The new game's setup.  Enter in a field goes to the next one; only
    the Start button starts.  Over a game in progress (`in_progress`: words
    saying which) the dialog says so at its top and the button is "Replace
    the game": that is the one question (issue 61 item 6: it asked twice)."""
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, players=2, mode="standard", variants=(), in_progress=None):
        super().__init__()
        self.players, self.mode, self.variants = players, mode, set(variants)
        self.in_progress = in_progress

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label("New game", classes="title")
            if self.in_progress:
                yield Label("A game is in progress (%s). Starting a new one replaces it; "
                            "u (undo) right after brings it back." % self.in_progress, id="in-progress")
            yield Label(texts.PLAYERS_WORDS)
            yield Input(str(self.players), id="players", type="integer")
            yield Label("Mode")
            yield Select([("%s — %s" % (texts.label(m, texts.MODES), texts.MODES[m][2]), m) for m in MODES],
                         value=self.mode, allow_blank=False, id="mode")
            yield Label("Variants (Space toggles)")
            yield TickList(*[(texts.label(v, texts.VARIANTS), v, v in self.variants) for v in VARIANTS],
                                id="variants")
            # what the highlighted variant does, whole and wrapped (beside its name it was cut at the dialog's width)
            yield Label(self._variant_words(VARIANTS[0]), id="variant-help", classes="help")
            yield Label("Seed (empty: the device picks one)")
            yield Input("", id="seed", type="integer", placeholder="random")
            yield Label("", id="problem", classes="problem")
            with Horizontal(classes="buttons"):
                yield Button("Replace the game" if self.in_progress else "Start", variant="primary", id="start")
                yield Button("Cancel", id="cancel")

    @staticmethod
    def _variant_words(v):
        return "%s: %s" % (texts.label(v, texts.VARIANTS), texts.VARIANTS[v][2])

    def on_selection_list_selection_highlighted(self, event):
        self.query_one("#variant-help", Label).update(self._variant_words(event.selection.value))

    def _result(self):
        """The setup, or a str saying what is wrong with it."""
        fields = {"mode": self.query_one("#mode", Select).value,
                  "variants": list(self.query_one("#variants", SelectionList).selected)}
        p = self.query_one("#players", Input).value.strip()
        if not p.isdigit():
            return "Players: type how many (%s)" % ("1–5 defenders" if fields["mode"] == "marshal" else
                                                    "2–6, or 1 for solo")
        fields["players"] = int(p)
        seed = self.query_one("#seed", Input).value.strip()
        if seed:
            if not seed.lstrip("-").isdigit():
                return "Seed: a whole number, or empty"
            fields["seed"] = int(seed)
        return fields

    def on_button_pressed(self, event):
        if event.button.id != "start":
            self.dismiss(None)
            return
        fields = self._result()
        if isinstance(fields, str):
            self.query_one("#problem", Label).update(fields)
            return
        self.dismiss(fields)

    def on_input_submitted(self, event):
        event.stop()
        self.focus_next()              # Enter goes on to the next field; it never starts a game

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
            yield TickList(*[("%s — %s  (%s)" % (texts.ru(k), texts.ru_class(k), k), i)
                           for i, k in enumerate(self.hand)], id="tokens")
            yield Label("Sector for a lone tank")
            # a row of choices, not a dropdown: its list spilled over the dialog's border (issue 61 item 12)
            yield SectorChoice(id="sector", disabled=True)
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
        self.query_one("#sector", SectorChoice).disabled = not self._lone_tank(kinds)
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
        s = self.query_one("#sector", SectorChoice).value
        if s and self._lone_tank(kinds):
            action["sector"] = s
        self.dismiss(action)

    def action_cancel(self):
        self.dismiss(None)


