"""Figures measured on the emulated Pico (tests/support/pico_emu): the official
MicroPython firmware for the Pico (given: pico_emu.firmware()) booting `make
uf2`'s one file, the app on littlefs as users have it; times on the emulator's
simulated 125 MHz clock (rp2040js 1.4.1: instruction timing is approximate;
flash erase and program take the chip's typical times).  Part of `make bench`
(no firmware: nothing measured, said once); alone: python -m tests.bench.pico_bench

  pico_boot_ms                 power-on to the first LED frame, a board fresh from the one file
                               (a new game journalled); pico_boot_event_ms: to the app's boot event
  pico_first_boot_serial_ms    power-on to the boot event on a board whose app came over serial
                               (the app makes the journal's littlefs file at this first boot)
  pico_restore_<n>_ms          the journal's restore of an n-action game on the device (ticks_ms
                               around journal.restore(): reading it and replaying it through the
                               engine; the boot event's restore_ms)
  pico_boot_restore_<n>_ms     power-on to the boot event with that game in the journal
  pico_emulator_speed          simulated seconds per wall-clock second over the timed game
  pico_action_ms_p50/_p95      an `act` request in the Pico's USB FIFO to its reply sent,
                               over n actions of the benchmark game (state push included;
                               flash erase and program take the chip's typical times)
  pico_flash_erases_per_action, pico_flash_program_bytes_per_action   the journal's flash
                               traffic over those actions (4 KiB sector erases, bytes programmed)
  pico_heap_free_bytes         gc.mem_free() at the REPL with the app's modules imported
                               (BACK held at boot)
  pico_heap_code_bytes         what importing them took from the heap
  pico_app_heap_peak_bytes     the heap high-water mark inside the board over the n-action game
                               (the `mem` command's tracking: gc.mem_alloc() after each request's
                               tick, a collection after each sample)
  pico_forecast_heap_peak_bytes  the same high-water mark once the game's last state was shown as a
                               threat forecast on the ring (F13: its module loaded, its bars drawn)
  pico_forecast_frame_ms_max   the slowest of three frames drawn with the forecast showing
  pico_app_heap_live_bytes     the live data's high-water mark between requests (after a
                               collection): the heap the app needs lies between this and the peak
  pico_frame_ms                one frame, render + NeoPixel write, timed on the board (ticks_us
                               around a forced draw, the `mem` reply's frame_us): the median of
                               samples through the game; _max their maximum.  For scale: a
                               24-LED WS2812 write alone is 24 * 24 bits * 1.25 us = 0.72 ms
  pico_tank_roll12_ms, _max    Tank battle (issue 13), the device switched to it over USB: a
                               12-die fire roll with its display (the dice, the ring drawn by
                               tank_view, the power cap, the NeoPixel write), timed on the board
                               (ticks_us) by the `roll` request's bench (osada_fw/tank/bench.py):
                               median and max of TANK_ROLLS rolls;
  pico_tank_roll12_dice_ms     the dice alone (Tank.roll), median
  pico_tank_roll_bytes         gc.mem_alloc() growth over TANK_ROLLS rolls with their display of
                               each test (fire 12 dice, suppress 18, morale 4, counter, collision
                               3 v 3), no collection between: the worst test's bytes per roll,
                               rounded up (any allocation shows); _by_test: each test's total.
                               Alone: python -m tests.bench.pico_bench tank [ROLLS]
"""

import json
import os
import re
import statistics
import sys
import tempfile
import time

from osada.flash import deploy, fsimage
from osada.link import client
from tests.support import pico_emu as pe

TANK_ROLLS = 50           # rolls per figure of the Tank battle bench
ACTIONS = 300             # issue #12 measures restore and action times over a 300-action game
T = 60.0
PINS = (3, 4, 5, 6, 7)                  # firmware/config.json: every input idles high
BACK = 7


def say(msg):
    sys.stderr.write(msg + "\n")
    sys.stderr.flush()


