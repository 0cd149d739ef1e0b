"""`make bench`: speed and memory figures, printed and written to build/bench.json.

Rules core (issue: shared_rules):
  cpython_games_per_s            complete random games per second, one core
  mpy_action_us_p95              p95 time to apply one action, MicroPython (WebAssembly), .mpy
  mpy_calib_us_per_1k_adds       the same VM's time for 1000 integer additions
  projected_pico_action_ms_p95   the p95 projected onto a Pico (RP2040: ~8 ms per 1000 additions)
  mpy_heap_peak_bytes            peak gc.mem_alloc() over a 300-action game, core import included
                                 (live heap before each action + all it allocates)
  mpy_alloc_per_roll_bytes       heap allocated per die roll

Firmware (issue: the Pico app), on the .mpy build with the real Pico hardware
layer over fake machine/neopixel modules:
  mpy_frame_alloc_bytes          heap allocated by one frame
  mpy_frame_render_us            one frame in the VM; projected_pico_frame_ms on a Pico
  projected_pico_boot_ms         import of the app to first frame
  projected_pico_restore_300_ms  restore a 300-action game from the journal
  mpy_app_heap_peak_bytes        app + a 300-action game (code in RAM, as .mpy files load
                                 from the Pico's littlefs on the official image)
  mpy_tank_roll12_ms, projected_pico_tank_roll12_ms, mpy_tank_roll_bytes   Tank battle's roll
                                 (issue 13): the same `roll` bench as pico_tank_* below, in the VM
                                 (mpy_tank_bench.py; its NeoPixel write is a stand-in's)

Firmware on an emulated Pico (issues #12, #25): the official MicroPython UF2 for
the Pico (OSADA_FIRMWARE_UF2, else the per-user cache; none: "not measured")
booting `make uf2`'s one file on rp2040js, the app on littlefs, times on its
simulated 125 MHz clock (tests/bench/pico_bench.py):
  pico_boot_ms                   power-on to the first LED frame (pico_boot_event_ms: to the boot event)
  pico_first_boot_serial_ms      the same on a board whose app came over serial (it makes the journal's file)
  pico_restore_300_ms            the journal's restore of a 300-action game, timed on the device
  pico_boot_restore_300_ms       power-on to the boot event with that game in the journal
  pico_app_heap_peak_bytes       the board's heap high-water mark over the 300-action game
  pico_frame_ms                  one frame (render + NeoPixel write) timed on the board
  pico_emulator_speed            simulated s per wall-clock s
  pico_action_ms_p50/_p95/_max   an `act` request in the USB FIFO to its reply sent
  pico_flash_erases_per_action, pico_flash_program_bytes_per_action   the journal's flash traffic
  pico_heap_free_bytes           free heap with the app's modules imported
  pico_heap_code_bytes           the heap those imports took
  pico_tank_roll12_ms, _max      Tank battle (issue 13): a 12-die fire roll with its display (the
                                 dice, the ring drawn by tank_view, the NeoPixel write), timed on
                                 the board by the `roll` request's bench (osada_fw/tank/bench.py),
                                 median and max of 50; _dice_ms the dice alone (median)
  pico_tank_roll_bytes           the heap a roll with its display allocates (gc.mem_alloc() over
                                 50 rolls of each test, no collection between): the worst test,
                                 per roll, rounded up; _by_test each test's total

Siege's threat forecast (docs/rules-forecast.md, F10), its search compiled where make setup built it, on
every core (tests/bench/forecast_bench.py; the search in Python where it was not):
  forecast_e1_e7_max_ms, forecast_e7_ms   the worked examples E1-E7, exact
  forecast_e8_bounds_s           E8, the game's start: the first bounds (k = 1, F11)
  forecast_autoplay_*            the phase-4 state each turn of 12 autoplayed games ends on: the time
                                 to the exact values (p50, p90, max, the share under 1 s, those not
                                 finished under the cap, the largest memo); _1s_*: what the
                                 monitor shows after 1 s (exact, or the bounds' widest interval)

Host tool (issue: osada monitor), over a real pty with the simulator process:
  mirror_latency_ms_p95          sending an action to the mirror showing it
  resync_ms                      a reconnected port to a correct mirror

The web view (issue 41), 20 pages in Debian's chromium on `osada web` and the
simulator in their own processes (tests/bench/web_bench.py; run alone:
python -m tests.bench.web_bench; no chromium: not measured):
  web_latency_ms_p95             a key sent by a controlling page to each of the 20 pages having
                                 drawn the device's new state (p50, max beside it)
  web_host_ms_p50/_p95           the host's part: the key to the snapshot leaving the host
  web_page_kb                    the page and its files, before compression (issue 62: <= 300)
  web_first_paint_ms             a phone's page opened cold to its board drawn (issue 62: <= 1000)

Osada in the browser (issue 63): `make site`'s folder on a plain static server, the device
in the page (tests/bench/site_bench.py; run alone: python -m tests.bench.site_bench):
  site_open_ms, site_open_cached_ms   opened cold / from the service worker's cache to the board
  site_answer_ms_p95             a tap to the page showing the device's new state
  site_transfer_kb               the first visit, compressed

Targets (TARGETS below; issues #12 and #25 set the emulated Pico's): a figure that
misses its target is printed MISSED and `make bench` exits 1, after writing
build/bench.json.  The device's figures are judged as the emulated Pico measures
them (the Pico's own runtime, the official image's layout: the app on littlefs):
boot, restore, action time, frame time and the app heap (<= 96 KiB).  Without a
firmware they are printed "not measured" and not judged.  The WebAssembly VM's
projections of the same figures are printed beside them with how far off they
were, and not judged.

Every figure comes from a run made now; nothing is assumed but the published
RP2040 calibration constant below.  MicroPython times come from a warmed-up VM;
run `make bench` on a quiet machine, they are sensitive to load.
"""

