"""Property tests over whole random games (shared_rules/autoplay.py drives them;
hypothesis draws the seeds).  The invariants are checked after EVERY accepted
action; every refused action is checked to change nothing.

Spec: /work/shared/spec/siege-rules.md (R13 hedgehog, R14 dots, R23 city,
R50/R51 end, R61 simple_battles, R62 my_house).
"""

import pytest
from hypothesis import given, note, settings, strategies as st

from shared_rules.autoplay import RandomPlayer, play, random_setup
from shared_rules.catalog import KIND_ARMOR, KIND_INDEX, KIND_IDS, LINES, TOTAL_TOKENS
from shared_rules.engine import Game, RuleError, replay

SEEDS = st.integers(min_value=0, max_value=0xFFFFFFFF)
MAX_TRIES = 5000

# Actions thrown in between the random player's own, to exercise refusals of
# every kind: wrong phase, no pending choice, no such enemy, not marshal mode,
# malformed.  Some are legal at times; they are then simply played.
NOISE = (
    {"do": "reveal"}, {"do": "move"}, {"do": "end_turn"}, {"do": "patrol"},
    {"do": "choose", "enemy": 1}, {"do": "choose", "enemy": 999},
    {"do": "hit", "enemy": 999}, {"do": "kill", "enemy": 999},
    {"do": "hedgehog", "enemy": 2}, {"do": "push_back", "enemy": 3},
    {"do": "dot", "sector": 1}, {"do": "rebuild", "sector": 2},
    {"do": "marshal_play", "tokens": []}, {"do": "marshal_play", "tokens": ["tiger"], "sector": 1},
    {"do": "marshal_play", "tokens": ["he111", "pz3", "sdkfz"]},
    {"do": "hit", "enemy": 1, "card": {"type": "precise_shot", "with": {"arm": "air", "color": "red"}}},
    {"do": "kill", "enemy": 1, "card": {"arm": "air", "color": "any"}},
    {"do": "fire"}, {"do": "hit", "enemy": -1}, "not an action", {"do": "dot", "sector": 7},
)

# After the game is over, every one of these must be refused.
EVERY_KIND_OF_ACTION = (
    {"do": "hit", "enemy": 1}, {"do": "kill", "enemy": 1}, {"do": "hedgehog", "enemy": 1},
    {"do": "dot", "sector": 1}, {"do": "push_back", "enemy": 1}, {"do": "rebuild", "sector": 1},
    {"do": "patrol"}, {"do": "move"}, {"do": "reveal"}, {"do": "end_turn"},
    {"do": "choose", "enemy": 1}, {"do": "marshal_play", "tokens": []},
)


def frozen(game):
    return game.state_json(events=[])


def tokens_seen_in_state(st, setup):
    """Count the tokens from the state object alone (not token_count())."""
    n = len(st["enemies"]) + st["pool"] + len(st["discard"])
    for won in st["trophies"].values():
        n += len(won)
    n += len(st.get("marshal_hand", []))
    n += len(st.get("marshal_queue", []))         # R60: played, not yet resolved
    if "simple_battles" in setup["variants"]:
        n += 11                                   # R61: removed from the pool
    return n


def check_invariants(game, setup):
    st = game.state()
    variants = setup["variants"]

    # All 49 tokens accounted for, by the engine's count...
    assert game.token_count() == TOTAL_TOKENS
    # ...and independently from the state object.
    assert tokens_seen_in_state(st, setup) == TOTAL_TOKENS, st

    # Enemies: ids unique and sorted, each cell valid, armor 1..start armor.
    ids = [e["id"] for e in st["enemies"]]
    assert ids == sorted(set(ids))
    for e in st["enemies"]:
        k = KIND_INDEX[e["kind"]]
        assert 1 <= e["armor"] <= KIND_ARMOR[k], e
        assert 1 <= e["sector"] <= 6 and e["line"] in LINES, e
    # Dots (R14): at most 2, each on a standing wall.
    assert len(st["dots"]) <= 2
    assert set(st["dots"]) <= set(st["walls"])
    # Hedgehog (R13): at most one enemy held.
    assert sum(1 for e in st["enemies"] if e["held"]) <= 1
    # R23: no enemy in a city cell whose building stands.
    for e in st["enemies"]:
        assert not (e["line"] == "city" and e["sector"] in st["buildings"]), (e, st["buildings"])

    # Outcome (R50, R51, R62).
    if st["outcome"] == "won":
        assert st["pool"] == 0 and st["enemies"] == []
        assert st["pending"] is None
    elif st["outcome"] == "lost":
        if "my_house" in variants:
            assert st["buildings"] == [] or st["out"] == list(range(1, setup["players"] + 1))
        else:
            assert st["buildings"] == []
    else:
        assert st["outcome"] == "playing"
        assert st["buildings"] != []
    assert 1 <= st["player"] <= setup["players"]


