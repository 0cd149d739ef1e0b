"""The power-safe game journal (firmware/osada_fw/store/journal.py).

Every accepted action is journalled before it is acknowledged; on boot the game
in progress is restored, pending choice included; a torn last record is dropped
and every earlier action survives; compaction (snapshot + atomic rename) keeps
flash use bounded.  A "power cut" here is a journal file cut at a byte offset,
or a fault injected into the journal's own writes and renames."""

import builtins
import json
import os
import random
import shutil
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from osada_fw.store import core as journal_core
from osada_fw.store import journal as J
from osada_fw.store.journal import Journal
from shared_rules.siege.actions import encode, parse
from shared_rules.siege.autoplay import play, random_setup
from shared_rules.siege.engine import Game, replay
from tests.support.fw_extras import journal_load

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Stop(Exception):
    pass


def record(setup, seed, skill=0, stop=None, journal=None):
    """Play a random game; journal every accepted action (as the firmware
    does: parse it to a tuple, append).  stop(game) -> True ends the game
    right after that action.  Returns the live game."""
    box = {}
    if journal is not None:
        journal.start(Game.from_setup(setup).setup_dict())

    def keep(game, action, events):
        box["g"] = game
        if journal is not None:
            journal.append(parse(action))
        if stop is not None and stop(game):
            raise Stop

    try:
        game = play(setup, seed, keep=keep, skill=skill)[0]
    except Stop:
        game = box["g"]
    return game


def frozen(game):
    return game.state_json(events=[])


def live(ops):
    """The live actions after a list of ops: ("A", t) appends, ("U", None) undoes."""
    out = []
    for kind, t in ops:
        if kind == "A":
            out.append(t)
        elif out:
            out.pop()
    return out


def run_ops(j, ops):
    for kind, t in ops:
        if kind == "A":
            j.append(t)
        else:
            j.undo()


def boundaries(setup, ops):
    """Byte offsets where each record of a fresh (uncompacted) journal ends:
    [header, setup record, op 1, op 2, ...] -- the documented format."""
    ends = [4, 4 + 7 + len(journal_core.dumps(setup).encode())]
    for kind, t in ops:
        ends.append(ends[-1] + 7 + (len(encode(t)) if kind == "A" else 0))
    return ends


def churn_ops(actions, seed, undo_rate=3):
    """The actions with undos mixed in: an undone action is played again, so
    the live game is the same; sometimes two are undone and replayed."""
    rng = random.Random(seed)
    ops = []
    done = []
    for t in actions:
        ops.append(("A", t))
        done.append(t)
        r = rng.randrange(undo_rate * 2)
        if r == 0:
            ops += [("U", None), ("A", t)]
        elif r == 1 and len(done) >= 2:
            ops += [("U", None), ("U", None), ("A", done[-2]), ("A", t)]
    return ops


def dir_bytes(d):
    return sum(os.path.getsize(os.path.join(d, f)) for f in os.listdir(d))


def fresh_restore(d, **kw):
    j = Journal(d, **kw)
    return j, j.restore()


# ------------------------------------------------------------ round trips


@pytest.mark.parametrize("seed", range(40))
def test_random_games_round_trip(tmp_path, seed):
    """Every mode and variant: the restored game is the live game, exactly."""
    setup = random_setup(seed)
    j = Journal(str(tmp_path / "osada"))
    game = record(setup, seed, journal=j)
    j.close()
    j2, restored = fresh_restore(str(tmp_path / "osada"))
    assert j2.last_error is None
    assert frozen(restored) == frozen(game)
    assert restored.log.tuples() == game.log.tuples()
    loaded_setup, actions = journal_load(j2)
    assert loaded_setup == json.loads(json.dumps(game.setup_dict()))
    assert actions == game.log.tuples()


def test_round_trip_without_bytearray_slice_assignment(tmp_path, monkeypatch):
    """A port built without MICROPY_PY_ARRAY_SLICE_ASSIGN: the byte-loop path."""
    monkeypatch.setattr(journal_core, "SLICE", False)
    setup = random_setup(34)
    d = str(tmp_path)
    j = Journal(d, limit=512)
    game = record(setup, 34, stop=lambda g: len(g.log) >= 100, journal=j)
    j.undo()
    j.append(game.log.tuples()[-1])
    assert j.compactions > 0
    assert frozen(fresh_restore(d)[1]) == frozen(game)


