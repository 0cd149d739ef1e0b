"""Property tests over whole random games (hypothesis draws the seeds).

The games are played by tests/mpy/gamecheck.py, which checks the spec's
invariants after EVERY action (49 tokens, walls, dots, hedgehog, R23, R50,
R51 with its turn and player, R60's marshal plays) and that every refused
action changes nothing; the same module runs inside MicroPython in
tests/rules/test_cross_runtime.py.

Rules: docs/rules.md (R13 hedgehog, R14 dots, R23 city,
R50/R51 end, R60 marshal, R61 simple_battles, R62 my_house).
"""

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st
from mpy.gamecheck import Stats, check_over, check_state, drive, frozen, run, tokens_in_state

from shared_rules.siege.autoplay import play, random_setup
from shared_rules.siege.engine import Game, replay

SEEDS = st.integers(min_value=0, max_value=0xFFFFFFFF)


def replays(game):
    return frozen(replay(game.setup_dict(), game.log)) == frozen(game)


# ------------------------------------------------------------------- tests

@settings(max_examples=1000, deadline=None)
@given(SEEDS, SEEDS, SEEDS, st.lists(st.integers(min_value=1, max_value=120), max_size=3))
def test_invariants_hold_after_every_action_of_random_games(setup_seed, agent_seed, noise_seed,
                                                           replay_at):
    setup = random_setup(setup_seed)
    note("setup %r" % (setup,))
    stats = Stats()
    game = drive(setup, agent_seed, noise_seed, replay_at, stats=stats)
    assert stats.accepted == len(game.log)
    assert replays(game)                  # the whole game replays from its setup and log


@settings(max_examples=300, deadline=None)
@given(SEEDS, SEEDS)
def test_autoplay_games_keep_invariants_and_replay(setup_seed, agent_seed):
    setup = random_setup(setup_seed)
    note("setup %r" % (setup,))
    checked = []

    def keep(game, action, events):
        check_state(game, setup)
        assert isinstance(events, list) and all("ev" in e for e in events)
        checked.append(len(game.log))

    game, accepted, refused = play(setup, agent_seed, keep=keep)
    assert checked == list(range(1, accepted + 1))
    assert replays(game)
    # The same seeds play the same game.
    again, accepted2, refused2 = play(setup, agent_seed)
    assert (accepted2, refused2) == (accepted, refused)
    assert frozen(again) == frozen(game)
    assert again.log.tuples() == game.log.tuples()


@pytest.mark.parametrize("mode,players,variants", [
    ("standard", 2, []),
    ("shoulder", 4, ["caught_off_guard"]),
    ("solo", 1, ["simple_battles"]),
    ("marshal", 3, []),
    ("marshal", 1, ["simple_battles", "one_for_all"]),
    ("standard", 6, ["my_house", "all_for_one", "supplies_low"]),
])
@settings(max_examples=80, deadline=None)
@given(game_seed=SEEDS, agent_seed=SEEDS, noise_seed=SEEDS)
def test_invariants_hold_in_every_mode(mode, players, variants, game_seed, agent_seed, noise_seed):
    # random_setup picks modes at random; this makes sure each one is covered.
    setup = {"players": players, "mode": mode, "variants": variants, "seed": game_seed}
    game = drive(setup, agent_seed, noise_seed, replay_at=(5, 25))
    assert replays(game)


@pytest.mark.parametrize("mode", ["marshal", "solo"])
@settings(max_examples=40, deadline=None)
@given(game_seed=SEEDS, agent_seed=SEEDS, noise_seed=SEEDS, players=st.integers(1, 5),
       skill=st.sampled_from([0, 1]))
def test_r60_r51_hold_in_marshal_and_solo_games_played_to_the_end(mode, game_seed, agent_seed,
                                                                  noise_seed, players, skill):
    # Aimed play (skill 1) wins games as well as losing them, so the R51 checks
    # (won exactly when pool, board and hand are empty; turn and player kept)
    # meet real wins; the marshal noise mixes valid and invalid plays of every shape.
    setup = {"mode": mode, "players": players if mode == "marshal" else 1, "seed": game_seed}
    stats = Stats()
    game = drive(setup, agent_seed, noise_seed, stats=stats, skill=skill)
    assert stats.accepted == len(game.log) and replays(game)


