"""The game-state file: what lies on the table, filled in by the players as
they play, read by every `osada line` command (docs/line-of-battle.md shows one).

    {"deck": {"colours": "RBGYPO", "values": "1-10"},      optional: the default deck (L1, LA1)
     "me": "south",                                          whose hand and odds these are (default south)
     "hand": ["P5", "R2"],                                   my unit cards in hand: private, for the odds
     "draw_pile": 20, "their_hand": 7,                       unit cards left in the deck / in his hand
     "fields": {"1": {"south": ["G8", "R8", "B8"], "north": ["Y2", "Y7", "Y9"],
                      "size": 3, "completed": {"south": 9, "north": 12},
                      "claimed": "south", "claim_turn": 13, "tactics": ["weather"]}},
     "series": [{"winner": "north", "loser_fields": 2}]}    finished games before this one (L23)

Fields are "1"-"9" (L2), a missing one is empty.  A field's `size` is 3, or 4
where a card says so (L12); `completed` holds the turn each complete side got
its last card (L11: who completed first); `claimed` the side that took it.
Only `size` of the tactics cards is modelled: a field with a played morale or
weather card (`tactics`) is refused by the evaluator and the prover, whose
effects the rulebook does not give (L15, L16, LA10).

Checked on reading, with one refusal naming the rule: a card twice (L1), more
than `size` cards a side (L8), a hand over 7 (L6), a completion turn of an
incomplete side or two sides completing on one turn (L5, L12), a claim of an
incomplete side (L17), a side completed after its field was claimed (L21), a
claim the table disproves (L19, L20), two winners (L22).
"""

from shared_rules.errors import RuleError
from shared_rules.line import outcome
from shared_rules.line.cards import DEFAULT_COLOURS, DEFAULT_VALUES, Deck, name
from shared_rules.line.formation import check_size, evaluate
from shared_rules.line.prover import Proof

HAND_LIMIT = 7
TACTICS_ON_A_FIELD = ("morale", "weather")        # guile cards lie by the tactics deck (L14)
TOP_KEYS = ("game", "comment", "deck", "me", "hand", "draw_pile", "their_hand", "fields", "series")
FIELD_KEYS = ("south", "north", "size", "completed", "claimed", "claim_turn", "tactics", "comment")


def _bad(message, rule="format"):
    raise RuleError(rule, message)


def _whole(v, what, lo=0, hi=None):
    if not isinstance(v, int) or isinstance(v, bool) or v < lo or (hi is not None and v > hi):
        _bad("%s must be a whole number %s, not %r" % (what, "from %d to %d" % (lo, hi) if hi is not None
                                                       else "of %d or more" % lo, v))
    return v


def _card_list(deck, v, what):
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        _bad("%s must be a list of cards like [\"R10\", \"B4\"], not %r" % (what, v))
    return deck.parse(v)


class Field:
    """One of the 9 fields: both sides' cards, size, completion turns, claim, tactics."""

    def __init__(self, number, size=3):
        self.number = number
        self.size = size
        self.cards = {s: [] for s in outcome.SIDES}
        self.completed = {s: None for s in outcome.SIDES}
        self.claimed = None
        self.claim_turn = None
        self.tactics = []

    def formation(self, side):
        return evaluate(self.cards[side], self.size)

    def first(self, side):
        """'mine' if `side` completed first, 'theirs' if the other did, None if not known (L11)."""
        a, b = self.completed[side], self.completed[outcome.other(side)]
        if a is None or b is None:
            return None
        return "mine" if a < b else "theirs"

    def refuse_tactics(self):
        if self.tactics:
            _bad("field %d has a played %s card, whose effect the rulebook does not give: enter the field "
                 "without it to evaluate the units alone" % (self.number, " and ".join(self.tactics)), "L16")


