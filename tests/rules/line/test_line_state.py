"""The game-state file (shared_rules.line.state): table T read from
docs/line-table-t.json, every check with the rule it names (L1, L6, L8, L12,
L14, L16, L17, L19-L22), the claimable fields of either side (claims.py), the
win check (L22, the rulebook's E1 and E2) and the series score (L23)."""

import json
import os

import pytest

from shared_rules.errors import RuleError
from shared_rules.line import claims, outcome
from shared_rules.line.state import from_dict

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
TABLE_T = os.path.join(ROOT, "docs", "line-table-t.json")


def table_t():
    with open(TABLE_T, encoding="utf-8") as fh:
        return json.load(fh)


def refused(data):
    with pytest.raises(RuleError) as e:
        from_dict(data)
    return e.value.rule, e.value.message


def with_field(number, **spec):
    """Table T with one field replaced (and the deck and hand counts left out: they would no longer add up)."""
    data = table_t()
    data["fields"][str(number)] = spec
    del data["draw_pile"], data["their_hand"]
    return data


def test_table_t_reads_with_the_spec_counts():
    st = from_dict(table_t())
    assert len(st.table()) == 27 and len(st.unseen()) == 33 and len(st.unknown()) == 27
    assert (st.draw_pile, st.their_hand, st.me) == (20, 7, "south")
    assert st.where(("R", 8)) == "on the table (field 1, south)" and st.where(("P", 5)) == "in your hand"


def test_l1_a_card_twice_on_the_table_or_in_hand_is_refused():
    data = table_t()
    data["fields"]["9"] = {"south": ["R8"]}
    assert refused(data) == ("L1", "R8 is on the table twice (field 1 south and field 9 south): "
                                   "the deck holds each card once")
    data = table_t()
    data["hand"].append("O4")
    assert refused(data)[0] == "L1"


def test_l6_a_hand_over_7_is_refused():
    data = table_t()
    data["hand"] += ["O1", "O2"]
    del data["their_hand"]
    assert refused(data) == ("L6", "the hand holds 8 cards, but the limit is 7")


def test_l8_l12_side_over_size_and_size_3_or_4():
    assert refused(with_field(9, south=["O1", "O2", "O3", "O6"]))[0] == "L8"
    assert refused(with_field(9, size=5, south=["O1"]))[0] == "L12"
    st = from_dict(with_field(9, size=4, south=["O1", "O2", "O3", "O6"]))
    assert st.fields[9].formation("south").key == (3, 12)


def test_l12_l5_completion_turns():
    assert refused(with_field(9, south=["O1"], completed={"south": 3}))[0] == "L12"
    assert refused(with_field(9, south=["O1", "O2", "O3"], north=["G6", "G7", "G9"],
                              completed={"south": 3, "north": 3}))[0] == "L5"


def test_l14_l16_la10_tactics_cards_on_a_field():
    assert refused(with_field(9, tactics=["guile"]))[0] == "L14"
    st = from_dict(with_field(5, south=["O4", "O5"], tactics=["weather"]))
    with pytest.raises(RuleError) as e:
        st.fields[5].refuse_tactics()
    assert e.value.rule == "L16"
    data = with_field(4, south=["R10", "B10", "G10"], north=["Y10", "P10"], tactics=["morale"])
    with pytest.raises(RuleError) as e:
        from_dict(data).proof(4, "south")
    assert e.value.rule == "L16"


def test_l17_l21_claims_in_the_file():
    assert refused(with_field(9, south=["O1"], claimed="south"))[0] == "L17"
    st = from_dict(with_field(1, south=["G8", "R8", "B8"], north=["Y2", "Y7", "Y9"], claimed="south"))
    assert st.claims() == {1: "south"}
    with pytest.raises(RuleError) as e:
        st.proof(1, "south")
    assert e.value.rule == "L21"
    late = with_field(1, south=["G8", "R8", "B8"], north=["Y2", "Y7", "Y9"], claimed="south", claim_turn=20,
                      completed={"south": 19, "north": 22})
    assert refused(late)[0] == "L21"


def test_l19_l20_a_claim_the_table_disproves_is_refused():
    rule, message = refused(with_field(3, south=["B2", "B5", "B9"], north=["P6", "P7"], claimed="south"))
    assert rule == "L19" and "with P5" in message
    assert refused(with_field(1, south=["G8", "R8", "B8"], north=["Y2", "Y7", "Y9"], claimed="north"))[0] == "L20"
    st = from_dict(with_field(4, south=["R10", "B10", "G10"], north=["Y10", "P10"], claimed="south"))
    assert st.fields[4].claimed == "south"                  # E6's claim stands


def test_l20_completion_turns_decide_equal_keys():
    data = with_field(9, south=["R3", "G3", "Y3"], north=["B3", "P3", "O3"], completed={"south": 30, "north": 28})
    st = from_dict(data)
    assert st.proof(9, "north").proven is True and st.proof(9, "south").proven is False


def test_l18_l19_claims_now_for_south_on_table_t():
    st = from_dict(table_t())
    got = {n: p.proven for n, p in claims.now(st, "south")}
    assert got == {1: True, 2: True, 3: False, 4: True}


