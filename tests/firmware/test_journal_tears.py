"""No acknowledged action lost when NOR flash tears the way it really does
(issue 64): a cut program or erase leaves any subset of the bits it would
have changed, anywhere in its page or sector, not a prefix of bytes; and
cuts come in chains (cut, power on, restore, act, cut again) on one flash.

The raw-flash journal (firmware/osada_fw/store/flashlog.py) on hal/fake.py's
FakeNorFlash with its bit-level tear model (cut_after(n, tear=rng))."""

import errno
import json
import os
import random

import pytest

from osada_fw.hal.fake import FakeNorFlash, PowerCut
from osada_fw.store.flashlog import FlashLog
from shared_rules.siege.actions import DOT, END_TURN, parse
from shared_rules.siege.autoplay import play
from shared_rules.siege.engine import Game
from tests.firmware.test_flashlog import _app as flashlog_app
from tests.firmware.test_flashlog import _request as flashlog_request
from tests.support.fw_extras import journal_load

# The page of issue 64, as the emulated Pico's flash held it at 0xb2100 (the
# log's sector of gen 4, base 4, in the littlefs file's block that starts at
# 0xb2000; the Region's sectors are 4096 - 256 bytes): the header, 'S' (seed
# 388825, 3 players, standard), 'E' (seq 1), 'A' seq 2 (end_turn), 'A' seq 3
# (dot on sector 2), then the `hit` of seq 4 torn by a cut in its page program:
# bits of it cleared at random, and its type byte still 0xFF.
ISSUE_64_PAGE = bytes.fromhex(
    "4f534c0104000000040000000b3fab40533b0000007b2273656564223a3338383832352c22706c61"
    "79657273223a332c226d6f6465223a227374616e64617264222c2276617269616e7473223a5b5d7d"
    "133c1b16450000010065112a4f41040002000900000091e36a9b410400030003000200d2b2bd0d"
    "fff77bff7bfefd3fff7f7fff7bff")
ISSUE_64_SETUP = {"seed": 388825, "players": 3, "mode": "standard", "variants": []}
REGION_SECTOR = 4096 - 256          # a sector of the Pico's log (flashlog.Region)


def _issue_64_flash():
    flash = FakeNorFlash(16, block=REGION_SECTOR)
    a = 4 * REGION_SECTOR
    flash.data[a:a + len(ISSUE_64_PAGE)] = ISSUE_64_PAGE
    return flash


def _app(state_dir, flash):
    app, hw, clock = flashlog_app(state_dir, flash)
    app.boot()
    return app, hw, clock


_request = flashlog_request


def test_issue_64_a_torn_record_whose_type_byte_reads_erased_is_never_programmed_over(tmp_path):
    """The exact sequence of issue 64: the restore drops the torn `hit`; the
    `dot` that follows must not be programmed over its torn bytes (which
    gave the AND of both, a false "flash not writable" and, at the next cut,
    the `dot` lost): it is saved, and a cut at 23 % of the next page
    program (torn bit by bit) keeps it."""
    flash = _issue_64_flash()
    j = FlashLog(flash, 0, 16, REGION_SECTOR)
    got = journal_load(j)
    assert got is not None and got[0] == ISSUE_64_SETUP
    assert got[1] == [(END_TURN, 0, 0), (DOT, 2, 0)]
    assert "torn record" in (j.last_error or "")     # said, not passed over as the clean end

    app, hw, clock = _app(tmp_path / "osada", flash)
    assert len(app.siege.game.log) == 2
    dot = {"do": "dot", "sector": 6}
    r = _request(app, hw, clock, {"id": 1, "cmd": "act", "action": dot})
    assert r["ok"], r
    assert "saved" not in r and "journal" not in r, r   # healthy flash: saved
    a = 4 * REGION_SECTOR
    assert bytes(flash.data[a + 0x77:a + 0x77 + 14]) == ISSUE_64_PAGE[0x77:]   # not programmed over
    acked = app.siege.game.log.tuples()
    flash.cut_in_program(0.23, tear=random.Random(64))
    try:
        _request(app, hw, clock, {"id": 2, "cmd": "act", "action": {"do": "end_turn"}})
    except PowerCut:
        pass
    assert flash.cut, "the power cut did not fall in a page program"
    flash.power_on()
    _setup, after = journal_load(FlashLog(flash, 0, 16, REGION_SECTOR))
    assert after[:3] == acked and len(after) in (3, 4), after
    assert after[2] == parse(dot)


