"""`osada line claim`: the claim prover (L17-L20) as a command.

    osada line claim --state FILE --field N [--side S]   one field: PROVEN with
        the proof (the best the other side could still make, ties settled by
        completion), or NOT PROVEN with every completion that beats it, best first
    osada line claim --state FILE [--side S]            every field: those S can
        claim now, and those he could claim after playing one more card there
    osada line claim --mine CARDS --theirs CARDS --seen CARDS   one field, inline

The pool is the unseen cards, the claimant's own hand included (L18)."""

from osada.line import words
from osada.line.inputs import Refused, deck, no_deck_with_state, print_json, read_state
from shared_rules.line import claims, outcome
from shared_rules.line.cards import check_distinct, name
from shared_rules.line.formation import TYPES, evaluate
from shared_rules.line.prover import Proof

LIMIT = 20           # completions listed by default; --all lists every one


def run(args):
    limit = None if args.all else args.limit
    if args.limit < 1:
        raise Refused("--limit must be 1 or more")
    if args.state:
        return _from_state(args, limit)
    if args.mine is None:
        raise Refused("give the claimant's side (--mine CARDS) and the other side (--theirs CARDS), "
                      "or a state file (--state FILE)")
    if args.field is not None or args.side:
        raise Refused("--field and --side need --state FILE")
    d = deck(args)
    mine = evaluate(d.parse(args.mine), args.size, " on your side")
    theirs = evaluate(d.parse(args.theirs or []), args.size, " on the other side")
    seen = d.parse(args.seen or [])
    check_distinct(mine.cards + theirs.cards + seen, " (on the table)")
    table = set(mine.cards + theirs.cards + seen)
    pool = [c for c in d.cards if c not in table]
    proof = Proof(mine, theirs, pool, args.first, d.index.__getitem__)
    who = Who("Your side", "you", "yours", "The other side", "the other side")
    return _show(proof, who, len(pool), limit, args.json, None, None, {})


def _from_state(args, limit):
    no_deck_with_state(args)
    if args.mine is not None or args.theirs is not None or args.seen is not None or args.first:
        raise Refused("with --state the cards come from the file: leave out --mine, --theirs, --seen and --first")
    st = read_state(args.state)
    side = args.side or st.me
    won = st.winner()
    if won:
        raise Refused("the game is over: %s holds %s (L22)" % (words.side(won[0]), words.fields_text(won[2])))
    if args.field is None:
        return _listing(st, side, args.json)
    proof = st.proof(args.field, side)
    me, him = words.side(side), words.side(outcome.other(side))
    who = Who("Field %d, %s" % (args.field, me), me, me + "'s", "Field %d, %s" % (args.field, him), him)
    hand = st.hand if side == st.me else None
    return _show(proof, who, len(st.unseen()), limit, args.json, hand, _wins_game(st, args.field, side),
                 {"field": args.field, "side": side})


class Who:
    """How the claimant and the other side are named: a line's label, in a sentence, the claimant's possessive."""

    def __init__(self, label, me, mine, his_label, him):
        self.label, self.me, self.mine, self.his_label, self.him = label, me, mine, his_label, him


def _wins_game(st, number, side):
    """(how, fields) if claiming field `number` wins `side` the game (L22), else None."""
    held = [f for f, s in st.claims().items() if s == side] + [number]
    return outcome.won_by(held)


def _show(proof, who, unseen, limit, as_json, hand, wins, head):
    if as_json:
        print_json(_proof_json(proof, unseen, limit, wins, head))
        return 0
    mine, theirs = proof.mine, proof.theirs
    print("%s (claims): %s, %s" % (who.label, words.cards_of(mine), words.formation(mine)))
    if proof.both:
        print("%s: %s, %s, complete" % (who.his_label, words.cards_of(theirs), words.formation(theirs)))
        print(_both_verdict(proof, who))
    else:
        print("%s: %s, %s: %s over the %d unseen cards (L18: every unit card not face up, your own hand "
              "included)" % (who.his_label, words.cards_of(theirs), words.formation(theirs),
                             words.count(proof.total, "completion", "completions"), unseen))
        _open_verdict(proof, who, limit, hand)
    if proof.proven and wins:
        how, fields = wins
        print("Claiming it wins the game: %s (L22)." % (
            "%s in a row" % words.fields_text(fields) if how == "adjacent" else "%d fields" % len(fields)))
    return 0


def _both_verdict(proof, who):
    mine, theirs = proof.mine, proof.theirs
    if mine.key == theirs.key:
        if proof.proven is None:
            return ("UNDECIDED: both sides are complete with equal keys %s: whoever completed first takes it "
                    "(L11, L20); the state file's \"completed\" turns say who" % words.key_text(mine.key))
        return "%s: both sides are complete with equal keys %s, and %s completed first (L11, L20)" % (
            "PROVEN" if proof.proven else "NOT PROVEN", words.key_text(mine.key),
            who.me if proof.proven else who.him)
    if proof.proven:
        return "PROVEN: both sides are complete, no proof needed (L20): %s beats %s" % (
            words.formation(mine), words.formation(theirs))
    return "NOT PROVEN: both sides are complete (L20): %s beats %s" % (
        words.formation(theirs), words.formation(mine))


