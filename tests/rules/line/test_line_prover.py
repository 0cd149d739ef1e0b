"""The claim prover (L17-L20) on the spec's table T (worked examples 3-6, word
for word), the rulebook's examples E3, E4 and E6, size 4 on a full deck
against brute force, and a property test: on small random decks the prover's
verdict, counts, best completion and listings are exactly brute force's, so it
never proves a field that some completion beats."""

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared_rules.errors import RuleError
from shared_rules.line.cards import Deck
from shared_rules.line.formation import classify, evaluate
from shared_rules.line.prover import Proof

DECK = Deck()
# table T (spec, worked examples): field -> (South, North)
T = {1: ("G8 R8 B8", "Y2 Y7 Y9"), 2: ("B4 G5 R6", "Y8 P8"), 3: ("B2 B5 B9", "P6 P7"),
     4: ("R10 B10 G10", "Y10 P10"), 5: ("O4 O5", ""), 6: ("", "O8"), 7: ("", "P4 G2"), 8: ("", "P9")}
SOUTH_HAND = "P5 R2 Y5 B1 G1 R7"


def cards(text):
    return DECK.parse([text]) if text else []


def table_t():
    return [c for south, north in T.values() for c in cards(south) + cards(north)]


def unseen(table):
    seen = set(table)
    return [c for c in DECK.cards if c not in seen]


def prove(field, played=(), first=None):
    """South's proof for a field of T, with `played` cards also gone from the unseen."""
    south, north = T[field]
    table = table_t() + cards(" ".join(played))
    return Proof(evaluate(cards(south)), evaluate(cards(north)), unseen(table), first, DECK.index.__getitem__)


def added(items):
    return [" ".join("%s%d" % c for c in a) for _, a in items]


def test_table_t_counts():
    assert len(table_t()) == 27 and len(unseen(table_t())) == 33
    hand = cards(SOUTH_HAND)
    assert len([c for c in unseen(table_t()) if c not in hand]) == 27      # |unknown|


# ------------------------------------------------------------------ worked examples 3-6

def test_l20_example3_field1_both_complete_square_beats_column():
    p = prove(1)
    assert p.both and p.proven is True
    assert p.mine.key == (4, 24) and p.theirs.key == (3, 18)


def test_l19_example4_field2_proven_best_skirmish_26_with_o10():
    p = prove(2)
    assert p.mine.type == "phalanx" and p.mine.key == (2, 15)
    assert (p.total, p.beats, p.proven) == (33, 0, True)
    assert p.best == (1, 26) and p.best_count == 1
    assert added(p.best_ways()) == ["O10"]                # the only unseen ten


def test_l18_l19_example5_field3_not_proven_p5_wedge_though_south_holds_p5():
    p = prove(3)
    assert p.mine.key == (3, 16)
    assert (p.total, p.beats, p.ties, p.proven) == (33, 1, 1, False)
    assert p.beating() == [((5, 18), (("P", 5),))]
    assert p.tying() == [((3, 16), (("P", 3),))]          # a tie, South's (he completed first)
    keys = {a: k for k, a in p.completions.listed(lambda k: True)}
    assert keys[(("P", 1),)] == (3, 14) and keys[(("P", 2),)] == (3, 15)
    assert all(k[0] <= 2 for a, k in keys.items() if a[0] not in (("P", 1), ("P", 2), ("P", 3), ("P", 5)))
    # leaving South's own hand out would wrongly prove it (L18)
    hand = cards(SOUTH_HAND)
    wrong = Proof(p.mine, p.theirs, [c for c in unseen(table_t()) if c not in hand])
    assert wrong.proven is True
    # once South plays P5 anywhere: 32 unseen, PROVEN, best column 16, a tie
    after = prove(3, played=["P5"])
    assert (after.total, after.proven, after.best, after.ties) == (32, True, (3, 16), 1)


def test_l19_example6_field4_proven_square_30_ties_south_completed_first():
    p = prove(4)
    assert p.mine.key == (4, 30)
    assert (p.total, p.beats, p.ties, p.proven) == (33, 0, 1, True)
    assert p.best == (4, 30) and added(p.best_ways()) == ["O10"]


# ------------------------------------------------------------------ the rulebook's examples

def test_l20_e3_bottom_square_beats_top_column_both_complete():
    bottom, top = evaluate(cards("G8 R8 B8")), evaluate(cards("Y2 Y7 Y9"))
    p = Proof(bottom, top, unseen(table_t()))
    assert p.both and p.proven is True
    assert Proof(top, bottom, unseen(table_t())).proven is False


def test_l19_e4_all_eights_on_the_table_bottom_proves_field2():
    p = prove(2)
    eights = [c for c in DECK.cards if c[1] == 8]
    assert not set(eights) & set(unseen(table_t()))        # «все восьмерки уже на столе»
    assert p.proven is True and all(k[0] != 4 for k, _ in p.completions.listed(lambda k: True))


def test_l11_l19_e6_top_takes_field4_bottom_can_only_equal_and_top_completed_first():
    top, bottom = evaluate(cards("R10 B10 G10")), evaluate(cards("Y10 P10"))
    p = Proof(top, bottom, unseen(table_t()))
    assert p.proven is True and p.beats == 0 and p.ties == 1 and p.best == top.key


