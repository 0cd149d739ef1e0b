"""War Chest's rules core inside real MicroPython (the WebAssembly VM): the
spec's six worked examples and seeded games of random legal events print
the same lines, fractions included, on CPython and MicroPython."""

import pytest

from tests.support.both_runtimes import named_values, run_both

pytestmark = pytest.mark.micropython

SCRIPT = "warchest_numbers.py"

# the spec's worked numbers 1-6, as the script prints them
EXPECTED = {
    "ex1 A": "7/12 (58.3%)",
    "ex2 royal": "1/3 (33.3%)",
    "ex2 pair": "1/3",
    "ex2 A or B": "37/42 (88.1%)",
    "ex3 A within 2": "11/12 (91.7%)",
    "ex3 A within 3": "1 (100%)",
    "ex4 start": "5/7 (71.4%)",
    "ex4 recruits": "17/24 (70.8%)",
    "ex5": "A 1/1 royal 1/1 B 3/8",
    "ex6 U": "archer:1 cavalry:2 lancer:2 royal:1 scout:2",
    "ex6 sizes": "bag 6 down 2",
    "ex6 A": "3/8 (37.5%)",
    "ex6 B": "9/14 (64.3%)",
}


@pytest.mark.parametrize("seed", [7, 2026])
def test_w8_w9_w24_w29_worked_numbers_and_legal_games_identical_on_cpython_and_micropython(seed):
    cpy, mpy = run_both(SCRIPT, [seed], helpers=("warchest_play.py",))
    assert cpy == mpy
    assert named_values(cpy, EXPECTED) == EXPECTED
    games = [line for line in cpy if line.startswith("game ")]
    assert len(games) == 4 and all(int(line.split()[2]) > 50 for line in games)     # real games were played
    assert [line for line in cpy if line.startswith("  checks ")] == ["  checks W29 [] state round trip True"] * 4
