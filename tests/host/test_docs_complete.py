"""The docs name what there is (issue 42, item 9): docs/monitor.md's "Every
command" table every `osada` command and subcommand; firmware/README.md's file
table every package of the device's code; the MicroPython versions as the
flashing code has them (one place: osada.flash); the serial port's permissions
and the three systems."""

import os
import re

import pytest

from osada import cli
from osada.flash import deploy, official

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def read(*path):
    with open(os.path.join(ROOT, *path), encoding="utf-8") as f:
        return f.read()


def commands(capsys, *argv):
    """The subcommands `osada ARGV --help` lists."""
    with pytest.raises(SystemExit):
        cli.main(list(argv) + ["--help"])
    text = capsys.readouterr().out
    block = text.split("positional arguments:")[1].split("options:")[0]
    return re.findall(r"^    ([a-z][a-z0-9_-]*)", block, re.M)


def every_command_table():
    text = read("docs", "monitor.md")
    return text.split("## Every command")[1].split("\n## ")[0]


def test_every_command_of_osada_is_in_the_docs_table(capsys):
    table = every_command_table()
    rows = [ln for ln in table.splitlines() if ln.startswith("| `")]
    top = commands(capsys)
    assert {"line", "victory", "warchest", "device", "sim", "monitor"} <= set(top)
    for cmd in top:
        row = [r for r in rows if re.search(r"osada (?:[a-z]+ / )*%s\b" % cmd, r)]
        assert row, "docs/monitor.md, Every command: no row for `osada %s`" % cmd
        if cmd in ("line", "victory", "warchest", "tank"):
            for sub in commands(capsys, cmd):
                assert any(re.search(r"\b%s\b" % sub, r.split("|")[1]) for r in row), "osada %s %s" % (cmd, sub)


def test_firmware_readme_names_every_package_and_the_versions_flash_uses():
    text = read("firmware", "README.md")
    table = text.split("| file | what it is |")[1].split("\n\n")[0]
    fw = os.path.join(ROOT, "firmware", "osada_fw")
    for name in sorted(os.listdir(fw)):
        if os.path.isfile(os.path.join(fw, name, "__init__.py")):
            assert "`osada_fw/%s/`" % name in table, name
    first = text.split("\n\n")[1]
    assert "MicroPython %s" % official.VERSION in first
    serial = deploy.MPY_RELEASES.replace("MicroPython ", "")         # "1.20 or newer"
    for page in (("firmware", "README.md"), ("docs", "monitor.md"), ("README.md",)):
        assert serial in read(*page) and "1.20+" not in read(*page), page


def test_the_docs_say_serial_permissions_and_the_systems():
    text = read("docs", "monitor.md")
    assert "sudo usermod -aG dialout $USER" in text
    for system in ("**Linux**", "**macOS**", "**Windows**"):
        assert system in text
