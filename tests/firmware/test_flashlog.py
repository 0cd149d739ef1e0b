"""The game journal on raw NOR flash (firmware/osada_fw/store/flashlog.py), on
hal/fake.py's FakeNorFlash (erase -> 0xFF, program ANDs whole 256-byte pages,
power cuts at any byte of an erase or program).

What must hold: every acknowledged action (append() returned) survives any
power cut; a torn record is never shown; no sector is erased in the path of
an ordinary append once idle() has prepared the next one; a compaction keeps
the ring from filling; flash that ignores writes says "flash not writable"
(EROFS), never "flash full"."""

import bisect
import copy
import json
import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from osada_fw.hal.fake import FakeNorFlash, PowerCut
from osada_fw.store import flashlog as FL
from osada_fw.store.flashlog import FlashLog
from shared_rules.siege.actions import parse
from shared_rules.siege.autoplay import play
from shared_rules.siege.engine import Game
from tests.support.fw_extras import journal_load

SETUP = {"players": 2, "seed": 1}


def game_actions(setup=SETUP, seed=1, limit=None, skill=2):
    acts = []
    play(setup, seed, keep=lambda g, a, e: acts.append(parse(a)), skill=skill)
    return acts[:limit] if limit else acts


def setup_dict(setup=SETUP):
    return Game.from_setup(setup).setup_dict()


def started(limit):
    """(the game's first `limit` actions, a 16-sector flash, a journal that has started the game)."""
    flash = FakeNorFlash(16)
    j = FlashLog(flash, 0, 16)
    j.start(setup_dict())
    return game_actions(limit=limit), flash, j


def fresh(flash):
    """A journal as a reboot makes it (nothing carried over in RAM)."""
    flash.power_on()
    return FlashLog(flash, 0, flash.blocks, flash.BLOCK)


def small(blocks=3):
    """A ring of 1 KiB sectors: ~75 actions a sector, so a short game
    crosses sectors, wraps the ring and compacts."""
    flash = FakeNorFlash(blocks, block=1024)
    return flash, FlashLog(flash, 0, blocks, 1024)


def loaded(flash):
    j = fresh(flash)
    return journal_load(j), j


def test_round_trip_and_restore_equals_engine():
    acts, flash, j = started(300)
    for t in acts:
        j.append(t)
        j.idle()
    (setup, got), j2 = loaded(flash)
    assert setup == json.loads(json.dumps(setup_dict()))
    assert got == acts
    game = j2.restore()
    want = Game.from_setup(SETUP)
    for t in acts:
        want.apply_tuple(t)
    assert game.state_json(events=[]) == want.state_json(events=[])
    assert j2.last_error is None


def test_no_erase_in_an_append_once_idle_prepared_the_next_sector():
    acts, flash, j = started(300)
    j.idle()
    for t in acts:
        e0 = flash.erases
        p0 = flash.programs
        j.append(t)
        assert flash.erases == e0, "an append erased a sector"
        assert flash.programs - p0 in (1, 2)     # its page(s), nothing else
        while j.idle():
            pass
    # ~13 bytes a record: 300 actions fill one 4 KiB sector and spill into the next
    assert j._gen - j._base in (0, 1)


def test_appends_continue_in_place_after_a_clean_restore():
    acts, flash, j = started(40)
    for t in acts[:20]:
        j.append(t)
    j2 = fresh(flash)
    assert j2.restore() is not None
    gen = j2._gen
    for t in acts[20:]:
        j2.append(t)
    assert j2._gen == gen                        # same sector: no new sector, no erase
    assert journal_load(fresh(flash))[1] == acts


def test_undo_markers():
    acts, flash, j = started(30)
    for t in acts[:10]:
        j.append(t)
    assert j.undo() and j.undo()
    j.append(acts[10])
    assert j.count == 9
    assert journal_load(fresh(flash))[1] == acts[:8] + [acts[10]]
    j3 = fresh(flash)
    j3.start(setup_dict())
    assert not j3.undo()
    assert journal_load(fresh(flash))[1] == []