class GameState:
    """A checked game-state file.  table(): every face-up unit card; unseen():
    the deck less the table, the prover's pool (L18); unknown(): unseen less my
    hand, the odds' pool (needs the hand)."""

    def __init__(self, deck=None):
        self.deck = deck or Deck()
        self.me = "south"
        self.hand = None
        self.draw_pile = None
        self.their_hand = None
        self.fields = {n: Field(n) for n in range(1, outcome.FIELDS + 1)}
        self.series = []

    def table(self):
        return [c for f in self.fields.values() for s in outcome.SIDES for c in f.cards[s]]

    def where(self, card):
        """'on the table (field 2, north)', 'in your hand', or None."""
        for f in self.fields.values():
            for s in outcome.SIDES:
                if card in f.cards[s]:
                    return "on the table (field %d, %s)" % (f.number, s)
        if self.hand and card in self.hand:
            return "in your hand"
        return None

    def unseen(self):
        seen = set(self.table())
        return [c for c in self.deck.cards if c not in seen]

    def unknown(self):
        if self.hand is None:
            _bad("the state file gives no \"hand\": the draw odds need your hand (unknown = unseen - hand)")
        mine = set(self.hand)
        return [c for c in self.unseen() if c not in mine]

    def claims(self):
        return {n: f.claimed for n, f in self.fields.items() if f.claimed}

    def winner(self):
        return outcome.winner(self.claims())

    def field(self, number):
        if not isinstance(number, int) or number not in self.fields:
            _bad("there is no field %r: the fields are 1-%d (L2)" % (number, outcome.FIELDS))
        return self.fields[number]

    def proof(self, number, side):
        """The claim `side` could make on field `number` now (L17-L21)."""
        f = self.field(number)
        if f.claimed:
            _bad("field %d is already claimed by %s: a claim is final" % (number, f.claimed.capitalize()), "L21")
        won = self.winner()
        if won:
            _bad("the game is over: %s holds %s" % (won[0].capitalize(), _fields_text(won[2])), "L22")
        f.refuse_tactics()
        return Proof(f.formation(side), f.formation(outcome.other(side)), self.unseen(), f.first(side),
                     self.deck.index.__getitem__)


def _fields_text(fields):
    return "fields " + " ".join("%d" % f for f in fields)


def from_dict(data):
    """A GameState from a state file's JSON object, checked (module docstring)."""
    if not isinstance(data, dict):
        _bad("a state file is a JSON object ({...}), not %s" % type(data).__name__)
    for key in data:
        if key not in TOP_KEYS:
            _bad("unknown key %r in the state file (known: %s)" % (key, ", ".join(TOP_KEYS)))
    deck_spec = data.get("deck", {})
    if not isinstance(deck_spec, dict) or set(deck_spec) - {"colours", "values"} or not all(
            isinstance(v, str) for v in deck_spec.values()):
        _bad("\"deck\" must be {\"colours\": \"RBGYPO\", \"values\": \"1-10\"}, not %r" % (deck_spec,))
    st = GameState(Deck(deck_spec.get("colours", DEFAULT_COLOURS), deck_spec.get("values", DEFAULT_VALUES)))
    st.me = data.get("me", "south")
    if st.me not in outcome.SIDES:
        _bad("\"me\" must be south or north, not %r" % (st.me,))
    fields = data.get("fields", {})
    if not isinstance(fields, dict):
        _bad("\"fields\" must be an object keyed by field number \"1\"-\"9\", not %r" % (fields,))
    for key, spec in fields.items():
        if not (isinstance(key, str) and key.isdigit() and 1 <= int(key) <= outcome.FIELDS):
            _bad("there is no field %r: the fields are \"1\"-\"9\" (L2)" % (key,))
        _read_field(st, int(key), spec)
    _check_cards(st, data)
    _read_counts(st, data)
    for f in st.fields.values():
        _check_claim(st, f)
    st.winner()
    series = data.get("series", [])
    if not isinstance(series, list):
        _bad("\"series\" must be a list of finished games, not %r" % (series,))
    st.series = [outcome.check_game(g, " of series game %d" % (i + 1)) for i, g in enumerate(series)]
    return st


def _read_field(st, n, spec):
    where = "field %d" % n
    if not isinstance(spec, dict):
        _bad("%s must be an object like {\"south\": [...], \"north\": [...]}, not %r" % (where, spec))
    for key in spec:
        if key not in FIELD_KEYS:
            _bad("unknown key %r in %s (known: %s)" % (key, where, ", ".join(FIELD_KEYS)))
    f = st.fields[n]
    f.size = check_size(spec.get("size", 3))
    for side in outcome.SIDES:
        f.cards[side] = _card_list(st.deck, spec.get(side, []), "%s %s" % (where, side))
        evaluate(f.cards[side], f.size, " on %s %s" % (where, side))       # L1 twice on a side, L8 over size
    _read_tactics(f, spec.get("tactics", []))
    completed = spec.get("completed", {})
    if not isinstance(completed, dict) or set(completed) - set(outcome.SIDES):
        _bad("%s: \"completed\" must be like {\"south\": 14, \"north\": 9}, not %r" % (where, completed))
    for side, turn in completed.items():
        f.completed[side] = _whole(turn, "%s: the turn %s completed" % (where, side), 1)
        if len(f.cards[side]) != f.size:
            _bad("%s: %s holds %d of %d cards, so it has no completion turn" % (
                where, side, len(f.cards[side]), f.size), "L12")
    if f.completed["south"] is not None and f.completed["south"] == f.completed["north"]:
        _bad("%s: both sides completed on turn %d, but a turn plays one card" % (where, f.completed["south"]), "L5")
    claimed = spec.get("claimed")
    if claimed is not None and claimed not in outcome.SIDES:
        _bad("%s: \"claimed\" must be south or north, not %r" % (where, claimed))
    f.claimed = claimed
    if "claim_turn" in spec:
        if claimed is None:
            _bad("%s has a claim_turn but no \"claimed\"" % where)
        f.claim_turn = _whole(spec["claim_turn"], "%s: claim_turn" % where, 1)


