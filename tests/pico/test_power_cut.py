"""The journal on real flash: the harness gives MicroPython a working flash
(the bootrom's flash routines), so a power cut is the emulator stopping with
its flash bytes kept, and a reboot is a new emulator on them.  Both journals:
the raw-flash log at the top of the ROMFS partition (osada_fw/flashlog.py,
the ROMFS firmware) and the littlefs file (osada_fw/journal.py, the stock
firmware)."""

import pytest
from pico_support import IDLE_HIGH, accepted_actions, boot, connect, mirror_after
from rules_support import engine_state

from osada import pico_emu as pe
from osada_fw.flashlog import RAW_BLOCKS
from shared_rules.autoplay import random_setup

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


@pytest.fixture(scope="module", params=["romfs", "stock"])
def played(request, bundle, tmp_path_factory):
    """A game of 6 acknowledged actions, and the flash image saved right
    after the last acknowledgement (power cut); plus the ones after; and
    which firmware ("romfs": raw-flash journal, "stock": littlefs)."""
    actions, _ = accepted_actions(SETUP, 12, skill=1)
    pico = boot(bundle, tmp_path_factory, romfs=request.param == "romfs")
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
    return image, actions, request.param


def test_acknowledged_actions_survive_a_power_cut(played):
    image, actions, _firmware = played
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


# From the image at seq 6, the next actions write: on the stock firmware
# (littlefs) one page program each for actions 7, 8, 9; action 10 erases a
# sector (flash op 4), then programs.  On the ROMFS firmware (raw-flash log)
# every action is one page program, and no action erases.
@pytest.mark.parametrize("op_number", [1, 4], ids=["program", "erase"])
def test_a_cut_inside_a_flash_write_loses_at_most_the_unacknowledged_action(played, op_number, tmp_path):
    image, actions, firmware = played
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
    assert info["cut"] == ("erase" if op_number == 4 and firmware == "stock" else "program")
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


def _raw_only(firmware):
    if firmware != "romfs":
        pytest.skip("the raw-flash journal is the ROMFS firmware's")


def test_raw_journal_actions_only_program_pages(played):
    """ROMFS firmware: a new game and its actions cost page programs (a
    record can straddle two pages), no erase: a fresh board's sectors are
    blank, and a used one is erased by the idle loop ahead of time."""
    image, actions, firmware = played
    _raw_only(firmware)
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


def test_a_cut_in_the_idle_pre_erase_loses_nothing(played, tmp_path):
    """ROMFS firmware: the sectors after the log hold old data (as after
    the ring went round), so the idle loop erases the next one after boot;
    a power cut in the middle of that erase loses nothing."""
    image, actions, firmware = played
    _raw_only(firmware)
    with open(image, "rb") as f:
        flash = bytearray(f.read())
    region = pe.ROMFS_OFFSET + pe.ROMFS_BYTES - RAW_BLOCKS * 4096
    for s in range(2, RAW_BLOCKS):             # the game is in sectors 0 and 1; the rest: junk
        flash[region + s * 4096:region + (s + 1) * 4096] = b"\0" * 4096
    dirty = str(tmp_path / "dirty.bin")
    with open(dirty, "wb") as f:
        f.write(flash)
    cut = str(tmp_path / "cut.bin")
    pico = pe.EmulatedPico(flash=dirty, high=IDLE_HIGH)
    try:
        pico.cut_power_in_flash(1, cut)        # restoring only reads: op 1 is the idle erase
        info = pico.wait_off()                 # (its boot event may still be in the USB FIFO)
    finally:
        pico.stop()
    assert info["cut"] == "erase"
    pico = reboot(cut)
    try:
        assert b'"restored": true' in pico.text and b'"seq": 6' in pico.text and b'"lost"' not in pico.text
        link = connect(pico)
        for k, a in enumerate(actions[6:9]):
            assert link.request("act", timeout=T, action=a)["seq"] == 7 + k
        st = link.request("state", timeout=T)
        assert st["journal"] == "ok" and st["state"] == engine_state(mirror_after(SETUP, actions[:9]))
    finally:
        pico.stop()


def test_the_raw_journal_survives_a_new_littlefs(played, tmp_path, bundle):
    """ROMFS firmware: the game lives in the ROMFS partition, so a littlefs
    formatted afresh (and main.py and config.json copied back, as `make
    flash` does) still boots into it."""
    image, actions, firmware = played
    _raw_only(firmware)
    with open(image, "rb") as f:
        flash = bytearray(f.read())
    fresh = pe.littlefs_image(pe.flash_files(bundle[0], with_code=False))
    flash[pe.FS_OFFSET:pe.FS_OFFSET + len(fresh)] = fresh
    path = str(tmp_path / "reformatted.bin")
    with open(path, "wb") as f:
        f.write(flash)
    pico = reboot(path)
    try:
        assert b'"restored": true' in pico.text and b'"seq": 6' in pico.text
        st = connect(pico).request("state", timeout=T)
        assert st["state"] == engine_state(mirror_after(SETUP, actions[:6]))
    finally:
        pico.stop()