def test_the_ring_wraps_through_compactions_many_times():
    """Far more actions than the ring holds: compactions keep it going, and
    the game is whole after each reboot along the way."""
    flash = FakeNorFlash(4)
    j = FlashLog(flash, 0, 4)
    acts = game_actions(limit=120)
    j.start(setup_dict())
    live = []
    rng = random.Random(5)
    for step in range(3000):
        if live and (len(live) >= len(acts) or rng.random() < 0.3):
            j.undo()
            live.pop()
        else:
            t = acts[len(live)]
            j.append(t)
            live.append(t)
        j.idle()
        if step % 500 == 0:
            assert journal_load(fresh(flash))[1] == live
    assert j.compactions > 3
    assert j._gen >= 3 * 4                     # wrapped the ring several times
    assert journal_load(fresh(flash))[1] == live


def _cut_run(cut_at, acts, undo_at=None):
    """Run a game on a fresh small ring with a power cut after `cut_at`
    bytes erased or programmed.  Returns (flash, acknowledged live actions,
    the change in flight or None)."""
    flash, j = small()
    j.start(setup_dict())
    flash.cut_after(cut_at)
    return _play_until_cut(flash, j, acts, 0, undo_at)


def _play_until_cut(flash, j, acts, first, undo_at=None):
    """Append acts[first:] (an undo before action undo_at) until the power
    cut.  Returns (flash, the acknowledged live actions, the change in
    flight or None)."""
    live = list(acts[:first])
    inflight = None
    try:
        for i in range(first, len(acts)):
            t = acts[i]
            if undo_at is not None and i == undo_at:
                inflight = ("U", None)
                j.undo()
                live.pop()
            inflight = ("A", t)
            j.append(t)
            live.append(t)
            inflight = None
            j.idle()
    except PowerCut:
        return flash, live, inflight
    return flash, live, None


def _check_after_cut(flash, live, inflight):
    got = loaded(flash)[0]
    assert got is not None, "the game is gone"
    ok = [live]
    if inflight is not None:
        if inflight[0] == "A":
            ok.append(live + [inflight[1]])
        else:
            ok.append(live[:-1])
    assert got[1] in ok
    return got[1]


def _written(flash):
    return flash.program_bytes + flash.erases * flash.BLOCK


def _reference(acts):
    """The uncut run _cut_run makes: before each append, the bytes erased
    or programmed since the game started (what _cut_run's cut counts) and a
    copy of the flash and the journal then; and each append's span of
    bytes from the flash's first, and whether it did more than program its
    record (a new sector, an erase, a compaction)."""
    flash, j = small()
    j.start(setup_dict())
    base = _written(flash)
    before, spans = [], []
    done = _written(flash)
    for t in acts:
        before.append((done - base, copy.deepcopy((flash, j))))
        gen, comp = j._gen, j.compactions
        j.append(t)
        j.idle()
        now = _written(flash)
        spans.append((done, now, j._gen != gen or j.compactions != comp))
        done = now
    assert j.compactions >= 1 and j._gen >= 3 + 1      # wrapped the ring, compacted
    return before, spans


def _cut_run_from(before, cut_at, acts):
    """_cut_run(cut_at, acts), started from the copy taken before the
    append the cut falls in rather than from the first action."""
    k = bisect.bisect_right([w for w, _ in before], cut_at) - 1
    written, saved = before[k]
    flash, j = copy.deepcopy(saved)
    flash.cut_after(cut_at - written)
    return _play_until_cut(flash, j, acts, k)


