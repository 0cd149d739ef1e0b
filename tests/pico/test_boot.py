"""Boot-time behaviour of the real main.py on the emulated Pico: the keys held
at power-on, the config file missing or corrupt, the stock firmware (code on
the filesystem), and a flash that cannot be written."""

import json

from pico_support import IDLE_HIGH, PINS, boot, connect

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


def test_the_stock_firmware_runs_the_app_from_the_filesystem(bundle, tmp_path_factory):
    pico = boot(bundle, tmp_path_factory, romfs=False)
    try:
        link = connect(pico)
        assert link.mirror.hello["journal"] == "ok"
        assert link.request("new", timeout=T, seed=5)["ok"]
        assert link.request("act", timeout=T, action={"do": "move"})["seq"] == 1
    finally:
        pico.stop()


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