def _firmware():
    fw = pe.firmware()
    if fw is None:
        raise pe.EmulatorError("no MicroPython firmware for the emulated Pico: " + pe.FIRMWARE_HOWTO)
    return fw


def _boot(tmp, bundle, main=True, low=(), wait=b'"ev": "boot"', journal=True):
    """A board as `make uf2`'s one file leaves it (main=False: without
    main.py, the bare REPL; journal=False: the app came over serial, the
    journal's file not made yet)."""
    high = [p for p in PINS if p not in low]
    if main and journal:
        one = deploy.make_uf2(out=os.path.join(tmp, "osada-pico.uf2"), firmware=_firmware(), bundle=bundle,
                              quiet=True)
        pico = pe.EmulatedPico(uf2=one, high=high, low=low)
    else:
        files = deploy.bundle_files(bundle)
        if not main:
            del files["/main.py"]
        fs = os.path.join(tmp, "fs.img")
        with open(fs, "wb") as f:
            f.write(fsimage.image(files, journal=journal))
        pico = pe.EmulatedPico(uf2=_firmware(), fs=fs, high=high, low=low)
    if not main:                        # the bare REPL: a prompt when asked
        if not pico.usb.wait(T):
            raise pe.EmulatorError("USB did not come up")
        pico.write_serial(b"\r\n")
    pico.wait_text(wait, timeout=T)
    return pico


def _free_heap(pico):
    pico.write_serial(b"\r\nimport gc; gc.collect(); print('FREE', gc.mem_free())\r\n")
    pico.wait_text(b"\r\nFREE ", timeout=T)
    pico.wait_text(b">>> ", timeout=T)
    return int(re.findall(rb"\r\nFREE (\d+)", bytes(pico.text))[-1])


def heap_figures(tmp, bundle):
    bare = _boot(tmp, bundle, main=False, wait=b">>> ")
    try:
        free_bare = _free_heap(bare)
    finally:
        bare.stop()
    held = _boot(tmp, bundle, low=(BACK,), wait=b"REPL kept")
    try:
        free_app = _free_heap(held)
    finally:
        held.stop()
    return {"pico_heap_code_bytes": free_bare - free_app, "pico_heap_free_bytes": free_app}


def _pct(values, q):
    v = sorted(values)
    return v[min(len(v) - 1, int(round(q * (len(v) - 1))))]


def game_figures(tmp, bundle, actions):
    from tests.bench.__main__ import recorded_game
    setup = {"players": 2, "seed": 1}
    acts = recorded_game(setup, 1, 2, limit=actions)
    out = {}
    pico = _boot(tmp, bundle)
    try:
        out["pico_boot_event_ms"] = round(pico.when(b'"ev": "boot"') / 1e6, 1)
        first = _first_frame(pico)
        out["pico_boot_ms"] = round(first / 1e6, 1)
        link = client.Link(pico.transport)
        link.connect()
        assert link.request("new", timeout=T, **setup)["ok"]
        times = []
        ops0 = len(pico.flash_ops)
        wall0, sim0 = time.monotonic(), pico.sim_ns()
        for k, a in enumerate(acts):
            start = len(pico.text)
            rid = link.next_id
            link.next_id += 1
            pico.write_serial(client.request_line({"id": rid, "cmd": "act", "action": a}), tag=rid)
            reply = link.wait_reply(rid, timeout=T)
            assert reply["ok"] and reply["seq"] == k + 1, reply
            fed = pico.fed(rid)
            i = pico.text.find(b'"id": %d' % rid, start)
            end = pico.text.find(b"\n", i)
            times.append((pico.ns_at(end) - fed) / 1e6)
        out["pico_emulator_speed"] = round((pico.sim_ns() - sim0) / 1e9 / (time.monotonic() - wall0), 3)
        out["pico_action_ms_p50"] = round(_pct(times, 0.5), 1)
        out["pico_action_ms_p95"] = round(_pct(times, 0.95), 1)
        out["pico_action_ms_max"] = round(max(times), 1)
        ops = pico.flash_ops[ops0:]
        out["pico_flash_erases_per_action"] = round(sum(1 for o in ops if o[0] == "erase") / len(acts), 2)
        out["pico_flash_program_bytes_per_action"] = round(sum(o[2] for o in ops if o[0] == "program") / len(acts))
        image = os.path.join(tmp, "flash.bin")
        pico.cut_power(image)
    finally:
        pico.stop()
    again = pe.EmulatedPico(flash=image, high=PINS)
    try:
        again.wait_text(b'"ev": "boot"', timeout=T)
        boot = _boot_event(again)
        assert boot["restored"] and boot["seq"] == len(acts) and "lost" not in boot, boot
        out["pico_restore_%d_ms" % len(acts)] = boot["restore_ms"]
        out["pico_boot_restore_%d_ms" % len(acts)] = round(again.when(b'"ev": "boot"') / 1e6, 1)
    finally:
        again.stop()
    serial = _boot(tmp, bundle, journal=False)
    try:
        out["pico_first_boot_serial_ms"] = round(serial.when(b'"ev": "boot"') / 1e6, 1)
    finally:
        serial.stop()
    return out


