"""Static checks, run by `make check` (and so by `make test`) before pytest.

    python -m tests.static_check            # all three checks
    python -m tests.static_check lint       # ruff over the tree (pyproject.toml [tool.ruff])
    python -m tests.static_check device     # firmware/ + shared_rules/ against the Pico's MicroPython
    python -m tests.static_check host       # host/ against CPython

The device check (firmware/pyrightconfig.json) sees ONLY MicroPython's own
type stubs for the Pico (micropython-rp2-rpi-pico-stubs, whose stdlib is
micropython-stdlib-stubs; both pinned in pyproject.toml): an import of a
module the Pico lacks, or a name it lacks on machine, time, os, sys, ... is
an error.  Pyright takes its stdlib from `typeshedPath` and third-party
modules from a virtual environment, so the two stub packages' files are laid
out here as a stand-alone, stubs-only environment, .venv/mpy-stubs/ (CPython's
own stdlib and site-packages must stay out of sight, or `import dataclasses`
would resolve).  It is rebuilt from the installed stub packages, offline,
whenever their versions change.

The host check (pyrightconfig.json at the root) is pyright's basic mode,
loosened so that it passes today: the point is that it runs.
"""

import importlib.metadata
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STUB_DISTS = ("micropython-rp2-rpi-pico-stubs", "micropython-stdlib-stubs")
STUB_ENV = os.path.join(ROOT, ".venv", "mpy-stubs")          # named by firmware/pyrightconfig.json
STUB_SITE = os.path.join(STUB_ENV, "lib", "site-packages")
DEVICE_CONFIG = os.path.join(ROOT, "firmware", "pyrightconfig.json")
HOST_CONFIG = os.path.join(ROOT, "pyrightconfig.json")


def ensure_stub_env():
    """Lay out .venv/mpy-stubs/lib/site-packages from the installed stub packages."""
    dists = [importlib.metadata.distribution(name) for name in STUB_DISTS]
    stamp = "\n".join("%s==%s" % (d.metadata["Name"], d.version) for d in dists) + "\n"
    stamp_path = os.path.join(STUB_ENV, "STUBS")
    try:
        with open(stamp_path) as f:
            if f.read() == stamp:
                return STUB_SITE
    except OSError:
        pass
    shutil.rmtree(STUB_ENV, ignore_errors=True)
    for d in dists:
        for f in d.files or ():
            rel = str(f)
            if ".dist-info" in rel or not (rel.endswith(".pyi") or rel.endswith("VERSIONS")):
                continue
            dst = os.path.join(STUB_SITE, rel)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copyfile(str(f.locate()), dst)
    with open(stamp_path, "w") as f:
        f.write(stamp)
    return STUB_SITE


def run(config, files=(), capture=False):
    """Run basedpyright (its own bundled Node.js: no network) on a config."""
    cmd = [sys.executable, "-m", "basedpyright", "--project", config] + list(files)
    return subprocess.run(cmd, cwd=os.path.dirname(config), text=True,
                          stdout=subprocess.PIPE if capture else None,
                          stderr=subprocess.STDOUT if capture else None)


def lint():
    """ruff over the whole tree, configured in pyproject.toml ([tool.ruff])."""
    return subprocess.run([sys.executable, "-m", "ruff", "check", "--quiet", "."], cwd=ROOT)


def main(argv):
    which = argv or ["lint", "device", "host"]
    ensure_stub_env()
    failed = []
    for name in which:
        if name == "lint":
            print(">> lint: ruff check (pyproject.toml [tool.ruff])", flush=True)
            if lint().returncode != 0:
                failed.append(name)
            continue
        config = {"device": DEVICE_CONFIG, "host": HOST_CONFIG}[name]
        print(">> static check: %s (%s)" % (name, os.path.relpath(config, ROOT)), flush=True)
        if run(config).returncode != 0:
            failed.append(name)
    if failed:
        print("static check failed: %s" % ", ".join(failed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
