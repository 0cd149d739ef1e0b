"""`make flash` with a Pico in BOOTSEL mode (issues 12 and 25): the one-file
install (the official firmware and the filesystem holding the app and
config.json) is copied onto its RPI-RP2 drive, and that is all; with no
BOOTSEL drive it deploys over serial; with neither it says how to enter
BOOTSEL mode.  The drive is a temp folder with an INFO_UF2.TXT (what the
RP2040 bootrom's drive holds); the firmware is synthetic; the serial side is faked."""

import os

import pytest
from uf2_support import synthetic_firmware

from osada.flash import deploy, fsimage, uf2

PICO_INFO = "UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\nBoard-ID: RPI-RP2\n"


def make_drive(root, name="RPI-RP2", info=PICO_INFO):
    d = root / name
    d.mkdir(parents=True)
    if info is not None:
        (d / "INFO_UF2.TXT").write_text(info)
        (d / "INDEX.HTM").write_text("<html></html>")
    return d


def test_the_rpi_rp2_drive_is_found_among_other_drives(tmp_path):
    media = tmp_path / "media" / "ann"
    make_drive(media, "STICK", info=None)                                  # a USB stick
    make_drive(media, "RP2350", info="UF2 Bootloader v1.0\nModel: Raspberry Pi RP2350\nBoard-ID: RP2350\n")
    assert deploy.find_bootsel_drive([str(tmp_path / "media" / "*" / "*")]) is None
    pico = make_drive(tmp_path / "run" / "media" / "ann")
    globs = [str(tmp_path / "media" / "*" / "*"), str(tmp_path / "run" / "media" / "*" / "*")]
    assert deploy.find_bootsel_drive(globs) == str(pico)


@pytest.fixture
def serial_side(monkeypatch):
    """The board's serial port shows up on the third look; flash() records its call."""
    calls = {"looks": 0, "flash": []}

    def find():
        calls["looks"] += 1
        return "/dev/ttyACM7" if calls["looks"] >= 3 else None

    monkeypatch.setattr(deploy, "find_pico", find)
    monkeypatch.setattr(deploy, "flash", lambda port: calls["flash"].append(port))
    monkeypatch.setattr(deploy.time, "sleep", lambda s: None)
    return calls


