"""The Makefile asks for what a target needs and nothing more (issue 26
item 5): playing (`make run`, GAME=tank too) and building need only the
Python environment; Node.js, for the MicroPython VM and the emulated Pico,
is asked for by `make test` and `make bench` alone.  Checked with make's dry
run (-n) and package.json marked new (-W), so the npm step would be due."""

import os
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")


def dry_run(*args):
    out = subprocess.run(["make", "-n", "-W", "package.json"] + list(args), cwd=ROOT, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout


@pytest.mark.parametrize("target", [["run"], ["run", "GAME=tank"], ["firmware"], ["uf2"], ["flash"],
                                    ["hardware"], ["check"]])
def test_playing_and_building_do_not_need_node(target):
    out = dry_run(*target)
    assert "npm ci" not in out and "Node.js" not in out, out


@pytest.mark.parametrize("target", ["test", "bench"])
def test_the_tests_and_benchmarks_install_the_micropython_vm(target):
    assert "npm ci" in dry_run(target)


def test_make_run_plays_the_monitor_or_the_tank_dice():
    assert ".venv/bin/osada monitor --start-sim" in dry_run("run")
    assert ".venv/bin/osada tank watch --start-sim --switch" in dry_run("run", "GAME=tank")
