"""FA1: the state JSON's `pool_kinds`, the pool's counts by kind (the
threat forecast's input, F2) -- never its order."""

import json
from collections import Counter

import pytest

from shared_rules.siege.autoplay import play
from shared_rules.siege.catalog import KINDS, TOTAL_TOKENS
from shared_rules.siege.engine import Game
from shared_rules.siege.newgame import SIMPLE_BATTLES_REMOVED
from shared_rules.siege.public import pool_kinds_seen, public_state, state_json
from shared_rules.siege.scenario import run


def accounted(st, variants):
    """FA1's cross-check: the 49 tokens less R61's removals, the board's
    enemies, the discard, the trophies and the marshal's hand and queue."""
    left = Counter({row[0]: row[1] for row in KINDS})
    assert sum(left.values()) == TOTAL_TOKENS
    gone = Counter(e["kind"] for e in st["enemies"]) + Counter(st["discard"])
    for won in st["trophies"].values():
        gone += Counter(won)
    gone += Counter(st.get("marshal_hand", ())) + Counter(st.get("marshal_queue", ()))
    if "simple_battles" in variants:
        gone += Counter(SIMPLE_BATTLES_REMOVED)
    for k, n in gone.items():
        left[k] -= n
        assert left[k] >= 0, (k, st)
    return {k: n for k, n in left.items() if n}


@pytest.mark.parametrize("setup", [
    {"players": 2, "seed": 1}, {"players": 3, "seed": 7}, {"players": 4, "seed": 23, "variants": ["simple_battles"]},
    {"players": 2, "seed": 5, "mode": "shoulder"}, {"players": 1, "seed": 9, "mode": "solo"},
    {"players": 2, "seed": 11, "mode": "marshal"}, {"players": 3, "seed": 13, "mode": "marshal",
                                                      "variants": ["simple_battles"]},
])
def test_fa1_pool_kinds_is_the_49_less_everything_else_after_every_action(setup):
    seen = []

    def keep(game, action, events):
        st = public_state(game)
        assert st["pool_kinds"] == accounted(st, setup.get("variants", ()))
        # what a host mirroring a device works out from the device's state and setup alone
        assert pool_kinds_seen(game.state(), game.setup_dict()) == st["pool_kinds"]
        assert sum(st["pool_kinds"].values()) == st["pool"]
        seen.append(st["pool"])

    for agent in (1, 2):
        play(setup, agent, skill=1, keep=keep)
    assert len(set(seen)) > 10                 # the pool really went down on the way


def test_fa1_pool_kinds_counts_a_scenario_pool_that_is_not_from_the_49():
    g, _ = run({"board": {"walls": [1], "buildings": [1], "enemies": []},
                "pool": ["he111", "he111", "he111", "he111", "he111", "reveal4", "pz3"]})
    assert public_state(g)["pool_kinds"] == {"he111": 5, "pz3": 1, "reveal4": 1}
    g.apply({"do": "end_turn"})
    st = public_state(g)
    assert sum(st["pool_kinds"].values()) == st["pool"] < 7


def test_fa1_pool_kinds_says_nothing_of_the_order():
    pool = ["move_red", "he111", "tiger", "reveal3", "he111", "sabotage_air"]
    texts = set()
    for order in (pool, pool[::-1], sorted(pool)):
        g, _ = run({"board": {"walls": [1, 2], "buildings": [1, 2, 3], "enemies": []}, "pool": order})
        texts.add(state_json(g, events=[]))
    assert len(texts) == 1
    st = json.loads(texts.pop())
    assert st["pool_kinds"] == {"he111": 2, "move_red": 1, "reveal3": 1, "sabotage_air": 1, "tiger": 1}


def test_fa1_pool_kinds_is_written_sorted_by_kind_and_next_to_the_pool():
    text = state_json(Game(players=2, seed=4), events=[])
    assert '"pool": 43, "pool_kinds": {"discard_one": 1, "he111": 4, "maus": 1, ' in text
    kinds = json.loads(text)["pool_kinds"]
    assert list(kinds) == sorted(kinds) and 0 not in kinds.values()
    i = text.index('"pool_kinds"')
    where = [text.index('"%s": ' % k, i) for k in sorted(kinds)]
    assert where == sorted(where) and where[-1] < text.index('"discard": [')


def test_fa1_an_empty_pool_has_no_kinds():
    g, _ = run({"board": {"walls": [1], "buildings": [1], "enemies": [{"kind": "pz3", "sector": 1, "line": "rear"}]},
                "pool": []})
    assert public_state(g)["pool_kinds"] == {} and public_state(g)["pool"] == 0


def test_fa1_pool_kinds_seen_cannot_be_told_for_a_scenario_pool_or_counts_that_do_not_add_up():
    g, _ = run({"board": {"walls": [1], "buildings": [1], "enemies": []}, "pool": ["he111", "pz3"]})
    assert pool_kinds_seen(g.state(), g.setup_dict()) is None
    g = Game.from_setup({"players": 2, "seed": 3})
    st = g.state()
    assert pool_kinds_seen(st, g.setup_dict()) == public_state(g)["pool_kinds"]
    st["pool"] += 1                                    # a state whose tokens are not the 49
    assert pool_kinds_seen(st, g.setup_dict()) is None
    st = g.state()
    st["discard"] = ["maus", "maus"]                   # more of a kind than there are
    assert pool_kinds_seen(st, g.setup_dict()) is None
    st["discard"] = ["tractor"]
    assert pool_kinds_seen(st, g.setup_dict()) is None
