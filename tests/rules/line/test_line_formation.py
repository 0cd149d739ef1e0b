"""The line-of-battle rules core: the deck and its cards (L1), the formation
evaluator (L8-L12) and two sides compared (L10, L11), with the spec's worked
examples 1 and 2 word for word (docs/rules-line.md)."""

import pytest

from shared_rules.errors import RuleError
from shared_rules.line.cards import Deck, names, parse_values, values_text
from shared_rules.line.formation import evaluate, winner

DECK = Deck()


def f(text, size=3):
    return evaluate(DECK.parse([text]), size)


def key(text, size=3):
    form = f(text, size)
    return form.type, form.key


# ------------------------------------------------------------------ L1: the deck as a parameter

def test_l1_default_deck_is_six_colours_by_ten_values_one_card_per_pair():
    assert len(DECK) == 60 and len(set(DECK.cards)) == 60
    assert DECK.describe() == "6 colours R B G Y P O x values 1-10 = 60 cards"
    assert DECK.card("R10") == ("R", 10) and DECK.card(" o3 ") == ("O", 3)


def test_l1_la1_the_deck_is_a_parameter():
    d = Deck("RGB", "2-5,9")
    assert d.values == (2, 3, 4, 5, 9) and len(d) == 15
    assert values_text(d.values) == "2-5,9"
    assert parse_values("1,2,3") == (1, 2, 3)
    with pytest.raises(RuleError) as e:
        d.card("Y3")
    assert e.value.rule == "L1" and "its colours are R G B" in e.value.message
    with pytest.raises(RuleError) as e:
        d.card("R7")
    assert "its values are 2-5,9" in e.value.message


def test_l1_decks_beyond_the_tools_limits_are_refused_in_words():
    assert len(Deck("RBGYPOWK", "1-20")) == 160
    for colours, values in (("RBGYPOWKC", "1-10"), ("RB", "1-21")):
        with pytest.raises(RuleError) as e:
            Deck(colours, values)
        assert e.value.rule == "format" and "more than this tool handles (at most 8 x 20)" in e.value.message


@pytest.mark.parametrize("colours,values", [("RR", "1-3"), ("RB", "1,1")])
def test_l1_a_colour_or_value_given_twice_is_refused(colours, values):
    with pytest.raises(RuleError) as e:
        Deck(colours, values)
    assert e.value.rule == "L1"


@pytest.mark.parametrize("text", ["10R", "R", "", "Rx", "1-", "R-3"])
def test_malformed_cards_are_refused_with_the_format(text):
    with pytest.raises(RuleError) as e:
        DECK.card(text)
    assert e.value.rule == "format" and "colour letter and a value" in e.value.message


def test_l1_a_card_twice_on_a_side_is_refused():
    with pytest.raises(RuleError) as e:
        f("R3 R3 R4")
    assert e.value.rule == "L1" and "R3 is given twice" in e.value.message


# ------------------------------------------------------------------ L8, L12: the side's size

def test_l8_more_than_size_cards_is_refused_and_order_does_not_matter():
    with pytest.raises(RuleError) as e:
        f("R1 R2 R3 R4")
    assert e.value.rule == "L8" and "at most 3" in e.value.message
    assert key("R5 R3 R4") == key("R3 R4 R5") == key("R4 R5 R3")


def test_l12_la2_complete_is_size_cards_3_or_4_and_fewer_is_incomplete():
    form = f("O4 O5")
    assert (form.type, form.key, form.progress(), form.complete) == ("incomplete", None, "2/3", False)
    assert f("R1 R2 R3", 4).progress() == "3/4"
    assert f("R1 R2 R3 R4", 4).complete
    with pytest.raises(RuleError) as e:
        f("R1 R2", 2)
    assert e.value.rule == "L12"
    assert f("O4 O5").as_dict() == {"formation": "incomplete", "key": None, "size": 3, "cards": ["O4", "O5"],
                                    "progress": "2/3"}


# ------------------------------------------------------------------ L9, L10: type and key; example 1

def test_l9_l10_la3_example1_evaluator_word_for_word():
    assert key("R3 R4 R5") == ("wedge", (5, 12))
    assert key("R5 R3 R4") == ("wedge", (5, 12))
    assert key("G8 B8 Y8") == ("square", (4, 24))
    assert key("Y2 Y7 Y9") == ("column", (3, 18))
    assert key("B4 R5 G6") == ("phalanx", (2, 15))
    assert key("R10 B10 G9") == ("skirmish", (1, 29))
    assert key("R9 R10 R1") == ("column", (3, 20))          # no wrap (LA3)
    assert key("G1 G2 G3 G4", 4) == ("wedge", (5, 10))
    assert key("R7 B7 G7 Y7", 4) == ("square", (4, 28))


def test_l9_a_formation_takes_the_highest_type_it_meets():
    assert key("B3 B1 B2") == ("wedge", (5, 6))             # one colour and in sequence: a wedge, not a column
    assert key("R1 B3 G5") == ("skirmish", (1, 9))          # no type: the sum
    assert key("R2 B3 G3") == ("skirmish", (1, 8))          # a pair is no sequence
    assert key("Y10 Y1 Y2 Y3", 4) == ("column", (3, 16))    # size 4: no wrap either
    assert key("R2 B3 G4 Y5", 4) == ("phalanx", (2, 14))
    assert f("R3 R4 R5").as_dict()["key"] == [5, 12]


# ------------------------------------------------------------------ L10, L11: two sides; example 2

def test_l10_l11_example2_compare_word_for_word():
    assert winner(f("R3 R4 R5"), f("G8 B8 Y8")) == "a"        # type before sum
    assert winner(f("B4 R5 G6"), f("R10 B10 G9")) == "a"
    assert f("Y2 Y7 Y9").key == (3, 18) and f("G1 G6 G10").key == (3, 17)
    assert winner(f("Y2 Y7 Y9"), f("G1 G6 G10")) == "a"
    a, b = f("R7 R8 R9"), f("B7 B8 B9")
    assert a.key == b.key == (5, 24)
    assert winner(a, b) is None                                # whoever completed first
    assert winner(a, b, "b") == "b" and winner(a, b, "a") == "a"


def test_l10_a_wedge_1_2_3_beats_a_square_of_tens():
    assert winner(f("R1 R2 R3"), f("R10 B10 G10")) == "a"
    assert winner(f("R10 B10 G10"), f("R1 R2 R3")) == "b"


def test_l11_winner_needs_two_complete_sides():
    with pytest.raises(ValueError):
        winner(f("R1 R2 R3"), f("B1 B2"))


def test_names_prints_cards_as_given():
    assert names(DECK.parse(["R10,B4 o3"])) == "R10 B4 O3" and names([]) == "-"