def test_a_power_cut_at_every_byte_loses_nothing_acknowledged():
    """A 200-action game on a ring of three 1 KiB sectors (it crosses
    sectors, pre-erases, wraps and compacts): a power cut at every byte of
    the first 3 appends' programs; at every byte of the first 300, then
    every 19th, of each append that starts a sector, pre-erases one or
    writes a snapshot; at 4 random bytes of every other append.  After
    each: the reboot shows the acknowledged actions, or those plus the one
    in flight, never a torn one, and takes new actions.  Each cut run
    starts from a copy of the uncut run's flash and journal before the
    append it cuts (the same as running from the start: checked on some)."""
    acts = game_actions(limit=200)
    assert len(acts) == 200
    rng = random.Random(7)
    cuts = []
    before, spans = _reference(acts)
    for k, (a, b, special) in enumerate(spans):
        if k < 3:
            cuts.extend(range(a, b))                    # every byte
        elif special:
            cuts.extend(range(a, min(b, a + 300)))      # every byte of the first page(s) ...
            cuts.extend(range(a + 300, b, 19))          # ... then every 19th
        else:
            cuts.extend(rng.randrange(a, b) for _ in range(4))
    seen = set()
    for n, cut in enumerate(cuts):
        flash, live, inflight = _cut_run_from(before, cut, acts)
        if n % 97 == 0:                                 # the shortcut runs as the whole game does
            whole = _cut_run(cut, acts)
            assert (bytes(whole[0].data), whole[1], whole[2]) == (bytes(flash.data), live, inflight)
        got = _check_after_cut(flash, live, inflight)
        seen.add(len(got))
        j2 = fresh(flash)
        g = j2.restore()
        assert g is not None and len(g.log) == len(got)
        rest = acts[len(got):len(got) + 3]
        for t in rest:
            j2.append(t)
        assert journal_load(fresh(flash))[1] == got + rest
    assert len(seen) >= 150


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=70_000), st.integers(min_value=1, max_value=150))
def test_power_cut_with_an_undo_property(cut, undo_at):
    acts = game_actions(limit=160)
    flash, live, inflight = _cut_run(cut, acts, undo_at=undo_at)
    _check_after_cut(flash, live, inflight)


def test_cut_twice_in_a_row():
    """A cut, a reboot that writes a little, another cut in that writing."""
    acts = game_actions(limit=120)
    for first in range(300, 60000, 997):
        flash, live, inflight = _cut_run(first, acts)
        got = _check_after_cut(flash, live, inflight)
        for second in (0, 5, 130, 256, 300, 1000, 3000):
            f2 = FakeNorFlash(3, block=1024)
            f2.data[:] = flash.data
            j = fresh(f2)
            j.restore()
            f2.cut_after(second)
            done = list(got)
            inflight2 = None
            try:
                for t in acts[len(got):len(got) + 5]:
                    inflight2 = ("A", t)
                    j.append(t)
                    done.append(t)
                    inflight2 = None
                    j.idle()
            except PowerCut:
                pass
            _check_after_cut(f2, done, inflight2)


def test_torn_record_is_dropped_and_said_once():
    acts = game_actions(limit=10)
    flash = FakeNorFlash(4)
    j = FlashLog(flash, 0, 4)
    j.start(setup_dict())
    for t in acts[:9]:
        j.append(t)
    flash.cut_after(j._pos % 256 + 6)          # the 10th record's page program stops inside it
    with pytest.raises(PowerCut):
        j.append(acts[9])
    (setup, got), j2 = loaded(flash)
    assert got == acts[:9]
    assert "torn record" in j2.last_error
    j2.append(acts[9])                         # goes to a fresh sector
    (setup, got), j3 = loaded(flash)
    assert got == acts and j3.last_error is None


def test_flash_that_ignores_writes_is_not_writable_not_full():
    flash = FakeNorFlash(16, writable=False)
    j = FlashLog(flash, 0, 16)
    for _ in range(40):                        # every retry: EROFS, the ring is not used up
        with pytest.raises(OSError) as e:
            j.start(setup_dict())
        assert e.value.args[0] == FL.EROFS
    assert j._gen == -1


