"""`osada forecast SCENARIO.json [--json] [--bounds] [--seconds S] [--memory MIB]` (host/osada/siege/forecast_cmd.py):
the threat forecast's table and JSON on the spec's E7 (docs/rules-forecast.md), its bounds on E8 (F11),
and bad input as one line on stderr (F1, FA5)."""

import json

import pytest
from forecast_support import E4, E6, E7, E8

from osada import cli


def forecast(tmp_path, capsys, content, *args):
    path = tmp_path / "scenario.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    code = cli.main(["forecast", str(path)] + list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_f4_f14_the_e7_table(tmp_path, capsys):
    code, out, err = forecast(tmp_path, capsys, E7)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("Threat forecast, turn 1 (0 actions into it), player 1")
    assert lines[1] == "lost (L): <0.1% (1/181440)"                 # L and E first
    assert lines[2] == "expected buildings lost (E): 1.68"           # 182935/108864: two places
    assert lines[3].split() == ["sector", "building", "wall", "dot"]
    rows = {ln.split()[0]: ln for ln in lines[4:10]}
    assert sorted(rows) == ["1", "2", "3", "4", "5", "6"]
    assert rows["1"].split() == ["1", "0.8%", "(4597/544320)", "14.8%", "(80291/544320)", "—"]
    assert rows["2"].split() == ["2", "9.0%", "(24571/272160)", "23.7%", "(32269/136080)", "100%"]
    assert rows["3"].split() == ["3", "54.6%", "(148721/272160)", "—", "—"]
    assert rows["5"].split() == ["5", "—", "12.7%", "(34691/272160)", "—"]
    assert lines[-1].startswith("exact values, ") and lines[-1].endswith(" s")


def test_f14_fractions_prints_every_exact_fraction(tmp_path, capsys):
    code, out, _ = forecast(tmp_path, capsys, E7, "--fractions")
    lines = out.splitlines()
    assert code == 0 and lines[1] == "lost (L): 1/181440" and lines[2] == "expected buildings lost (E): 182935/108864"
    assert lines[5].split() == ["2", "24571/272160", "32269/136080", "1"]


def test_f6_worst_and_best_side_by_side_where_they_differ(tmp_path, capsys):
    code, out, _ = forecast(tmp_path, capsys, E6)
    assert code == 0
    row3 = [ln for ln in out.splitlines() if ln.startswith("3 ")][0]
    assert "worst 16.7% (1/6) · best 0%" in row3
    assert "expected buildings lost (E): worst 2.17 · best 2.00" in out        # 13/6 and 2
    assert "lost (L): 0%" in out                                                # exactly 0


def test_f4_the_e7_json(tmp_path, capsys):
    code, out, err = forecast(tmp_path, capsys, E7, "--json")
    assert code == 0 and err == "" and len(out.splitlines()) == 1
    got = json.loads(out)
    assert isinstance(got.pop("seconds"), (int, float))

    def same(v):
        return {"worst": v, "best": v}
    assert got == {
        "exact": True,
        "buildings": {"1": same("4597/544320"), "2": same("24571/272160"), "3": same("148721/272160"),
                      "4": same("9587/272160"), "6": same("1")},
        "walls": {"1": same("80291/544320"), "2": same("32269/136080"), "4": same("2141/13608"),
                  "5": same("34691/272160"), "6": same("1")},
        "dots": {"2": same("1")},
        "lost": same("1/181440"),
        "expected_buildings_lost": same("182935/108864"),
    }


def test_f11_bounds_at_once_on_e8(tmp_path, capsys):
    code, out, _ = forecast(tmp_path, capsys, E8, "--json", "--bounds")
    assert code == 0
    got = json.loads(out)
    assert got["exact"] is False and got["dots"] == {}
    w1 = got["walls"]["1"]["worst"]
    assert set(w1) == {"low", "high"}
    lo, hi = (int(a) / int(b) for a, b in (w1["low"].split("/"), w1["high"].split("/")))
    assert 0.0447 <= lo < hi < 0.0691
    assert got["lost"]["worst"]["low"] == "0" and got["lost"]["worst"]["high"] == "899/37023"
    code, out, _ = forecast(tmp_path, capsys, E8, "--bounds")
    assert code == 0 and "4.6–6.9%" in out and "bounds (" in out.splitlines()[-1]
    assert "lost (L): ≤ 2.4%" in out                                 # from 0 to 899/37023


def test_f11_a_short_time_limit_prints_the_bounds_it_has(tmp_path, capsys):
    code, out, _ = forecast(tmp_path, capsys, E8, "--seconds", "0.2")
    assert code == 0 and "the exact values were not reached" in out