def drive(setup, agent_seed, noise_seed=None, replay_at=(), on_refused=None):
    """Play one game with the random player (plus noise actions), checking the
    invariants after every accepted action and that refusals change nothing.
    Returns (game, accepted, refused)."""
    game = Game.from_setup(setup)
    check_invariants(game, setup)
    agent = RandomPlayer(agent_seed)
    noise = RandomPlayer(noise_seed) if noise_seed is not None else None
    accepted = refused = 0
    replay_at = set(replay_at)
    for _ in range(MAX_TRIES):
        if game.outcome != "playing":
            break
        if noise is not None and noise.rng.below(4) == 0:
            action = NOISE[noise.rng.below(len(NOISE))]
        else:
            action = agent.action(game)
        before = frozen(game)
        n = len(game.log)
        try:
            game.apply(action)
        except RuleError as exc:
            refused += 1
            assert frozen(game) == before, "refused %r (%s) changed the state" % (action, exc)
            assert len(game.log) == n, "refused %r was logged" % (action,)
            if on_refused is not None:
                on_refused(exc)
            continue
        accepted += 1
        assert len(game.log) == n + 1
        check_invariants(game, setup)
        if accepted in replay_at:
            assert frozen(replay(game.setup_dict(), game.log)) == frozen(game), \
                "replay differs after %d accepted actions" % accepted
    return game, accepted, refused


def check_game_over_refuses_everything(game):
    assert game.outcome in ("won", "lost")
    for action in EVERY_KIND_OF_ACTION:
        before = frozen(game)
        n = len(game.log)
        with pytest.raises(RuleError):
            game.apply(action)
        assert frozen(game) == before
        assert len(game.log) == n
        assert game.outcome in ("won", "lost")


# ------------------------------------------------------------------- tests

@settings(max_examples=1000, deadline=None)
@given(SEEDS, SEEDS, SEEDS, st.lists(st.integers(min_value=1, max_value=120), max_size=3))
def test_invariants_hold_after_every_action_of_random_games(setup_seed, agent_seed, noise_seed,
                                                           replay_at):
    setup = random_setup(setup_seed)
    note("setup %r" % (setup,))
    game, accepted, refused = drive(setup, agent_seed, noise_seed, replay_at)
    assert accepted == len(game.log)
    # The whole game replays from its setup and log.
    assert frozen(replay(game.setup_dict(), game.log)) == frozen(game)
    if game.outcome != "playing":
        check_game_over_refuses_everything(game)


@settings(max_examples=300, deadline=None)
@given(SEEDS, SEEDS)
def test_autoplay_games_keep_invariants_and_replay(setup_seed, agent_seed):
    setup = random_setup(setup_seed)
    note("setup %r" % (setup,))
    checked = []

    def keep(game, action, events):
        check_invariants(game, setup)
        assert isinstance(events, list) and all("ev" in e for e in events)
        checked.append(len(game.log))

    game, accepted, refused = play(setup, agent_seed, keep=keep)
    assert checked == list(range(1, accepted + 1))
    assert frozen(replay(game.setup_dict(), game.log)) == frozen(game)
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
    game, _, _ = drive(setup, agent_seed, noise_seed, replay_at=(5, 25))
    assert frozen(replay(game.setup_dict(), game.log)) == frozen(game)
    if game.outcome != "playing":
        check_game_over_refuses_everything(game)


def test_refusals_of_many_kinds_are_exercised():
    # Guards the property tests above against checking refusals that never happen.
    rules = set()
    for seed in range(40):
        drive(random_setup(seed), seed + 1, seed + 2, on_refused=lambda e: rules.add(e.rule))
    for rule in ("format", "turn", "R10", "R12", "R14", "R16", "R25", "R60"):
        assert rule in rules, sorted(rules)


def test_simple_battles_removes_exactly_eleven_tokens():
    g = Game(players=2, variants=["simple_battles"], seed=3)
    assert len(g.removed) == 11
    assert g.state()["pool"] == 49 - 11 - 6
    assert g.token_count() == 49


def test_standard_setup_holds_49_tokens_in_the_state():
    for mode, players in (("standard", 2), ("solo", 1), ("marshal", 2), ("shoulder", 6)):
        g = Game(players=players, mode=mode, seed=11)
        assert tokens_seen_in_state(g.state(), {"variants": []}) == 49
        assert sorted(e["kind"] for e in g.state()["enemies"]) == \
            sorted(["sdkfz", "sdkfz", "sdkfz", "pz3", "pz3", "tiger"])


def test_won_needs_empty_pool_and_board():
    # One enemy left, empty pool: destroying it wins (R51); any action after is refused.
    board = {"walls": [1, 2, 3, 4, 5, 6], "buildings": [1, 2, 3, 4, 5, 6],
             "enemies": [{"kind": "sdkfz", "sector": 1, "line": "air"}]}
    g = Game(players=2, board=board, pool=[])
    g.apply({"do": "hit", "enemy": 1, "card": {"arm": "air", "color": "red"}})
    assert g.outcome == "won"
    check_game_over_refuses_everything(g)
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
    check_game_over_refuses_everything(g)


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
    assert tokens_seen_in_state(st, {"variants": []}) == 5, st