def test_l17_claims_next_play_lists_the_cards_that_would_let_him_claim():
    st = from_dict(table_t())
    assert claims.next_play(st, "north") == [(2, []), (3, []), (4, []), (7, [])]   # P5 is in South's hand
    data = table_t()
    del data["hand"], data["draw_pile"], data["their_hand"]
    st = from_dict(data)                                   # no hand given: any unseen card
    field3 = dict(claims.next_play(st, "north"))[3]
    assert [(c, form.key) for c, form in field3] == [(("P", 5), (5, 18))]
    assert [n for n, _ in claims.next_play(st, "south")] == [5]


def test_counts_must_add_up_to_the_unknown_cards():
    data = table_t()
    data["draw_pile"] = 19
    assert refused(data)[0] == "format"                      # 19 + 7 is not the 27 unknown
    del data["their_hand"]
    assert refused(data)[0] == "L6"                          # 27 - 19 = 8 left for his hand
    data["draw_pile"] = 21
    assert from_dict(data).their_hand == 6


@pytest.mark.parametrize("data,words", [
    ([], "JSON object"), ({"feilds": {}}, "unknown key 'feilds'"), ({"fields": {"10": {}}}, "no field '10'"),
    ({"fields": {"1": {"south": "R1 R2"}}}, "list of cards"), ({"me": "east"}, "south or north"),
    ({"deck": {"colours": ["R"]}}, "\"deck\" must be"), ({"fields": {"1": {"claimed": "west"}}}, "south or north"),
])
def test_malformed_files_are_refused_in_words(data, words):
    rule, message = refused(data)
    assert words in message


# ------------------------------------------------------------------ L22, L23

def test_l22_e1_three_adjacent_fields_win():
    assert outcome.winner({4: "north", 5: "north", 6: "north", 1: "south"}) == ("north", "adjacent", [4, 5, 6])
    assert outcome.winner({4: "north", 5: "north", 7: "north"}) is None


def test_l22_e2_five_scattered_fields_win():
    assert outcome.winner({1: "south", 3: "south", 5: "south", 7: "south", 9: "south"}) == (
        "south", "any", [1, 3, 5, 7, 9])
    assert outcome.winner({1: "south", 3: "south", 5: "south", 7: "south"}) is None


def test_l22_two_winners_are_refused_and_a_won_game_takes_no_claim():
    with pytest.raises(RuleError) as e:
        outcome.winner({1: "south", 2: "south", 3: "south", 7: "north", 8: "north", 9: "north"})
    assert e.value.rule == "L22"
    st = from_dict(table_t())
    st.fields[5].claimed = st.fields[6].claimed = st.fields[7].claimed = "north"
    with pytest.raises(RuleError) as e:
        st.proof(1, "south")
    assert e.value.rule == "L22"


def test_l23_series_winner_5_loser_his_fields():
    assert outcome.game_points("south", {1: "south", 2: "south", 3: "south", 5: "north"}) == {"south": 5,
                                                                                              "north": 1}
    assert outcome.series_points([("south", 1), ("north", 4), ("north", 0)]) == {"south": 5 + 4, "north": 1 + 10}
    data = table_t()
    data["series"] = [{"winner": "north", "loser_fields": 2}]
    assert from_dict(data).series == [("north", 2)]
    data["series"] = [{"winner": "north", "loser_fields": 5}]
    assert refused(data)[0] == "L22"


def test_the_example_file_is_table_t_of_the_spec():
    data = table_t()
    t = data["fields"]
    assert t["3"] == {"south": ["B2", "B5", "B9"], "north": ["P6", "P7"]}
    assert data["hand"] == ["P5", "R2", "Y5", "B1", "G1", "R7"]


def test_l17_l19_next_play_matches_a_full_proof_for_every_card():
    """next_play stops at the first completion that beats the card (claims.py);
    a full Proof of every candidate must agree, on random tables of small decks."""
    import random

    from shared_rules.line.formation import Formation
    from shared_rules.line.prover import Proof

    rng = random.Random(2029)
    checked = claimable = 0
    for _ in range(40):
        deck = {"colours": "RBGYPO"[:rng.randint(2, 5)], "values": "1-%d" % rng.randint(4, 8)}
        names = ["%s%d" % (c, v) for c in deck["colours"] for v in range(1, int(deck["values"][2:]) + 1)]
        rng.shuffle(names)
        fields = {}
        for n in range(1, 10):
            size = rng.choice((3, 4))
            north, south = rng.randint(0, size), rng.randint(0, size)
            if north + south > len(names):
                break
            fields[str(n)] = {"size": size, "north": [names.pop() for _ in range(north)],
                              "south": [names.pop() for _ in range(south)]}
        st = from_dict({"deck": deck, "fields": fields})
        for side in outcome.SIDES:
            for number, wins in claims.next_play(st, side):
                f = st.fields[number]
                want = []
                for card in st.unseen():
                    pool = [c for c in st.unseen() if c != card]
                    mine = Formation(f.cards[side] + [card], f.size)
                    if Proof(mine, f.formation(outcome.other(side)), pool, "theirs").proven:
                        want.append(card)
                assert [c for c, _ in wins] == want
                checked += 1
                claimable += bool(want)
    assert checked > 50 and claimable > 20