def _stopped_at(choice, marshal):
    """A game stopped while `choice` is pending (mode marshal or not)."""
    for seed in range(400):
        setup = random_setup(seed)
        if (setup["mode"] == "marshal") != marshal:
            continue

        def stop(g):
            return g.pending is not None and g.pending["choice"] == choice

        yield setup, seed, stop


@pytest.mark.parametrize("choice,marshal", [("damage", False), ("damage", True), ("marshal_extra", True)])
def test_restore_with_a_pending_choice(tmp_path, choice, marshal):
    for n, (setup, seed, stop) in enumerate(_stopped_at(choice, marshal)):
        d = str(tmp_path / ("g%d" % n))
        game = record(setup, seed, stop=stop, journal=Journal(d))
        if game.pending is not None and game.pending["choice"] == choice:
            break
    else:
        pytest.fail("no game with a pending %s choice found" % choice)
    j, restored = fresh_restore(d)
    assert restored.pending == game.pending and restored.mode == game.mode
    assert frozen(restored) == frozen(game)
    # and it carries on exactly as the live one: answer the choice on both
    a = ({"do": "choose", "enemy": game.pending["candidates"][0]} if choice == "damage"
         else {"do": "marshal_play", "tokens": []})
    assert restored.apply(a) == game.apply(a)
    j.append(parse(a))
    assert frozen(fresh_restore(d)[1]) == frozen(game)


def test_marshal_games_round_trip_mid_game(tmp_path):
    n = 0
    for seed in range(200):
        setup = random_setup(seed)
        if setup["mode"] != "marshal":
            continue
        d = str(tmp_path / str(seed))
        game = record(setup, seed, stop=lambda g: len(g.log) >= 40, journal=Journal(d))
        assert frozen(fresh_restore(d)[1]) == frozen(game)
        n += 1
    assert n >= 10


def test_no_game_and_no_journal_dir(tmp_path):
    j = Journal(str(tmp_path / "a" / "b"))
    assert j.restore() is None and journal_load(j) is None and j.last_error is None
    with pytest.raises(ValueError):
        j.append((9, 0, 0))
    j.start({"players": 2, "seed": 3})                 # creates the directories
    assert journal_load(j) == ({"players": 2, "seed": 3}, [])
    assert os.listdir(str(tmp_path / "a" / "b")) == ["journal.bin"]


def test_start_replaces_the_game(tmp_path):
    d = str(tmp_path)
    j = Journal(d)
    record({"players": 3, "seed": 1}, 1, journal=j)
    j.start({"players": 2, "seed": 9})
    j.append((9, 0, 0))
    assert journal_load(Journal(d)) == ({"players": 2, "seed": 9}, [(9, 0, 0)])


def test_append_after_reboot_without_load(tmp_path):
    """A new Journal object (a reboot) appends to the game on flash."""
    d = str(tmp_path)
    setup = {"players": 2, "seed": 4}
    game = record(setup, 4, stop=lambda g: len(g.log) >= 20, journal=Journal(d))
    acts = game.log.tuples()
    j = Journal(d)
    j.append((9, 0, 0))
    assert journal_load(Journal(d))[1] == acts + [(9, 0, 0)]


# ---------------------------------------------------------- power cuts


def _cut_game(seed):
    """A game journalled as ops ending in: action, undo, the same action again."""
    setup = random_setup(seed)
    game = record(setup, seed, stop=lambda g: len(g.log) >= 30)
    acts = game.log.tuples()
    ops = [("A", t) for t in acts] + [("U", None), ("A", acts[-1])]
    return setup, ops