def test_the_tear_model_changes_only_bits_the_operation_would_change():
    rng = random.Random(3)
    flash = FakeNorFlash(2, block=1024)
    flash.data[0:256] = bytes(rng.randrange(256) for _ in range(256))
    before = bytes(flash.data[0:256])
    page = bytes(rng.randrange(256) for _ in range(256))
    flash.cut_after(128, tear=random.Random(1))
    try:
        flash.writeblocks(0, page, 0)
    except PowerCut:
        pass
    flash.power_on()
    after = bytes(flash.data[0:256])
    full = bytes(b & p for b, p in zip(before, page))
    changed = 0
    for b, a, f in zip(before, after, full):
        assert a & f == f and a | b == b            # only clears, only bits the program clears
        changed += bin(b ^ a).count("1")
    would = sum(bin(b ^ f).count("1") for b, f in zip(before, full))
    assert 0.35 * would < changed < 0.65 * would    # about half of them, spread over the page
    assert after[200:] != before[200:]              # not a prefix of bytes
    flash.data[1024:2048] = bytes(1024)
    flash.cut_after(256, tear=random.Random(2))
    try:
        flash.ioctl(6, 1)
    except PowerCut:
        pass
    ones = sum(bin(x).count("1") for x in flash.data[1024:2048])
    assert 0.15 * 8192 < ones < 0.35 * 8192


# ------------------------------------------------------------ chains of cuts

def _game(seed, limit):
    acts = []
    play({"players": 2, "seed": seed}, seed, keep=lambda g, a, e: acts.append(parse(a)), skill=2)
    return acts[:limit]


def _chain(seed, sector, blocks, cuts, undo_every=0):
    """One flash, `cuts` power cuts in a row, each at a random byte of the
    writing that follows a power on (bit-level tears), the journal booted
    afresh each time.  After every power on the journal holds the
    acknowledged game, or that with the change in flight.  Returns (cuts
    inside an erase or program, power ons checked)."""
    rng = random.Random(seed)
    acts = _game(seed, 400)
    flash = FakeNorFlash(blocks, block=sector)
    j = FlashLog(flash, 0, blocks, sector)
    setup = Game.from_setup({"players": 2, "seed": seed}).setup_dict()
    j.start(setup)
    acked = []                      # the acknowledged live actions
    inside = 0
    checked = 0
    step = 0
    for _ in range(cuts):
        flash.cut_after(rng.randrange(1, 3 * sector), tear=random.Random(rng.random()))
        ok = None
        try:
            while True:
                step += 1
                if undo_every and acked and step % undo_every == 0:
                    ok = (acked, acked[:-1])
                    j.undo()
                    acked = acked[:-1]
                elif len(acked) == len(acts):          # the game is over: a new one
                    ok = (acked, [])
                    j.start(setup)
                    acked = []
                else:
                    t = acts[len(acked)]
                    ok = (acked, acked + [t])
                    j.append(t)
                    acked = acked + [t]
                ok = None
                j.idle()
        except PowerCut:
            inside += 1
        flash.power_on()
        j = FlashLog(flash, 0, blocks, sector)
        got = journal_load(j)
        assert got is not None, "the game is gone after cut %d (%s)" % (inside, j.last_error)
        live = got[1]
        assert j.damage is None, "a cut announced as damage: %s" % j.damage
        assert live in (ok or (acked,)), "cut %d: %d actions on flash, %d acknowledged" % (
            inside, len(live), len(acked))
        acked = live
        g = j.restore()
        assert g is not None and g.log.tuples() == acked
        checked += 1
    return inside, checked


