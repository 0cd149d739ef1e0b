"""Which fields a side can claim, over a whole game state (L17-L21).

now(state, side): the open fields where `side` is complete, each with its
proof (proved or not).  next_play(state, side): the open fields where `side`
is one card short, with the cards that would complete it into a formation he
could claim at once (he plays, then claims: L5), each with its proof.  The
cards tried are those `side` may hold: my hand for me (when the file gives it),
the unknown cards for him (the unseen ones without my hand), or every unseen
card when the file gives no hand.  The proofs themselves always run over the
unseen cards (L18): a hand is not evidence.
"""

from shared_rules.line import outcome
from shared_rules.line.formation import Formation
from shared_rules.line.prover import Completions


def open_fields(state):
    """The fields no one has claimed and no played tactics card touches (L16, L21)."""
    return [f for f in state.fields.values() if not f.claimed and not f.tactics]


def now(state, side):
    """[(field number, Proof)] for every open field where `side` is complete."""
    out = []
    for f in open_fields(state):
        if len(f.cards[side]) == f.size:
            out.append((f.number, state.proof(f.number, side)))
    return out


def playable(state, side):
    """The cards `side` may still play (module docstring)."""
    unseen = state.unseen()
    if state.hand is None:
        return unseen
    if side == state.me:
        return list(state.hand)
    mine = set(state.hand)
    return [c for c in unseen if c not in mine]


def next_play(state, side):
    """[(field number, [(card, Formation)])]: for every open field where `side`
    is one card short, each card he may play there that completes a formation
    he could then claim at once: the other side, if complete, completed first
    (L11, L20); if open, no completion of it from the unseen cards left (the
    card played is seen then) may beat his key, and a tie is his (L19)."""
    out = []
    cards = playable(state, side)
    unseen = state.unseen()
    for f in open_fields(state):
        have = f.cards[side]
        if len(have) != f.size - 1:
            continue
        theirs = f.formation(outcome.other(side))
        others = None if theirs.complete else Completions(theirs.cards, unseen, f.size, state.deck.index.__getitem__)
        wins = []
        for card in cards:
            mine = Formation(have + [card], f.size)
            if theirs.complete:
                ok = mine.key > theirs.key
            else:
                ok = not any(card not in added for _, added in others.each(lambda k, key=mine.key: k > key))
            if ok:
                wins.append((card, mine))
        out.append((f.number, wins))
    return out
