"""«День Победы»'s first player (shared_rules/victory/toss.py, V8): by lot in
the first game, then alternating; the device's toss bit goes in."""

import pytest

from shared_rules.errors import RuleError
from shared_rules.victory.toss import starter


def test_v8_the_first_game_by_lot():
    assert starter(0) == ("A", "B")
    assert starter(1) == ("B", "A")


def test_v8_later_games_alternate_whatever_the_toss():
    assert starter(0, previous_starter="A") == ("B", "A")
    assert starter(0, previous_starter="B") == ("A", "B")
    assert starter(None, previous_starter="A") == ("B", "A")
    first, seat = [], "A"
    for _ in range(4):
        seat, _next = starter(1, previous_starter=seat)
        first.append(seat)
    assert first == ["B", "A", "B", "A"]


@pytest.mark.parametrize("bit,previous", [(None, None), (2, None), (True, None), (0, "C")])
def test_v8_a_missing_or_wrong_toss_is_refused(bit, previous):
    with pytest.raises(RuleError) as exc:
        starter(bit, previous)
    assert exc.value.rule == "V8"