def test_chains_of_bit_level_cuts_lose_no_acknowledged_action():
    """Chains of cuts on one flash: cut, power on, restore, act, cut again,
    300 times on each of four flashes (small sectors, so the chains cross
    sectors, wrap the ring and compact; one with an undo every 7th change),
    every cut tearing bits at random."""
    total = 0
    for seed, sector, blocks, undo in ((1, 1024, 6, 0), (2, 1024, 6, 7), (3, 4096, 4, 0), (4, 512, 14, 5)):
        inside, checked = _chain(seed, sector, blocks, 300, undo_every=undo)
        assert checked == 300 and inside == 300
        total += inside
    assert total == 1200


def test_a_failed_record_is_saved_by_a_snapshot_before_the_reply():
    """When a record's read-back differs (a bad spot, bits that would not
    clear) the journal does not leave the action in RAM only: it writes a
    snapshot that carries it in a fresh sector before append() returns."""
    flash = FakeNorFlash(8, block=1024)
    j = FlashLog(flash, 0, 8, 1024)
    setup = Game.from_setup({"players": 2, "seed": 9}).setup_dict()
    j.start(setup)
    acts = _game(9, 20)
    for t in acts[:5]:
        j.append(t)
    real = flash.writeblocks
    calls = []

    def sticky(n, buf, off=None):          # the next program leaves one byte unprogrammed
        real(n, buf, off)
        if not calls:
            calls.append(n)
            last = max(i for i in range(len(buf)) if buf[i] != 0xFF)
            flash.data[n * flash.BLOCK + off + last] = 0xFF
    flash.writeblocks = sticky
    j.append(acts[5])                      # no OSError: saved all the same
    flash.writeblocks = real
    assert j.compactions == 1
    assert journal_load(FlashLog(flash, 0, 8, 1024))[1] == acts[:6]
    for t in acts[6:10]:
        j.append(t)
    assert journal_load(FlashLog(flash, 0, 8, 1024))[1] == acts[:10]


def test_when_the_snapshot_fails_too_the_table_is_told_the_writes_own_error(tmp_path):
    """The littlefs-file journal: the file will not take a record (ENOSPC)
    and the rewrite of the game fails for another reason; the error the app
    turns into words is the record's ("flash full"), and the journal's
    memory is as it was before the action."""
    from osada_fw.store.journal import Journal
    j = Journal(str(tmp_path / "osada"))
    j.start(Game.from_setup({"players": 2, "seed": 9}).setup_dict())
    acts = _game(9, 6)
    for t in acts[:5]:
        j.append(t)

    def full(kind, payload):
        raise OSError(errno.ENOSPC, "no space")

    def broken():
        raise OSError(errno.EIO, "i/o")
    j._write_record, j.compact = full, broken
    with pytest.raises(OSError) as exc:
        j.append(acts[5])
    assert exc.value.errno == errno.ENOSPC
    assert j._count == 5
    with pytest.raises(OSError) as exc:
        j.undo()
    assert exc.value.errno == errno.ENOSPC and j._count == 5



# ------------------------------------------------------------ a damaged save

def _game_from(dev, n):
    """Play n actions of an autoplayed game (seed 11) through the device."""
    acts = []
    play({"players": 2, "seed": 11}, 11, keep=lambda g, a, e: acts.append(a), skill=2)
    for a in acts[:n]:
        dev.ok("act", action=a)
    return acts[:n]


