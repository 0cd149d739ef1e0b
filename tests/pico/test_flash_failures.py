"""The game never stops for the flash (issue 19), on the official firmware
on the emulated Pico: the table of failures.  The journal is the raw-flash
log in the blocks of a littlefs file (osada_fw/store/lfsregion.py), made by `make
uf2` or at the first boot; a board with no room for that file keeps the
littlefs-file journal (osada_fw/store/journal.py).

    littlefs full, journal file made   does not matter: the log is not written through littlefs
    littlefs full, no room to make it  every action accepted; one the file will not take is
                               saved in a rewrite of the game; when that will not fit
                               either, `saved: false` / "flash full"
    flash ignores erase/program  a saved game restores; a fresh board plays unsaved
                               ("flash not writable" from the raw log, "flash full"
                               from littlefs)
    littlefs unmountable       MicroPython's own _boot.py formats it: the app is gone and
                               the board sits at the REPL (README: re-flash)
    {"cmd": "repl"}            the REPL answers a line of Python, no reboot

The CPython versions of these are tests/firmware/test_flash_faults.py."""

import json
import os
import time

import pytest
from pico_support import IDLE_HIGH, accepted_actions, boot, boot_fs, connect, mirror_after
from rules_support import engine_state

from osada.flash import deploy, fsimage
from osada_fw.store import lfsregion
from osada_fw.store.journal import Journal
from tests.support import pico_emu as pe

T = 30.0
FREE_BLOCKS = 3           # room for the journal of a new game, not for many actions
SETUP = {"players": 2, "mode": "standard", "variants": [], "seed": 1}
# A flash that ignores erase and program reads back what it had, not what was
# written: littlefs takes every block it writes for bad, moves on to the next,
# and ends with LFS_ERR_NOSPC.  So the words are "flash full", not "flash not
# writable" (which only an EROFS/EACCES/EPERM would give).
IGNORED_WRITES = "flash full"
# The raw-flash journal reads back every erase and program: EROFS.
RAW_IGNORED_WRITES = "flash not writable"


def boot_image(bundle, tmp_path_factory, image, wait=b'"ev": "boot"', **kw):
    """Boot the firmware with `image` (bytes) as its littlefs region."""
    path = str(tmp_path_factory.mktemp("lfs") / "fs.img")
    with open(path, "wb") as f:
        f.write(image)
    return boot_fs(bundle, path, wait=wait, **kw)


def events(pico, ev):
    """The `ev` events the board sent so far; the last one read whole (a
    test may come here as soon as its first bytes are in)."""
    needle = b'"ev": "%s"' % ev.encode()
    end = time.monotonic() + 60
    while True:
        text = bytes(pico.text)
        i = text.rfind(needle)
        if i < 0 or b"\n" in text[i:] or time.monotonic() > end or pico.proc.poll() is not None:
            break
        with pico.lock:
            pico.lock.wait(0.2)
    return [json.loads(line) for line in text.splitlines()
            if line.startswith(b"{") and needle in line]


def wait_any(pico, needles, timeout=60.0):
    end = time.monotonic() + timeout
    while not any(n in pico.text for n in needles):
        if time.monotonic() > end or pico.proc.poll() is not None:
            raise pe.EmulatorError("none of %r within %.0f s; got %r" % (needles, timeout,
                                                                         bytes(pico.text[-300:])))
        pico.read_serial(timeout=0.2)


def play(link, actions, seq0=0, batch=10):
    """Send the actions, `batch` requests at a time (the device answers them
    in order); each must be accepted.  Returns the replies."""
    replies = []
    for i in range(0, len(actions), batch):
        rids = [link.send("act", action=a) for a in actions[i:i + batch]]
        replies += [link.wait_reply(rid, timeout=T) for rid in rids]
    for k, r in enumerate(replies):
        assert r["ok"] and r["seq"] == seq0 + k + 1, r
    return replies


# ------------------------------------------------------------ littlefs full