@pytest.fixture
def firmware(tmp_path, monkeypatch):
    """The official firmware, as a synthetic file given to make flash (FIRMWARE=...)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("OSADA_FIRMWARE_UF2", raising=False)
    path = tmp_path / "RPI_PICO-20260406-v1.28.0.uf2"
    path.write_bytes(synthetic_firmware())
    return str(path)


def test_bootsel_install_copies_the_one_file_and_nothing_goes_over_serial(tmp_path, serial_side, capsys, firmware):
    drive = make_drive(tmp_path)
    bundle = str(tmp_path / "out" / "firmware")
    os.makedirs(os.path.dirname(bundle))
    assert deploy.flash_bootsel(str(drive), bundle=bundle, firmware=firmware) == "/dev/ttyACM7"
    copied = (drive / "osada-pico.uf2").read_bytes()
    assert (tmp_path / "out" / "osada-pico.uf2").read_bytes() == copied
    blocks = uf2.parse(copied)
    fw = uf2.parse(open(firmware, "rb").read())
    assert blocks[:len(fw)] == fw                          # the firmware's blocks first, then the filesystem
    region = bytearray(b"".join(p for a, p, _f in blocks[len(fw):]))
    fs = fsimage.mount(region)
    with fs.open("/config.json", "rb") as f, open(os.path.join(bundle, "config.json"), "rb") as g:
        assert f.read() == g.read()                        # config.json is in the one file: no serial step
    assert serial_side["flash"] == []
    out = capsys.readouterr().out
    assert "copying" in out and "100%" in out and "done: the board is up on /dev/ttyACM7" in out


def test_bootsel_install_without_a_serial_port_afterwards_says_what_to_do(tmp_path, serial_side, monkeypatch,
                                                                          capsys, firmware):
    monkeypatch.setattr(deploy, "find_pico", lambda: None)
    drive = make_drive(tmp_path)
    bundle = str(tmp_path / "out" / "firmware")
    os.makedirs(os.path.dirname(bundle))
    assert deploy.flash_bootsel(str(drive), bundle=bundle, wait=0.0, firmware=firmware) is None
    assert (drive / "osada-pico.uf2").is_file() and serial_side["flash"] == []
    assert "did not show up" in capsys.readouterr().out


def test_bootsel_install_offline_with_no_firmware_says_where_to_get_it_and_writes_nothing(
        tmp_path, serial_side, monkeypatch, capsys):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("OSADA_FIRMWARE_UF2", raising=False)
    from osada.flash import official
    monkeypatch.setattr(official, "URL", "http://127.0.0.1:9/RPI_PICO-20260406-v1.28.0.uf2")   # nothing listens
    drive = make_drive(tmp_path)
    assert deploy.main(["flash", "--drive", str(drive)]) == 2
    err = capsys.readouterr().err
    assert "FIRMWARE=" in err and "micropython.org/download/RPI_PICO" in err
    assert sorted(os.listdir(drive)) == ["INDEX.HTM", "INFO_UF2.TXT"]
    assert not os.path.isdir(official.cache_dir()) or os.listdir(official.cache_dir()) == []


def test_a_folder_that_is_not_a_bootsel_drive_is_refused_before_anything_is_built(tmp_path, serial_side,
                                                                                  monkeypatch, capsys):
    monkeypatch.setattr(deploy, "build", lambda **kw: pytest.fail("built for a wrong drive"))
    stick = make_drive(tmp_path, "STICK", info=None)
    assert deploy.main(["flash", "--drive", str(stick)]) == 2
    err = capsys.readouterr().err
    assert "not a Pico in BOOTSEL mode" in err and "hold the BOOTSEL button" in err
    other = make_drive(tmp_path, "RP2350", info="Board-ID: RP2350\n")
    assert deploy.main(["flash", "--drive", str(other)]) == 2
    assert "not an RP2040 Pico's" in capsys.readouterr().err
    assert os.listdir(stick) == [] and sorted(os.listdir(other)) == ["INDEX.HTM", "INFO_UF2.TXT"]


def test_a_drive_that_cannot_be_written_gives_a_clear_error(tmp_path, serial_side, capsys, firmware):
    drive = make_drive(tmp_path)
    (drive / "osada-pico.uf2").mkdir()                   # open(..., "wb") fails: IsADirectoryError
    bundle = str(tmp_path / "out" / "firmware")
    os.makedirs(os.path.dirname(bundle))
    with pytest.raises(deploy.BuildError, match="cannot write to the Pico's drive"):
        deploy.flash_bootsel(str(drive), bundle=bundle, firmware=firmware)
    assert serial_side["flash"] == []


def test_make_flash_prefers_a_bootsel_drive_then_a_serial_board(tmp_path, monkeypatch, capsys):
    seen = []
    monkeypatch.setattr(deploy, "flash_bootsel",
                        lambda drive, port=None, firmware=None: seen.append(("bootsel", drive)))
    monkeypatch.setattr(deploy, "flash", lambda port: seen.append(("serial", port)))
    monkeypatch.setattr(deploy, "find_bootsel_drive", lambda: "/media/ann/RPI-RP2")
    monkeypatch.setattr(deploy, "find_pico", lambda: "/dev/ttyACM0")
    assert deploy.main(["flash"]) == 0
    monkeypatch.setattr(deploy, "find_bootsel_drive", lambda: None)
    assert deploy.main(["flash"]) == 0                   # a board already running MicroPython: as before
    assert seen == [("bootsel", "/media/ann/RPI-RP2"), ("serial", "/dev/ttyACM0")]


def test_make_flash_with_no_board_at_all_says_how_to_enter_bootsel_mode(monkeypatch, capsys):
    monkeypatch.setattr(deploy, "find_bootsel_drive", lambda: None)
    monkeypatch.setattr(deploy, "find_pico", lambda: None)
    assert deploy.main(["flash"]) == 2
    err = capsys.readouterr().err
    assert "no Pico found" in err and "hold the BOOTSEL button" in err and "PORT=" in err


def test_make_flash_names_a_bad_firmware_path_before_looking_for_a_board(monkeypatch, capsys, tmp_path):
    """Issue 42 item 10: `make flash FIRMWARE=/nonexistent.uf2` with no board said only "no Pico found"."""
    monkeypatch.setattr(deploy, "find_bootsel_drive", lambda: None)
    monkeypatch.setattr(deploy, "find_pico", lambda: None)
    missing = str(tmp_path / "nonexistent.uf2")
    assert deploy.main(["flash", "--firmware", missing]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: the firmware file %s" % missing) and "no Pico found" not in err
    assert deploy.main(["uf2", "--firmware", missing]) == 2
    assert capsys.readouterr().err.startswith("error: the firmware file %s" % missing)


def test_the_serial_install_copies_the_code_then_config_then_main_py(monkeypatch, tmp_path):
    """flash(port): the mpremote command, with the board faked."""
    monkeypatch.setattr(deploy, "check_board", lambda port: "osada")
    monkeypatch.setattr(deploy, "release_app", lambda port: None)
    monkeypatch.setattr(deploy, "build", lambda: [])
    monkeypatch.setattr(deploy, "_board", lambda port, code: "6 3")
    ran = []

    class Done:
        returncode = 0

    monkeypatch.setattr(deploy.subprocess, "run", lambda cmd: ran.append(cmd) or Done())
    deploy.flash("/dev/ttyACM7")
    cmd = " ".join(ran[0])
    assert "romfs" not in cmd and " rm " not in cmd        # nothing of the board's own is removed (the saved game)
    assert cmd.index("shared_rules") < cmd.index(":config.json") < cmd.index(":main.py") < cmd.index("reset")