def test_random_bytes_over_the_simulators_save_are_kept_and_said(tmp_path):
    """Issue 64, 2: `head -c 300 /dev/urandom > journal.bin`: a new game
    starts, but the 300 bytes are kept in a file beside the journal, the
    boot event says so in words, `hello` says "damaged" until the table
    acknowledges it, and the `journal` request hands the bytes back."""
    from tests.support.device import Dev
    dev = Dev(tmp_path)
    dev.ok("new", players=2, seed=11)
    _game_from(dev, 12)
    junk = random.Random(300).randbytes(300)
    (tmp_path / "journal.bin").write_bytes(junk)
    dev = Dev(tmp_path)
    boot = dev.boot_msgs[0]
    assert boot["restored"] is False
    assert "could not be read" in boot["lost"] and "300 bytes" in boot["lost"]
    kept = dev.ok("journal")[0]["kept"]
    assert os.path.dirname(kept) == str(tmp_path) and os.path.basename(kept).startswith("journal-damaged-")
    with open(kept, "rb") as f:
        assert f.read() == junk
    hello = dev.ok("hello")[0]
    assert hello["journal"] == "damaged" and dev.ok("journal")[0]["lost"] == boot["lost"]
    got = b""
    while True:
        r = dev.ok("journal", read=len(got))[0]
        assert r["bytes"] == 300 and r["kept"] == kept
        piece = bytes.fromhex(r["hex"])
        if not piece:
            break
        got += piece
    assert got == junk
    assert dev.ok("journal", ack=True)[0]["damaged"] is False
    assert dev.ok("hello")[0]["journal"] == "ok"
    assert os.path.exists(kept)                      # acknowledging does not delete the copy


def test_one_flipped_byte_restores_what_is_before_it_and_says_what_was_dropped(tmp_path):
    """Issue 64, 2: one flipped byte at offset 0x50 of a game's journal put
    it back to its start with no word.  Now everything before the damage is
    restored, the sentence says how many actions were dropped, and the
    damaged file is kept as it was."""
    from tests.support.device import Dev
    dev = Dev(tmp_path)
    dev.ok("new", players=2, seed=11)
    _game_from(dev, 30)
    path = tmp_path / "journal.bin"
    data = bytearray(path.read_bytes())
    setup_end = 4 + 7 + (data[5] | data[6] << 8)
    at = setup_end + 11 * 7 + 5                      # inside the 8th action record (11 bytes each)
    data[at] ^= 0x5A
    path.write_bytes(bytes(data))
    dev = Dev(tmp_path)
    boot = dev.boot_msgs[0]
    assert boot["restored"] is True and boot["seq"] == 7
    assert "damaged at byte %d (CRC mismatch)" % (setup_end + 11 * 7) in boot["lost"]
    assert "7 actions restored" in boot["lost"]
    assert "the damaged record and the 22 actions after it dropped" in boot["lost"]
    with open(dev.ok("journal")[0]["kept"], "rb") as f:
        assert f.read() == bytes(data)
    assert dev.ok("hello")[0]["journal"] == "damaged"


def test_a_torn_last_record_is_no_damage(tmp_path):
    """A power cut in the last append leaves its record torn: nothing
    acknowledged is lost, so nothing is announced as damaged."""
    from tests.support.device import Dev
    dev = Dev(tmp_path)
    dev.ok("new", players=2, seed=11)
    _game_from(dev, 10)
    path = tmp_path / "journal.bin"
    data = path.read_bytes()
    path.write_bytes(data[:-5])
    dev = Dev(tmp_path)
    boot = dev.boot_msgs[0]
    assert boot["restored"] is True and boot["seq"] == 9 and dev.ok("journal")[0]["damaged"] is False
    assert dev.ok("hello")[0]["journal"] == "ok"
    assert [p for p in os.listdir(tmp_path) if p.startswith("journal-damaged")] == []


