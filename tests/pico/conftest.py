"""The emulated-Pico tier (pytest -m pico): the real firmware (MicroPython UF2
from firmware/micropython/) running our app on rp2040js.  See
host/osada/pico_emu/README.md.

Each emulator is one Node.js process on one core; a booted one is shared
where the state allows (the `pico` fixture: test_game.py, test_inputs.py)."""

import os
import shutil

import pytest
from pico_support import boot

from osada import deploy
from osada import pico_emu as pe


def pytest_collection_modifyitems(items):
    for item in items:
        if "/tests/pico/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.pico)


@pytest.fixture(scope="session")
def emulator_ready():
    if shutil.which("node") is None:
        pytest.skip("Node.js not found: the emulated Pico needs Node 18+")
    if not os.path.isdir(os.path.join(pe.node_modules(), "rp2040js")):
        pytest.fail("rp2040js is not installed: run make setup (npm ci)", pytrace=False)


@pytest.fixture(scope="session")
def bundle(tmp_path_factory, emulator_ready):
    """`make firmware`'s output, built into a directory of the tests' own:
    (bundle dir, ROMFS image path)."""
    out = str(tmp_path_factory.mktemp("fw") / "firmware")
    deploy.build(out=out, quiet=True)
    return out, out + ".romfs"


@pytest.fixture(scope="session")
def pico(bundle, tmp_path_factory):
    """One booted emulated Pico (ROMFS firmware, working flash), shared by the
    modules whose tests start from a `new` game of their own."""
    p = boot(bundle, tmp_path_factory)
    yield p
    p.stop()
