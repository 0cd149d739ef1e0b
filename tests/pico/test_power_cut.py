"""The journal on real flash: the harness gives MicroPython a working flash
(the bootrom's flash routines), so a power cut is the emulator stopping with
its flash bytes kept, and a reboot is a new emulator on them.  The journal is
the raw-flash log (osada_fw/store/flashlog.py) in the blocks of a littlefs file
(osada_fw/store/lfsregion.py), on the official image."""

import pytest
from pico_support import IDLE_HIGH, accepted_actions, boot, connect, mirror_after
from rules_support import engine_state

from osada.flash import fsimage
from osada_fw.store import flashlog, lfsregion
from shared_rules.siege.autoplay import random_setup
from tests.support import pico_emu as pe

T = 30.0
SETUP = random_setup(7)


def reboot(image, wait=b'"ev": "boot"'):
    """A board on these flash bytes, once its boot event has come whole."""
    p = pe.EmulatedPico(flash=image, high=IDLE_HIGH)
    p.wait_text(wait, timeout=60)
    while b"\n" not in p.text[p.text.find(wait):]:
        p.wait_text(wait, timeout=60)           # raises if the board stopped
        with p.lock:
            p.lock.wait(0.2)
    return p


@pytest.fixture(scope="module")
def played(bundle, tmp_path_factory):
    """A game of 6 acknowledged actions, and the flash image saved right
    after the last acknowledgement (power cut); plus the ones after."""
    actions, _ = accepted_actions(SETUP, 12, skill=1)
    pico = boot(bundle, tmp_path_factory)
    try:
        link = connect(pico)
        assert link.request("new", timeout=T, **SETUP)["ok"]
        for k, a in enumerate(actions[:6]):
            reply = link.request("act", timeout=T, action=a)
            assert reply["ok"] and reply["seq"] == k + 1 and "saved" not in reply
        image = str(tmp_path_factory.mktemp("cut") / "flash.bin")
        pico.cut_power(image)
    finally:
        pico.stop()
    return image, actions


def journal_blocks(flash):
    """The littlefs blocks of the journal's file, from its map on this flash image."""
    fs = fsimage.mount(bytearray(flash[pe.FS_OFFSET:]))
    with fs.open(fsimage.STATE_DIR + "/" + lfsregion.MAP, "rb") as f:
        m = f.read()
    return [m[10 + 2 * i] | m[11 + 2 * i] << 8 for i in range(lfsregion.BLOCKS)]


def test_acknowledged_actions_survive_a_power_cut(played):
    image, actions = played
    pico = reboot(image)
    try:
        assert b'"restored": true' in pico.text and b'"seq": 6' in pico.text
        link = connect(pico)
        st = link.request("state", timeout=T)
        assert st["seq"] == 6 and st["journal"] == "ok"
        assert st["state"] == engine_state(mirror_after(SETUP, actions[:6]))
        # and the game goes on from there
        assert link.request("act", timeout=T, action=actions[6])["seq"] == 7
    finally:
        pico.stop()


# From the image at seq 6, every action is one page program (two when its
# record straddles a page), and no action erases.
@pytest.mark.parametrize("op_number", [1, 3])
def test_a_cut_inside_a_flash_write_loses_at_most_the_unacknowledged_action(played, op_number, tmp_path):
    image, actions = played
    cut = str(tmp_path / "cut.bin")
    pico = reboot(image)
    acked = 6
    try:
        link = connect(pico)
        pico.cut_power_in_flash(op_number, cut)
        for a in actions[6:]:
            try:
                reply = link.request("act", timeout=T, action=a)
            except OSError:
                break                          # the power went in the middle of it
            assert reply["ok"] and reply["seq"] == acked + 1
            acked += 1
        info = pico.wait_off()
    finally:
        pico.stop()
    assert info["cut"] == "program"
    pico = reboot(cut)
    try:
        link = connect(pico)
        st = link.request("state", timeout=T)
        assert st["seq"] in (acked, acked + 1)
        assert st["state"] == engine_state(mirror_after(SETUP, actions[:st["seq"]]))
        assert st["journal"] == "ok"
        assert link.request("act", timeout=T, action=actions[st["seq"]])["seq"] == st["seq"] + 1
    finally:
        pico.stop()