def test_flash_that_stops_writing_mid_game():
    acts, flash, j = started(30)
    for t in acts[:10]:
        j.append(t)
    flash.writable = False
    with pytest.raises(OSError) as e:
        j.append(acts[10])
    assert e.value.args[0] == FL.EROFS
    for _ in range(30):                        # the app's retries: compaction each time
        with pytest.raises(OSError) as e:
            j.compact(setup_dict(), acts[:11])
        assert e.value.args[0] == FL.EROFS
    flash.writable = True
    j.compact(setup_dict(), acts[:12])
    assert journal_load(fresh(flash))[1] == acts[:12]


def test_an_uncommitted_snapshot_leaves_the_old_game():
    acts = game_actions(limit=30)
    flash = FakeNorFlash(4)
    j = FlashLog(flash, 0, 4)
    j.start(setup_dict())
    for t in acts[:20]:
        j.append(t)
    j.idle()
    big = game_actions(setup={"players": 3, "seed": 7}, seed=7, limit=25)
    flash.cut_after(250)                       # the new snapshot's page is torn before its 'E'
    with pytest.raises(PowerCut):
        j.compact(setup_dict({"players": 3, "seed": 7}), big)
    (setup, got), j2 = loaded(flash)
    assert setup == json.loads(json.dumps(setup_dict())) and got == acts[:20]
    j2.append(acts[20])
    assert journal_load(fresh(flash))[1] == acts[:21]


def test_bad_data_never_crashes_the_reader():
    """Random bytes over random spots of a good journal: a load never raises,
    and what it returns is a prefix of the game (a CRC guards every record)."""
    acts = game_actions(limit=80)
    flash = FakeNorFlash(4)
    j = FlashLog(flash, 0, 4)
    j.start(setup_dict())
    for t in acts:
        j.append(t)
    good = bytes(flash.data)
    rng = random.Random(3)
    for _ in range(300):
        flash.data[:] = good
        for _ in range(rng.randint(1, 4)):
            a = rng.randrange(len(good))
            flash.data[a] &= rng.randrange(256)      # NOR: bits only clear
        got = journal_load(fresh(flash))
        if got is not None:
            assert got[1] == acts[:len(got[1])]


def test_clear_and_setup_limits():
    flash = FakeNorFlash(4)
    j = FlashLog(flash, 0, 4)
    j.start(setup_dict())
    j.append(game_actions(limit=1)[0])
    j.clear()
    assert journal_load(fresh(flash)) is None
    assert bytes(flash.data) == b"\xff" * len(flash.data)
    with pytest.raises(ValueError):
        j.start({"players": 2, "pad": "x" * 2000})


def test_the_fake_flash_keeps_nor_rules():
    f = FakeNorFlash(2)
    with pytest.raises(ValueError):
        f.writeblocks(0, bytearray(16), 0)          # not a whole page
    with pytest.raises(ValueError):
        f.writeblocks(0, bytearray(256), 16)        # not page-aligned
    f.writeblocks(0, bytearray(b"\x0f" * 256), 256)
    f.writeblocks(0, bytearray(b"\xf1" * 256), 256)
    buf = bytearray(4)
    f.readblocks(0, buf, 256)
    assert buf == b"\x01" * 4                       # programs only clear bits
    f.ioctl(6, 0)
    f.readblocks(0, buf, 256)
    assert buf == b"\xff" * 4


# ------------------------------------------------------------ in the app

def _app(state_dir, flash):
    from osada_fw.app import App
    from osada_fw.config import led_count, load
    from osada_fw.hal.fake import FakeHardware, ManualClock
    cfg = load(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "firmware", "config.json"))
    clock = ManualClock()
    hw = FakeHardware(led_count(cfg), str(state_dir), clock=clock, seed=5, journal_flash=flash)
    app = App(hw, cfg)
    return app, hw, clock


