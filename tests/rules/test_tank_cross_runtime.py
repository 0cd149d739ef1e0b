"""«Танковый бой» rules core inside real MicroPython (the WebAssembly VM):
the spec's worked numbers come out identical on both runtimes (long ints
included: 6**12 > 2**31), and rolling dice allocates nothing on the device."""

import pytest

from osada import mpyvm
from tests.support.both_runtimes import named_values, run_both

pytestmark = pytest.mark.micropython

SCRIPT = "tank_numbers.py"

# the spec's part (b) and E1-E4, as the script prints them
EXPECTED = {
    "6d<=3 P(>=2)": "57/64",
    "6d<=3 E[H]": "3/1",
    "12d<=2 a0..a4": "16777216 100663296 276824064 461373440 519045120",
    "12d<=2 den": "2176782336",
    "12d<=2 P(H>=5)": "65275/177147",
    "12d<=2 permille": "368",
    "12d<=2 E[H]": "4/1",
    "12d<=2 E[D vs 4]": "112640/177147",
    "12d<=2 P(H>=6)": "31483/177147",
    "18d<=2 P(H>=5)": "297898313/387420489",
    "18d<=2 E[H]": "6/1",
    "18d<=2 E[D vs 4]": "829760146/387420489",
    "pooled P(>=4)": "2369/2916",
    "pooled E": "5/1",
    "morale 2d vs 7": "7/12",
    "morale 2d vs 9": "5/6",
    "morale 3d vs 9": "3/8",
    "duel": "3/3/30 6/4/26 10/5/21 15/6/15 21/5/10 26/4/6 30/3/3",
    "collision S7 enters": "115/648",
    "collision S8 enters": "91/216",
    "collision nobody": "95/486",
    "E3": "([0], [])",
    "E4": "18 15 12 11",
    "E1": "[(1, 0, True), (2, 0, False), (1, 1, True)] strength 2 next turn 3",
}


@pytest.mark.parametrize("seed", [13, 2026])
def test_t12_t21_t29_t39_worked_numbers_and_rolls_identical_on_cpython_and_micropython(seed):
    cpy, mpy = run_both(SCRIPT, [seed])
    assert cpy == mpy
    assert named_values(cpy, EXPECTED) == EXPECTED
    assert len(cpy) == len(EXPECTED) + 1 + 5         # + the 60-dice line + 5 seeded rolls


ALLOC = """
import gc
from shared_rules.rng import Rng
from shared_rules.tank import dice
rng = Rng(7)
buf = dice.dice_buffer()
def cost(f):
    f()
    gc.collect()
    m0 = gc.mem_alloc()
    f()
    return gc.mem_alloc() - m0
print(cost(lambda: dice.roll(rng, buf, 1)), cost(lambda: dice.roll(rng, buf, 90)),
      cost(lambda: dice.fire_test(rng, buf, 24, 3)), cost(lambda: dice.suppression_fire(rng, buf, 16, 2, True)),
      cost(lambda: dice.morale_test(rng, buf, 4, 12)), cost(lambda: dice.counter_attack(rng, buf)))
tot, st = bytearray(6), bytearray([7, 7, 8, 5, 7, 9])
print(6 ** 12 > 2 ** 31, 6 ** 60 % 1000003)
print(cost(lambda: dice.unit_totals(rng, buf, tot, st, 6)), cost(lambda: dice.highest(tot, 0, 6)),
      cost(lambda: dice.counter_attack_ties(rng, buf)))
print(cost(lambda: rng.die), cost(lambda: [rng.die()]))     # the probe does see allocations
"""


def test_t12_t21_t29_t39_rolls_allocate_nothing_on_micropython_and_long_ints_work():
    proc = mpyvm.run_code(ALLOC, mounts=mpyvm.project_mounts())
    assert proc.returncode == 0, proc.stderr.decode()
    lines = proc.stdout.decode().splitlines()
    assert lines[0].split() == ["0"] * 6
    assert lines[1] == "True %d" % (6 ** 60 % 1000003)
    assert lines[2].split() == ["0"] * 3                # a collision's totals, its best, counter-attack ties
    assert all(int(x) > 0 for x in lines[3].split())