def test_bits_flipped_in_the_flash_log_are_damage_and_the_sectors_are_offered(tmp_path):
    """On the raw-flash log a bad record with good records after it is not
    a tear (a cut tears only the last record written): the game before it
    is restored, the damage said, and the log's bytes read off the board."""
    flash = FakeNorFlash(16, block=REGION_SECTOR)
    app, hw, clock = _app(tmp_path / "osada", flash)
    assert _request(app, hw, clock, {"id": 1, "cmd": "new", "players": 2, "seed": 11})["ok"]
    acts = []
    play({"players": 2, "seed": 11}, 11, keep=lambda g, a, e: acts.append(a), skill=2)
    for k, a in enumerate(acts[:20]):
        assert _request(app, hw, clock, {"id": 10 + k, "cmd": "act", "action": a})["ok"]
    j = app.siege.journal
    blk = j._gen % 16
    before = bytes(flash.data)
    base = blk * REGION_SECTOR
    at = j._pos - 13 * 6                             # the 15th action record (13 bytes each) ...
    while not flash.data[base + at]:
        at += 1
    flash.data[base + at] = 0                        # ... its first byte not 0 cleared, as a bad cell does
    app, hw, clock = _app(tmp_path / "osada", flash)
    boot = [json.loads(x) for x in hw.serial.host_take().splitlines() if b'"boot"' in x]
    app.tick()
    boot = boot or [json.loads(x) for x in hw.serial.host_take().splitlines() if b'"boot"' in x]
    assert boot and boot[0]["restored"] is True and boot[0]["seq"] == 14
    assert "could not be read" in boot[0]["lost"] and "good records after it" in boot[0]["lost"]
    assert _request(app, hw, clock, {"id": 9, "cmd": "journal"})["kept"] == "flash"
    hello = _request(app, hw, clock, {"id": 2, "cmd": "hello"})
    assert hello["journal"] == "damaged"
    r = _request(app, hw, clock, {"id": 3, "cmd": "journal", "read": base})
    assert bytes.fromhex(r["hex"]) == bytes(flash.data[base:base + 512]) and r["bytes"] == 16 * REGION_SECTOR
    assert before != bytes(flash.data)


def test_a_damaged_newer_snapshot_is_kept_on_flash_until_the_log_needs_its_sectors(tmp_path):
    """Issue 64, 3: damage in the newest snapshot's sectors (a bad cell with good records
    after it) falls back to the older snapshot, says so, and does not erase the damaged
    sectors at boot (a snapshot cut short, with no damage, is erased as before): they stay
    for `osada journal save` until the log needs their room, and then the game goes on."""
    flash = FakeNorFlash(4, block=1024)
    j = FlashLog(flash, 0, 4, 1024)
    j.start(Game.from_setup({"players": 2, "seed": 13}).setup_dict())
    acts = _game(13, 400)
    k = 0
    while j._gen < 3:                                  # the newest snapshot (a compaction) in sector 3
        j.append(acts[k])
        k += 1
    assert j.compactions == 1 and j._base == 3
    pos = j._pos - 13 * 3
    while not flash.data[3 * 1024 + pos]:
        pos += 1
    flash.data[3 * 1024 + pos] = 0
    kept = bytes(flash.data[3 * 1024:4 * 1024])
    before_bytes = bytes(flash.data)
    j2 = FlashLog(flash, 0, 4, 1024)
    g = j2.restore()
    assert g is not None and j2.damage is not None and "good records after it" in j2.damage
    assert j2.kept_after >= 0 and bytes(flash.data[3 * 1024:4 * 1024]) == kept    # not erased at boot
    restored = len(g.log)
    j2.append(acts[restored])                          # a ring of 4 has no room after them: the kept ones go
    assert j2.kept_after == -1
    assert journal_load(FlashLog(flash, 0, 4, 1024))[1] == g.log.tuples() + [acts[restored]]
    # on a larger ring the log writes after them, and they stay
    flash8 = FakeNorFlash(8, block=1024)
    flash8.data[:4 * 1024] = before_bytes
    j3 = FlashLog(flash8, 0, 8, 1024)
    g3 = j3.restore()
    j3.append(acts[len(g3.log)])
    assert j3.kept_after >= 0 and bytes(flash8.data[3 * 1024:4 * 1024]) == kept
    assert journal_load(FlashLog(flash8, 0, 8, 1024))[1] == g3.log.tuples() + [acts[len(g3.log)]]