@pytest.mark.parametrize("seed", [0, 34, 42])          # standard, marshal (two)
def test_power_cut_at_every_byte_of_the_last_records(tmp_path, seed):
    setup, ops = _cut_game(seed)
    src = str(tmp_path / "src")
    j = Journal(src)
    j.start(setup)
    run_ops(j, ops)
    j.close()
    ends = boundaries(setup, ops)
    with open(os.path.join(src, "journal.bin"), "rb") as f:
        data = f.read()
    assert len(data) == ends[-1]                 # the format is as documented
    states = {}
    offsets = list(range(0, ends[1] + 1)) + list(range(ends[-4], ends[-1] + 1))
    for off in offsets:
        d = str(tmp_path / ("cut%d" % off))
        os.mkdir(d)
        with open(os.path.join(d, "journal.bin"), "wb") as f:
            f.write(data[:off])
        j, g = fresh_restore(d)
        if off < ends[1]:                         # header or setup record torn: no game
            assert g is None and j.last_error
            continue
        k = max(i for i in range(1, len(ends)) if ends[i] <= off) - 1   # complete op records
        want = live(ops[:k])
        if k not in states:
            states[k] = frozen(replay(setup, want))
        assert frozen(g) == states[k], off
        assert j.dropped_bytes == off - ends[k + 1]
        assert (j.last_error is None) == (off == ends[k + 1])
        # the journal was rewritten clean: a later append works
        assert os.path.getsize(os.path.join(d, "journal.bin")) == j.size
        if k < len(ops):
            run_ops(j, [ops[k]])
            j2, g2 = fresh_restore(d)
            assert j2.last_error is None
            assert frozen(g2) == frozen(replay(setup, live(ops[:k + 1])))


def _write_ops(d, setup, ops, **kw):
    j = Journal(d, **kw)
    j.start(setup)
    run_ops(j, ops)
    j.close()
    return os.path.join(d, "journal.bin")


def test_bit_flips_in_the_last_record_are_dropped(tmp_path):
    setup = {"players": 2, "seed": 11}
    acts = record(setup, 11, stop=lambda g: len(g.log) >= 25).log.tuples()
    ops = [("A", t) for t in acts]
    path = _write_ops(str(tmp_path / "src"), setup, ops)
    data = open(path, "rb").read()
    last = boundaries(setup, ops)[-2]
    before = frozen(replay(setup, acts[:-1]))
    for pos in range(last, len(data)):
        for bit in range(8):
            bad = bytearray(data)
            bad[pos] ^= 1 << bit
            d = str(tmp_path / ("f%d_%d" % (pos, bit)))
            os.mkdir(d)
            open(os.path.join(d, "journal.bin"), "wb").write(bytes(bad))
            j, g = fresh_restore(d)
            assert frozen(g) == before, (pos, bit)
            assert j.last_error and j.dropped_bytes == len(data) - last


def test_a_flip_in_an_early_record_drops_it_and_everything_after(tmp_path):
    setup = {"players": 2, "seed": 12}
    acts = record(setup, 12, stop=lambda g: len(g.log) >= 25).log.tuples()
    ops = [("A", t) for t in acts]
    path = _write_ops(str(tmp_path), setup, ops)
    ends = boundaries(setup, ops)
    data = bytearray(open(path, "rb").read())
    data[ends[11] + 5] ^= 0x10                      # inside op record 11
    open(path, "wb").write(bytes(data))
    j, g = fresh_restore(str(tmp_path))
    assert "CRC" in j.last_error
    assert frozen(g) == frozen(replay(setup, acts[:10]))


@pytest.mark.parametrize("garbage", [b"\x00", b"A", b"A\x04\x00\x09\x00\x00\x00", b"\xff" * 40,
                                     bytes(range(256)), b"U\x00\x00\x00\x00\x00\x00",
                                     b"S\x02\x00{}\x00\x00\x00\x00"])
