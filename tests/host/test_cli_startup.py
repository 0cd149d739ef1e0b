"""`osada`'s own commands (scenario, demo, state, send, record, monitor, sim) leave the games'
packages unloaded -- their command lines are added only for their own commands, an unknown one
and the help -- so `osada scenario` starts in a fraction of the time; the help still lists every
game's commands."""

import json
import os
import subprocess
import sys

from osada import cli

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GAME_CLIS = ("osada.tank.cli", "osada.device.cli", "osada.warchest.cli", "osada.line.cli", "osada.victory.cli",
             "osada.siege.forecast_cmd")
PROBE = ("import json, sys\n"
         "from osada import cli\n"
         "rc = cli.main(sys.argv[1:])\n"
         "sys.stderr.write(json.dumps(sorted(m for m in sys.modules if m in %r)) + '\\n')\n" % (GAME_CLIS,))


def _run(*args):
    """(exit status, stdout, the game modules the command loaded)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "host"), ROOT]))
    proc = subprocess.run([sys.executable, "-c", PROBE] + list(args), cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60)
    return proc.returncode, proc.stdout, json.loads(proc.stderr.splitlines()[-1])


def test_a_scenario_loads_no_games_command_line(tmp_path):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"players": 2, "seed": 1}), encoding="utf-8")
    rc, out, loaded = _run("scenario", str(path))
    assert rc == 0 and json.loads(out)["outcome"] == "playing"
    assert loaded == []


def test_a_games_command_still_finds_its_command_line():
    rc, out, loaded = _run("tank", "odds", "--dice", "2", "--hit", "4")
    assert rc == 0 and out
    assert "osada.tank.cli" in loaded


def test_the_help_lists_every_games_command(capsys):
    for argv in (["--help"], ["-h", "scenario"]):
        try:
            cli.main(argv)
        except SystemExit as exc:
            assert exc.code == 0
        out = capsys.readouterr().out
        for command in ("scenario", "tank", "device", "warchest", "line", "victory", "forecast", "web"):
            assert "\n    %s " % command in out, (argv, command)
