"""«День Победы»'s deck clock (shared_rules/victory/clock.py): the spec's worked
examples 9 and 10 word for word, the closed formulas against the turn-by-turn
simulation (V12, V39), and the new game's checks (V2, V9)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shared_rules.errors import RuleError
from shared_rules.victory.clock import NO_MILL, Duel, Schedule, alone, turns_left


def test_v39_worked_example_9_forty_against_forty():
    d = Duel((40, 40), new_game=True)
    assert d.start == [33, 33]
    assert d.loser() == 1
    assert d.lost[1] == (17, 34, 1)                 # the second loses at his turn 17, deck 1, game turn 34
    first_17 = [r for r in d.rows if r[1] == 0 and r[2] == 17][0]
    assert (first_17[3], first_17[4]) == (2, 2)     # the first draws his last 2 in his turn 17


def test_v39_worked_example_9_forty_one_against_forty_one():
    d = Duel((41, 41), new_game=True)
    assert d.loser() == 0
    assert d.lost[0][:2] == (18, 35)                # the first player, at his turn 18 (game turn 35)


def test_v39_worked_example_10_deck_20_milled_3():
    assert turns_left(20, 3) == 4
    rows, lost = alone(20, Schedule(3))
    assert lost == 5 and len(rows) == 4
    seq = [rows[0][1]] + [v for r in rows for v in (r[2], r[4])]
    assert seq == [20, 18, 15, 13, 10, 8, 5, 3, 0]


def test_v39_worked_example_10_first_player_mills_3_from_his_5th():
    d = Duel((40, 40), (Schedule(3, 5), NO_MILL), new_game=True)
    assert d.loser() == 1
    assert d.lost[1][:2] == (10, 20)                # the second loses at his turn 10 (game turn 20)


@given(st.integers(0, 200), st.integers(0, 12))
def test_v39_the_formula_matches_the_simulation(deck, x):
    rows, lost = alone(deck, Schedule(x))
    assert len(rows) == turns_left(deck, x) and lost == len(rows) + 1


@given(st.integers(7, 200))
def test_v12_v39_equal_decks_without_attacks(n):
    """D = N - 7: the first plays (D - 1) // 2 + 1 turns, the second D // 2; N even -> the second runs out first."""
    d = Duel((n, n), new_game=True)
    big_d = n - 7
    if big_d >= 1:
        assert d.lost[0][0] - 1 == (big_d - 1) // 2 + 1
    assert d.lost[1][0] - 1 == big_d // 2
    assert d.loser() == (1 if n % 2 == 0 else 0)


def test_v12_the_first_player_draws_one_in_his_first_turn():
    d = Duel((40, 40), new_game=True)
    assert d.rows[0][:5] == (1, 0, 1, 33, 1) and d.rows[1][:5] == (2, 1, 1, 33, 2)
    assert Duel((7, 7), new_game=True).lost[0] == (1, 1, 0)     # an empty deck at the first draw loses (spec reading)


def test_v39_one_card_left_loses():
    assert alone(1) == ([], 1) and turns_left(1, 0) == 0
    assert Duel((1, 30)).lost[0] == (1, 1, 1)


def test_v39_schedules_turn_by_turn():
    s = Schedule(listed=[0, 0, 2, 5])
    assert [s.at(t) for t in range(1, 7)] == [0, 0, 2, 5, 0, 0]
    assert [Schedule(3, 5).at(t) for t in (4, 5, 9)] == [0, 3, 3]
    rows, lost = alone(20, s)
    assert [r[3] for r in rows] == [0, 0, 2, 5, 0, 0] and lost == 7


def test_v2_a_new_game_has_equal_decks():
    with pytest.raises(RuleError) as exc:
        Duel((40, 41), new_game=True)
    assert exc.value.rule == "V2"
    assert Duel((40, 41)).loser() in (0, 1)        # mid-game, decks differ


def test_v9_a_new_game_deals_seven():
    with pytest.raises(RuleError) as exc:
        Duel((6, 6), new_game=True)
    assert exc.value.rule == "V9"


@pytest.mark.parametrize("bad", [-1, 1.5, True, 10001])
def test_v39_bad_numbers_are_refused(bad):
    with pytest.raises(RuleError) as exc:
        alone(bad)
    assert exc.value.rule == "V39"
    with pytest.raises(RuleError):
        Duel((bad, 40))


@pytest.mark.parametrize("bad", [-1, 1.5, True])
def test_v39_bad_mills_are_refused(bad):
    with pytest.raises(RuleError) as exc:
        Schedule(bad)
    assert exc.value.rule == "V39"