def _read_tactics(f, tactics):
    if not isinstance(tactics, list) or not all(t in TACTICS_ON_A_FIELD for t in tactics):
        _bad("field %d: \"tactics\" lists the tactics cards played there, \"morale\" or \"weather\" "
             "(a guile card lies by the tactics deck, L14), not %r" % (f.number, tactics), "L14")
    f.tactics = list(tactics)


def _check_cards(st, data):
    """Each card once over the table and the hand (L1); the hand within 7 (L6)."""
    seen = {}
    for f in st.fields.values():
        for side in outcome.SIDES:
            for c in f.cards[side]:
                if c in seen:
                    _bad("%s is on the table twice (%s and field %d %s): the deck holds each card once" % (
                        name(c), seen[c], f.number, side), "L1")
                seen[c] = "field %d %s" % (f.number, side)
    if "hand" in data:
        st.hand = _card_list(st.deck, data["hand"], "\"hand\"")
        if len(st.hand) > HAND_LIMIT:
            _bad("the hand holds %d cards, but the limit is %d" % (len(st.hand), HAND_LIMIT), "L6")
        for c in st.hand:
            if c in seen:
                _bad("%s is in your hand and %s: the deck holds each card once" % (
                    name(c), "in your hand" if seen[c] == "hand" else "on the table (%s)" % seen[c]), "L1")
            seen[c] = "hand"


def _read_counts(st, data):
    """draw_pile and their_hand: unit cards left in the deck and in his hand;
    with my hand they add up to the unknown cards."""
    if "draw_pile" in data:
        st.draw_pile = _whole(data["draw_pile"], "draw_pile (unit cards left in the deck)")
    if "their_hand" in data:
        st.their_hand = _whole(data["their_hand"], "their_hand (unit cards in his hand)", 0, HAND_LIMIT)
    if st.hand is None:
        return
    unknown = len(st.unknown())
    if st.draw_pile is not None and st.their_hand is not None and st.draw_pile + st.their_hand != unknown:
        _bad("draw_pile %d + their_hand %d = %d, but %d unit cards are neither on the table nor in your hand"
             % (st.draw_pile, st.their_hand, st.draw_pile + st.their_hand, unknown))
    if st.draw_pile is not None and st.their_hand is None:
        st.their_hand = unknown - st.draw_pile
        if not 0 <= st.their_hand <= HAND_LIMIT:
            _bad("draw_pile %d leaves %d unknown cards for his hand, but a hand holds 0 to %d" % (
                st.draw_pile, st.their_hand, HAND_LIMIT), "L6")
    elif st.their_hand is not None and st.draw_pile is None:
        st.draw_pile = unknown - st.their_hand
        if st.draw_pile < 0:
            _bad("their_hand %d is more than the %d unknown cards" % (st.their_hand, unknown))


def _check_claim(st, f):
    """A claimed field: the claimant's side complete (L17), nothing completed
    after the claim (L21), and the claim one the table still bears out (L19,
    L20: the other side cannot grow after a claim, and the unseen cards only
    shrink, so a claim that was proved then is proved now)."""
    side = f.claimed
    if side is None:
        return
    where = "field %d" % f.number
    if len(f.cards[side]) != f.size:
        _bad("%s is claimed by %s, whose side holds %d of %d cards: only a complete formation claims" % (
            where, side.capitalize(), len(f.cards[side]), f.size), "L17")
    if f.claim_turn is not None:
        for s in outcome.SIDES:
            if f.completed[s] is not None and f.completed[s] > f.claim_turn:
                _bad("%s: %s completed on turn %d, after the claim on turn %d: a claimed field takes no card" % (
                    where, s, f.completed[s], f.claim_turn), "L21")
    if f.tactics:
        return                                      # its strength is the players' (L16, LA10)
    proof = Proof(f.formation(side), f.formation(outcome.other(side)), st.unseen(), f.first(side),
                  st.deck.index.__getitem__)
    if proof.proven is False:
        if proof.both:
            _bad("%s is claimed by %s, but %s's side is stronger or completed first" % (
                where, side.capitalize(), outcome.other(side).capitalize()), "L20")
        top = proof.beating(1)[0][1]
        _bad("%s is claimed by %s, but %s could still beat it (with %s), so it was never proved" % (
            where, side.capitalize(), outcome.other(side).capitalize(), " ".join(name(c) for c in top)), "L19")
