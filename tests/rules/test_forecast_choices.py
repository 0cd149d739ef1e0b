"""F5, F6, FA2: where the players' damage choice (R25) can matter -- unlike
enemies sharing a cell before a wall, a panther in the pool -- the forecast's
worst and best agree with the brute force through the engine, which tries
every `choose` answer (tests/forecast_support.py), on seeded random states."""

from forecast_support import Brute, every_search, random_choice_scenario, random_states

from shared_rules.siege.public import public_state
from shared_rules.siege.scenario import run


def test_f5_f6_fa2_r25_worst_and_best_agree_with_the_brute_force_where_choices_matter():
    differ = 0
    for sc in random_states(40, 120, random_choice_scenario):
        brute = Brute(sc).result()
        g, _ = run(sc)
        for name, f in every_search(public_state(g), g.setup_dict()):     # the compiled search and Python's
            assert f.values == brute, (name, sc)
        differ += any(w != b for w, b in brute.values())
    assert differ >= 5                      # the choice really changed a target in some of them
