"""`pip install .` (not editable) gives a working `osada` (issue #10 item 21).

Offline and in a few seconds: a copy of the package's sources is built with
the setuptools the dev dependencies pin (--no-build-isolation) and installed
(--no-deps) into a throwaway venv whose only other path is this venv's
site-packages, for the dependencies; that path is added by a .pth line, so
the editable install of the checkout is not seen there.  Every command runs
outside the checkout, so nothing can be found through the repository.
"""

import json
import os
import shutil
import subprocess
import sys
import sysconfig

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCES = ("pyproject.toml", "setup.py", "README.md", "host", "shared_rules", "firmware")

pytestmark = pytest.mark.install


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("install")
    src = tmp / "src"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.so")      # the checkout's own build of csrc/ too
    for name in SOURCES:
        p = os.path.join(ROOT, name)
        if os.path.isdir(p):
            shutil.copytree(p, str(src / name), ignore=ignore)
        else:
            os.makedirs(str(src), exist_ok=True)
            shutil.copy(p, str(src / name))
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    py = str(venv / "bin" / "python")
    purelib = subprocess.run([py, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                             check=True, capture_output=True, text=True).stdout.strip()
    with open(os.path.join(purelib, "osada-deps.pth"), "w") as f:
        f.write(sysconfig.get_path("purelib") + "\n")
    proc = subprocess.run([sys.executable, "-m", "pip", "--python", py, "install", "--verbose",
                           "--disable-pip-version-check", "--no-index", "--no-build-isolation", "--no-deps",
                           str(src)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    home = tmp / "home"
    home.mkdir()
    env = dict(os.environ, HOME=str(home), XDG_STATE_HOME=str(home / "state"))
    env.pop("PYTHONPATH", None)
    return {"bin": venv / "bin", "py": py, "env": env, "cwd": str(home), "home": home,
            "build_output": proc.stdout + proc.stderr, "purelib": purelib}


def _run(installed, *args, timeout=60):
    return subprocess.run(list(args), cwd=installed["cwd"], env=installed["env"],
                          capture_output=True, text=True, timeout=timeout)


def test_installed_package_is_not_the_checkout(installed):
    proc = _run(installed, installed["py"], "-c",
                "import osada, osada_fw, shared_rules; from osada.files import paths; "
                "print(paths.REPO); print(osada.__file__); print(shared_rules.__file__)")
    assert proc.returncode == 0, proc.stderr
    repo, *files = proc.stdout.split()
    assert repo == "None"
    for f in files:
        assert not f.startswith(ROOT + os.sep), f


def test_osada_help_and_a_scenario(installed):
    osada = str(installed["bin"] / "osada")
    proc = _run(installed, osada, "--help")
    assert proc.returncode == 0 and "scenario" in proc.stdout, proc.stderr
    # the scenario files ship with the package
    proc = _run(installed, installed["py"], "-c",
                "import shared_rules.siege.examples as e; print(list(e.__path__)[0])")
    examples = proc.stdout.strip()
    assert os.path.isfile(os.path.join(examples, "wall_choice.json")), proc.stderr
    proc = _run(installed, osada, "scenario", os.path.join(examples, "wall_choice.json"))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["outcome"] == "playing"
    proc = _run(installed, osada, "demo", "--seed", "1", "--turns", "1")
    assert proc.returncode == 0 and "seed 1" in proc.stdout, proc.stderr
    # the second game's subpackage (shared_rules.tank) ships too
    proc = _run(installed, osada, "tank", "odds", "--dice", "6", "--hit", "3")
    assert proc.returncode == 0 and "expected hits: 3" in proc.stdout, proc.stderr


def test_sim_help_shows_the_paths_this_install_uses(installed):
    # issue 26 item 11: it printed the checkout's build/sim-state and firmware/config.json
    proc = _run(installed, str(installed["bin"] / "osada"), "sim", "--help")
    assert proc.returncode == 0, proc.stderr
    flat = " ".join(proc.stdout.split())
    assert "build/sim-state" not in flat and "firmware/config.json" not in flat, flat
    assert "directory for the game journal (default: ~/state/osada/sim-state)" in flat, flat   # XDG_STATE_HOME
    proc = _run(installed, installed["py"], "-c", "from osada.files import paths; print(paths.DEFAULT_CONFIG)")
    config = proc.stdout.strip()
    assert os.path.isfile(config), proc.stderr
    assert "hardware config (default: the built-in config that ships with osada, %s)" % config in flat, flat


def test_sim_and_firmware_bundle_find_their_files(installed):
    # the simulator loads config.json from the package and keeps its journal in the user's state dir
    link = str(installed["home"] / "sim-link")
    proc = subprocess.Popen([str(installed["bin"] / "osada"), "sim", "--headless", "--link", link],
                            cwd=installed["cwd"], env=installed["env"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=10)
    assert "serial port" in line, line + out + err
    assert os.path.isdir(str(installed["home"] / "state" / "osada" / "sim-state")), line
    # the Pico bundle: main.py and config.json from the package, the code from its packages
    out_dir = str(installed["home"] / "bundle")
    proc = _run(installed, installed["py"], "-c",
                "from osada.flash import deploy; print(len(deploy.build(%r, quiet=True)))" % out_dir)
    assert proc.returncode == 0, proc.stderr
    for name in ("main.py", "config.json", "osada_fw/app.mpy", "shared_rules/siege/engine.mpy"):
        assert os.path.isfile(os.path.join(out_dir, name)), name


def test_the_monitor_ships_its_stylesheet(installed):
    # monitor.tcss is package data (pyproject: [tool.setuptools.package-data]); the app reads it by CSS_PATH
    proc = _run(installed, installed["py"], "-c",
                "import os; from osada.monitor import MonitorApp; "
                "p = MonitorApp(port='x').css_path[0]; print(os.path.isfile(p), p)")
    assert proc.returncode == 0, proc.stderr
    ok, path = proc.stdout.split()
    assert ok == "True" and path.endswith(os.path.join("osada", "monitor", "monitor.tcss"))
    assert not path.startswith(ROOT + os.sep), path


def test_the_web_view_ships_its_page(installed):
    """`osada web` (issue 41): its page, script and style are package data, and its help runs."""
    proc = _run(installed, installed["py"], "-c",
                "import os, osada.web.server as s; print(sorted(os.listdir(s.STATIC)))")
    assert proc.returncode == 0, proc.stderr
    assert all(name in proc.stdout for name in ("index.html", "app.js", "style.css")), proc.stdout
    proc = _run(installed, str(installed["bin"] / "osada"), "web", "--help")
    assert proc.returncode == 0 and "--lan" in proc.stdout and "8765" in proc.stdout, proc.stderr


def test_the_forecast_s_compiled_search_is_built_where_a_compiler_is(installed):
    """setup.py builds host/osada/siege/forecast/csrc/ into the install when the machine has a
    C compiler (as this one has when the checkout's own was built), and the forecast uses it."""
    from osada.siege.forecast import compiled
    if compiled.CORE is None:
        pytest.skip("the forecast's compiled search is not built (make setup needs a C compiler for it)")
    proc = _run(installed, installed["py"], "-c", "import osada.siege.forecast.compiled as c; "
                "print(c.CORE.__file__ if c.CORE else None)")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().startswith(str(installed["home"].parent / "venv")), proc.stdout


def test_every_python_folder_is_a_listed_package():
    """A folder of Python modules missing from pyproject's `packages` is left out of an
    install (osada.siege.forecast once was: an installed monitor could not start)."""
    import re
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "pyproject.toml"), encoding="utf-8") as f:
        text = f.read()
    block = text[text.index("packages = ["):text.index("[tool.setuptools.package-data]")]
    listed = set(re.findall(r'"([a-z_.]+)"', block))
    homes = {"osada": "host/osada", "shared_rules": "shared_rules", "osada_fw": "firmware/osada_fw"}
    missing = []
    for top, rel in homes.items():
        for dirpath, dirs, files in os.walk(os.path.join(root, rel)):
            dirs[:] = [d for d in dirs if d not in ("__pycache__", "static")]
            if any(f.endswith(".py") for f in files):
                name = top if os.path.samefile(dirpath, os.path.join(root, rel)) else \
                    top + "." + os.path.relpath(dirpath, os.path.join(root, rel)).replace(os.sep, ".")
                if name not in listed:
                    missing.append(name)
    assert missing == []


def test_the_build_declares_its_data_so_it_says_nothing_of_ignored_packages(installed):
    """Issue 61 item 3: the first `make run` printed two screens of setuptools' "Package would be
    ignored" (osada.web.static, the forecast's C sources): both are declared packages now."""
    out = installed["build_output"]
    assert "would be ignored" not in out and "is not listed in" not in out, out[-3000:]
    assert os.path.isfile(os.path.join(installed["purelib"], "osada", "web", "static", "app.js"))