def test_the_marshal_checks_meet_every_case_they_check():
    # Guards the property tests against checking plays that never happen:
    # lone non-tanks refused, extra plays after reveal3/4, wins and losses.
    marshal = run("marshal", 0, 12, skill=1)
    assert marshal.won > 0 and marshal.lone_refused > 0 and marshal.extra > 0, marshal.line("marshal")
    assert run("marshal", 0, 30).lost > 0
    assert run("solo", 0, 10, skill=1).won > 0 and run("solo", 0, 10).lost > 0


def test_refusals_of_many_kinds_are_exercised():
    # Guards the property tests above against checking refusals that never happen.
    stats = Stats()
    for seed in range(40):
        drive(random_setup(seed), seed + 1, seed + 2, stats=stats)
    for rule in ("format", "turn", "R10", "R12", "R14", "R16", "R25", "R60"):
        assert rule in stats.rules, sorted(stats.rules)


def test_simple_battles_removes_exactly_eleven_tokens():
    g = Game(players=2, variants=["simple_battles"], seed=3)
    assert len(g.removed) == 11
    assert g.state()["pool"] == 49 - 11 - 6
    assert g.token_count() == 49


def test_standard_setup_holds_49_tokens_in_the_state():
    for mode, players in (("standard", 2), ("solo", 1), ("marshal", 2), ("shoulder", 6)):
        g = Game(players=players, mode=mode, seed=11)
        assert tokens_in_state(g.state(), []) == 49
        assert sorted(e["kind"] for e in g.state()["enemies"]) == \
            sorted(["sdkfz", "sdkfz", "sdkfz", "pz3", "pz3", "tiger"])


def test_won_needs_empty_pool_and_board():
    # One enemy left, empty pool: destroying it wins (R51); any action after is refused.
    board = {"walls": [1, 2, 3, 4, 5, 6], "buildings": [1, 2, 3, 4, 5, 6],
             "enemies": [{"kind": "sdkfz", "sector": 1, "line": "air"}]}
    g = Game(players=2, board=board, pool=[])
    g.apply({"do": "hit", "enemy": 1, "card": {"arm": "air", "color": "red"}})
    assert g.outcome == "won"
    check_over(g)
    # Same board with a token still in the pool: not won.
    g = Game(players=2, board=board, pool=["pz3"])
    g.apply({"do": "hit", "enemy": 1, "card": {"arm": "air", "color": "red"}})
    assert g.outcome == "playing"


def test_lost_game_refuses_every_action():
    board = {"walls": [], "buildings": [1],
             "enemies": [{"kind": "tiger", "sector": 1, "line": "tank"}]}
    g = Game(players=2, board=board, pool=[])
    g.apply({"do": "end_turn"})
    assert g.outcome == "lost"
    check_over(g)


# ------------------------------------------- regressions (bugs found by these tests)

def test_r62_loss_leaves_no_enemy_beside_a_standing_building():
    board = {"walls": [], "buildings": [1, 2],
             "enemies": [{"kind": "sdkfz", "sector": 1, "line": "tank"},
                         {"kind": "sdkfz", "sector": 2, "line": "tank"}]}
    g = Game(mode="solo", variants=["my_house"], board=board, pool=[])   # player 1 owns building 1
    g.apply({"do": "end_turn"})            # both step into the city at the same time
    st = g.state()
    assert st["outcome"] == "lost"
    for e in st["enemies"]:
        assert not (e["line"] == "city" and e["sector"] in st["buildings"]), st


def test_state_shows_marshal_tokens_played_but_not_yet_resolved():
    board = {"walls": [1], "buildings": [1, 2, 3, 4, 5, 6],
             "enemies": [{"kind": "sdkfz", "sector": 1, "line": "artillery"},
                         {"kind": "pz3", "sector": 1, "line": "artillery"}]}
    g = Game(mode="marshal", players=1, board=board, pool=["maus", "he111", "pz3"], rolls=[3])
    g.apply({"do": "move"})                # both reach the tank line; marshal's phase
    g.apply({"do": "marshal_play", "tokens": ["maus", "he111"]})
    # maus lands, everyone steps, sdkfz and pz3 hit wall 1: the players must choose
    st = g.state()
    assert st["pending"] is not None and st["pending"]["choice"] == "damage"
    assert g.token_count() == 5            # 2 on the board at setup + 3 in the pool
    # he111 is played but not resolved: it must be visible somewhere in the state
    assert tokens_in_state(st, []) == 5, st