def test_garbage_appended_is_dropped(tmp_path, garbage):
    setup = {"players": 4, "seed": 5}
    game = record(setup, 5, skill=1, stop=lambda g: len(g.log) >= 30 and g.pending is None)
    assert game.outcome == "playing"
    path = _write_ops(str(tmp_path), setup, [("A", t) for t in game.log.tuples()])
    with open(path, "ab") as f:
        f.write(garbage)
    j, g = fresh_restore(str(tmp_path))
    assert frozen(g) == frozen(game)
    assert j.dropped_bytes == len(garbage) and j.last_error
    j.append((9, 0, 0))
    game.apply_tuple((9, 0, 0))
    j2, g2 = fresh_restore(str(tmp_path))
    assert j2.last_error is None and frozen(g2) == frozen(game)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_any_corruption_gives_a_prefix_and_never_raises(tmp_path, data):
    """Whatever happens to the bytes, load() never raises and gives the setup
    and a prefix of the actions (or None)."""
    setup = {"players": 3, "seed": 21}
    acts = [("A", t) for t in record(setup, 21, stop=lambda g: len(g.log) >= 20).log.tuples()]
    d = str(tmp_path / "fuzz")
    shutil.rmtree(d, ignore_errors=True)
    raw = bytearray(open(_write_ops(d, setup, acts), "rb").read())
    how = data.draw(st.sampled_from(["flip", "cut", "insert", "overwrite", "random"]))
    pos = data.draw(st.integers(0, len(raw)))
    if how == "flip" and pos < len(raw):
        raw[pos] ^= data.draw(st.integers(1, 255))
    elif how == "cut":
        del raw[pos:]
    elif how == "insert":
        raw[pos:pos] = data.draw(st.binary(min_size=1, max_size=20))
    elif how == "overwrite":
        chunk = data.draw(st.binary(min_size=1, max_size=20))
        raw[pos:pos + len(chunk)] = chunk
    elif how == "random":
        raw = bytearray(data.draw(st.binary(max_size=200)))
    open(os.path.join(d, "journal.bin"), "wb").write(bytes(raw))
    j = Journal(d)
    got = journal_load(j)
    if got is not None:
        s, a = got
        assert s == setup
        assert a == [t for _, t in acts][:len(a)]
        assert j.restore() is not None
    else:
        assert j.last_error


def test_unreadable_journals(tmp_path):
    for name, data in [("empty", b""), ("magic", b"OSJ\x02"), ("text", b"hello world\n"),
                       ("header_only", b"OSJ\x01"), ("no_setup", b"OSJ\x01U\x00\x00\x00\x00\x00\x00")]:
        d = str(tmp_path / name)
        os.mkdir(d)
        open(os.path.join(d, "journal.bin"), "wb").write(data)
        j = Journal(d)
        assert j.restore() is None and journal_load(j) is None, name
        assert j.last_error, name
    j = Journal(str(tmp_path / "magic"))                # start() replaces it
    j.start({"players": 2})
    assert journal_load(j) == ({"players": 2}, [])


def test_an_action_the_engine_refuses_stops_the_restore(tmp_path):
    setup = {"players": 2, "seed": 8}
    acts = record(setup, 8, stop=lambda g: len(g.log) >= 15).log.tuples()
    bad = (8, 0, 0)                                  # reveal: never legal in phase 4...
    g = replay(setup, acts[:10])
    assert g.phase == 4
    ops = [("A", t) for t in acts[:10]] + [("A", bad)] + [("A", t) for t in acts[10:]]
    _write_ops(str(tmp_path), setup, ops)
    j, restored = fresh_restore(str(tmp_path))
    assert frozen(restored) == frozen(g)
    assert "action 11 of" in j.last_error and "turn" in j.last_error
    assert journal_load(Journal(str(tmp_path)))[1] == acts[:10]   # the rest is dropped on flash too


# ------------------------------------------------------------ undo


def test_undo_markers(tmp_path):
    setup = random_setup(34)                           # marshal: variable-length actions
    acts = record(setup, 34, stop=lambda g: len(g.log) >= 80).log.tuples()
    assert any(t[0] == 11 and t[2] for t in acts)      # marshal_play with tokens
    rng = random.Random(1)
    d = str(tmp_path)
    j = Journal(d, max_undos=10 ** 6)                  # no undo-triggered compaction here
    j.start(setup)
    ops = []
    for i, t in enumerate(acts):
        ops.append(("A", t))
        if rng.randrange(4) == 0:                      # undo u, play them again
            u = min(rng.randrange(1, 4), i + 1)
            ops += [("U", None)] * u + [("A", x) for x in acts[i + 1 - u:i + 1]]
    ops += [("U", None)] * 5                           # and the last five undone for good
    run_ops(j, ops)
    want = live(ops)
    assert j.count == len(want)
    j2, g = fresh_restore(d)
    assert journal_load(j2)[1] == want
    assert frozen(g) == frozen(replay(setup, want))
    # undo down to nothing, then one more: nothing to undo
    for _ in range(len(want)):
        assert j2.undo() is True
    assert j2.undo() is False
    assert journal_load(Journal(d)) == (setup, [])


def test_many_undo_markers_trigger_compaction(tmp_path):
    d = str(tmp_path)
    j = Journal(d, max_undos=16)
    setup = {"players": 2, "seed": 2}
    acts = record(setup, 2, stop=lambda g: len(g.log) >= 10).log.tuples()
    j.start(setup)
    for t in acts:
        j.append(t)
    for _ in range(20):
        j.undo()
        j.append(acts[-1])
    assert j.compactions == 1
    assert journal_load(Journal(d))[1] == acts