import json
import os
import platform
import sys
import tempfile
import time

from shared_rules.siege.autoplay import play, random_setup

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.join(ROOT, "build")
HERE = os.path.dirname(os.path.abspath(__file__))

# Published figure: MicroPython 1.23 on an RP2040 at 125 MHz runs the
# 1000-integer-additions loop in about 8 ms.
PICO_MS_PER_1K_ADDS = 8.0

# figure -> (op, target, what the figure is, when it needs saying).  The device's
# speed and memory are judged on the emulated Pico, the Pico's own runtime
# (issue #12); the WebAssembly projections of the same figures are printed
# beside them (PROJECTIONS), not judged.
TARGETS = {
    "cpython_games_per_s": (">=", 1000),
    "mpy_heap_peak_bytes": ("<=", 32 * 1024),
    "mpy_alloc_per_roll_bytes": ("<=", 0),
    "mpy_frame_alloc_bytes": ("<=", 0),
    "mirror_latency_ms_p95": ("<=", 20),
    "resync_ms": ("<=", 250),
    # measured on the emulated Pico, official RPI_PICO image (issue #25's targets; pico_bench.py)
    "pico_boot_ms": ("<=", 500, "emulated Pico: power-on to the first frame"),
    "pico_restore_300_ms": ("<=", 500, "emulated Pico: the journal's restore of a 300-action game, on the device"),
    "pico_action_ms_p95": ("<=", 30, "emulated Pico: act in, reply out, flash writes at the chip's typical times"),
    "pico_app_heap_peak_bytes": ("<=", 96 * 1024, "emulated Pico: heap high-water mark, 300 actions"),
    "pico_frame_ms": ("<=", 4, "emulated Pico: render + NeoPixel write, median"),
    "pico_tank_roll_bytes": ("<=", 0, "emulated Pico: heap per Tank battle roll with its display, worst test"),
    # the threat forecast (issue 40; restated by the owner in issue 60): host-side
    "forecast_e1_e7_max_ms": ("<=", 50, "each worked example E1-E7, exact"),
    "forecast_e8_bounds_s": ("<=", 2, "the game's start: the k = 1 bounds"),
    "forecast_e8_exact_s": ("<=", 20, "the game's start: exact, on this 2-core machine"),
    "forecast_autoplay_exact_1s_pct": (">=", 85, "autoplayed turns exact under 1 s"),
    "forecast_autoplay_1s_widest_pct": ("<=", 1.0, "every autoplayed turn after 1 s: exact, or bounds <= 1 point wide"),
    # the web view (issue 41): a change on the board to every one of 20 open pages
    "web_latency_ms_p95": ("<=", 100, "20 pages: a key to each page showing the new state"),
    # the table's page (issue 62 item 6)
    "web_page_kb": ("<=", 300, "the page and its files, before compression"),
    "web_first_paint_ms": ("<=", 1000, "a phone's page opened cold to its board drawn"),
    # Osada in the browser, the device in the page (issue 63 item 4; site_bench.py)
    "site_open_ms": ("<=", 2000, "the static site opened cold to the board drawn by the device in the page"),
    "site_open_cached_ms": ("<=", 500, "the same, its files from the service worker's cache"),
    "site_answer_ms_p95": ("<=", 50, "a tap to the page showing the device's new state"),
    "site_transfer_kb": ("<=", 1500, "the first visit, compressed (gzip -6)"),
}


