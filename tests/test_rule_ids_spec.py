"""The one cross-check against the specs and rulebooks the rules pages were
written from.  They are kept beside our own checkouts, not in the repository:
in a clone every test here skips (tests/test_rule_ids.py runs everywhere,
from the project's own pages).  Where they are present, the pages' ids are
exactly the specs' (so the two cannot drift), and the names the host prints
are the rulebook's."""

import os
import re

import pytest

from tests.rule_map import GAMES, ROOT, page_rows

SHARED = os.path.join(os.path.dirname(ROOT), "shared")
SPECS = {"siege": "siege-rules.md", "forecast": "siege-forecast.md", "tank": "tank-battle.md",
         "warchest": "war-chest.md", "line": "line-of-battle.md", "victory": "victory-day.md"}
SIEGE_RULEBOOK = os.path.join(SHARED, "seeds", "000_c0d4d8146b8ae51f.txt")


def read(path):
    if not os.path.isfile(path):
        pytest.skip("the specs and rulebooks are not beside this checkout (a clone has only the rules pages)")
    with open(path, encoding="utf-8") as f:
        return f.read()


def spec_ids(text, prefix):
    """The ids a spec states: each opens a list item, '- R10.' or '- **L9.**'."""
    return set(re.findall(r"^- (?:\*\*)?(%s\d+)\b" % prefix, text, re.M))


def test_every_game_has_its_spec():
    assert sorted(SPECS) == sorted(GAMES)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_pages_ids_are_exactly_the_specs(game):
    text = read(os.path.join(SHARED, "spec", SPECS[game]))
    ids = spec_ids(text, GAMES[game]["prefix"])
    assert len(ids) > 20
    assert sorted(ids ^ set(page_rows(game))) == []


def test_the_tanks_latin_names_are_the_specs():
    from osada.words import texts
    spec = read(os.path.join(SHARED, "spec", SPECS["siege"]))
    for k in texts.LATIN_NAMED:                              # the spec's table: "| `sdkfz` | Sd.Kfz. 140/1 |"
        row = re.search(r"^\| `%s` \| ([^|]+?) \|" % k, spec, re.M)
        assert row and row.group(1).replace(" (special)", "") == texts.ru(k), k


def test_the_modes_and_variants_are_named_as_in_the_rulebook():
    from osada.words import texts
    book = read(SIEGE_RULEBOOK).lower()
    for table in (texts.MODES, texts.VARIANTS):
        for ident, (ru, _en, _what) in table.items():
            assert ru.lower() in book, "%s: %r is not in the rulebook" % (ident, ru)
