"""The line-of-battle tracker's saved game (`osada line track`): its setup
(the deck, whose file it is, that player's dealt hand) and its events, one
text line each, as the table plays them:

    south plays R7 on 3      a unit card onto a field (L5); from my hand if it is my side
    south draws R4           my draw: the card (L5, L6)
    north draws              the other side's draw: a card I do not see
    south claims 3           a claim, proved from the table as it is made (L17-L21)

The state they make is the game-state file every `osada line` command reads
(shared_rules.line.state): each event is checked by it (a card twice, L1; a
side over its size, L8; a hand over 7, L6; a claim the table does not prove,
L19, L20), and by what only the order of events tells: a claimed field takes
no card (L21), a won game no event (L22), a card played from my side must be
in my hand.  One JSON file, rewritten atomically after every event; read
back, every event is checked again and the first wrong one named.  The other
commands read the file as a state file (`osada line claim --state FILE`)."""

import json
import re

from osada.files.savefile import SavedGame
from shared_rules.errors import RuleError
from shared_rules.line import outcome
from shared_rules.line.cards import DEFAULT_COLOURS, DEFAULT_VALUES, Deck, name, names
from shared_rules.line.state import HAND_LIMIT, from_dict

FORMAT = "osada-line"
VERSION = 1
SIDE = "(south|north)"
PLAYS = re.compile(r"^%s plays (\S+) on (\d+)$" % SIDE)
DRAWS = re.compile(r"^%s draws(?: (\S+))?$" % SIDE)
CLAIMS = re.compile(r"^%s claims (\d+)$" % SIDE)


class JournalError(ValueError):
    """A file that is not a saved line-of-battle game, or one that cannot be read or written (one line)."""


def _bad(message, rule="format"):
    raise RuleError(rule, message)


class Table:
    """The game as the events made it: the state file's dict (`data`), the turn (plays so far)."""

    def __init__(self, setup):
        self.deck = Deck(setup["deck"]["colours"], setup["deck"]["values"])
        self.me = setup["me"]
        hand = list(setup["hand"])
        self.data = {"deck": dict(setup["deck"]), "me": self.me, "hand": hand,
                     "draw_pile": len(self.deck) - len(hand) - HAND_LIMIT, "their_hand": HAND_LIMIT,
                     "fields": {}}
        self.turn = 0
        self.state = from_dict(self.data)

    def field(self, n):
        return self.data["fields"].setdefault(str(n), {"south": [], "north": []})

    def apply(self, line):
        """Play one event line: the state after it, checked; RuleError (nothing changed) if it is wrong."""
        before = json.dumps(self.data)
        turn = self.turn
        try:
            self._apply(str(line).strip())
            self.state = from_dict(self.data)
        except RuleError:
            self.data, self.turn = json.loads(before), turn
            raise
        return self.state

    def _apply(self, line):
        won = self.state.winner()
        if won:
            _bad("the game is over: %s holds %s" % (won[0].capitalize(), " ".join(str(f) for f in won[2])), "L22")
        for pattern, how in ((PLAYS, self._plays), (DRAWS, self._draws), (CLAIMS, self._claims)):
            m = pattern.match(line)
            if m:
                return how(*m.groups())
        _bad("%r is not an event: \"south plays R7 on 3\", \"south draws R4\", \"north draws\", "
             "\"north claims 3\"" % line)

    def _number(self, text):
        if not text.isdigit() or not 1 <= int(text) <= outcome.FIELDS:
            _bad("there is no field %s: the fields are 1-%d" % (text, outcome.FIELDS), "L2")
        return int(text)

    def _plays(self, side, card_text, field_text):
        card, n = self.deck.card(card_text), self._number(field_text)
        f = self.field(n)
        if f.get("claimed"):
            _bad("field %d is claimed by %s: a claimed field takes no card" % (n, f["claimed"].capitalize()), "L21")
        hand = self.data["hand"]
        if side == self.me:
            if name(card) not in hand:
                where = self.state.where(card)
                held = names(self.deck.sort(self.deck.parse(hand))) or "empty"
                _bad("%s is not in your hand%s (your hand: %s)" % (name(card), " but " + where if where else "", held))
            hand.remove(name(card))
        else:
            if self.data["their_hand"] == 0:
                _bad("%s has no card in hand to play" % side.capitalize(), "L6")
            self.data["their_hand"] -= 1
        self.turn += 1
        f[side] = f[side] + [name(card)]
        if len(f[side]) == f.get("size", 3):
            f.setdefault("completed", {})[side] = self.turn

    def _draws(self, side, card_text):
        if self.data["draw_pile"] == 0:
            _bad("the deck is empty: no unit card is left to draw", "L5")
        if side == self.me:
            if card_text is None:
                _bad("your draw needs its card: \"%s draws R4\"" % side)
            card = self.deck.card(card_text)
            self.data["hand"].append(name(card))
        else:
            if card_text is not None:
                _bad("%s's draw is not seen: \"%s draws\"" % (side.capitalize(), side))
            if self.data["their_hand"] >= HAND_LIMIT:
                _bad("%s already holds %d cards" % (side.capitalize(), HAND_LIMIT), "L6")
            self.data["their_hand"] += 1
        self.data["draw_pile"] -= 1

    def _claims(self, side, field_text):
        n = self._number(field_text)
        proof = self.state.proof(n, side)          # L17 (complete), L21 (claimed), L22 (over), L16 (tactics)
        if not proof.proven:
            if proof.both:
                _bad("%s's side on field %d is stronger or completed first" % (
                    outcome.other(side).capitalize(), n), "L20")
            top = proof.beating(1)[0][1]
            _bad("%s could still beat it on field %d (with %s): not proved" % (
                outcome.other(side).capitalize(), n, " ".join(name(c) for c in top)), "L19")
        f = self.field(n)
        f["claimed"] = side
        f["claim_turn"] = max(self.turn, 1)


def new_setup(me, hand, colours=DEFAULT_COLOURS, values=DEFAULT_VALUES):
    """A new game's setup: the deck, my side, my dealt hand (checked: cards of the deck, at most 7)."""
    deck = Deck(colours, values)
    if me not in outcome.SIDES:
        _bad("--me is south or north, not %r" % (me,))
    cards = deck.parse([hand] if isinstance(hand, str) else hand)
    setup = {"deck": deck.as_dict(), "me": me, "hand": [name(c) for c in cards]}
    Table(setup)                                     # L1 twice, L6 over 7
    return setup


class Journal(SavedGame):
    FORMAT, VERSION, WHAT, PREFIX, ERROR = FORMAT, VERSION, "a saved line-of-battle game", ".line-", JournalError
    SETUP_KEYS = ("deck", "me", "hand")

    def table(self):
        """The table after every event; JournalError names the first wrong one ("FILE: event N (line): L19: …")."""
        try:
            t = Table(self.setup)
        except RuleError as exc:
            raise JournalError("%s: the setup: %s" % (self.path, exc)) from None
        for i, line in enumerate(self.events):
            try:
                t.apply(line)
            except RuleError as exc:
                raise JournalError("%s: event %d (%s): %s" % (self.path, i + 1, line, exc)) from None
        return t


def is_journal(data):
    return isinstance(data, dict) and data.get("format") == FORMAT