def test_f11_the_memory_cap_is_a_setting(tmp_path, capsys, monkeypatch):
    """--memory MIB (or OSADA_FORECAST_MEMORY) caps the memo: at the cap the best bounds are
    printed, saying why, however long --seconds would have allowed."""
    monkeypatch.delenv("OSADA_FORECAST_MEMORY", raising=False)
    code, out, _ = forecast(tmp_path, capsys, E8, "--memory", "1", "--seconds", "60")
    last = out.splitlines()[-1]
    assert code == 0 and "not reached within the memory cap (1 MiB)" in last
    assert float(last.split(", ")[-1].split()[0]) < 30
    monkeypatch.setenv("OSADA_FORECAST_MEMORY", "1")
    code, out, _ = forecast(tmp_path, capsys, E8, "--seconds", "60")
    assert code == 0 and "within the memory cap (1 MiB)" in out.splitlines()[-1]
    code, out, _ = forecast(tmp_path, capsys, E7, "--json")          # E7 fits in 1 MiB: exact
    assert code == 0 and json.loads(out)["exact"] is True
    monkeypatch.setenv("OSADA_FORECAST_MEMORY", "lots")
    code, out, err = forecast(tmp_path, capsys, E7)
    assert code == 2 and out == "" and "not 'lots' (--memory, or OSADA_FORECAST_MEMORY)" in err


@pytest.mark.parametrize("content,args,words", [
    ("{not json", (), "is not JSON"),
    ({"board": {"walls": [9]}}, (), "is not a scenario"),
    ({"colour": 1}, (), "is not a scenario"),
    ([1, 2], (), "is not a scenario"),
    ({"mode": "marshal", "players": 2}, (), "FA5"),
    (dict(E7, actions=[{"do": "move"}]), (), "F1"),
    (dict(E4, actions=[{"do": "end_turn"}]), (), "the game is over"),
    ({"board": {"walls": [1, 2]}, "pool": ["pz3"]}, (), "no building stands"),
    (E7, ("--seconds", "0"), "--seconds"),
    (E7, ("--memory", "0"), "at least 1 MiB"),
    (E7, ("--memory", "1.5"), "whole number of MiB"),
])
def test_bad_input_is_one_line_on_stderr(tmp_path, capsys, content, args, words):
    code, out, err = forecast(tmp_path, capsys, content, *args)
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and err.startswith("osada: forecast: ") and words in err
    assert "Traceback" not in err


def test_a_missing_file_is_one_line_on_stderr(tmp_path, capsys):
    code = cli.main(["forecast", str(tmp_path / "nope.json")])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.startswith("osada: forecast: ") and "no such file" in err


def test_f2_live_the_game_on_a_board_is_its_log_replayed_and_only_its_public_state_read(tmp_path, capsys):
    """`osada forecast --port P`: the game on the board (here the simulator),
    read by its log as `osada record` reads it, gives what its scenario file gives."""
    from osada.link import ports
    from tests.support.simthread import SimThread

    dev = SimThread(tmp_path / "tty", tmp_path / "st", seed=2)
    try:
        link = ports.serial_link(str(tmp_path / "tty"), timeout=5.0)
        link.connect()
        try:
            for enemy in (1, 2):                       # two hits: a game under way, still phase 4
                link.request("act", action={"do": "hit", "enemy": enemy})
            scenario = link.fetch_log()
        finally:
            link.close()
        assert len(scenario["actions"]) == 2
        code = cli.main(["forecast", "--port", str(tmp_path / "tty"), "--bounds", "--json"])
        live, err = capsys.readouterr()
        assert code == 0 and err == ""
        code, from_file, _ = forecast(tmp_path, capsys, scenario, "--bounds", "--json")
        assert code == 0
        a, b = json.loads(live), json.loads(from_file)
        a.pop("seconds"), b.pop("seconds")
        assert a == b and a["exact"] is False and "1" in a["buildings"]
        code = cli.main(["forecast", "--port", str(tmp_path / "tty"), str(tmp_path / "scenario.json")])
        assert code == 2 and "one of them" in capsys.readouterr().err
    finally:
        dev.close()
    code = cli.main(["forecast", "--port", str(tmp_path / "nothing")])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("osada: forecast: ") and len(err.splitlines()) == 1


def test_ctrl_c_stops_the_forecast_at_once_with_one_line(tmp_path):
    """The search is C code that holds the interpreter for seconds: the command waits
    on a worker process instead, so a Ctrl-C (SIGINT to the terminal's process group)
    ends it within half a second, one line, exit status 130, no worker left."""
    import os
    import signal
    import subprocess
    import sys
    import time

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    path = tmp_path / "e8.json"
    path.write_text(json.dumps(E8))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(root, "host"), root]),
               OSADA_FORECAST_MEMORY="4096")
    main = "import sys; from osada import cli; sys.exit(cli.main(sys.argv[1:]))"
    proc = subprocess.Popen([sys.executable, "-c", main, "forecast", str(path), "--seconds", "60"], cwd=root, env=env,
                            text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                            # as from a terminal: xdist's workers ignore SIGINT, and a child would inherit that
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        worker = None
        end = time.monotonic() + 30
        while worker is None and time.monotonic() < end:       # the worker is at work (a session of its own)
            out = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout.split()
            worker = int(out[0]) if out else None
            time.sleep(0.1)
        assert worker is not None, "no worker started"
        time.sleep(1.0)
        t0 = time.monotonic()
        os.killpg(proc.pid, signal.SIGINT)                      # what Ctrl-C does
        out, err = proc.communicate(timeout=10)
        took = time.monotonic() - t0
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130 and out == ""
    assert err == "osada: forecast: stopped (Ctrl-C)\n", err
    assert took < 0.5, took
    time.sleep(0.2)
    assert not os.path.exists("/proc/%d" % worker) or open("/proc/%d/stat" % worker).read().split()[2] == "Z"
