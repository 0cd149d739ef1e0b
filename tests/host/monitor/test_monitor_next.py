"""The game panel says what to do next, in one line, from the state (issue 26
item 11): in phase 4 the cards at the table and then their keys here, with a
pending choice what to choose, in phase 7 the marshal's play, a finished game
a new one.  Every key it names comes from KEYMAP (keys_for), so the line
follows a change of keys."""

import re

import pytest

from osada.siege import keys as keymap
from osada.siege import panel
from shared_rules.siege.engine import Game
from tests.support.monitor_fakes import damage_game, mid_game


def next_line(st, **kw):
    """The panel's "Next:" line (full and compact forms say the same)."""
    lines = [ln for ln in panel.info_text(st, **kw).plain.split("\n") if ln.startswith("Next: ")]
    assert len(lines) == 1, panel.info_text(st, **kw).plain
    return lines[0]


def damage_state():
    """A move brings a tiger and a pz3 against the dotted wall: who takes the damage? (R21, R25)"""
    st = damage_game().state()
    assert st["pending"]["choice"] == "damage"
    return st


def test_phase_4_says_play_the_cards_at_the_table_then_their_keys_here():
    g, _h = mid_game()
    st = g.state()
    assert st["phase"] == 4 and not st["pending"]
    line = next_line(st)
    assert "play your cards at the table" in line
    assert "h/k/g/p/d/b/t here" in line and "e ends the turn" in line
    assert next_line(st, compact=True) == line


def test_a_pending_damage_choice_says_what_to_choose():
    st = damage_state()
    line = next_line(st)
    assert "choose which enemy takes the damage" in line
    assert "Tab marks the next" in line and "c/Enter takes the marked one" in line


def test_phase_6_says_reveal_or_end_the_turn():
    g = Game(players=2, seed=3)
    g.apply({"do": "move"})
    assert next_line(g.state()) == "Next: r reveals the next token (2 due), or e reveals them all and ends the turn"
    g.apply({"do": "reveal"})
    g.apply({"do": "reveal"})
    st = g.state()
    assert st["phase"] == 6 and st["reveals"] == 0 and st["outcome"] == "playing"
    assert next_line(st) == "Next: e ends the turn"


def test_phase_7_says_the_marshal_plays():
    g = Game(players=2, mode="marshal", seed=3)
    g.apply({"do": "end_turn"})
    st = g.state()
    assert st["phase"] == 7
    assert next_line(st) == "Next: the field marshal plays from his hand: M"
    g = Game(players=2, mode="marshal", seed=3)
    g.apply({"do": "patrol"})
    g.apply({"do": "move"})
    st = g.state()
    assert st["phase"] == 7 and st["patrol"]
    assert next_line(st).startswith("Next: e ends the turn")


def test_a_finished_game_says_n_starts_a_new_one():
    for outcome in ("lost", "won"):
        st = Game(players=2, seed=1).state()
        st["outcome"] = outcome
        assert next_line(st) == "Next: n starts a new game"
        assert next_line(st, compact=True) == "Next: n starts a new game"


def test_stale_says_the_board_is_not_connected():
    g, _h = mid_game()
    line = next_line(g.state(), stale=True)
    assert "not connected" in line and "play your cards" not in line


def _marshal_phase7():
    g = Game(players=2, mode="marshal", seed=3)
    g.apply({"do": "end_turn"})
    return g.state()


STATES = {"phase4": lambda: mid_game()[0].state(), "damage": damage_state, "phase7": _marshal_phase7,
          "phase6": lambda: _after(Game(players=2, seed=3), {"do": "move"}),
          "over": lambda: dict(Game(players=2, seed=1).state(), outcome="lost")}


def _after(g, action):
    g.apply(action)
    return g.state()


@pytest.mark.parametrize("state", sorted(STATES))
def test_every_key_it_names_comes_from_the_keymap(monkeypatch, state):
    """Rebind every key to <its action>: the line names the new keys and none
    of the old ones, and with the old keys put back it is the line it was."""
    st = STATES[state]()
    before = next_line(st)
    old_keys = {}
    for _k, a, shown, _s, _w, _f in keymap.KEYMAP:
        if shown:
            old_keys["<%s>" % a] = keymap.keys_for(a)
    moved = tuple((k, a, "<%s>" % a if shown else shown, short, what, f)
                  for k, a, shown, short, what, f in keymap.KEYMAP)
    monkeypatch.setattr(keymap, "KEYMAP", moved)
    after = next_line(st)
    named = re.findall(r"<[a-z_]+>", after)
    assert named, after
    assert re.sub(r"<[a-z_]+>", lambda m: old_keys[m.group(0)], after) == before
    words = set(re.findall(r"[^\s/(),;:]+", re.sub(r"<[a-z_]+>", " ", after)))
    shown = {w for keys in old_keys.values() for w in keys.split("/")}
    assert not words & shown, "%s names a key of its own: %s" % (after, words & shown)
