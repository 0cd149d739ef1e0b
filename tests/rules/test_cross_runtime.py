"""The rules core gives the same result on CPython and on real MicroPython.

MicroPython here is the official WebAssembly VM (npm), run by Node.js through
osada.mpyvm; the core is loaded in the VM as the Pico would load it."""

import json
import os
import subprocess
import sys

import pytest

from osada import mpyvm

pytestmark = pytest.mark.micropython

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CROSSCHECK = os.path.join(ROOT, "tests", "mpy", "crosscheck.py")
EXAMPLES = os.path.join(ROOT, "shared_rules", "siege", "examples")


def _cpython_lines(first, count, skill):
    env = dict(os.environ, PYTHONPATH=ROOT)
    out = subprocess.run([sys.executable, CROSSCHECK, str(first), str(count), str(skill)],
                         capture_output=True, env=env, check=True).stdout
    return out.decode().splitlines()


def _micropython_lines(first, count, skill):
    proc = mpyvm.run(CROSSCHECK, [first, count, skill], mounts=mpyvm.project_mounts(), timeout=600)
    assert proc.returncode == 0, proc.stderr.decode()
    return proc.stdout.decode().splitlines()


@pytest.mark.parametrize("first,count,skill", [(0, 300, 0), (1000, 60, 1)])
def test_seeded_random_games_identical_on_cpython_and_micropython(first, count, skill):
    """Each line: seed, outcome, action counts, sha256 of every action and
    event of the game, the packed action log, and the final state JSON."""
    cpy = _cpython_lines(first, count, skill)
    mpy = _micropython_lines(first, count, skill)
    assert len(cpy) == count and len(mpy) == count
    for a, b in zip(cpy, mpy):
        assert a == b, "seed %s differs between runtimes" % a.split()[0]
    outcomes = {line.split()[1] for line in cpy}
    # the sample must exercise both ends of the game, not just one
    assert "lost" in outcomes and ("won" in outcomes or skill == 0)


GAMECHECK = os.path.join(ROOT, "tests", "mpy", "gamecheck.py")


@pytest.mark.parametrize("mode,first,count,skill", [
    ("marshal", 0, 25, 0), ("marshal", 0, 3, 1), ("solo", 0, 10, 1), ("solo", 100, 10, 0)])
def test_invariants_and_marshal_plays_hold_in_micropython_too(mode, first, count, skill):
    """tests/mpy/gamecheck.py checks R51, R60 and the board invariants after
    every action of random games (valid and invalid plays mixed); in the VM it
    must pass and play exactly the games CPython plays."""
    args = [mode, str(first), str(count), str(skill)]
    env = dict(os.environ, PYTHONPATH=ROOT)
    cpy = subprocess.run([sys.executable, GAMECHECK] + args, capture_output=True, env=env)
    assert cpy.returncode == 0, cpy.stderr.decode()
    mpy = mpyvm.run(GAMECHECK, args, mounts=mpyvm.project_mounts(), timeout=600)
    assert mpy.returncode == 0, mpy.stderr.decode()
    assert mpy.stdout == cpy.stdout
    games, accepted, refused, won, lost = (int(x) for x in cpy.stdout.split()[1:6])
    assert games == count and won + lost == count and accepted > 0 and refused > 0


def test_micropython_really_is_micropython_and_32_bit():
    proc = mpyvm.run_code("import sys, gc\n"
                          "print(sys.implementation.name)\n"
                          "x = 1 << 29\n"
                          "a = gc.mem_alloc(); y = x + x; print(gc.mem_alloc() - a > 0)\n")
    assert proc.stdout.decode().split() == ["micropython", "True"]


def _example_files():
    return sorted(os.path.join(EXAMPLES, f) for f in os.listdir(EXAMPLES) if f.endswith(".json"))


@pytest.mark.parametrize("path", _example_files(), ids=os.path.basename)
def test_osada_scenario_is_byte_identical_on_both_runtimes(path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "host"), ROOT]))
    runs = [subprocess.run([sys.executable, "-m", "osada.cli", "scenario", path, "--runtime", rt],
                           capture_output=True, env=env) for rt in ("cpython", "micropython")]
    assert runs[0].returncode == runs[1].returncode == 0, runs[1].stderr.decode()
    assert runs[0].stdout == runs[1].stdout
    state = json.loads(runs[0].stdout)
    refusals = [e["rule"] for e in state["events"] if e["ev"] == "refused"]
    # wall_choice.json shows on purpose that a play is refused while a choice is pending
    assert refusals == (["R25"] if path.endswith("wall_choice.json") else [])


@pytest.mark.parametrize("text", [
    "not json", "[1, 2]", '{"players": 9}', '{"mode": "chess"}', '{"seed": -1}',
    '{"board": {"enemies": [{"kind": "he111", "sector": 1, "line": "air"}]}}',
    '{"pool": ["bogus"]}', '{"rolls": [7]}', '{"variants": ["x"]}', '{"wat": 1}',
])
def test_malformed_scenario_same_error_on_both_runtimes(tmp_path, text):
    path = tmp_path / "bad.json"
    path.write_text(text)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "host"), ROOT]))
    runs = [subprocess.run([sys.executable, "-m", "osada.cli", "scenario", str(path), "--runtime", rt],
                           capture_output=True, env=env) for rt in ("cpython", "micropython")]
    for r in runs:
        assert r.returncode == 2 and r.stdout == b""
        lines = r.stderr.decode().splitlines()
        assert len(lines) == 1 and lines[0].startswith("osada: scenario: format:")
    # the message itself may differ only where the runtimes' JSON parsers word it differently
    if text != "not json":
        assert runs[0].stderr == runs[1].stderr
