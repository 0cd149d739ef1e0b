"""One script run on CPython and inside real MicroPython (the WebAssembly
VM), its printed lines compared: the cross-runtime tests of the rules cores
(tests/rules/test_*_cross_runtime.py)."""

import os
import subprocess
import sys

from osada import mpyvm

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MPY = os.path.join(ROOT, "tests", "mpy")


def run_both(script, args, helpers=()):
    """(CPython's lines, MicroPython's lines) of tests/mpy/<script> run with
    args; helpers: other tests/mpy modules it imports (on the VM's /lib)."""
    path = os.path.join(MPY, script)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, MPY]))
    cpy = subprocess.run([sys.executable, path] + [str(a) for a in args], capture_output=True, env=env)
    assert cpy.returncode == 0, cpy.stderr.decode()
    mpy = mpyvm.run(path, list(args), mounts=mpyvm.project_mounts(),
                    files=[(os.path.join(MPY, h), "/lib/" + h) for h in helpers], timeout=300)
    assert mpy.returncode == 0, mpy.stderr.decode()
    return cpy.stdout.decode().splitlines(), mpy.stdout.decode().splitlines()


def named_values(lines, names):
    """{name: the rest of the first line that starts with "name "}, for the names given."""
    found = {}
    for line in lines:
        for name in names:
            if line.startswith(name + " ") and name not in found:
                found[name] = line[len(name) + 1:]
    return found
