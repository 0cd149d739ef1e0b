"""host/osada/words/texts.py: names as printed and as the rulebook gives them, and
points with the right plural in English and Russian (issue #10 item 15)."""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
try:
    import osada  # noqa: F401
except ImportError:  # run from the tree
    sys.path[:0] = [ROOT, os.path.join(ROOT, "host")]

from osada.words import texts  # noqa: E402
from shared_rules.siege.catalog import KIND_IDS, MODES, VARIANTS  # noqa: E402

CYRILLIC = re.compile("[А-Яа-яЁё]")


def test_tank_names_as_printed_on_the_tokens():
    assert texts.ru("sdkfz") == "Sd.Kfz. 140/1"          # not "Sd. Kfz.": the token's spelling
    assert [texts.ru(k) for k in ("pz3", "tiger", "pz2h", "pz4h", "maus", "panther", "he111")] == [
        "Pz.Kpfw. III", "Tiger E", "Pz.Kpfw. II Ausf. H", "Pz.Kpfw. IV Ausf. H", "Maus", "Panther G", "He-111"]
    for k in KIND_IDS:
        assert "Sd. Kfz." not in texts.KINDS[k][0] + texts.KINDS[k][1]
    assert texts.ru_class("tiger") == "вражеский танк" and texts.ru_class("maus") == "особый враг"
    assert texts.ru_class("he111") == "бомбардировщик" and texts.ru_class("move_red") == "событие"


def test_modes_and_variants_have_the_rulebooks_names():
    assert set(texts.MODES) == set(MODES) and set(texts.VARIANTS) == set(VARIANTS)
    for table in (texts.MODES, texts.VARIANTS):
        for ident, (ru, en, what) in table.items():
            assert CYRILLIC.search(ru) and en and what and not CYRILLIC.search(en)
            assert "_" not in en
            assert texts.label(ident) == "«%s» (%s)" % (ru, en)
    assert texts.label("caught_off_guard") == "«Застали врасплох» (caught off guard)"
    assert texts.label("marshal") == "«Фельдмаршал» (field marshal)"
    assert texts.label("nonesuch") == "nonesuch"


def test_points_plural_in_both_languages():
    en = {0: "0 pts", 1: "1 pt", 2: "2 pts", 7: "7 pts", 21: "21 pts"}
    ru = {0: "0 очков", 1: "1 очко", 2: "2 очка", 4: "4 очка", 5: "5 очков", 11: "11 очков", 12: "12 очков",
          14: "14 очков", 21: "21 очко", 22: "22 очка", 25: "25 очков", 101: "101 очко", 111: "111 очков",
          112: "112 очков", 122: "122 очка"}
    for n, want in en.items():
        assert texts.points_text(n) == want
    for n, want in ru.items():
        assert texts.points_text(n, "ru") == want
    won = texts.describe({"ev": "won", "rule": "R51", "ranking": [[2, 7, 3], [1, 1, 1]]})
    assert won.endswith("ranking: player 2 7 pts (7 очков, 3 trophies), player 1 1 pt (1 очко, 1 trophy)")
    assert "1 pts" not in won


def test_an_undo_that_brings_back_a_replaced_game_says_so():
    # issue 26 item 1: the device's undo right after a new game brings the old one back
    assert texts.describe({"ev": "undo", "seq": 41, "game_back": True}) == \
        "Undo: the game the new game replaced is back (41 actions)"
    assert texts.describe({"ev": "undo", "seq": 4}) == "Undo: back to action 4"


def test_counts_have_the_right_plural():
    # issue 26 item 9: "New game: 1 players"; every count an event line gives reads right at 1 and at 2
    d = texts.describe
    setup = {"ev": "setup", "mode": "solo", "hand_limit": 6, "trades": 1, "discard_draw": 2}
    assert d(dict(setup, players=1)).startswith("New game: 1 player, mode «Одиночный режим» (solo);")
    assert d(dict(setup, players=3)).startswith("New game: 3 players, mode ")
    assert d({"ev": "repaired", "count": 1}) == "Panther G: 1 damaged enemy regains 1 armor"
    assert d({"ev": "repaired", "count": 2}) == "Panther G: 2 damaged enemies regain 1 armor"
    assert d({"ev": "boot", "restored": True, "seq": 1}) == (
        "The device started: game restored from its journal (1 action)")
    assert d({"ev": "boot", "restored": False, "seq": 0}) == "The device started: a new game (0 actions)"
    assert d({"ev": "undo", "seq": 1, "game_back": True}).endswith("is back (1 action)")
    assert d({"ev": "line_timeout", "bytes": 1}).startswith("The device dropped an unfinished request (1 byte,")
    assert d({"ev": "overflow", "dropped": 1}).startswith("The device dropped 1 line (")
    assert d({"ev": "overflow", "dropped": 4}).startswith("The device dropped 4 lines (")
    assert d({"ev": "marshal_draw", "count": 1}) == "The field marshal draws 1 token"
    assert d({"ev": "move", "cause": "phase", "count": 1}).strip() == "→ 1 enemy moved one step"
    for ev in ({"ev": "setup", "players": 1}, {"ev": "repaired", "count": 1}, {"ev": "boot", "seq": 1},
               {"ev": "undo", "seq": 1, "game_back": True}, {"ev": "line_timeout", "bytes": 1},
               {"ev": "overflow", "dropped": 1}, {"ev": "marshal_draw", "count": 1},
               {"ev": "he111", "sector": 1, "destroyed": [3]}, {"ev": "move", "cause": "phase", "count": 1}):
        line = d(ev)
        assert not re.search(r"\b1 (players|actions|bytes|lines|tokens|enemies|hits)\b", line), line
        assert "(s)" not in line and "regain " not in line, line


