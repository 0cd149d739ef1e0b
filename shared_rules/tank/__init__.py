"""Osada rules core, second game: the dice companion for «Танковый бой».

Rule ids (T1..., TA1...): docs/rules-tank.md, each in a line.
Unit numbers (intensity, accuracy, protection, steadiness) come from the
physical cards as input: there is no unit table here (TA2).

    dice.py        rolling: fire test, suppression fire, morale, duels (T12-T14, T21, T29, T39)
    protection.py  one target's protection over a turn (T16, T17, T19)
    odds.py        exact probabilities, integer arithmetic only (spec part (b))

Plain Python for CPython and MicroPython alike; the die is shared_rules.rng.
"""
