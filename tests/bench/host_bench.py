"""Host tool figures over a real pty with the simulator in its own process:

  mirror_latency_ms_p95   from sending an action to the host's mirror showing
                          it (request over the pty, the device accepting it,
                          its state push back): an upper bound of
                          accept-to-mirror.  Target <= 20.
  resync_ms               from the port being back (the simulator restarted on
                          its journal) to a correct mirror: open, hello, full
                          state.  Target <= 250.
"""

import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _start_sim(link, state):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([os.path.join(ROOT, "host"), ROOT, os.path.join(ROOT, "firmware"),
                                         env.get("PYTHONPATH", "")])
    proc = subprocess.Popen([sys.executable, "-m", "osada.cli", "sim", "--headless", "--link", link,
                             "--state", state, "--seed", "11"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    end = time.monotonic() + 20
    while not os.path.exists(link):
        if proc.poll() is not None or time.monotonic() > end:
            raise SystemExit("simulator did not start: " + proc.stderr.read().decode())
        time.sleep(0.005)
    return proc


def _stop(proc):
    proc.terminate()
    proc.wait(5)


def figures(actions=200, resyncs=5):
    from osada.link.ports import serial_link
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        link_path = os.path.join(tmp, "tty")
        state = os.path.join(tmp, "state")
        sim = _start_sim(link_path, state)
        try:
            link = serial_link(link_path)
            link.connect()
            lat = []
            for i in range(actions):
                if link.mirror.state["outcome"] != "playing":
                    link.request("new", seed=i)
                    link.poll()
                seq = link.mirror.seq
                t0 = time.perf_counter()
                rid = link.send("act", action={"do": "end_turn"})
                while link.mirror.seq == seq:
                    link.poll()
                    if time.perf_counter() - t0 > 5:
                        raise SystemExit("the mirror never caught up")
                lat.append((time.perf_counter() - t0) * 1000)
                link.wait_reply(rid)
                if link.mirror.state.get("pending"):
                    link.request("act", action={"do": "choose",
                                                "enemy": link.mirror.state["pending"]["candidates"][0]})
            link.close()
            lat.sort()
            out["mirror_latency_ms_p50"] = round(lat[len(lat) // 2], 2)
            out["mirror_latency_ms_p95"] = round(lat[(len(lat) * 95) // 100], 2)
            out["mirror_actions_timed"] = len(lat)
            times = []
            for _ in range(resyncs):
                _stop(sim)                              # the cable is pulled
                sim = _start_sim(link_path, state)      # and plugged back: the port is there
                t0 = time.perf_counter()
                link = serial_link(link_path)
                link.connect()                          # open, hello, full state
                times.append((time.perf_counter() - t0) * 1000)
                truth = link.request("state")["state"]
                assert link.mirror.state == truth and not link.mirror.stale
                link.close()
            times.sort()
            out["resync_ms"] = round(times[len(times) // 2], 1)
            out["resync_ms_max"] = round(times[-1], 1)
        finally:
            _stop(sim)
    return out


if __name__ == "__main__":
    print(json.dumps(figures(), indent=2, sort_keys=True))
