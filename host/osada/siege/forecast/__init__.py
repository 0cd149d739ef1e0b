"""The threat forecast for Siege (the threat forecast's rule ids F1...,
FA1...): the exact odds of the coming enemy phase, for a phase-4 state.

Host only, CPython with exact integers (its search compiled where it could
be built: compiled.py): it reads the engine's state
JSON (with `pool_kinds`, FA1) and never an engine object, the pool's order,
the seed or a scenario's rolls (F2).

    from osada.siege.forecast import forecast
    from shared_rules.siege.public import public_state
    f = forecast(public_state(game), game.setup_dict(), seconds=3)
    f.exact, f.values[("B", 3)]          # (worst, best) as Fractions

Modules: inputs.py (F1, F2: reading the state), model.py (the compact state
and the moves, R20-R42), reduce.py (F9), chains.py (the reveal chains, F8),
search.py (F7, F8: the memoised expectimax), compiled.py (the same search
compiled from csrc/ where setup.py could build it), run.py (F3, F11: phase 5,
the anytime bounds, the limits), result.py (the fractions and the JSON shape).
F12 (not on the Pico) is this package's being host-only.  F13 and F14 are
played on its answers elsewhere: the live worker, the monitor's panel and the
ring's codes in host/osada/siege/ (live_forecast.py, panel.py,
ring_forecast.py), the ring's drawing in firmware/osada_fw/siege/forecast_ring.py.
"""

from osada.siege.forecast.inputs import ForecastError
from osada.siege.forecast.run import MEMORY, Forecaster, default_memory, forecast

__all__ = ["ForecastError", "Forecaster", "forecast", "MEMORY", "default_memory", "IMPLEMENTED"]

# the ids this package plays (docs/rules-forecast.md; tests/test_rule_ids.py): each has a test naming it
IMPLEMENTED = ("F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8", "F9", "F10", "F11", "F12", "F13", "F14",
               "FA1", "FA2", "FA3", "FA4", "FA5", "FA6", "FA7", "FA8", "FA9")