def say(msg):
    sys.stderr.write(msg + "\n")
    sys.stderr.flush()


def cpython_games(n, skill, setups):
    actions = 0
    t0 = time.perf_counter()
    for i in range(n):
        game, accepted, _ = play(setups(i), i, skill=skill)
        actions += accepted
    dt = time.perf_counter() - t0
    return n / dt, actions / n


def recorded_game(setup, seed, skill, limit=None):
    """The accepted actions of one autoplayed game, for replay in the VM."""
    acts = []

    def keep(game, action, events):
        acts.append(action)

    play(setup, seed, keep=keep, skill=skill)
    return acts[:limit] if limit else acts


def write_games_file(path):
    long_setup = {"players": 2, "seed": 1}
    games = [(long_setup, recorded_game(long_setup, 1, 2, limit=300))]
    assert len(games[0][1]) == 300, "the long benchmark game must have 300 actions"
    for i in range(20):
        setup = {"players": 2 + i % 5, "seed": 100 + i}
        games.append((setup, recorded_game(setup, 100 + i, 1)))
    with open(path, "w") as f:
        for setup, acts in games:
            f.write(json.dumps({"setup": setup}) + "\n")
            for a in acts:
                f.write(json.dumps(a) + "\n")
    return sum(len(a) for _, a in games)


def micropython_figures():
    from osada import mpyvm
    from osada.flash.deploy import SKIP_RULES
    from osada.flash.mpybuild import compile_tree

    mpy_dir = os.path.join(BUILD, "mpy", "shared_rules")
    compile_tree(os.path.join(ROOT, "shared_rules"), mpy_dir, exclude=SKIP_RULES)
    with tempfile.TemporaryDirectory() as tmp:
        games = os.path.join(tmp, "games.jsonl")
        n = write_games_file(games)
        say("   replaying %d recorded actions inside MicroPython (.mpy build)..." % n)
        proc = mpyvm.run(os.path.join(HERE, "mpy_core_bench.py"), ["/bench/games.jsonl"],
                         mounts=[(mpy_dir, "/lib/shared_rules")],
                         files=[(games, "/bench/games.jsonl"), (os.path.join(HERE, "vmclock.py"), "/bench/vmclock.py")],
                         drive="step", timeout=600)
    if proc.returncode != 0:
        raise SystemExit("MicroPython benchmark failed:\n" + proc.stderr.decode("utf-8", "replace"))
    return json.loads(proc.stdout.decode().strip().splitlines()[-1])