def _first_frame(pico):
    """Simulated ns when the first WS2812 frame had been sent whole."""
    end = time.monotonic() + T
    while not pico.frames:
        if time.monotonic() > end or pico.proc.poll() is not None:
            raise pe.EmulatorError("no LED frame came")
        with pico.lock:
            pico.lock.wait(0.2)
    return pico.frames[0][0]


def _boot_event(pico):
    """The boot event, once it has come whole."""
    end = time.monotonic() + T
    while True:
        text = bytes(pico.text)
        i = text.find(b'"ev": "boot"')     # the device's key order is its dict's
        if i >= 0 and b"\n" in text[i:]:
            start = text.rfind(b"\n", 0, i) + 1
            return json.loads(text[start:text.index(b"\n", i)])
        if time.monotonic() > end or pico.proc.poll() is not None:
            raise pe.EmulatorError("no whole boot event; got %r" % text[-300:])
        with pico.lock:
            pico.lock.wait(0.2)


def heap_game(tmp, bundle, actions):
    """The same game with the board tracking its heap (`mem`, track): the
    high-water mark, and frame times sampled along the way."""
    from tests.bench.__main__ import recorded_game
    setup = {"players": 2, "seed": 1}
    acts = recorded_game(setup, 1, 2, limit=actions)
    pico = _boot(tmp, bundle)
    try:
        link = client.Link(pico.transport)
        link.connect()
        assert link.request("mem", timeout=T, track=True)["ok"]
        assert link.request("new", timeout=T, **setup)["ok"]
        frames = []
        for k, a in enumerate(acts):
            reply = link.request("act", timeout=T, action=a)
            assert reply["ok"] and reply["seq"] == k + 1 and "saved" not in reply, reply
            if k % 25 == 24:
                frames.append(link.request("mem", timeout=T)["frame_us"] / 1000)
        m = link.request("mem", timeout=T)
        # the threat forecast on the ring (F13): what its first request and its drawing cost
        st = link.request("state", timeout=T)
        reply = link.request("forecast", timeout=T, stamp=[st["state"]["turn"], st["seq"]],
                             s=[1, 9, 18, 27, 68, 32], l=1, b=[1, 100, 500, 750, 1000, None], w=[None] * 6)
        assert reply["ok"], reply
        fc = [link.request("mem", timeout=T) for _ in range(3)]
    finally:
        pico.stop()
    return (m["peak"], m["live"]), frames, (fc[-1]["peak"], [f["frame_us"] / 1000 for f in fc])