# ------------------------------------------------------------------ L17, L18, L20 details

def test_l17_the_claimant_must_be_complete_the_other_side_need_not():
    with pytest.raises(RuleError) as e:
        Proof(evaluate(cards("O4 O5")), evaluate([]), unseen(table_t()))
    assert e.value.rule == "L17" and "2/3" in e.value.message
    assert Proof(evaluate(cards("R1 R2 R3")), evaluate([]), unseen(cards("R1 R2 R3"))).total == 29260   # C(57, 3)


def test_l18_a_card_both_on_the_table_and_unseen_is_refused():
    with pytest.raises(RuleError) as e:
        Proof(evaluate(cards("R1 R2 R3")), evaluate(cards("B1")), cards("B1 B2"))
    assert e.value.rule == "L1"


def test_l20_l11_equal_complete_sides_go_to_who_completed_first():
    a, b = evaluate(cards("R7 R8 R9")), evaluate(cards("B7 B8 B9"))
    assert Proof(a, b, []).proven is None
    assert Proof(a, b, [], "mine").proven is True
    assert Proof(a, b, [], "theirs").proven is False


def test_l19_no_completion_left_is_proven():
    p = Proof(evaluate(cards("R1 R2 R4")), evaluate(cards("B1")), cards("B2"))
    assert (p.total, p.proven, p.best) == (0, True, None)


# ------------------------------------------------------------------ size 4 and brute force

def brute(mine, theirs, pool):
    """Every completion listed: (sorted beating, sorted tying, best key)."""
    beating, tying, best = [], [], None
    for add in combinations(sorted(pool), theirs.size - len(theirs.cards)):
        k = classify(theirs.cards + list(add))
        best = k if best is None or k > best else best
        if k > mine.key:
            beating.append(add)
        elif k == mine.key:
            tying.append(add)
    return sorted(beating), sorted(tying), best


def check_against_brute(mine, theirs, pool):
    p = Proof(mine, theirs, pool)
    beating, tying, best = brute(mine, theirs, pool)
    assert p.proven == (not beating)                       # never proves what a completion beats
    assert (p.beats, p.ties, p.best) == (len(beating), len(tying), best)
    listed = p.beating()
    assert sorted(a for _, a in listed) == beating
    assert [k for k, _ in listed] == sorted((k for k, _ in listed), reverse=True)       # best first
    assert all(classify(theirs.cards + list(a)) == k for k, a in listed)
    assert sorted(a for _, a in p.tying()) == tying
    if best is not None:
        assert p.best_count == len(p.best_ways()) and all(k == best for k, _ in p.best_ways())
    return p


@pytest.mark.parametrize("mine,theirs", [("R1 B2 G3 Y4", "O5"), ("B2 B5 B9 R1", "P6"), ("R5 B5 G5 Y5", "Y6")])
def test_l19_size4_full_deck_matches_brute_force(mine, theirs):
    m, t = evaluate(cards(mine), 4), evaluate(cards(theirs), 4)
    check_against_brute(m, t, unseen(m.cards + t.cards))     # C(55, 3) = 26 235 completions each


def test_l19_size4_full_deck_empty_side_counts():
    m = evaluate(cards("R1 B2 G4 Y7"), 4)
    p = Proof(m, evaluate([], 4), unseen(m.cards))
    assert p.total == 367290                                  # C(56, 4)
    assert (p.beats, p.ties, p.best, p.best_count) == (341085, 7726, (5, 34), 5)   # brute force gave these
    strong = Proof(evaluate(cards("G7 G8 G9 G10"), 4), evaluate([], 4), unseen(cards("G7 G8 G9 G10")))
    assert (strong.proven, strong.beats, strong.ties) == (True, 0, 5)


@st.composite
def small_tables(draw):
    colours = "RBGYPO"[:draw(st.integers(1, 5))]
    lo = draw(st.integers(1, 3))
    values = "%d-%d" % (lo, lo + draw(st.integers(2, 7)))
    deck = Deck(colours, values)
    size = draw(st.sampled_from((3, 4)))
    order = draw(st.permutations(deck.cards))
    k = draw(st.integers(0, size - 1))
    seen = draw(st.integers(0, max(0, len(order) - size - k) // 3))     # most cards stay unseen: many completions
    return deck, size, order[:size], order[size:size + k], order[size + k + seen:]


@settings(max_examples=200, deadline=None)
@given(small_tables())
def test_l17_l19_property_claim_never_proves_a_field_some_completion_beats(table):
    _deck, size, mine, theirs, pool = table
    if len(mine) < size:
        return                                                # the deck is too small for a complete side
    check_against_brute(evaluate(mine, size), evaluate(theirs, size), pool)


def test_l19_random_full_deck_fields_match_brute_force():
    rng = random.Random(29)
    for _ in range(12):
        size = rng.choice((3, 4))
        order = DECK.cards[:]
        rng.shuffle(order)
        k = size - 1 if size == 4 else rng.randint(1, 2)
        seen = rng.randint(0, 30)
        check_against_brute(evaluate(order[:size], size), evaluate(order[size:size + k], size),
                            order[size + k + seen:])