def firmware_figures():
    from osada import mpyvm
    from osada.flash.deploy import SKIP_FW, SKIP_RULES
    from osada.flash.mpybuild import compile_tree

    rules = os.path.join(BUILD, "mpy", "shared_rules")
    fw = os.path.join(BUILD, "mpy", "osada_fw")
    compile_tree(os.path.join(ROOT, "shared_rules"), rules, exclude=SKIP_RULES)
    compile_tree(os.path.join(ROOT, "firmware", "osada_fw"), fw, exclude=SKIP_FW)
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        games = os.path.join(tmp, "games.jsonl")
        write_games_file(games)
        for mode in ("heap", "time"):
            say("   firmware app inside MicroPython (%s)..." % mode)
            proc = mpyvm.run(os.path.join(HERE, "mpy_fw_bench.py"), ["/bench/games.jsonl", mode],
                             mounts=[(rules, "/lib/shared_rules"), (fw, "/lib/osada_fw"),
                                     (os.path.join(ROOT, "tests", "mpy", "fakes"), "/fakes")],
                             files=[(games, "/bench/games.jsonl"),
                                    (os.path.join(HERE, "vmclock.py"), "/bench/vmclock.py")],
                             drive="step", timeout=600)
            if proc.returncode != 0:
                raise SystemExit("MicroPython firmware benchmark failed:\n" + proc.stderr.decode("utf-8", "replace"))
            figures = json.loads(proc.stdout.decode().strip().splitlines()[-1])
            figures.pop("mpy_app_modules", None)
            out.update(figures)
    calib = out.pop("mpy_calib_us_per_1k_adds")
    out["mpy_fw_calib_us_per_1k_adds"] = calib
    out["projected_pico_boot_ms"] = round(out["mpy_app_boot_us"] / calib * PICO_MS_PER_1K_ADDS, 1)
    out["projected_pico_frame_ms"] = round(out["mpy_frame_render_us"] / calib * PICO_MS_PER_1K_ADDS, 2)
    out.update(tank_vm_figures(rules, fw))
    say("   journal restore inside MicroPython...")
    from tests.bench import mpy_restore_bench
    restore = mpy_restore_bench.figures()
    restore["mpy_restore_calib_us_per_1k_adds"] = restore.pop("mpy_calib_us_per_1k_adds")
    out.update(restore)
    return out


def tank_vm_figures(rules, fw):
    """Tank battle's roll in the VM (mpy_tank_bench.py): the `roll` request's
    bench as on the board, its 12-die time projected onto a Pico."""
    from osada import mpyvm
    from tests.bench.pico_bench import TANK_ROLLS, tank_reply_figures
    say("   Tank battle's rolls inside MicroPython...")
    proc = mpyvm.run(os.path.join(HERE, "mpy_tank_bench.py"), [str(TANK_ROLLS)],
                     mounts=[(rules, "/lib/shared_rules"), (fw, "/lib/osada_fw"),
                             (os.path.join(ROOT, "tests", "mpy", "fakes"), "/fakes")],
                     files=[(os.path.join(HERE, "vmclock.py"), "/bench/vmclock.py")], timeout=600)
    if proc.returncode != 0:
        raise SystemExit("MicroPython Tank battle benchmark failed:\n" + proc.stderr.decode("utf-8", "replace"))
    res = json.loads(proc.stdout.decode().strip().splitlines()[-1])
    out = tank_reply_figures(res["reply"], "mpy")
    calib = res["calib"]
    out["mpy_tank_calib_us_per_1k_adds"] = round(calib, 1)
    out["projected_pico_tank_roll12_ms"] = round(res["reply"]["roll12_us"][0] / calib * PICO_MS_PER_1K_ADDS, 2)
    return out


def pico_figures():
    from tests.bench import pico_bench
    return pico_bench.figures()


def forecast_figures():
    from tests.bench import forecast_bench
    return forecast_bench.figures()


def host_figures():
    from tests.bench import host_bench
    return host_bench.figures()


def web_figures():
    from tests.bench import web_bench
    return web_bench.figures()


def site_figures():
    from tests.bench import site_bench
    return site_bench.figures()


def check(results, targets=None):
    """(lines to print, the keys that missed their target).  A target whose
    figure is absent from results is not judged (a partial bench.json)."""
    lines = []
    missed = []
    for key, spec in (TARGETS if targets is None else targets).items():
        op, target = spec[0], spec[1]
        if key not in results:
            continue
        v = results[key]
        ok = v >= target if op == ">=" else v <= target
        if not ok:
            missed.append(key)
        note = "   (%s)" % spec[2] if len(spec) > 2 else ""
        lines.append("  %-36s %12s   target %s %s   %s%s" % (key, _fmt(v), op, target, "ok" if ok else "MISSED",
                                                           note))
    return lines, missed


# WebAssembly projection -> the emulated Pico's measurement of the same thing
PROJECTIONS = {
    "projected_pico_boot_ms": "pico_boot_ms",
    "projected_pico_restore_300_ms": "pico_restore_300_ms",
    "projected_pico_action_ms_p95": "pico_action_ms_p95",
    "projected_pico_frame_ms": "pico_frame_ms",
    "mpy_app_heap_peak_bytes": "pico_app_heap_peak_bytes",
    "projected_pico_tank_roll12_ms": "pico_tank_roll12_ms",
    "mpy_tank_roll_bytes": "pico_tank_roll_bytes",
}


