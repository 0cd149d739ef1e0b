"""`osada sim --config FILE` (host/osada/sim/simulator.py): a config that cannot be
used is one clear line on stderr naming the file and what is wrong, exit
code 2, and nothing started (no link, no lock, no state directory).

Before (issue 26, item 6): a corrupt file gave a 36-line Python traceback
with the useful line last, and a file that does not exist was silently
replaced by the defaults.  The default config (no --config) still starts, and
the device itself still falls back to the defaults when /config.json is
missing (osada_fw/config.py load)."""

import os
import select
import subprocess
import sys
import time

import pytest

pytest.importorskip("serial")

from osada.link import ports  # noqa: E402
from osada.sim.simulator import DEFAULT_CONFIG, Simulator  # noqa: E402
from osada_fw import config as fwconfig  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "host"), ROOT,
                                                   os.path.join(ROOT, "firmware")]))

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs POSIX ptys")


def sim(tmp_path, *args, timeout=30):
    """`osada sim --headless` with its own link and state; (exit code, stderr lines)."""
    proc = subprocess.run([sys.executable, "-m", "osada.cli", "sim", "--headless",
                           "--link", str(tmp_path / "link"), "--state", str(tmp_path / "state")] + list(args),
                          capture_output=True, text=True, env=ENV, timeout=timeout)
    return proc.returncode, proc.stderr.splitlines(), proc.stdout


def nothing_started(tmp_path):
    assert not os.path.lexists(tmp_path / "link")
    assert not os.path.lexists(str(tmp_path / "link") + ".pid")
    assert not os.path.lexists(tmp_path / "state")


def test_corrupt_json_is_one_line_with_where_and_exit_2(tmp_path):
    bad = tmp_path / "corrupt.json"
    bad.write_text('{"leds": {"pin": 2,\n  "layout": "spokes"\n  "city": false}}\n')
    code, err, out = sim(tmp_path, "--config", str(bad))
    assert code == 2
    assert err == ["osada: sim: the config %s is not valid JSON: Expecting ',' delimiter: "
                   "line 3 column 3 (char 43)" % bad], err
    assert out == ""
    nothing_started(tmp_path)


def test_a_config_that_does_not_exist_is_refused_not_replaced_by_the_defaults(tmp_path):
    missing = tmp_path / "nonexistent.json"
    code, err, out = sim(tmp_path, "--config", str(missing))
    assert code == 2
    assert err == ["osada: sim: cannot read the config %s: no such file" % missing], err
    nothing_started(tmp_path)


def test_a_value_out_of_range_names_the_file_and_the_setting(tmp_path):
    bad = tmp_path / "bright.json"
    bad.write_text('{"leds": {"brightness": 999}}')
    code, err, out = sim(tmp_path, "--config", str(bad))
    assert code == 2
    assert err == ["osada: sim: the config %s: leds.brightness must be an integer 1-255 (got 999)" % bad], err
    nothing_started(tmp_path)


def test_a_directory_is_not_a_config(tmp_path):
    code, err, out = sim(tmp_path, "--config", str(tmp_path))
    assert code == 2
    assert err == ["osada: sim: cannot read the config %s: it is a directory" % tmp_path], err


def test_the_simulator_refuses_a_missing_config_before_taking_anything(tmp_path):
    with pytest.raises(fwconfig.ConfigError) as ei:
        Simulator(link=str(tmp_path / "link"), state_dir=str(tmp_path / "state"),
                  config=str(tmp_path / "none.json"))
    assert "no such file" in str(ei.value)
    nothing_started(tmp_path)


def test_a_good_config_is_used(tmp_path):
    good = tmp_path / "good.json"
    good.write_text('{"leds": {"brightness": 50, "city": true}}')
    s = Simulator(link=None, state_dir=str(tmp_path / "state"), seed=1, config=str(good))
    try:
        assert s.cfg["leds"]["brightness"] == 50 and s.cfg["leds"]["city"] is True
    finally:
        s.close()


def test_the_default_config_still_starts(tmp_path):
    assert os.path.exists(DEFAULT_CONFIG)
    link = str(tmp_path / "link")
    proc = subprocess.Popen([sys.executable, "-m", "osada.cli", "sim", "--headless", "--link", link,
                             "--state", str(tmp_path / "state"), "--seed", "3"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV, text=True)
    try:
        end = time.monotonic() + 20
        while ports.sim_owner(link) != proc.pid:
            assert proc.poll() is None and time.monotonic() < end, proc.stderr.read()
            time.sleep(0.02)
        ready, _, _ = select.select([proc.stdout], [], [], 20)     # booted: it says where it listens
        assert ready
        first = proc.stdout.readline()
    finally:
        proc.terminate()
        _out, err = proc.communicate(timeout=10)
    assert proc.returncode == 0 and err == ""
    assert first.startswith("osada sim: serial port ") and link in first
    assert not os.path.lexists(link)             # SIGTERM: the link removed


def test_the_device_still_takes_the_defaults_when_its_config_is_missing(tmp_path):
    assert fwconfig.load(str(tmp_path / "none.json")) == fwconfig.validate({})
