"""The host's mirror of the device's game and the `log` request: the state
pushes over a whole random game (with undos) match what the device holds,
`log` comes in pages of LOG_PAGE actions (a game bigger than the outbox
included) and is a scenario that rebuilds that game exactly; a bad `from`
is refused."""

import json

import pytest
from rules_support import engine_state

from shared_rules.jsonout import dumps
from shared_rules.siege import scenario
from shared_rules.siege.autoplay import RandomPlayer
from shared_rules.siege.engine import PLAYING, RuleError
from tests.support.device import LOG_PAGE, Dev, random_session, snapshot


@pytest.mark.parametrize("setup,agent_seed", [
    ({"players": 2, "seed": 11}, 1),
    ({"players": 4, "mode": "shoulder", "variants": ["one_for_all"], "seed": 12}, 2),
    ({"players": 1, "mode": "solo", "variants": ["caught_off_guard"], "seed": 13}, 3),
    ({"players": 2, "mode": "marshal", "variants": ["supplies_low"], "seed": 14}, 4),
    ({"players": 3, "variants": ["my_house", "all_for_one", "simple_battles"], "seed": 15}, 5),
])
def test_state_pushes_mirror_the_game_and_log_replays_it(tmp_path, setup, agent_seed):
    dev = Dev(tmp_path)
    accepted = random_session(dev, setup, agent_seed, attempts=90, undo_every=7)
    assert accepted > 5
    log_setup, log_actions = dev.log()
    assert len(log_actions) == accepted
    for k in ("players", "mode", "seed"):
        if k in setup:
            assert log_setup[k] == setup[k]
    # the log is a scenario: osada's runner rebuilds the device's game exactly
    game, events = scenario.run({**log_setup, "actions": log_actions})
    assert [e for e in events if e["ev"] == "refused"] == []
    st, seq = dev.state()
    assert engine_state(game) == st and seq == accepted
    # also through JSON text, as `osada record` would save it
    text = json.dumps({**log_setup, "actions": log_actions})
    out = json.loads(scenario.run_text(text))
    del out["events"]
    assert out == st


# ============================= a game bigger than the outbox (formerly a bug)


def _long_game(dev, min_bytes):
    """Play (through the app's own apply, for speed) until the game as one
    scenario would take more than min_bytes."""
    dev.ok("new", players=2, seed=11)
    agent = RandomPlayer(3, skill=2)
    for _ in range(5000):
        game = dev.app.siege.game
        size = len(dumps({"setup": game.setup_dict(), "actions": game.log.dicts()}))
        if size > min_bytes or game.outcome != PLAYING:
            break
        try:
            dev.app.siege.apply(agent.action(game))
        except RuleError:
            continue
        dev.tick()                        # the host reads the pushes
        dev.take()
    assert size > min_bytes and dev.app.siege.game.outcome == PLAYING
    dev.tick(5)
    dev.take()


def test_log_of_a_long_game_comes_in_pages(tmp_path):
    """A game whose log is bigger than the whole outbox (it used to be
    dropped, with no reply) comes page by page, every page answered."""
    dev = Dev(tmp_path)
    _long_game(dev, 2 * dev.app.outbox.limit)
    n = len(dev.app.siege.game.log)
    assert n > 3 * LOG_PAGE
    setup, actions = dev.log()
    assert actions == dev.app.siege.game.log.dicts()
    game, events = scenario.run({**setup, "actions": actions})
    assert [e for e in events if e["ev"] == "refused"] == []
    assert (engine_state(game), n) == snapshot(dev)
    # a page from anywhere, and the last one
    reply, _ = dev.ok("log", **{"from": n - 3})
    assert reply["actions"] == actions[n - 3:] and reply["next"] is None and reply["total"] == n
    reply, _ = dev.ok("log", **{"from": n})
    assert reply["actions"] == [] and reply["next"] is None
    dev.tick(5)
    assert [m for m in dev.take() if m.get("ev") == "overflow"] == []


@pytest.mark.parametrize("start", [-1, "0", True, 1.0, None, [0], 10 ** 30, 4])
def test_log_with_a_bad_from(tmp_path, start):
    dev = Dev(tmp_path)
    dev.ok("new", seed=3)
    for a in ({"do": "hit", "enemy": 1}, {"do": "patrol"}, {"do": "move"}):
        dev.ok("act", action=a)
    reply, pushed = dev.request("log", **{"from": start})
    assert reply["ok"] is False and "from" in reply["error"] and "rule" not in reply
    assert pushed == []
