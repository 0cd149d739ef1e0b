"""`make firmware`: the Pico bundle is built, holds what the board needs and
nothing host-only, and boots inside real MicroPython from its .mpy files."""

import json
import os
import subprocess
import sys

import pytest

from osada import deploy, mpyvm
from osada.mpybuild import BuildError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_bundle_has_the_board_files_and_no_host_code(tmp_path):
    out = tmp_path / "fw"
    files = deploy.build(str(out), quiet=True)
    rel = sorted(os.path.relpath(f, out) for f in files)
    assert "main.py" in rel and "config.json" in rel
    assert "osada_fw/app.mpy" in rel and "osada_fw/hal/pico.mpy" in rel
    assert "shared_rules/engine.mpy" in rel and "shared_rules/catalog.mpy" in rel
    for host_only in ("osada_fw/hal/fake.mpy", "shared_rules/autoplay.mpy", "shared_rules/scenario.mpy"):
        assert host_only not in rel
    assert not [r for r in rel if r.endswith(".py") and r != "main.py"]
    # every .mpy is bytecode-only mpy v6 ('M', 6, no native arch): what MicroPython 1.20+ loads
    for f in files:
        if f.endswith(".mpy"):
            head = open(f, "rb").read(3)
            assert head == b"M\x06\x00", (f, head)


def test_bundle_refuses_a_bad_config(tmp_path):
    bad = tmp_path / "config.json"
    bad.write_text(json.dumps({"leds": {"layout": "hexagon"}}))
    with pytest.raises(Exception) as ei:
        deploy.build(str(tmp_path / "fw"), config=str(bad), quiet=True)
    assert "layout" in str(ei.value)


@pytest.mark.micropython
def test_bundle_boots_in_micropython_from_its_mpy_files(tmp_path):
    out = tmp_path / "fw"
    deploy.build(str(out), quiet=True)
    req = tmp_path / "req.jsonl"
    req.write_text('{"id": 1, "cmd": "hello"}\n{"id": 2, "cmd": "act", "action": {"do": "move"}}\n')
    proc = mpyvm.run(os.path.join(ROOT, "tests", "mpy", "fw_smoke.py"), ["/req.jsonl"],
                     mounts=[(str(out / "shared_rules"), "/lib/shared_rules"),
                             (str(out / "osada_fw"), "/lib/osada_fw"),
                             (os.path.join(ROOT, "tests", "mpy", "fakes"), "/fakes")],
                     files=[(str(req), "/req.jsonl")])
    assert proc.returncode == 0, proc.stderr.decode()
    lines = [json.loads(l) for l in proc.stdout.decode().splitlines()]
    replies = {o["id"]: o for o in lines if "id" in o}
    assert replies[1]["ok"] and replies[1]["protocol"] == 1
    assert replies[2]["ok"] and replies[2]["seq"] == 1
    # no .py of the app was there to fall back on: these came from the .mpy files
    assert not list((out / "osada_fw").glob("*.py"))


def test_make_firmware_command_builds(tmp_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "host"), ROOT,
                                                       os.path.join(ROOT, "firmware")]))
    proc = subprocess.run([sys.executable, "-m", "osada.deploy", "build"], capture_output=True,
                          text=True, env=env, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert "built build/firmware" in proc.stdout and "mpy v6.3" in proc.stdout


def test_romfs_image_holds_the_code_for_boards_with_a_rom_partition(tmp_path):
    out = tmp_path / "fw"
    deploy.build(str(out), quiet=True)
    image = (tmp_path / "fw.romfs").read_bytes()
    assert image[:3] == b"\xd2\xcd\x31"                      # the ROMFS header
    # every .mpy of the code is in it, byte for byte (executed in place on the board)
    for sub in ("osada_fw", "shared_rules"):
        for name in os.listdir(out / sub):
            if name.endswith(".mpy"):
                assert (out / sub / name).read_bytes() in image, name
    # those stay on the filesystem: no ROMFS entry (length byte, then the name) for them
    for name in (b"__init__.mpy", b"engine.mpy"):
        assert bytes([len(name)]) + name in image
    for name in (b"main.py", b"config.json"):
        assert bytes([len(name)]) + name not in image
