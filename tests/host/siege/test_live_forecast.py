"""F14: the live forecast (osada/siege/live_forecast.py) of the monitor and
the web view: a worker on the phase-4 state the table is at, restarted when
it changes; answers only for the state they are stamped with; only public
information sent to the worker (F2)."""

import json
import os
import time

import pytest

from osada.siege import live_forecast
from osada.siege.forecast import forecast
from osada.siege.live_forecast import LiveForecast
from shared_rules.siege.actions import END_TURN
from shared_rules.siege.autoplay import play
from shared_rules.siege.public import public_state


def in_turn(g):
    """The actions of the game's turn so far: those after its last end_turn."""
    n = 0
    for t in g.log.tuples():
        n = 0 if t[0] == END_TURN else n + 1
    return n


def phase4_states(setup, agent=1):
    """(state, setup, actions, public state) at every phase-4 moment of an autoplay game."""
    out = []

    def keep(g, a, ev):
        st = g.state()
        if st["phase"] == 4 and not st["pending"] and st["outcome"] == "playing":
            out.append((st, g.setup_dict(), len(g.log), public_state(g)))
            INTURN[id(st)] = in_turn(g)
    play(setup, agent, skill=1, keep=keep)
    return out


INTURN = {}


def wait(lf, st, setup, final=True, timeout=40.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        r = lf.current(st, setup)
        if r is not None and (not final or r.final or r.forecast.exact):
            return r
        time.sleep(0.01)
    raise AssertionError("no answer in %s s (why: %r)" % (timeout, lf.why))


def test_f14_live_answers_are_the_forecasts_of_the_state_they_are_stamped_with():
    states = phase4_states({"players": 2, "seed": 4})
    notes = []
    lf = LiveForecast(lambda: notes.append(1))
    try:
        for st, setup, n, pub in states[-12::4]:          # late states: exact in well under a second
            lf.update(st, setup, n, INTURN[id(st)])
            r = wait(lf, st, setup)
            want = forecast(pub, setup)
            assert r.forecast.exact and want.exact
            assert r.forecast.values == want.values
            assert (r.turn, r.actions) == (st["turn"], n)
            assert r.to_json()["stamp"] == {"turn": st["turn"], "actions": n}
            k = INTURN[id(st)]                             # the stamp people read: this turn's actions
            head = "Forecast for turn %d, %d action%s into it" % (st["turn"], k, "" if k == 1 else "s")
            assert r.lines()[:2] == [head, " if the turn ended now:"]
            assert r.lines()[2].startswith(" lost  ") and r.lines()[3].startswith(" buildings lost  ")
            assert all(len(line) <= live_forecast.PANEL_WIDTH for line in r.lines())
    finally:
        lf.stop()
    assert notes


def test_f14_an_answer_is_never_given_for_another_state():
    states = phase4_states({"players": 3, "seed": 9})
    (a, setup, na, _), (b, _, nb, _) = states[-5], states[-1]
    assert a != b
    lf = LiveForecast()
    try:
        lf.update(a, setup, na)
        wait(lf, a, setup)
        assert lf.current(b, setup) is None                 # b is not the state worked on
        lf.update(b, setup, nb)
        assert lf.current(a, setup) is None                 # a's answer is gone with a
        r = wait(lf, b, setup, final=False)
        assert r.actions == nb
    finally:
        lf.stop()


def test_f14_a_state_come_back_to_has_its_forecast_at_once_with_its_new_stamp(monkeypatch):
    """An undo back to a state worked out before: its answer at once (in the change's own snapshot),
    stamped with the actions now, and no worker for it; an answer the worker had not finished
    is shown at once too, and a new worker's first, rougher bounds do not replace it."""
    states = phase4_states({"players": 3, "seed": 9})
    (a, setup, na, _), (b, _, nb, _) = states[-5], states[-1]
    lf = LiveForecast(delay=0)
    try:
        lf.update(a, setup, na, 2)
        exact = wait(lf, a, setup)
        lf.update(b, setup, nb)
        wait(lf, b, setup)
        started = []
        real_start = LiveForecast._start
        monkeypatch.setattr(LiveForecast, "_start", lambda self, job, gen: started.append(gen))
        lf.update(a, setup, na + 7, 3)                      # back to a, later in the game's log
        r = lf.current(a, setup)
        assert r is not None and r.forecast.exact and r.forecast.values == exact.forecast.values
        assert (r.turn, r.actions, r.in_turn) == (a["turn"], na + 7, 3)
        assert started == [] and lf.proc is None
        # the game's start, whose answer was still on its way to exact: shown at once, a worker goes on
        c, csetup, nc, cpub = phase4_states({"players": 2, "seed": 4})[0]
        lf.update(c, csetup, nc)
        gen = started[-1]
        k2 = live_forecast.LiveResult(forecast(cpub, csetup, bounds_only=True, k=2), c["turn"], nc, 2)
        lf._post(gen, result=k2)
        lf.update(a, setup, na, 2)
        lf.update(c, csetup, nc + 4)
        assert lf.current(c, csetup).k == 2 and lf.current(c, csetup).actions == nc + 4 and len(started) == 2
        rough = live_forecast.LiveResult(forecast(cpub, csetup, bounds_only=True, k=1), c["turn"], nc, 1)
        lf._post(started[-1], result=rough)
        assert lf.current(c, csetup).k == 2                  # not the rougher one
        assert not lf.current(c, csetup).final
        lf._post(started[-1], result=rough, done=True)      # the worker ended with no better: that one stays, final
        assert lf.current(c, csetup).k == 2 and lf.current(c, csetup).final
        monkeypatch.setattr(LiveForecast, "_start", real_start)
    finally:
        lf.stop()


def test_f14_only_the_last_states_answers_are_kept(monkeypatch):
    states = phase4_states({"players": 2, "seed": 4})
    monkeypatch.setattr(LiveForecast, "_start", lambda self, job, gen: None)
    lf = LiveForecast(delay=0)
    done = forecast(states[-1][3], states[-1][1])
    for st, setup, n, _pub in states[-(live_forecast.KEEP + 3):]:
        lf.update(st, setup, n)
        lf._post(lf.generation, result=live_forecast.LiveResult(done, st["turn"], n, None, final=True))
    assert len(lf.kept) == live_forecast.KEEP
    assert lf.key in lf.kept


def test_f14_the_worker_is_sent_only_what_the_table_sees(monkeypatch):
    """F2: the seed, the pool's order and a scenario's rolls never reach the worker."""
    st, setup, n, pub = phase4_states({"players": 2, "seed": 4})[-3]
    sent = []
    monkeypatch.setattr(LiveForecast, "_start", lambda self, job, gen: sent.append(job))
    lf = LiveForecast(delay=0)
    lf.update(dict(st, secret="x"), dict(setup, seed=12345, rolls=[6, 6], pool=None), n)
    (job,) = sent
    assert "seed" not in job["setup"] and "rolls" not in job["setup"]
    assert set(job["state"]) <= set(live_forecast.PUBLIC_KEYS) | {"pool_kinds"}
    assert job["state"]["pool_kinds"] == pub["pool_kinds"]
    assert "12345" not in json.dumps(job)


def test_f14_a_burst_of_changes_starts_one_worker_for_the_last_state(monkeypatch):
    """A worker starts START_DELAY_S after its state, if that state still stands: the change is
    drawn first, and states that came and went within the delay (keys held, undo after undo)
    start none."""
    states = phase4_states({"players": 2, "seed": 4})
    started = []
    monkeypatch.setattr(LiveForecast, "_start", lambda self, job, gen: started.append(job["state"]["turn"]))
    lf = LiveForecast(delay=0.2)
    try:
        for st, setup, n, _pub in states[-4:]:
            lf.update(st, setup, n)
        assert started == []                                # nothing yet: the delay has not run out
        time.sleep(0.6)
        assert started == [states[-1][0]["turn"]]            # the last state's alone
        lf.update(states[0][0], states[0][1], states[0][2])
        lf.stop()                                           # stopped within the delay: none starts
        time.sleep(0.4)
        assert len(started) == 1
    finally:
        lf.stop()


@pytest.mark.parametrize("change, why", [
    (dict(phase=5), "in phase 4"),
    (dict(pending={"choice": "damage", "candidates": [1, 2]}), "after the pending choice"),
    (dict(outcome="lost"), "the game is over"),
    (dict(pool=3), "cannot be told"),
])
def test_f14_no_forecast_outside_phase_4_and_why(change, why):
    st, setup, n, _ = phase4_states({"players": 2, "seed": 4})[5]
    lf = LiveForecast()
    lf.update(dict(st, **change), setup, n)
    assert lf.proc is None and lf.current(dict(st, **change), setup) is None
    assert why in lf.why


def test_fa5_no_forecast_in_a_field_marshals_game():
    lf = LiveForecast()
    lf.update({"phase": 4, "outcome": "playing", "marshal_hand": []}, {"mode": "marshal"}, 3)
    assert lf.proc is None and "FA5" in lf.why


def test_f11_bounds_come_first_at_the_games_start_then_get_better():
    """E8-like: the start of a game, where the exact values take far too long: the
    first bounds come in seconds, marked as bounds still being worked on."""
    st, setup, n, pub = phase4_states({"players": 2, "seed": 4})[0]
    lf = LiveForecast(seconds=30)
    try:
        lf.update(st, setup, n)
        r = wait(lf, st, setup, final=False, timeout=30.0)
        assert not r.forecast.exact and r.k >= 1
        want = forecast(pub, setup, bounds_only=True, k=r.k)
        assert r.forecast.values == want.values
        assert "bounds" in r.lines()[-1]
    finally:
        lf.stop()
    assert lf.proc is None


def test_the_worker_runs_below_the_table_unless_told(monkeypatch, tmp_path):
    """nice 19 (below the device's link, the monitor and the pages), set before the forecast loads;
    OSADA_FORECAST_NICE overrides it (0-19; the suite's conftest sets 0), anything else is 19."""
    from osada.siege import forecast_worker
    calls = []
    monkeypatch.setattr(forecast_worker.os, "nice", lambda n: calls.append(n))
    group = tmp_path / "autogroup"
    monkeypatch.setattr(forecast_worker, "AUTOGROUP", str(group))
    for value, want in ((None, [19]), ("0", []), ("7", [7]), ("99", [19]), ("x", [19])):
        calls.clear()
        group.write_text("/autogroup-1 nice 0\n")
        if value is None:
            monkeypatch.delenv("OSADA_FORECAST_NICE", raising=False)
        else:
            monkeypatch.setenv("OSADA_FORECAST_NICE", value)
        forecast_worker._lower_priority()
        assert calls == want, value
        # the session's scheduler group too (Linux's autogroups), else its nice ranks it only in its group
        assert group.read_text() == (str(want[0]) if want else "/autogroup-1 nice 0\n"), value
    monkeypatch.setattr(forecast_worker, "AUTOGROUP", str(tmp_path / "none" / "autogroup"))
    monkeypatch.delenv("OSADA_FORECAST_NICE", raising=False)
    forecast_worker._lower_priority()                      # no autogroups here: the nice alone, no error


@pytest.mark.skipif(not os.path.exists("/proc/self/autogroup"), reason="no Linux autogroups on this system")
def test_a_live_worker_runs_in_a_lowered_scheduler_group(monkeypatch):
    """The real worker, as LiveForecast starts it (a session of its own): its group's nice is 19."""
    monkeypatch.delenv("OSADA_FORECAST_NICE", raising=False)
    st, setup, _n, _pub = phase4_states({"players": 2, "seed": 4})[0]
    _key, job = live_forecast._public(st, setup)
    proc = live_forecast.spawn(dict(job, seconds=30))
    try:
        proc.stdout.readline()                                 # its first answer: it has lowered itself
        with open("/proc/%d/autogroup" % proc.pid) as f:
            assert f.read().split()[-1] == "19"
        assert os.getpriority(os.PRIO_PROCESS, proc.pid) == 19
    finally:
        proc.kill()
        proc.wait()


def test_f11_the_workers_memory_cap_is_a_setting(monkeypatch):
    """OSADA_FORECAST_MEMORY (MiB) caps the live workers' memo (default 1 GiB, or a quarter of the
    machine's memory if less): at the cap the worker ends with the bounds it has; a value that is
    not a number of MiB is an error it reports."""
    import io

    from osada.siege import forecast_worker
    st, setup, _n, _pub = phase4_states({"players": 2, "seed": 4})[0]
    _key, job = live_forecast._public(st, setup)                   # what LiveForecast sends its worker
    job = dict(job, seconds=60)
    monkeypatch.delenv("OSADA_FORECAST_MEMORY", raising=False)
    assert forecast_worker.memory_cap() is None                     # the forecast's own default
    monkeypatch.setenv("OSADA_FORECAST_MEMORY", "1")
    assert forecast_worker.memory_cap() == 1 << 20
    out = io.StringIO()
    t = time.monotonic()
    forecast_worker.answers(job, out)
    lines = [json.loads(x) for x in out.getvalue().splitlines()]
    assert lines[-1] == {"done": "memory"} and time.monotonic() - t < 30
    assert lines[-2]["forecast"]["exact"] is False
    monkeypatch.delenv("OSADA_FORECAST_MEMORY")                     # unset on a machine of 4 MiB: its quarter
    from osada.siege.forecast import run as frun
    monkeypatch.setattr(frun, "machine_memory", lambda: 4 << 20)
    out = io.StringIO()
    forecast_worker.answers(job, out)
    assert json.loads(out.getvalue().splitlines()[-1]) == {"done": "memory"}
    monkeypatch.undo()
    for bad in ("x", "0", "-5"):
        monkeypatch.setenv("OSADA_FORECAST_MEMORY", bad)
        out = io.StringIO()
        forecast_worker.answers(job, out)
        lines = [json.loads(x) for x in out.getvalue().splitlines()]
        assert "memory cap" in lines[0]["error"] and lines[-1] == {"done": "refused"}, bad
