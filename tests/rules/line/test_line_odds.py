"""Exact draw odds (shared_rules.line.odds) on the spec's worked examples 7-9,
word for word: the good cards of field 5 of table T, P(at least one within k
draws) as fractions, the draws left (L5) and the first-player draw (L2)."""

import json
import os
from fractions import Fraction
from math import comb

import pytest

from shared_rules.errors import RuleError
from shared_rules.line import odds
from shared_rules.line.cards import Deck
from shared_rules.line.state import from_dict

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def field5():
    with open(os.path.join(ROOT, "docs", "line-table-t.json"), encoding="utf-8") as fh:
        st = from_dict(json.load(fh))
    return st, st.fields[5].cards["south"], st.unknown()


def good(target):
    st, side, unknown = field5()
    return " ".join("%s%d" % c for c in st.deck.sort(odds.completing(side, unknown, 3, target)))


def test_l5_example7_field5_wedge_word_for_word():
    _st, _side, unknown = field5()
    assert len(unknown) == 27 and good("wedge") == "O3 O6"
    assert odds.at_least_one(2, 27, 1) == Fraction(2, 27)
    assert 1 - Fraction(comb(25, 3), comb(27, 3)) == 1 - Fraction(2300, 2925) == odds.at_least_one(2, 27, 3)
    assert odds.at_least_one(2, 27, 3) == Fraction(25, 117)
    assert odds.at_least_one(2, 27, 5) == 1 - Fraction(53130, 80730) == Fraction(40, 117)
    assert odds.draws_left(20) == 10                        # k <= 10 (deck 20)


def test_l5_example8_weaker_targets_word_for_word():
    assert good("column") == "O1 O2 O3 O6 O7 O9 O10"
    assert [odds.at_least_one(7, 27, k) for k in (1, 3, 5)] == [
        Fraction(7, 27), 1 - Fraction(1140, 2925), 1 - Fraction(15504, 80730)]
    assert [odds.at_least_one(7, 27, k) for k in (1, 3, 5)] == [Fraction(7, 27), Fraction(119, 195),
                                                                Fraction(10871, 13455)]
    assert good("phalanx") == "R3 B3 B6 G3 G6 Y3 Y6 P3 O1 O2 O3 O6 O7 O9 O10"     # 15
    assert [odds.at_least_one(15, 27, k) for k in (1, 3, 5)] == [Fraction(5, 9), Fraction(541, 585),
                                                                 Fraction(4441, 4485)]
    assert 1 - Fraction(220, 2925) == Fraction(541, 585) and 1 - Fraction(792, 80730) == Fraction(4441, 4485)


def test_l2_la5_example9_one_named_card_and_the_first_player_draw():
    st, _side, unknown = field5()
    assert odds.named(st.deck.parse(["O3"]), unknown, st.where) == [("O", 3)]
    assert [odds.at_least_one(1, 27, k) for k in (1, 3, 5)] == [Fraction(1, 27), Fraction(1, 9), Fraction(5, 27)]
    assert odds.first_draw_tie(Deck()) == Fraction(5, 59)
    assert odds.first_draw_tie(Deck("RB", "1-3")) == Fraction(1, 5)
    with pytest.raises(RuleError) as e:
        odds.first_draw_tie(Deck("R", "1"))
    assert e.value.rule == "L2"


def test_l5_draws_are_capped_at_half_the_deck_rounded_up():
    assert [odds.draws_left(d) for d in (0, 1, 2, 19, 20)] == [0, 1, 1, 10, 10]
    odds.check_draws(10, 20)
    with pytest.raises(RuleError) as e:
        odds.check_draws(11, 20)
    assert e.value.rule == "L5" and "at most 10" in e.value.message


def test_odds_refuse_what_cannot_be_drawn_or_counted():
    st, side, unknown = field5()
    with pytest.raises(RuleError) as e:
        odds.named(st.deck.parse(["O4"]), unknown, st.where)
    assert "O4 cannot be drawn: it is on the table (field 5, south)" == e.value.message
    with pytest.raises(RuleError) as e:
        odds.named(st.deck.parse(["P5"]), unknown, st.where)
    assert e.value.message == "P5 cannot be drawn: it is in your hand"
    with pytest.raises(RuleError):
        odds.completing(side[:1], unknown, 3, "wedge")       # two cards short: not the last card
    with pytest.raises(RuleError):
        odds.completing(side, unknown, 3, "pyramid")
    with pytest.raises(RuleError):
        odds.at_least_one(28, 27, 1)
    assert odds.at_least_one(0, 27, 5) == 0 and odds.at_least_one(27, 27, 1) == 1
