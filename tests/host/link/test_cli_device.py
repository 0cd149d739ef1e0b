"""osada state / send / record against the simulator in its own process, over
its pty: what a user types at a shell."""

import json
import os
import subprocess
import sys
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "host"), ROOT,
                                                   os.path.join(ROOT, "firmware")]))


def osada(*args):
    return subprocess.run([sys.executable, "-m", "osada.cli"] + list(args),
                          capture_output=True, text=True, env=ENV, timeout=60)


@pytest.fixture
def sim(tmp_path):
    link = str(tmp_path / "tty")
    proc = subprocess.Popen([sys.executable, "-m", "osada.cli", "sim", "--headless", "--link", link,
                             "--state", str(tmp_path / "state"), "--seed", "6"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV)
    end = time.monotonic() + 20
    while not os.path.exists(link):
        assert proc.poll() is None and time.monotonic() < end, proc.stderr.read()
        time.sleep(0.01)
    yield link
    proc.terminate()
    proc.wait(5)


def test_state_send_and_record_replay_to_the_identical_state(sim, tmp_path):
    st = osada("state", "--port", sim)
    assert st.returncode == 0 and json.loads(st.stdout)["turn"] == 1
    for _ in range(4):
        r = osada("send", "--port", sim, '{"cmd": "act", "action": {"do": "end_turn"}}')
        reply = json.loads(r.stdout)
        if not reply["ok"]:                     # a pending choice: answer it
            state = json.loads(osada("state", "--port", sim).stdout)
            cand = state["pending"]["candidates"][0]
            osada("send", "--port", sim, json.dumps({"cmd": "act", "action": {"do": "choose", "enemy": cand}}))
    refused = osada("send", "--port", sim, '{"cmd": "act", "action": {"do": "hit", "enemy": 999}}')
    assert refused.returncode == 1 and json.loads(refused.stdout)["rule"] == "R10"
    rec = tmp_path / "game.json"
    r = osada("record", "--port", sim, str(rec))
    assert r.returncode == 0 and "recorded" in r.stdout
    replayed = json.loads(osada("scenario", str(rec)).stdout)
    del replayed["events"]
    device = json.loads(osada("state", "--port", sim).stdout)
    assert replayed == device and device["turn"] >= 4


def test_clear_errors_without_a_device(tmp_path):
    r = osada("state", "--port", str(tmp_path / "nothing"))
    assert r.returncode == 2 and r.stdout == "" and r.stderr.startswith("osada: cannot open")
    r = osada("send", "--port", str(tmp_path / "nothing"), "not json")
    assert r.returncode == 2 and "not JSON" in r.stderr


def test_a_port_that_does_not_speak_osada_times_out_clearly(tmp_path):
    import pty
    master, slave = pty.openpty()                    # a silent "device"
    try:
        r = osada("state", "--port", os.ttyname(slave))
        assert r.returncode == 2 and "does not answer" in r.stderr
    finally:
        os.close(master)
        os.close(slave)
