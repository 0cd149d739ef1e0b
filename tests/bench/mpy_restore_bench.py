# Boot-time benchmark: Journal.restore() of a 300-action game (the journal is
# read, every record checked, the game rebuilt by replaying its actions).
#
# One file, two roles:
#  - on CPython (`python -m tests.bench.mpy_restore_bench`, or figures() from
#    the bench driver): journals the benchmark's long game (2 players, seed 1,
#    skill 2: its first 300 actions), times restore() here, then runs this
#    same file inside MicroPython (the official WebAssembly VM) on the .mpy
#    build of shared_rules and osada_fw.store.journal, as the Pico loads them, and
#    prints one JSON object:
#      cpython_restore_300_ms         median restore() time, CPython
#      mpy_restore_300_ms             median restore() time, MicroPython (WebAssembly)
#      mpy_restore_scan_300_ms        of which reading + checking the journal (no replay)
#      mpy_restore_alloc_bytes        heap allocated by one restore() (MicroPython;
#                                     garbage, mostly the replay's events: not live)
#      mpy_restore_scan_alloc_bytes   of which reading + checking the journal
#      mpy_calib_us_per_1k_adds       the VM's time for 1000 integer additions
#      projected_pico_restore_300_ms  the restore projected onto a Pico (RP2040:
#                                     ~8 ms per 1000 additions, as in tests/bench)
#      journal_300_bytes              the journal file, uncompacted
#  - inside MicroPython (mpyvm.run(..., drive="step")): argv[1] is the VM dir
#    holding journal.bin; each step() is one measurement, called at top level
#    after a full gc.collect(); prints the VM's figures as JSON at the end.

import sys

REPEAT = 15

if sys.implementation.name == "micropython":
    import gc
    import json
    sys.path.insert(0, "/bench")
    from vmclock import calibrate as _calibrate
    from vmclock import now_us

    import shared_rules.siege.engine  # noqa: F401,E402  (imported before timing)
    from osada_fw.store.journal import Journal

    _state = {"phase": "calib", "restore": [], "scan": [], "alloc": [], "n": 0}
    _out = {}

    def _median(xs):
        xs = sorted(xs)
        return xs[len(xs) // 2]

    def step():
        st = _state
        if st["phase"] == "calib":
            _out["mpy_calib_us_per_1k_adds"] = round(_calibrate(), 1)
            Journal(sys.argv[1]).restore()          # warm up, untimed
            st["phase"] = "restore"
            return True
        j = Journal(sys.argv[1])
        if st["phase"] == "restore":
            a0 = gc.mem_alloc()
            t0 = now_us()
            g = j.restore()
            dt = now_us() - t0
            st["alloc"].append(gc.mem_alloc() - a0)
            st["restore"].append(dt)
            _out["mpy_restored_actions"] = len(g.log)
            if j.last_error is not None:
                raise SystemExit("restore: " + j.last_error)
            if len(st["restore"]) == REPEAT:
                st["phase"] = "scan"
            return True
        a0 = gc.mem_alloc()
        t0 = now_us()
        j._scan()
        st["scan"].append(now_us() - t0)
        st["scan_alloc"] = gc.mem_alloc() - a0
        if len(st["scan"]) < REPEAT:
            return True
        _out["mpy_restore_300_ms"] = round(_median(st["restore"]) / 1000.0, 2)
        _out["mpy_restore_scan_300_ms"] = round(_median(st["scan"]) / 1000.0, 2)
        _out["mpy_restore_alloc_bytes"] = _median(st["alloc"])
        _out["mpy_restore_scan_alloc_bytes"] = st["scan_alloc"]
        print(json.dumps(_out))
        return False

else:
    import json
    import os
    import shutil
    import tempfile
    import time

    HERE = os.path.dirname(os.path.abspath(__file__))
    ROOT = os.path.dirname(os.path.dirname(HERE))
    PICO_MS_PER_1K_ADDS = 8.0

    def journal_300(d):
        """Journal the benchmark's long game, first 300 actions, in dir d."""
        from osada_fw.store.journal import Journal
        from shared_rules.siege.actions import parse
        from shared_rules.siege.autoplay import play
        from shared_rules.siege.engine import Game

        setup = {"players": 2, "seed": 1}
        j = Journal(d)
        j.start(Game.from_setup(setup).setup_dict())

        class Enough(Exception):
            pass

        def keep(game, action, events):
            j.append(parse(action))
            if len(game.log) == 300:
                raise Enough

        try:
            play(setup, 1, keep=keep, skill=2)
        except Enough:
            pass
        j.close()
        assert j.count == 300 and j.compactions == 0, "the benchmark game must journal 300 actions"
        return os.path.join(d, "journal.bin")

    def cpython_restore_ms(d, repeat=51):
        from osada_fw.store.journal import Journal
        Journal(d).restore()
        ts = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            Journal(d).restore()
            ts.append(time.perf_counter() - t0)
        ts.sort()
        return ts[len(ts) // 2] * 1000.0

    def _mpy_build(tmp):
        """The .mpy build: shared_rules (less the host-only modules) and
        osada_fw with just the journal."""
        from osada.flash.deploy import SKIP_RULES
        from osada.flash.mpybuild import compile_tree
        rules = os.path.join(ROOT, "build", "mpy", "shared_rules")
        compile_tree(os.path.join(ROOT, "shared_rules"), rules, exclude=SKIP_RULES)
        src = os.path.join(tmp, "src", "osada_fw")
        os.makedirs(os.path.join(src, "store"))
        for name in ("__init__.py", "store/journal.py", "store/core.py", "store/records.py",
                     "store/records_read.py"):
            shutil.copy(os.path.join(ROOT, "firmware", "osada_fw", name), os.path.join(src, name))
        fw = os.path.join(tmp, "mpy", "osada_fw")
        compile_tree(src, fw)
        return [(rules, "/lib/shared_rules"), (fw, "/lib/osada_fw")]

    def figures():
        from osada import mpyvm
        out = {}
        with tempfile.TemporaryDirectory() as tmp:
            d = os.path.join(tmp, "osada")
            path = journal_300(d)
            out["journal_300_bytes"] = os.path.getsize(path)
            out["cpython_restore_300_ms"] = round(cpython_restore_ms(d), 3)
            proc = mpyvm.run(os.path.abspath(__file__), ["/osada"], mounts=_mpy_build(tmp),
                             files=[(path, "/osada/journal.bin"),
                                    (os.path.join(os.path.dirname(os.path.abspath(__file__)), "vmclock.py"),
                                     "/bench/vmclock.py")],
                             drive="step", timeout=600)
        if proc.returncode != 0:
            raise SystemExit("MicroPython restore benchmark failed:\n"
                             + proc.stderr.decode("utf-8", "replace"))
        m = json.loads(proc.stdout.decode().strip().splitlines()[-1])
        out.update(m)
        out["projected_pico_restore_300_ms"] = round(
            m["mpy_restore_300_ms"] / (m["mpy_calib_us_per_1k_adds"] / 1000.0) * PICO_MS_PER_1K_ADDS, 1)
        return out

    if __name__ == "__main__":
        print(json.dumps(figures(), indent=2, sort_keys=True))
