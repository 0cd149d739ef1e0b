"""Every rule id a game's code plays has at least one test that names it
(`test_r21_...`, or `test_l10_l11_...` for a test of two rules), and every
id a package declares is a rule of its spec.  The one home of that check for
all the games: Siege (every R id of its spec), and the card games' rules
packages and Siege's threat forecast, each declaring the ids it plays in
IMPLEMENTED (the others are left to the players, or to other parts: see
each package's docstring)."""

import importlib
import os
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPECS = os.path.join(os.path.dirname(ROOT), "shared", "spec")

# game: (its spec, the ids' prefix as a pattern, the rules package that declares
# IMPLEMENTED (None: every id of the spec), how many ids the spec has)
GAMES = {
    "siege": ("siege-rules.md", "R", None, None),
    "line": ("line-of-battle.md", "L", "shared_rules.line", 25),
    "victory": ("victory-day.md", "V", "shared_rules.victory", 40),
    "warchest": ("war-chest.md", "WA?", "shared_rules.warchest", 36),
    "forecast": ("siege-forecast.md", "FA?", "shared_rules.siege.forecast", 23),
}


def names_of_tests():
    names = set()
    for dirpath, _dirs, files in os.walk(os.path.join(ROOT, "tests")):
        for f in files:
            if f.startswith("test_") and f.endswith(".py"):
                with open(os.path.join(dirpath, f), encoding="utf-8") as fh:
                    names.update(re.findall(r"^\s*(?:async )?def (test_\w+)", fh.read(), re.M))
    return names


def ids_named(names, prefix):
    """The ids (upper case) test names carry: 'test_l10_l11_x' -> {'L10', 'L11'}."""
    found = set()
    for name in names:
        found.update(i.upper() for i in re.findall(r"(?:^test|_)(%s\d+)(?=_|$)" % prefix.lower(), name))
    return found


def spec_ids(spec, prefix):
    """The ids a spec states: each opens a list item, '- R10.' or '- **L9.**'."""
    with open(os.path.join(SPECS, spec), encoding="utf-8") as fh:
        return set(re.findall(r"^- (?:\*\*)?(%s\d+)\b" % prefix, fh.read(), re.M))


def test_rule_ids_are_read_from_test_names():
    assert ids_named({"test_r40_r42_case1", "test_r7_x", "test_other_r9", "test_router_r"}, "R") == \
        {"R40", "R42", "R7", "R9"}
    assert ids_named({"test_w1_wa1_w28_counts", "test_l9", "test_wait_w"}, "WA?") == {"W1", "WA1", "W28"}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_rule_id_the_code_plays_has_a_test(game):
    spec, prefix, package, _count = GAMES[game]
    if package is None:
        if not os.path.isfile(os.path.join(SPECS, spec)):
            pytest.skip("the spec (../shared/spec) is not beside this checkout")
        ids = spec_ids(spec, prefix)
        assert len(ids) > 30
    else:
        ids = importlib.import_module(package).IMPLEMENTED
        assert len(ids) == len(set(ids)) > 10
    missing = sorted(set(ids) - ids_named(names_of_tests(), prefix), key=lambda i: (len(i), i))
    assert missing == [], "rules with no test naming them: %s" % ", ".join(missing)


@pytest.mark.parametrize("game", sorted(g for g in GAMES if GAMES[g][2]))
def test_every_declared_id_is_a_rule_of_the_spec(game):
    spec, prefix, package, count = GAMES[game]
    if not os.path.isfile(os.path.join(SPECS, spec)):
        pytest.skip("the spec (../shared/spec) is not beside this checkout")
    ids = spec_ids(spec, prefix)
    assert len(ids) == count
    assert sorted(set(importlib.import_module(package).IMPLEMENTED) - ids) == []