# ------------------------------------------------------------ compaction


def test_compaction_keeps_the_state(tmp_path):
    setup = random_setup(42)
    game = record(setup, 42, stop=lambda g: len(g.log) >= 120)
    acts = game.log.tuples()
    d = str(tmp_path)
    j = Journal(d, limit=10 ** 6)
    j.start(setup)
    run_ops(j, churn_ops(acts, 1))
    before = os.path.getsize(os.path.join(d, "journal.bin"))
    j.compact()
    after = os.path.getsize(os.path.join(d, "journal.bin"))
    assert after == j.size < before and os.listdir(d) == ["journal.bin"]
    assert frozen(fresh_restore(d)[1]) == frozen(game)
    # compact(setup, actions) replaces the contents
    j.compact(setup, acts[:50])
    assert frozen(fresh_restore(d)[1]) == frozen(replay(setup, acts[:50]))
    j.append(acts[50])
    assert journal_load(Journal(d))[1] == acts[:51]


@pytest.mark.parametrize("max_undos", [J.MAX_UNDOS, 10 ** 6])   # undo- or size-triggered
def test_flash_use_stays_bounded_over_a_long_session(tmp_path, monkeypatch, max_undos):
    """A skill-2 game (~720 live actions) journalled with undos: 2000+ records.
    Bound: journal.bin <= max(8 KB, 2 x snapshot) + one record (<= 19 bytes)
    after every operation, and the directory <= 12 KB even mid-compaction
    (journal.bin + journal.tmp)."""
    setup = {"players": 2, "seed": 1}
    game = record(setup, 1, skill=2)
    acts = game.log.tuples()
    ops = churn_ops(acts, 7, undo_rate=1)
    assert len(acts) > 600 and len(ops) >= 2000
    d = str(tmp_path)
    peak = [0]
    real_replace = J._replace

    def measuring_replace(a, b):
        peak[0] = max(peak[0], dir_bytes(d))
        real_replace(a, b)

    monkeypatch.setattr(J, "_replace", measuring_replace)
    j = Journal(d, max_undos=max_undos)
    j.start(setup)
    most = 0
    for op in ops:
        run_ops(j, [op])
        size = dir_bytes(d)
        snapshot = j._snapshot_size()
        assert size == j.size <= max(J.LIMIT, 2 * snapshot) + 19
        most = max(most, size)
    assert j.compactions >= 3
    assert peak[0] <= 12 * 1024 and most <= 12 * 1024, (peak[0], most)
    assert frozen(fresh_restore(d)[1]) == frozen(game)


class PowerCut(Exception):
    pass


class _Budget:
    """Fault injection: the journal's writes and renames spend a budget (a
    byte per byte written, one per rename); when it runs out the write is cut
    short, as by a power cut, and PowerCut is raised."""

    def __init__(self, left):
        self.left = left
        self.files = []

    def open(self, path, mode="r", *a, **kw):
        f = builtins.open(path, mode, *a, **kw)
        if "r" in mode:
            return f
        self.files.append(f)
        return _CutFile(f, self)

    def replace(self, a, b):
        if self.left <= 0:
            raise PowerCut
        self.left -= 1
        os.replace(a, b)

    def dead(self):
        """Everything written so far reached the disk; nothing more will."""
        for f in self.files:
            if not f.closed:
                f.close()


class _CutFile:
    def __init__(self, f, budget):
        self.f = f
        self.b = budget

    def write(self, data):
        data = bytes(data)
        b = self.b
        if len(data) > b.left:
            self.f.write(data[:b.left])
            b.left = 0
            raise PowerCut
        b.left -= len(data)
        return self.f.write(data)

    def flush(self):
        self.f.flush()

    def fileno(self):
        return self.f.fileno()

    def close(self):
        self.f.close()


