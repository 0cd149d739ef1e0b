"""`osada sim --help` shows the journal directory and the config the simulator
will really use in this install (issue 26 item 11): after `pip install .`
there is no build/ nor firmware/ (no repository), and the help used to print
"build/sim-state" and "firmware/config.json" all the same.  The defaults come
from osada.files.paths at run time; here its answers are those of an installed
package (paths monkeypatched), and of a checkout."""

import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
try:
    import osada  # noqa: F401
except ImportError:  # run from the tree
    sys.path[:0] = [ROOT, os.path.join(ROOT, "host"), os.path.join(ROOT, "firmware")]

from osada import cli  # noqa: E402
from osada.files import paths  # noqa: E402


def sim_help(capsys):
    with pytest.raises(SystemExit) as ex:
        cli.main(["sim", "--help"])
    assert ex.value.code == 0
    out = capsys.readouterr().out
    return out, " ".join(out.split())


def parsed_sim_args(monkeypatch, *argv):
    got = []
    monkeypatch.setattr(cli, "cmd_sim", lambda args: got.append(args) or 0)
    assert cli.main(["sim"] + list(argv)) == 0
    return got[0]


@pytest.fixture
def installed(monkeypatch, tmp_path):
    """osada.files.paths as `pip install .` sets them: no checkout, the journal in the
    user's state directory, the config in the package."""
    home = tmp_path / "home"
    pkg = tmp_path / "venv" / "lib" / "python3" / "site-packages" / "osada" / "firmware_files"
    pkg.mkdir(parents=True)
    (pkg / "config.json").write_text("{}")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setattr(paths, "REPO", None)
    monkeypatch.setattr(paths, "SIM_STATE", str(home / ".local" / "state" / "osada" / "sim-state"))
    monkeypatch.setattr(paths, "DEFAULT_CONFIG", str(pkg / "config.json"))
    return pkg / "config.json"


def test_installed_sim_help_shows_the_paths_it_will_use(capsys, monkeypatch, installed):
    out, flat = sim_help(capsys)
    assert "build/sim-state" not in flat and "firmware/config.json" not in flat
    assert "--state STATE directory for the game journal (default: ~/.local/state/osada/sim-state)" in flat
    assert ("--config CONFIG hardware config (default: the built-in config that ships with osada, %s)"
            % installed) in flat
    assert str(installed) in out.split()[out.split().index("osada,") + 1]    # the path whole, on one line
    args = parsed_sim_args(monkeypatch)                                       # and those are the defaults used
    assert args.state == paths.SIM_STATE and args.config == str(installed)
    args = parsed_sim_args(monkeypatch, "--state", "/s", "--config", "/c.json")
    assert (args.state, args.config) == ("/s", "/c.json")


def test_installed_without_its_config_says_so(capsys, installed):
    os.remove(str(installed))
    _out, flat = sim_help(capsys)
    assert "the built-in config, missing from this install (reinstall osada)" in flat


def test_checkout_sim_help_names_the_checkouts_files(capsys, monkeypatch, tmp_path):
    repo = tmp_path / "osada"
    (repo / "firmware").mkdir(parents=True)
    (repo / "firmware" / "config.json").write_text("{}")
    monkeypatch.setattr(paths, "REPO", str(repo))
    monkeypatch.setattr(paths, "SIM_STATE", str(repo / "build" / "sim-state"))
    monkeypatch.setattr(paths, "DEFAULT_CONFIG", str(repo / "firmware" / "config.json"))
    out, flat = sim_help(capsys)
    assert "(default: %s)" % (repo / "build" / "sim-state") in flat
    assert "(default: this checkout's firmware/config.json, %s)" % (repo / "firmware" / "config.json") in flat
    assert "/tmp/osada-sim)" in out.split()                # not split at its hyphen