def heap_game_figures(tmp, bundle, actions):
    (peak, live), frames, (fc_peak, fc_frames) = heap_game(tmp, bundle, actions)
    return {"pico_app_heap_peak_bytes": peak, "pico_app_heap_live_bytes": live,
            "pico_frame_ms": round(statistics.median(frames), 2), "pico_frame_ms_max": round(max(frames), 2),
            "pico_forecast_heap_peak_bytes": fc_peak, "pico_forecast_frame_ms_max": round(max(fc_frames), 2)}


def tank_figures(tmp, bundle, rolls=TANK_ROLLS):
    """Tank battle on the board (the real main.py): the `roll`
    request's `bench` (osada_fw/tank/bench.py) times 12-die fire rolls with
    their display and counts the heap rolls of every test allocate."""
    pico = _boot(tmp, bundle)
    try:
        link = client.Link(pico.transport)
        link.connect()
        assert link.request("game", timeout=T, game="tank")["game"] == "tank"
        reply = link.request("roll", timeout=T, bench=rolls)
        assert reply["ok"] and reply["rolls"] == rolls, reply
        assert link.request("game", timeout=T, game="siege")["game"] == "siege"
    finally:
        pico.stop()
    return tank_reply_figures(reply, "pico")


def tank_reply_figures(reply, prefix):
    """pico_tank_* (or mpy_tank_*) from a bench reply: the 12-die roll's
    median and max in ms, and the bytes a roll allocates: the most any test's
    rolls did, per roll, rounded up (so any allocation at all shows)."""
    med, top = reply["roll12_us"]
    worst = max(reply["bytes"].values())
    return {prefix + "_tank_roll12_ms": round(med / 1000, 2), prefix + "_tank_roll12_ms_max": round(top / 1000, 2),
            prefix + "_tank_roll12_dice_ms": round(reply["dice12_us"] / 1000, 2),
            prefix + "_tank_roll_bytes": -(-worst // reply["rolls"]),
            prefix + "_tank_roll_bytes_by_test": " ".join("%s %d" % kv for kv in sorted(reply["bytes"].items()))}


def figures(actions=ACTIONS):
    """Every figure above, or {} (said) when no firmware is at hand."""
    try:
        fw = pe.firmware()
    except Exception as exc:
        say("   the firmware for the emulated Pico is refused: %s: device figures not measured" % exc)
        return {}
    if fw is None:
        say("   no MicroPython firmware for the emulated Pico: device figures not measured (%s)" % pe.FIRMWARE_HOWTO)
        return {}
    say("   firmware: %s" % fw)
    with tempfile.TemporaryDirectory() as tmp:
        bundle = os.path.join(tmp, "firmware")
        deploy.build(out=bundle, quiet=True)
        say("   boot, a %d-action game over USB, restore..." % actions)
        out = game_figures(tmp, bundle, actions)
        say("   the same game tracking the heap and timing frames...")
        out.update(heap_game_figures(tmp, bundle, actions))
        say("   heap at the REPL...")
        out.update(heap_figures(tmp, bundle))
        say("   Tank battle: %d 12-die rolls timed with their display, the heap over rolls of every test..."
            % TANK_ROLLS)
        out.update(tank_figures(tmp, bundle))
    return out


def tank_only(rolls=TANK_ROLLS):
    with tempfile.TemporaryDirectory() as tmp:
        bundle = os.path.join(tmp, "firmware")
        deploy.build(out=bundle, quiet=True)
        return tank_figures(tmp, bundle, rolls)


if __name__ == "__main__":
    if sys.argv[1:2] == ["tank"]:      # the Tank battle part alone: python -m tests.bench.pico_bench tank [ROLLS]
        print(json.dumps(tank_only(*[int(a) for a in sys.argv[2:3]]), indent=2, sort_keys=True))
        sys.exit(0)
    n = int(sys.argv[1]) if len(sys.argv) > 1 else ACTIONS
    print(json.dumps(figures(n), indent=2, sort_keys=True))