def projections(results):
    """Lines: each WebAssembly projection beside the emulated Pico's figure, and how far off it was."""
    lines = []
    for proj, meas in PROJECTIONS.items():
        if proj in results and meas in results:
            p, m = results[proj], results[meas]
            if m:
                off = "%.2fx the device's" % (p / m)
            else:                      # nothing to divide by (e.g. 0 bytes allocated)
                off = "the same" if p == m else "the device's is 0"
            lines.append("  %-36s %10s  projected %10s  (%s)" % (meas, _fmt(m), _fmt(p), off))
    return lines


def report(results, out=None, targets=None):
    """Print the projections beside the device figures, then the targets'
    verdicts; the exit status: 0 if every target is met, 1 if any is missed."""
    out = out or sys.stdout
    proj = projections(results)
    if proj:
        out.write("The emulated Pico's figures, and the WebAssembly VM's projections of them (not judged):\n")
        for line in proj:
            out.write(line + "\n")
    lines, missed = check(results, targets)
    out.write("Targets:\n")
    for line in lines:
        out.write(line + "\n")
    unmeasured = [k for k in (TARGETS if targets is None else targets) if k.startswith("pico_") and k not in results]
    for key in unmeasured:
        out.write("  %-36s %12s   (no MicroPython firmware for the emulated Pico: give OSADA_FIRMWARE_UF2)\n"
                  % (key, "not measured"))
    if missed:
        out.write("MISSED %d target(s): %s\n" % (len(missed), ", ".join(missed)))
        return 1
    out.write("all %d targets met\n" % len(lines))
    return 0


def _fmt(v):
    return "%.1f" % v if isinstance(v, float) else str(v)


def main(build=None):
    """Run every benchmark, write bench.json, print; the exit status (report())."""
    build = build or BUILD
    os.makedirs(build, exist_ok=True)
    out_path = os.path.join(build, "bench.json")
    results = {}
    if os.path.exists(out_path):
        with open(out_path) as f:
            try:
                results = json.load(f)       # other benchmarks' figures are kept
            except ValueError:
                results = {}

    say(">> CPython %s: complete random games, one core" % platform.python_version())
    gps, apg = cpython_games(2000, 0, random_setup)
    results["cpython_games_per_s"] = round(gps, 1)
    results["cpython_actions_per_game"] = round(apg, 1)
    gps1, apg1 = cpython_games(1000, 1, lambda i: {"players": 2, "seed": i})
    results["cpython_full_games_per_s"] = round(gps1, 1)
    results["cpython_full_game_actions"] = round(apg1, 1)

    from osada.siege.forecast import compiled
    say(">> Siege's threat forecast (%s)" % ("its search compiled, every core" if compiled.CORE
                                             else "its search in Python: no compiled search built"))
    for key in [k for k in results if k.startswith("forecast_")]:
        del results[key]                 # a figure of an earlier run (turns unfinished by extenders) is not today's
    results.update(forecast_figures())

    say(">> MicroPython (official WebAssembly VM)")
    m = micropython_figures()
    results.update(m)
    results["projected_pico_action_ms_p95"] = round(
        m["mpy_action_us_p95"] / m["mpy_calib_us_per_1k_adds"] * PICO_MS_PER_1K_ADDS, 2)

    say(">> Firmware (MicroPython, .mpy build, Pico hardware layer over fakes)")
    results.update(firmware_figures())

    say(">> Firmware on an emulated Pico (rp2040js, simulated clock)")
    results.update(pico_figures())

    say(">> Host tool over a pty with the simulator")
    results.update(host_figures())

    say(">> The web view: 20 pages in chromium (osada web, the simulator)")
    results.update(web_figures())

    say(">> Osada in the browser: the static site, the device in the page (chromium)")
    results.update(site_figures())

    with open(out_path, "w") as f:
        json.dump(results, f, indent=2, sort_keys=True)
        f.write("\n")
    print("Osada benchmarks (also in build/bench.json)")
    for k in sorted(results):
        print("  %-32s %s" % (k, _fmt(results[k])))
    sys.stdout.flush()
    return report(results)


if __name__ == "__main__":
    sys.exit(main())