def test_power_cut_during_compaction_at_every_byte(tmp_path, monkeypatch):
    """The append that triggers a compaction is cut at every byte it and the
    compaction write, and before the rename: the journal restores to the
    state before the append (its record torn) or after it, and goes on."""
    setup = random_setup(34)                                   # marshal
    acts = record(setup, 34, stop=lambda g: len(g.log) >= 120).log.tuples()
    ops = churn_ops(acts, 3, undo_rate=1)
    kw = {"limit": 1024}
    base = str(tmp_path / "base")
    j = Journal(base, **kw)
    j.start(setup)
    i = 0
    while True:                                   # up to just before a compaction
        snap = str(tmp_path / "snap")
        shutil.rmtree(snap, ignore_errors=True)
        shutil.copytree(base, snap)
        c = j.compactions
        run_ops(j, [ops[i]])
        if j.compactions > c and ops[i][0] == "A":
            break
        i += 1
    j.close()
    pre, post = live(ops[:i]), live(ops[:i + 1])
    want_pre, want_post = frozen(replay(setup, pre)), frozen(replay(setup, post))
    rec = 7 + len(encode(ops[i][1]))
    total = rec + j.size + 1                       # the record, the snapshot, the rename
    outcomes = set()
    for budget in range(total + 1):
        d = str(tmp_path / "run")
        shutil.rmtree(d, ignore_errors=True)
        shutil.copytree(snap, d)
        jj = Journal(d, **kw)
        assert journal_load(jj)[1] == pre
        cut = _Budget(budget)
        monkeypatch.setattr(J, "open", cut.open, raising=False)
        monkeypatch.setattr(J, "_replace", cut.replace)
        try:
            run_ops(jj, [ops[i]])
            done = True
        except PowerCut:
            done = False
        cut.dead()
        monkeypatch.undo()
        assert done == (budget == total)
        j2, g = fresh_restore(d, **kw)
        got = frozen(g)
        assert got == (want_pre if budget < rec else want_post), budget
        outcomes.add((budget < rec, budget < total - 1, done))
        assert os.listdir(d) == ["journal.bin"]   # a stray journal.tmp is cleared
        if i + 1 < len(ops):                       # and it goes on
            nxt = ops[i + 1] if budget >= rec else ops[i]
            run_ops(j2, [nxt])
            assert frozen(fresh_restore(d, **kw)[1]) == frozen(
                replay(setup, live(ops[:i + 2] if budget >= rec else ops[:i + 1])))
    # torn record; record kept but compaction cut (tmp partial / no rename); all done
    assert outcomes == {(True, True, False), (False, True, False), (False, False, False),
                        (False, False, True)}