def test_raw_journal_actions_only_program_pages(played):
    """A new game and its actions cost page programs (a record can
    straddle two pages), no erase: a fresh board's sectors are blank, and
    a used one is erased by the idle loop ahead of time."""
    image, actions = played
    pico = reboot(image)
    try:
        link = connect(pico)
        ops0 = len(pico.flash_ops)
        assert link.request("new", timeout=T, **SETUP)["seq"] == 0
        for k, a in enumerate(actions[:4]):
            assert link.request("act", timeout=T, action=a)["seq"] == k + 1
        ops = [o[0] for o in pico.flash_ops[ops0:]]
        assert "erase" not in ops and 5 <= ops.count("program") <= 7, ops
    finally:
        pico.stop()


# op 1: inside the idle erase of the next sector; op 2: inside the program
# of that block's first page, which gives littlefs its skip-list back
@pytest.mark.parametrize("op_number", [1, 2], ids=["erase", "first-page"])
def test_a_cut_in_the_idle_pre_erase_loses_nothing(played, tmp_path, op_number):
    """The sectors after the log hold old data (as after the ring went
    round), so the idle loop erases the next one after boot, then puts
    littlefs's pointers back in its first page; a power cut inside either
    loses nothing, and littlefs works on (the block is repaired at boot)."""
    image, actions = played
    with open(image, "rb") as f:
        flash = bytearray(f.read())
    blocks = journal_blocks(flash)
    for b in blocks[2:flashlog.LOG_BLOCKS]:   # the game is in sectors 0 and 1; the rest: junk (first pages kept)
        at = pe.FS_OFFSET + b * 4096
        flash[at + 256:at + 4096] = b"\0" * (4096 - 256)
    dirty = str(tmp_path / "dirty.bin")
    with open(dirty, "wb") as f:
        f.write(flash)
    cut = str(tmp_path / "cut.bin")
    pico = pe.EmulatedPico(flash=dirty, high=IDLE_HIGH)
    try:
        pico.cut_power_in_flash(op_number, cut)   # restoring only reads: op 1 is the idle erase
        info = pico.wait_off()                    # (its boot event may still be in the USB FIFO)
    finally:
        pico.stop()
    assert info["cut"] == ("erase", "program")[op_number - 1]
    assert info["addr"] == pe.FS_OFFSET + blocks[2] * 4096
    pico = reboot(cut)
    try:
        assert b'"restored": true' in pico.text and b'"seq": 6' in pico.text and b'"lost"' not in pico.text
        link = connect(pico)
        for k, a in enumerate(actions[6:9]):
            assert link.request("act", timeout=T, action=a)["seq"] == 7 + k
        st = link.request("state", timeout=T)
        assert st["journal"] == "ok" and st["state"] == engine_state(mirror_after(SETUP, actions[:9]))
        saved = str(tmp_path / "after.bin")
        pico.save_flash(saved)
    finally:
        pico.stop()
    # littlefs can walk every file's list again (it must, to allocate)
    with open(saved, "rb") as f:
        fs = fsimage.mount(bytearray(f.read()[pe.FS_OFFSET:]))
    assert fs.used_block_count > lfsregion.BLOCKS


def test_a_chain_of_bit_level_cuts_loses_no_acknowledged_action(bundle, tmp_path_factory, tmp_path):
    """Issue 64: cut, power on, restore, act, cut again, on one flash; each
    cut inside a flash erase or program torn bit by bit, or at a random
    moment of a request.  After every power on the board holds the last
    acknowledged game (or that with the change in flight), and says
    nothing of damage.  (The long run, 1,000 cuts: tests/bench/pico_cuts.py.)"""
    from pico_support import one_file

    from tests.support.pico_chain import Chain
    chain = Chain(random_setup(11), one_file(bundle, tmp_path_factory), str(tmp_path), seed=11)
    for _ in range(6):
        chain.trial()
    chain.final_check()
    f = chain.figures()
    assert f["cuts"] == 6 and f["acknowledged_lost"] == 0 and f["failed_boots"] == 0
    assert f["in_program"] + f["in_erase"] >= 1
