"""F7-F9, F12: the forecast's compiled search (host/osada/siege/forecast/csrc/)
computes what search.py's Search.drawing and Search.plain compute, integer
for integer: on autoplayed turns with long chains, a pz2h and a panther
(deeper than the brute force can go), with one thread or several sharing the
memos, and a state beyond its limits goes on in Python.  The worked examples,
the rules' tests and the brute-force comparisons run through both searches as
well (tests/conftest.py's forecast_backend, forecast_support.every_search)."""

import time

import pytest
from forecast_support import E8, autoplay_turns, searching_with

from osada.siege.forecast import Forecaster, compiled, model, search
from shared_rules.siege.public import public_state
from shared_rules.siege.scenario import run

pytestmark = pytest.mark.skipif(compiled.CORE is None, reason="the forecast's compiled search is not built "
                                "(make setup needs a C compiler for it)")

# (seed, turn): phase-4 states of autoplayed games (skill 1) with two or three extenders,
# a pz2h and a panther in the pool, each under 0.3 s in Python
TURNS = ((1, 6), (1, 11), (4, 9), (4, 11))


def _turns():
    games = {seed: autoplay_turns(seed) for seed in sorted({s for s, _t in TURNS})}
    return [games[seed][turn] for seed, turn in TURNS]


def _exact(st, setup, core):
    with searching_with(core):
        fc = Forecaster(st, setup)
        return fc.value(None), fc


def test_f7_f8_f9_the_compiled_search_agrees_with_python_on_autoplayed_turns():
    for st, setup in _turns():
        fields, fc = _exact(st, setup, compiled.CORE)
        assert fc.search.core is not None and fc.search.core.entries() > 300         # it really searched
        c = fc.pub.counts
        assert fc.extenders >= 2 and c[model.PZ2H] and c[model.PANTHER]
        assert fields == _exact(st, setup, None)[0], st["turn"]


def test_f7_f12_threads_sharing_the_memos_give_the_same_integers(monkeypatch):
    # one thread, and two and four searching each state at once, each its own way round
    # (csrc/module.c): a state's value never depends on which of them worked it out
    turns = _turns()
    got = {}
    for threads in (1, 2, 4):
        monkeypatch.setattr(compiled, "THREADS", threads)
        got[threads] = [_exact(st, setup, compiled.CORE)[0] for st, setup in turns]
    assert got[1] == got[2] == got[4]


def test_f12_the_compiled_search_numbers_the_kinds_as_the_model_does():
    names = compiled.CORE.KINDS.split()
    assert [model.KIND_OF.get(n, model.BLANK if n == "blank" else None) for n in names] == list(range(len(names)))
    assert len(names) == model.PZ2H + 1


def test_f12_a_state_beyond_the_compiled_search_s_limits_goes_on_in_python():
    assert type(compiled.make_search(0b111111, compiled.WIDEST + 1)) is search.Search     # fields over 126 bits
    se = compiled.make_search(0b111111, 60)
    fifteen = tuple([15] * 15)                      # 15 sound tigers in tank 1: one word holds 14 members
    groups = {18: fifteen}
    counts = (0,) * model.MOVE_RED + (2,) + (0,) * (model.PLAIN - model.MOVE_RED - 1)   # two move_red
    with pytest.raises(OverflowError):
        se.core.plain(1 << 12, tuple(sorted(groups.items())), counts, "NN", True, -1.0, 0)
    v = se.plain(1 << 12, tuple(sorted(groups.items())), groups, counts, "NN", True)
    assert se.core is None                          # Python from here on, and the same value
    assert v == search.Search(0b111111, 60).plain(1 << 12, tuple(sorted(groups.items())), groups, counts,
                                                  "NN", True)
    fields = se.unpack(v)                           # over 2 * 1 * 6^2: the first move_red takes the last building
    assert fields[12] == fields[search.L_FIELD] == 2 * 1 * 6 * 6

    # the same for a whole phase, draw by draw: the pool's 16 kinds, one reveal due
    se = compiled.make_search(0b111111, 60)
    assert isinstance(se, compiled.CompiledSearch)
    whole = counts + (0, 0, 0)
    with pytest.raises(OverflowError):
        se.core.drawing(1 << 12, tuple(sorted(groups.items())), whole, 1, True, None, -1.0, 0)
    w, b = se.drawing(1 << 12, tuple(sorted(groups.items())), groups, whole, 1, True, None)
    assert se.core is None
    assert w == b and se.unpack(w)[12] == 2 * 6                  # over 2 * 6: a move_red is drawn, certain


def test_f11_a_deadline_already_past_stops_the_compiled_search_at_once():
    # E8's exact values take minutes: a search started a second after its deadline must stop at
    # its first look at the clock, not take the seconds left (negative) for no limit at all
    g, _ = run(E8)
    fc = Forecaster(public_state(g), g.setup_dict())
    fc.search.deadline = fc.search.clock() - 1.0
    t = time.perf_counter()
    with pytest.raises(search.OutOfTime) as stopped:
        fc.value(None)
    assert str(stopped.value) == "time" and time.perf_counter() - t < 10     # not the memory cap, much later


def test_f11_the_compiled_search_holds_the_memory_cap_in_bytes():
    # the cap is what the memos really hold (arenas and slots), not entries at search.ENTRY_BYTES:
    # E8's exact values need gigabytes, so a 100 MiB cap stops them for memory near 100 MiB
    g, _ = run(E8)
    cap = 100 << 20
    fc = Forecaster(public_state(g), g.setup_dict(), memory=cap)
    with pytest.raises(search.OutOfTime) as stopped:
        fc.value(None)
    held = fc.search.core.memory()
    assert str(stopped.value) == "memory" and cap < held < cap + (128 << 20)   # 16 MB arenas, 4 threads; a doubling