def _open_verdict(proof, who, limit, hand):
    theirs = proof.theirs.cards
    total = words.count(proof.total, "completion", "completions")
    if proof.proven:
        print("PROVEN: none of the %s beats %s (L19)" % (total, words.formation(proof.mine)))
        if proof.best is None:
            print("He cannot complete it: fewer cards are unseen than it needs")
        else:
            ways = proof.best_ways(3)
            print("Best %s could still make: %s, %s: %s%s" % (
                who.him, words.key_formation(proof.best), words.count(proof.best_count, "way", "ways"),
                ", ".join(words.completion(theirs, a) for _, a in ways), ", ..." if proof.best_count > 3 else ""))
    else:
        print("NOT PROVEN: %d of the %s %s %s (L19), strongest first:" % (
            proof.beats, total, "beats" if proof.beats == 1 else "beat", words.formation(proof.mine)))
        shown = proof.beating(limit)
        for key, added in shown:
            print("  %s: %s" % (words.key_formation(key), words.completion(theirs, added)))
        if proof.beats > len(shown):
            print("  ... and %d more (--all lists every one)" % (proof.beats - len(shown)))
        _hand_note(shown, hand)
    if proof.ties:
        ties = proof.tying(3)
        print("Ties: %s %s it, and a tie is %s: %s completed first (L11, L19): %s%s" % (
            words.count(proof.ties, "completion", "completions"), "equals" if proof.ties == 1 else "equal",
            who.mine, who.me, ", ".join(words.completion(theirs, a) for _, a in ties),
            ", ..." if proof.ties > 3 else ""))


def _hand_note(shown, hand):
    """Cards of my hand in a beating completion: they count all the same (L18)."""
    if not hand:
        return
    held = []
    for _, added in shown:
        held += [c for c in added if c in hand and c not in held]
    if held:
        print("Note: %s %s in your hand, but a hand is not evidence (L18): %s until you play %s." % (
            " ".join(name(c) for c in held), "is" if len(held) == 1 else "are",
            "it counts" if len(held) == 1 else "they count", "it" if len(held) == 1 else "them"))


def _proof_json(proof, unseen, limit, wins, head):
    out = dict(head)
    out.update({"proven": proof.proven, "both_complete": proof.both, "mine": proof.mine.as_dict(),
                "theirs": proof.theirs.as_dict(), "unseen": unseen})
    if not proof.both:
        out.update({"completions": proof.total, "beats": proof.beats, "ties": proof.ties,
                    "best": None if proof.best is None else {
                        "key": list(proof.best), "count": proof.best_count,
                        "ways": [_way(proof, k, a) for k, a in proof.best_ways(limit)]},
                    "beating": [_way(proof, k, a) for k, a in proof.beating(limit)],
                    "tying": [_way(proof, k, a) for k, a in proof.tying(limit)]})
    out["wins_game"] = bool(proof.proven and wins)
    return out


def _way(proof, key, added):
    return {"formation": TYPES[key[0] - 1], "key": list(key), "added": [name(c) for c in added],
            "cards": [name(c) for c in proof.theirs.cards + list(added)]}


def _listing(st, side, as_json):
    """Every field `side` can claim now, and those he could after playing one card there."""
    now = claims.now(st, side)
    nxt = claims.next_play(st, side)
    if as_json:
        print_json({"side": side,
                    "now": [{"field": n, "proven": p.proven, "both_complete": p.both,
                             "beats": p.beats, "best": list(p.best) if p.best else None} for n, p in now],
                    "next": [{"field": n, "cards": [name(c) for c, _ in wins]} for n, wins in nxt]})
        return 0
    who = words.side(side)
    print("%s's complete sides on open fields:" % who)
    for n, p in now:
        print("  field %d: %s" % (n, _short(p, side)))
    if not now:
        print("  none")
    pool = "the cards in your hand" if st.hand is not None and side == st.me else (
        "the %d cards he may hold (unseen, not in your hand)" % len(claims.playable(st, side))
        if st.hand is not None else "any of the %d unseen cards" % len(st.unseen()))
    print("%s could claim after playing one more card there (trying %s):" % (who, pool))
    for n, wins in nxt:
        have = words.cards_of(st.fields[n].formation(side))
        if wins:
            print("  field %d (%s): with %s" % (n, have, ", ".join(
                "%s (%s)" % (name(c), words.formation(form)) for c, form in wins)))
        else:
            print("  field %d (%s): no such card" % (n, have))
    if not nxt:
        print("  no field is one card short")
    return 0


def _short(p, side):
    if p.both:
        if p.proven is None:
            return "UNDECIDED: equal keys %s, whoever completed first (L11, L20)" % words.key_text(p.mine.key)
        return "%s: both complete, %s against %s (L20)" % (
            "PROVEN" if p.proven else "NOT PROVEN", words.formation(p.mine), words.formation(p.theirs))
    if p.proven:
        tie = ", a tie, %s's (L11)" % words.side(side) if p.best == p.mine.key else ""
        best = words.key_formation(p.best) if p.best else "nothing"
        return "PROVEN: %s, best %s could make: %s%s" % (
            words.formation(p.mine), words.side(outcome.other(side)), best, tie)
    key, added = p.beating(1)[0]
    return "NOT PROVEN: %d of %d completions %s %s, the best %s: %s" % (
        p.beats, p.total, "beats" if p.beats == 1 else "beat", words.formation(p.mine), words.key_formation(key),
        words.completion(p.theirs.cards, added))
