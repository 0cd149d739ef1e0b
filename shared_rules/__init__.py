"""Osada rules core: War Thunder: Siege as the engine plays it.

Plain Python that runs unchanged on CPython and on MicroPython 1.2x (the Pico).
Rule ids (R1...) refer to the spec, ../shared/spec/siege-rules.md.

    from shared_rules.engine import Game, RuleError
    g = Game(players=2, seed=7)
    g.apply({"do": "end_turn"})
    print(g.state_json())
"""

VERSION = "0.1.0"