def test_a_full_littlefs_never_refuses_an_action(bundle, tmp_path_factory):
    """No room on littlefs for the journal's file (the app came over serial
    onto a nearly full board): the journal is a littlefs file, and fills."""
    files = deploy.bundle_files(bundle)
    pico = boot_image(bundle, tmp_path_factory, fsimage.image(files, free_blocks=FREE_BLOCKS, journal=False),
                      flash_timing=False)
    try:
        link = connect(pico)
        new = link.request("new", timeout=T, **SETUP)
        assert new["ok"] and "saved" not in new          # a new game's journal fits
        actions, _ = accepted_actions(SETUP, 150, skill=2)
        # a short game first: the device's state is the CPython engine's
        replies = play(link, actions[:12])
        st = link.request("state", timeout=T)
        assert st["seq"] == 12 and st["state"] == engine_state(mirror_after(SETUP, actions[:12]))
        # then on, live, none refused for the flash: an action that the file
        # will not take is saved in a rewrite of the whole game (store/retry.py),
        # until even that does not fit; then the game plays on unsaved
        done = 12
        while done < len(actions) and _marks(replies).count("-") < 5:
            n = 1 if "-" in _marks(replies) else 10            # ten at a time until it first fills
            replies += play(link, actions[done:done + n], seq0=done)
            done += n
        pattern = _marks(replies)
        print("saved (s) or not (-), action by action:", pattern)
        assert pattern.count("-") == 5, "150 actions and the journal never filled"
        assert pattern.rstrip("-").count("-") == 0       # once unsaved, the rewrites from RAM do not fit either
        actions = actions[:done]
        st = link.request("state", timeout=T)
        assert st["seq"] == done and st["state"] == engine_state(mirror_after(SETUP, actions))
        unsaved = [r for r in replies if "saved" in r]
        assert unsaved and pattern.endswith("-")
        assert all(r["saved"] is False and r["journal"] == "flash full" for r in unsaved)
        # the run of unsaved actions is one `journal` event out
        expected = []
        for before, now in zip("s" + pattern, pattern):
            if before != now:
                expected.append({"ev": "journal", "saved": now == "s",
                                 "status": "ok" if now == "s" else "flash full"})
        assert events(pico, "journal") == expected
        assert st["journal"] == "flash full" and link.request("hello", timeout=T)["journal"] == "flash full"
        # what the flash holds is the game up to the last action saved: a
        # power cut now loses the unsaved tail, nothing else
        image = str(tmp_path_factory.mktemp("cut") / "flash.bin")
        pico.cut_power(image)
    finally:
        pico.stop()
    saved = pattern.rindex("s") + 1
    pico = pe.EmulatedPico(flash=image, high=IDLE_HIGH, flash_timing=False)
    try:
        pico.wait_text(b'"ev": "boot"', timeout=60)
        boot_ev = events(pico, "boot")[0]
        assert boot_ev["restored"] is True and boot_ev["seq"] == saved and "lost" not in boot_ev
        st = connect(pico).request("state", timeout=T)
        assert st["state"] == engine_state(mirror_after(SETUP, actions[:saved]))
    finally:
        pico.stop()


def _marks(replies):
    """The replies as a string: "s" saved, "-" not."""
    return "".join("s" if "saved" not in r else "-" for r in replies)


def test_a_full_littlefs_does_not_touch_the_raw_journal(bundle, tmp_path_factory):
    """The journal's file was made (make uf2): the log writes its blocks
    directly, so a full littlefs does not matter, every action is saved."""
    files = deploy.bundle_files(bundle)
    pico = boot_image(bundle, tmp_path_factory, fsimage.image(files, free_blocks=1), flash_timing=False)
    try:
        link = connect(pico)
        assert link.mirror.hello["journal"] == "ok"
        assert link.request("new", timeout=T, **SETUP)["ok"]
        actions, game = accepted_actions(SETUP, 30, skill=2)
        replies = play(link, actions)
        assert not [r for r in replies if "saved" in r]
        st = link.request("state", timeout=T)
        assert st["journal"] == "ok" and st["state"] == engine_state(game)
        assert not events(pico, "journal")
    finally:
        pico.stop()


# ------------------------------------------- flash that ignores erase and program

def _image_with_raw_journal(files, game):
    """The filesystem region with the journal's file holding `game`, written
    on the host (lfsregion over the image's bytes, as the board would)."""
    buf = bytearray(fsimage.image(files))
    fs = fsimage.mount(buf)
    j = lfsregion.open_region(fsimage.flash_on(buf), fsimage.STATE_DIR, fsimage.LfsOs(fs), fs.open)
    j.start(game.setup_dict())
    for t in game.log.tuples():
        j.append(t)
    return bytes(buf)


