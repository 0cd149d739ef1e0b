"""Small builders for rule tests: a game from a hand-made board."""

from shared_rules.siege.engine import Game

ALL = [1, 2, 3, 4, 5, 6]


def game(enemies=(), walls=ALL, dots=(), buildings=ALL, pool=(), rolls=(), **kw):
    """A game whose board is exactly this.  enemies: (kind, sector, line[, armor[, held]])."""
    es = []
    for e in enemies:
        d = {"kind": e[0], "sector": e[1], "line": e[2]}
        if len(e) > 3 and e[3]:
            d["armor"] = e[3]
        if len(e) > 4 and e[4]:
            d["held"] = True
        es.append(d)
    board = {"walls": list(walls), "dots": list(dots), "buildings": list(buildings), "enemies": es}
    return Game(board=board, pool=list(pool), rolls=list(rolls), **kw)


def where(g, eid):
    """(sector, line, armor) of enemy eid, or None if it is gone."""
    for e in g.state()["enemies"]:
        if e["id"] == eid:
            return (e["sector"], e["line"], e["armor"])
    return None


def evs(events, name):
    return [e for e in events if e["ev"] == name]


def frozen(g):
    """The state without events: what must not change when an action is refused."""
    return g.state_json(events=[])


def canon(obj):
    """What a JSON object looks like after going over the wire."""
    import json

    from shared_rules.jsonout import dumps
    return json.loads(dumps(obj))


def engine_state(game):
    """The engine's state as the device sends it (events left out)."""
    st = game.state()
    del st["events"]
    return canon(st)


def refused(g, action, rule):
    """Apply an action that must be refused under `rule`: it raises
    RuleError naming it and changes nothing.  Returns the error's text."""
    import pytest

    from shared_rules.errors import RuleError
    before = frozen(g)
    n = len(g.log)
    with pytest.raises(RuleError) as ei:
        g.apply(action)
    assert ei.value.rule == rule, str(ei.value)
    assert frozen(g) == before and len(g.log) == n
    return str(ei.value)
