"""Osada's rules, plain Python that runs unchanged on CPython and on MicroPython 1.2x.

The root holds only what the games share: `errors.py` (RuleError, the refusal every
game raises), `rng.py` (the seeded generator: dice and shuffles), `jsonout.py` (the
canonical JSON writer), `combin.py` (binomials, subsets, products) and `exact.py`
(fractions in lowest terms, per mille, percentages).  Each game is a package:

    siege/     War Thunder: Siege (Осада): the engine, its moves and plays (R ids)
    tank/      «Танковый бой»: the dice and their exact odds (T ids)
    warchest/  «Сундук войны» (War Chest): the bag game's rules (W ids)
    line/      the line-of-battle card game (L ids; host only)
    victory/   «День Победы» (V ids; host only)

    from shared_rules.siege.engine import Game, RuleError
    g = Game(players=2, seed=7)
    g.apply({"do": "end_turn"})
    print(g.state_json())
"""