def _request(app, hw, clock, obj):
    hw.serial.host_send((json.dumps(obj) + "\n").encode())
    app.tick()
    clock.advance(40)
    for line in hw.serial.host_take().splitlines():
        m = json.loads(line)
        if m.get("id") == obj.get("id"):
            return m
    raise AssertionError("no reply to %r" % (obj,))


def test_the_app_uses_the_hals_raw_journal_and_erases_only_when_idle(tmp_path):
    """With a HAL that offers the raw-flash journal (the Pico's, in a
    littlefs file's blocks; here FakeHardware(journal_flash=...)) the app keeps the game
    there, not in files; the idle ticks pre-erase, the requests never do."""
    from shared_rules.siege.actions import to_dict
    flash = FakeNorFlash(16)
    app, hw, clock = _app(tmp_path / "osada", flash)
    assert isinstance(app.siege.journal, FlashLog)
    app.boot()
    assert _request(app, hw, clock, {"id": 1, "cmd": "new", **SETUP})["ok"]
    for _ in range(3):                            # idle ticks: the next sector gets erased
        app.tick()
        clock.advance(40)
    erased = flash.erases
    acts = game_actions(limit=40)
    for k, t in enumerate(acts):
        e0 = flash.erases
        reply = _request(app, hw, clock, {"id": 10 + k, "cmd": "act", "action": to_dict(t)})
        assert reply["ok"] and reply["seq"] == k + 1 and "saved" not in reply
        assert flash.erases == e0
    assert flash.erases == erased
    assert not os.path.exists(str(tmp_path / "osada" / "journal.bin"))
    # a reboot on the same flash restores the game
    app2, hw2, clock2 = _app(tmp_path / "osada", flash)
    app2.boot()
    assert app2.siege.game.log.tuples() == acts
    app2.tick()
    boot = [json.loads(x) for x in hw2.serial.host_take().splitlines() if b'"boot"' in x][0]
    assert boot["restored"] is True and boot["seq"] == 40 and "lost" not in boot


def test_the_app_plays_on_when_the_raw_flash_stops_writing(tmp_path):
    from shared_rules.siege.actions import to_dict
    flash = FakeNorFlash(16)
    app, hw, clock = _app(tmp_path, flash)
    app.boot()
    acts = game_actions(limit=12)
    assert _request(app, hw, clock, {"id": 1, "cmd": "new", **SETUP})["ok"]
    for k, t in enumerate(acts[:6]):
        assert "saved" not in _request(app, hw, clock, {"id": 10 + k, "cmd": "act", "action": to_dict(t)})
    flash.writable = False
    for k, t in enumerate(acts[6:9]):
        r = _request(app, hw, clock, {"id": 20 + k, "cmd": "act", "action": to_dict(t)})
        assert r["ok"] and r["saved"] is False and r["journal"] == "flash not writable"
    flash.writable = True
    r = _request(app, hw, clock, {"id": 30, "cmd": "act", "action": to_dict(acts[9])})
    assert r["ok"] and "saved" not in r                  # the whole game rewritten from RAM
    assert journal_load(fresh(flash))[1] == acts[:10]


def test_mem_is_micropythons(tmp_path):
    app, hw, clock = _app(tmp_path, None)
    app.boot()
    r = _request(app, hw, clock, {"id": 1, "cmd": "mem"})
    assert r["ok"] is False and "MicroPython" in r["error"]


def test_a_file_backed_fake_flash_keeps_the_game(tmp_path):
    """FakeNorFlash(path=...): the bytes live in a file, so a new process
    (the simulator restarted) finds the game."""
    path = str(tmp_path / "nor.bin")
    flash = FakeNorFlash(4, path=path)
    j = FlashLog(flash, 0, 4)
    j.start(setup_dict())
    acts = game_actions(limit=15)
    for t in acts:
        j.append(t)
    again = FakeNorFlash(4, path=path)
    assert bytes(again.data) == bytes(flash.data)
    assert journal_load(fresh(again))[1] == acts
