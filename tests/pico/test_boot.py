"""Boot-time behaviour of the real main.py on the emulated Pico, installed
as `make uf2`'s one file: the keys held at power-on, the config file missing
or corrupt, the one file dragged onto a board that held another filesystem,
and a flash that cannot be written."""

import json

from pico_support import IDLE_HIGH, PINS, boot, boot_fs, connect, one_file, write_fs

from osada.flash import deploy, fsimage, uf2
from osada_fw.store import lfsregion
from tests.support import pico_emu as pe

T = 30.0


def repl_answers(pico):
    pico.write_serial(b"\r\nprint(6 * 7)\r\n")
    pico.wait_text(b"\r\n42\r\n", timeout=60)


def test_back_held_at_boot_keeps_the_repl(bundle, tmp_path_factory):
    high = [p for p in IDLE_HIGH if p != PINS["back"]]
    pico = boot(bundle, tmp_path_factory, high=high, low=(PINS["back"],),
                wait=b"BACK held at boot: app not started, REPL kept")
    try:
        repl_answers(pico)
        assert b'"ev": "boot"' not in pico.text
    finally:
        pico.stop()


def test_action_held_at_boot_runs_the_led_selftest(bundle, tmp_path_factory):
    high = [p for p in IDLE_HIGH if p != PINS["action"]]
    pico = boot(bundle, tmp_path_factory, high=high, low=(PINS["action"],),
                wait=b'"ev": "selftest"')
    try:
        link = connect(pico)
        # the self-test lights one LED at a time: the strip shows it
        pico.play([(PINS["switch"], True, 200)])
        link.request("hello", timeout=T)
        lit = [sum(1 for i in range(0, 72, 3) if any(f[i:i + 3])) for _t, f in pico.frames[-3:]]
        assert lit and max(lit) == 1
        events = [json.loads(line) for line in bytes(pico.text).splitlines() if b'"selftest"' in line]
        assert events[0]["led"] == 0 and events[0]["sector"] == 1
        assert [e["led"] for e in events] == list(range(len(events)))      # one LED after another
    finally:
        pico.stop()


def test_no_config_file_means_the_defaults(bundle, tmp_path_factory):
    pico = boot(bundle, tmp_path_factory, config=False)
    try:
        hello = connect(pico).mirror.hello
        assert (hello["leds"], hello["layout"]) == (24, "spokes")
    finally:
        pico.stop()


def test_a_corrupt_config_file_stops_the_app_with_a_message_and_keeps_the_repl(bundle, tmp_path_factory):
    # config.load refuses it (ConfigError): main.py stops, the REPL stays usable
    pico = boot(bundle, tmp_path_factory, config=b'{"leds": {"pin": 2,', wait=b"is not valid JSON")
    try:
        assert b"/config.json is not valid JSON" in pico.text
        repl_answers(pico)
    finally:
        pico.stop()


def test_a_config_with_a_bad_value_is_refused_by_name(bundle, tmp_path_factory):
    bad = json.dumps({"leds": {"brightness": 999}}).encode()
    pico = boot(bundle, tmp_path_factory, config=bad, wait=b"leds.brightness must be an integer 1-255")
    pico.stop()


def _older_filesystem():
    """The region as a board used for months leaves it: littlefs with other
    files, written over and over (its superblock pair's revision counts far
    above a fresh image's), a main.py that is not ours."""
    fs = fsimage.fresh()
    fs.mkdir("/lib")
    for k in range(400):
        with fs.open("/main.py", "wb") as f:
            f.write(b"print('the old program %d')\n" % k)
        with fs.open("/lib/data%d.txt" % (k % 7), "wb") as f:
            f.write(b"x" * (k * 37 % 5000))
        fs.rename("/main.py", "/old.py")
        fs.rename("/old.py", "/main.py")
    return bytes(fs.context.buffer)


def test_the_one_file_install_over_an_older_filesystem_boots_into_the_game(bundle, tmp_path_factory, tmp_path):
    """Dragged onto a board whose filesystem held something else, the one
    file replaces it whole: the board boots into the game, on our config."""
    flash = bytearray(b"\xff" * uf2.FLASH_BYTES)
    flash[pe.FS_OFFSET:] = _older_filesystem()
    cfg = dict(json.load(open(bundle + "/config.json")), leds=dict(json.load(open(bundle + "/config.json"))["leds"],
                                                                   layout="rings"))
    with open(one_file(bundle, tmp_path_factory, config=json.dumps(cfg).encode()), "rb") as f:
        for addr, payload, _family in uf2.parse(f.read()):       # what the bootrom does with the file
            flash[addr - uf2.XIP_BASE:addr - uf2.XIP_BASE + len(payload)] = payload
    path = str(tmp_path / "flash.bin")
    with open(path, "wb") as f:
        f.write(flash)
    pico = pe.EmulatedPico(flash=path, high=IDLE_HIGH)
    try:
        pico.wait_text(b'"ev": "boot"', timeout=60)
        link = connect(pico)
        assert link.mirror.hello["layout"] == "rings" and link.mirror.hello["journal"] == "ok"
        assert link.request("new", timeout=T, seed=5)["ok"]
        assert link.request("act", timeout=T, action={"do": "move"})["seq"] == 1
        assert b"the old program" not in pico.text
    finally:
        pico.stop()


def test_a_board_whose_app_came_over_serial_makes_the_journals_file_at_its_first_boot(bundle, tmp_path_factory,
                                                                                      tmp_path):
    """`make flash` over serial copies the app but not the journal's file:
    the board makes it at its first boot, then journals there (page programs
    only, no erase in an action)."""
    fs = write_fs(tmp_path_factory, deploy.bundle_files(bundle), journal=False)
    pico = boot_fs(bundle, fs)
    try:
        link = connect(pico)
        assert link.mirror.hello["journal"] == "ok"
        assert link.request("new", timeout=T, seed=5)["ok"]
        ops = len(pico.flash_ops)
        for k in range(3):
            assert link.request("act", timeout=T, action={"do": "move"} if k == 0 else {"do": "end_turn"})["ok"]
        assert "erase" not in [o[0] for o in pico.flash_ops[ops:]]
        saved = str(tmp_path / "flash.bin")
        pico.save_flash(saved)
    finally:
        pico.stop()
    with open(saved, "rb") as f:
        made = fsimage.mount(bytearray(f.read()[pe.FS_OFFSET:]))
    assert sorted(made.listdir(fsimage.STATE_DIR))[:2] == [lfsregion.MAP, lfsregion.RAW]
    assert made.stat(fsimage.STATE_DIR + "/" + lfsregion.RAW).size == lfsregion.file_size()


def test_with_flash_that_cannot_be_written_the_game_goes_on_unsaved(bundle, tmp_path_factory):
    # rp2040js alone: the filesystem mounts (reads work) but nothing can be written
    pico = boot(bundle, tmp_path_factory, flash_writes=False)
    try:
        link = connect(pico)
        assert link.mirror.hello["journal"] != "ok"
        assert link.request("new", timeout=T, seed=5)["ok"]
        reply = link.request("act", timeout=T, action={"do": "move"})
        assert reply["ok"] and reply["seq"] == 1 and reply["saved"] is False
        assert not pico.flash_ops
    finally:
        pico.stop()