def test_stray_temp_files(tmp_path):
    setup = {"players": 2, "seed": 6}
    acts = record(setup, 6, stop=lambda g: len(g.log) >= 30).log.tuples()
    d = str(tmp_path / "a")
    path = _write_ops(d, setup, [("A", t) for t in acts])
    # a compaction cut short: the snapshot half written, never renamed
    j = Journal(str(tmp_path / "b"))
    j.start({"players": 5, "seed": 1})
    j.append((9, 0, 0))
    other = open(os.path.join(str(tmp_path / "b"), "journal.bin"), "rb").read()
    open(os.path.join(d, "journal.tmp"), "wb").write(other[:len(other) // 2])
    j, g = fresh_restore(d)
    assert journal_load(j)[1] == acts and os.listdir(d) == ["journal.bin"]
    # the snapshot complete but not renamed: still the old journal
    open(os.path.join(d, "journal.tmp"), "wb").write(other)
    assert journal_load(Journal(d))[1] == acts and os.listdir(d) == ["journal.bin"]
    # a file system whose rename does not replace (FAT: remove, then rename),
    # cut between the two: the complete snapshot is adopted
    os.replace(path, os.path.join(d, "journal.tmp"))
    assert journal_load(Journal(d))[1] == acts and os.listdir(d) == ["journal.bin"]


def test_rename_that_will_not_replace(tmp_path, monkeypatch):
    """FAT-style rename (fails if the target exists): remove, then rename."""
    def fat_rename(a, b):
        if os.path.exists(b):
            raise OSError(17, "exists")
        os.rename(a, b)

    monkeypatch.setattr(J, "_replace", fat_rename)
    d = str(tmp_path)
    j = Journal(d, limit=256)
    setup = {"players": 2, "seed": 3}
    game = record(setup, 3, stop=lambda g: len(g.log) >= 60, journal=j)
    assert j.compactions > 0
    assert frozen(fresh_restore(d)[1]) == frozen(game)


def test_write_failure_is_reported_and_recovered(tmp_path, monkeypatch):
    """Flash full: append raises OSError, the action is not journalled; the
    next append rewrites the journal first so nothing torn stays in it."""
    d = str(tmp_path)
    setup = {"players": 2, "seed": 3}
    acts = record(setup, 3, stop=lambda g: len(g.log) >= 20).log.tuples()
    j = Journal(d)
    j.start(setup)
    for t in acts[:10]:
        j.append(t)
    cut = _Budget(5)

    def full(*a, **kw):
        try:
            return cut.open(*a, **kw)
        except PowerCut:
            raise OSError(28, "no space")

    class Full(_CutFile):
        def write(self, data):
            try:
                return _CutFile.write(self, data)
            except PowerCut:
                raise OSError(28, "no space")

    monkeypatch.setattr(J, "open", lambda *a, **kw: Full(builtins.open(*a, **kw), cut), raising=False)
    j.close()
    with pytest.raises(OSError):
        j.append(acts[10])
    monkeypatch.undo()
    assert j.count == 10
    for t in acts[10:]:
        j.append(t)
    j2, g = fresh_restore(d)
    assert j2.last_error is None and journal_load(j2)[1] == acts


# ------------------------------------------------------- real MicroPython

VM_SCRIPT = r"""
import sys, os
from shared_rules.siege.autoplay import play, random_setup
from shared_rules.siege.actions import parse
from shared_rules.siege.engine import Game, replay
from osada_fw.store.journal import Journal

base = sys.argv[1]

class Stop(Exception):
    pass

for seed in (0, 1, 32, 34, 42):      # solo, shoulder, standard, marshal x2
    d = base + "/g%d" % seed
    j = Journal(d, limit=512)
    setup = random_setup(seed)
    j.start(Game.from_setup(setup).setup_dict())
    box = {}

    def keep(g, a, ev):
        box["g"] = g
        j.append(parse(a))
        n = len(g.log)
        if n % 7 == 0:
            j.undo()
            j.append(parse(a))
        if n >= 60:
            raise Stop

    try:
        play(setup, seed, keep=keep, skill=1)
    except Stop:
        pass
    j.close()
    path = d + "/journal.bin"
    f = open(path, "rb")
    data = f.read()
    f.close()
    f = open(path, "wb")
    f.write(data[:len(data) - 3])            # the last record torn
    f.close()
    j2 = Journal(d, limit=512)
    g = j2.restore()
    print(seed, j.compactions, len(data), j2.count, j2.dropped_bytes, j2.last_error)
    print(g.state_json(events=[]))
    print(box["g"].state_json(events=[]) == g.state_json(events=[]))
    print(replay(setup, box["g"].log.tuples()[:-1]).state_json(events=[]) == g.state_json(events=[]))
    j2.append((9, 0, 0))
    j3 = Journal(d)
    j3.restore()
    print(sorted(os.listdir(d)), j3.count)
"""


@pytest.mark.micropython
def test_same_journal_behaviour_in_micropython(tmp_path):
    from osada import mpyvm
    script = tmp_path / "journal_vm.py"
    script.write_text(VM_SCRIPT)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, os.path.join(ROOT, "firmware")]))
    cpy = subprocess.run([sys.executable, str(script), str(tmp_path / "cpy")], capture_output=True,
                         env=env)
    assert cpy.returncode == 0, cpy.stderr.decode()
    mpy = mpyvm.run(str(script), ["/osada"], timeout=300,
                    mounts=[(os.path.join(ROOT, "shared_rules"), "/lib/shared_rules"),
                            (os.path.join(ROOT, "firmware", "osada_fw"), "/lib/osada_fw")])
    assert mpy.returncode == 0, mpy.stderr.decode()
    out = mpy.stdout.decode().splitlines()
    assert out == cpy.stdout.decode().splitlines()
    assert len(out) == 25
    for i in range(0, 25, 5):
        seed, compactions, size, count, dropped = out[i].split()[:5]
        assert int(compactions) > 0 and int(dropped) > 0      # compacted, and a torn tail dropped
        assert out[i + 2] == "False"                           # ... so one action short of the live game
        assert out[i + 3] == "True"                            # ... exactly
        assert out[i + 4] == "['journal.bin'] %d" % (int(count) + 1)   # and a later append works
