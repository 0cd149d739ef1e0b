"""host/osada/texts.py: names as printed and as the rulebook gives them, and
points with the right plural in English and Russian (issue #10 item 15)."""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
try:
    import osada  # noqa: F401
except ImportError:  # run from the tree
    sys.path[:0] = [ROOT, os.path.join(ROOT, "host")]

from osada import texts  # noqa: E402
from shared_rules.catalog import KIND_IDS, MODES, VARIANTS  # noqa: E402

RULEBOOK = os.path.join(os.path.dirname(ROOT), "shared", "seeds", "000_c0d4d8146b8ae51f.txt")
SPEC = os.path.join(os.path.dirname(ROOT), "shared", "spec", "siege-rules.md")
CYRILLIC = re.compile("[А-Яа-яЁё]")


def _read(path):
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        return f.read()


def test_tank_names_as_printed_on_the_tokens():
    assert texts.ru("sdkfz") == "Sd.Kfz. 140/1"          # not "Sd. Kfz.": the token's spelling
    assert [texts.ru(k) for k in ("pz3", "tiger", "pz2h", "pz4h", "maus", "panther", "he111")] == [
        "Pz.Kpfw. III", "Tiger E", "Pz.Kpfw. II Ausf. H", "Pz.Kpfw. IV Ausf. H", "Maus", "Panther G", "He-111"]
    for k in KIND_IDS:
        assert "Sd. Kfz." not in texts.KINDS[k][0] + texts.KINDS[k][1]
    spec = _read(SPEC)
    if spec is not None:                                    # the spec's table: "| `sdkfz` | Sd.Kfz. 140/1 |"
        for k in texts.LATIN_NAMED:
            row = re.search(r"^\| `%s` \| ([^|]+?) \|" % k, spec, re.M)
            assert row and row.group(1).replace(" (special)", "") == texts.ru(k), k
    assert texts.ru_class("tiger") == "вражеский танк" and texts.ru_class("maus") == "особый враг"
    assert texts.ru_class("he111") == "бомбардировщик" and texts.ru_class("move_red") == "событие"


def test_modes_and_variants_have_the_rulebooks_names():
    book = _read(RULEBOOK)
    assert set(texts.MODES) == set(MODES) and set(texts.VARIANTS) == set(VARIANTS)
    for table in (texts.MODES, texts.VARIANTS):
        for ident, (ru, en, what) in table.items():
            assert CYRILLIC.search(ru) and en and what and not CYRILLIC.search(en)
            assert "_" not in en
            if book is not None:
                assert ru.lower() in book.lower(), "%s: %r is not in the rulebook" % (ident, ru)
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
