"""The journal on real flash: the harness gives MicroPython's littlefs a
working flash (the bootrom's flash routines), so a power cut is the emulator
stopping with its flash bytes kept, and a reboot is a new emulator on them."""

import pytest
from pico_support import IDLE_HIGH, accepted_actions, boot, connect, mirror_after
from rules_support import engine_state

from osada import pico_emu as pe
from shared_rules.autoplay import random_setup

T = 30.0
SETUP = random_setup(7)


def reboot(image, wait=b'"ev": "boot"'):
    p = pe.EmulatedPico(flash=image, high=IDLE_HIGH)
    p.wait_text(wait, timeout=60)
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


# From the image at seq 6, the next actions write: one page program each for
# actions 7, 8, 9; action 10 erases a sector (flash op 4), then programs.
@pytest.mark.parametrize("op_number", [1, 4], ids=["program", "erase"])
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
    assert info["cut"] == ("erase" if op_number == 4 else "program")
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