@pytest.mark.parametrize("journal", ["raw", "file"])
def test_a_saved_game_restores_from_flash_that_cannot_be_written(bundle, tmp_path_factory, tmp_path, journal):
    actions, _ = accepted_actions(SETUP, 8, skill=2)
    game = mirror_after(SETUP, actions)
    files = deploy.bundle_files(bundle)
    if journal == "file":                   # a board whose littlefs had no room for the journal's file
        d = str(tmp_path / "osada")
        j = Journal(d)
        j.start(game.setup_dict())
        for t in game.log.tuples():
            j.append(t)
        j.close()
        for name in os.listdir(d):
            with open(os.path.join(d, name), "rb") as f:
                files["/osada/" + name] = f.read()
        image = fsimage.image(files, journal=False)
        words = IGNORED_WRITES
    else:
        image = _image_with_raw_journal(files, game)
        words = RAW_IGNORED_WRITES
    fs = str(tmp_path / "fs.img")
    with open(fs, "wb") as f:
        f.write(image)
    pico = boot_fs(bundle, fs, flash_writes=False)
    try:
        boot_ev = events(pico, "boot")
        assert boot_ev[0]["restored"] is True and boot_ev[0]["seq"] == 8 and "lost" not in boot_ev[0]
        link = connect(pico)
        st = link.request("state", timeout=T)
        assert st["seq"] == 8 and st["state"] == engine_state(game)
        # the next action is played, not saved
        more, _ = accepted_actions(SETUP, 10, skill=2)
        r = link.request("act", timeout=T, action=more[8])
        assert r["ok"] and r["seq"] == 9 and r["saved"] is False and r["journal"] == words
        assert link.request("state", timeout=T)["state"] == engine_state(mirror_after(SETUP, more[:9]))
        assert not pico.flash_ops
    finally:
        pico.stop()


@pytest.fixture(scope="module")
def readonly(bundle, tmp_path_factory):
    """A fresh board (main.py, config.json) whose flash ignores erase and program."""
    p = boot(bundle, tmp_path_factory, flash_writes=False)
    yield p
    p.stop()


def test_a_fresh_board_with_flash_that_cannot_be_written_plays_unsaved(readonly):
    pico = readonly
    boot_ev = events(pico, "boot")[0]
    assert boot_ev["restored"] is False and boot_ev["journal"] == RAW_IGNORED_WRITES
    link = connect(pico)
    hello = link.mirror.hello
    assert hello["journal"] == boot_ev["journal"]
    assert link.request("new", timeout=T, **SETUP)["ok"]
    actions, game = accepted_actions(SETUP, 5, skill=2)
    replies = play(link, actions)
    assert all(r["saved"] is False and r["journal"] == hello["journal"] for r in replies)
    st = link.request("state", timeout=T)
    assert st["state"] == engine_state(game) and st["journal"] == hello["journal"]
    assert events(pico, "journal") == [{"ev": "journal", "saved": False, "status": hello["journal"]}]
    assert not pico.flash_ops


# ------------------------------------------------------- unmountable littlefs

def test_an_unmountable_littlefs_is_formatted_by_micropython_and_the_app_is_gone(bundle, tmp_path_factory):
    """What no app code can prevent (README: the re-flash that restores the
    board): MicroPython's own _boot.py cannot mount the filesystem, formats
    it and mounts the empty one; main.py went with it, so the board sits at
    the REPL.  Pinned here so that the README's words stay true."""
    image = bytearray(fsimage.image(deploy.bundle_files(bundle)))
    image[:2 * fsimage.FS_BLOCK] = b"\0" * (2 * fsimage.FS_BLOCK)     # both superblock copies (blocks 0 and 1)
    pico = boot_image(bundle, tmp_path_factory, bytes(image), wait=None)
    try:
        pico.write_serial(b"\r\n")
        wait_any(pico, (b'"ev": "boot"', b">>> "))
        assert b'"ev": "boot"' not in pico.text
        pico.write_serial(b"import os; print(sorted(os.listdir('/')))\r")
        pico.wait_text(b"\r\n[]\r\n", timeout=60)
    finally:
        pico.stop()


# ----------------------------------------------------------------- repl

def test_repl_gives_a_python_prompt_without_a_reboot(readonly):
    pico = readonly
    link = connect(pico)
    assert link.request("repl", timeout=T)["bye"] is True
    pico.wait_text(b"osada: app stopped, REPL ready", timeout=60)
    pico.write_serial(b"print(6*7)\r")
    pico.wait_text(b"\r\n42\r\n", timeout=60)
    assert bytes(pico.text).count(b'"ev": "boot"') == 1