def test_an_enemy_finished_by_its_own_attack_reads_plainly():
    # issue 26 item 9: "Tiger E #7 destroyed destroying a building".  R23: enemies entering a city
    # cell with a building destroy it and one of them takes 1 damage; at 0 armor it is destroyed
    # (R11: to the enemy discard, no trophy).  R21 the same for a wall or its ДОТ.
    d = texts.describe
    said = d({"ev": "destroyed", "enemy": 7, "kind": "tiger", "cause": "building"})
    assert said == ("Tiger E #7 destroyed a building and took 1 damage: no armor left, "
                    "so it is destroyed (to the discard)")
    assert d({"ev": "destroyed", "enemy": 7, "kind": "tiger", "cause": "wall"}).startswith(
        "Tiger E #7 attacked a wall and took 1 damage: no armor left")
    assert d({"ev": "destroyed", "enemy": 7, "kind": "tiger", "cause": "dot"}).startswith(
        "Tiger E #7 attacked a ДОТ (dot) and took 1 damage")
    assert d({"ev": "destroyed", "enemy": 2, "kind": "pz3", "cause": "he111"}) == (
        "Pz.Kpfw. III #2 destroyed by the He-111 (to the discard)")
    for cause in ("building", "wall", "dot", "he111"):
        line = d({"ev": "destroyed", "enemy": 7, "kind": "tiger", "cause": cause})
        assert "destroyed destroying" not in line and "destroyed attacking" not in line, line
    # and one that survives its attack reads the same way
    state = {"enemies": [{"id": 2, "kind": "tiger", "sector": 3, "line": "tank", "armor": 1, "held": False}]}
    assert d({"ev": "damaged", "enemy": 2, "cause": "building", "armor": 1}, state) == (
        "Tiger E #2 destroyed a building and took 1 damage: armor 1 left")
    assert d({"ev": "damaged", "enemy": 2, "cause": "wall", "armor": 1}, state) == (
        "Tiger E #2 attacked a wall and took 1 damage: armor 1 left")


def test_a_hit_says_where_in_words():
    state = {"enemies": [{"id": 5, "kind": "tiger", "sector": 5, "line": "artillery", "armor": 3, "held": False}]}
    assert texts.describe({"ev": "hit", "enemy": 5, "armor": 2}, state) == (
        "Hit Tiger E #5 (sector 5 artillery line): armor 2 left")
    assert texts.describe({"ev": "hit", "enemy": 5, "armor": 0}, state) == (
        "Hit Tiger E #5 (sector 5 artillery line): no armor left")


def test_a_refusal_names_the_enemy_as_everything_else_does():
    """Issue 42 item 10: "play enemy 13 refused (R10): … (enemy 13)" where the log says "Tiger E #13"."""
    from osada.monitor import MonitorApp
    st = {"enemies": [{"id": 13, "kind": "tiger", "sector": 2, "line": "rear"}]}
    assert texts.named_enemies("enemies in the rear cannot be hit (enemy 13)", st) == \
        "enemies in the rear cannot be hit (%s #13)" % texts.ru("tiger")
    assert texts.named_enemies("there is no enemy 14 on the board", st) == "there is no enemy #14 on the board"
    app = MonitorApp()
    app.state = st
    app._on_reply("act", {"action": {"do": "hit", "enemy": 13}},
                  {"ok": False, "error": "enemies in the rear cannot be hit (enemy 13)", "rule": "R10"})
    assert app.status_text == "hit {0} #13 refused (R10): enemies in the rear cannot be hit ({0} #13)".format(
        texts.ru("tiger"))
    assert "Tiger" in app.status_text and "enemy 13" not in app.status_text
    assert texts.describe({"ev": "refused", "rule": "R10", "error": "x (enemy 13)"}, st).endswith("(Tiger E #13)")


def test_r17_a_patrol_turns_reveal_phase_says_nothing_is_revealed():
    """Issue 42 item 10: a patrol turn logged "Phase 6: reveal" and nothing after it."""
    from shared_rules.siege.engine import Game
    for patrol in (True, False):
        g = Game(players=2, seed=1)
        if patrol:
            g.apply({"do": "patrol"})
        before = g.state()
        g.apply({"do": "end_turn"})
        lines = [texts.describe(ev, before) for ev in g.state()["events"]]
        reveal = [ln for ln in lines if ln.startswith("Phase 6")]
        assert reveal == (["Phase 6: reveal — nothing is revealed this turn: the patrol was played (R17)"] if patrol
                          else ["Phase 6: reveal"]), lines
