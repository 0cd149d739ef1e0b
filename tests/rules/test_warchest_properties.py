"""The bag tracker's invariant over random legal games (hypothesis): every
coin in exactly one zone and every count conserved (W29), the control
markers all there (W2, W25), after every event; a refused event changes
nothing; the state survives state()/from_state(), and the event log replays
to the same game, in its dict and its text form."""

from hypothesis import given, settings
from hypothesis import strategies as st

from shared_rules.rng import Rng
from shared_rules.warchest import events as evs
from shared_rules.warchest.game import Game, replay
from tests.mpy.warchest_play import SETUPS, candidates, new_game

GAMES = st.tuples(st.integers(0, len(SETUPS) - 1), st.integers(0, 2 ** 31 - 1),
                  st.sampled_from([(), (0,), (1,), (0, 1)]))


def legal_game(which, seed, known, events, each=None):
    g = new_game(which, known)
    rng = Rng(seed)
    for _ in range(events):
        if g.phase() == "over":
            break
        for ev in candidates(g, rng):
            before = g.state()
            try:
                g.apply(ev)
            except Exception as exc:                  # a refusal: RuleError only, and nothing changed
                assert type(exc).__name__ == "RuleError", repr(exc)
                assert g.state() == before, (ev, exc)
                continue
            if each is not None:
                each(g)
            break
        else:
            break
    return g


@settings(max_examples=40, deadline=None)
@given(GAMES)
def test_w29_every_coin_in_one_zone_and_counts_conserved_over_random_legal_games(spec):
    which, seed, known = spec
    seen = []

    def check(g):
        assert g.problems() == [], (evs.text(g.log[-1]), g.problems())
        seen.append(g.log[-1]["e"])

    g = legal_game(which, seed, known, 120, check)
    assert len(seen) > 10 and "draw" in seen
    assert g.problems() == []


@settings(max_examples=25, deadline=None)
@given(GAMES)
def test_w29_the_state_round_trips_and_the_log_replays_to_the_same_game(spec):
    which, seed, known = spec
    g = legal_game(which, seed, known, 90)
    again = Game.from_state(g.setup, g.state())
    assert again.state() == g.state()
    assert replay(g.setup, g.log).state() == g.state()
    lines = [evs.text(ev) for ev in g.log]
    assert [evs.parse(line, g.players) for line in lines] == g.log
    assert replay(g.setup, lines).state() == g.state()


def test_w29_the_invariant_check_finds_a_lost_coin_and_a_lost_marker():
    g = new_game(0, (0,))
    assert g.problems() == []
    g.coins[0].bag["swordsman"] -= 1
    g.markers[1][0] += 1
    assert g.problems() == ["player 1: 3 swordsman coins, not 4", "side 2: 5 + 2 control markers, not 6"]
