"""The device check's configuration really sees only the Pico's MicroPython.

A copy of its scope (firmware/ and shared_rules/, the config unchanged) gets
code that runs on CPython but not on the Pico; the checker must fail on it,
naming each.  `make check` runs the check itself on the real tree.
"""

import os
import shutil

from static_check import ROOT, ensure_stub_env, run


def test_device_check_rejects_cpython_only_code(tmp_path):
    ensure_stub_env()
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(os.path.join(ROOT, "firmware"), str(tmp_path / "firmware"), ignore=ignore)
    shutil.copytree(os.path.join(ROOT, "shared_rules"), str(tmp_path / "shared_rules"), ignore=ignore)
    os.symlink(os.path.join(ROOT, ".venv"), str(tmp_path / ".venv"))   # the config's stubs-only env
    (tmp_path / "firmware" / "osada_fw" / "cpython_only.py").write_text(
        "import dataclasses\n"
        "import time\n"
        "import machine\n"
        "\n"
        "t = time.perf_counter()\n"
        "ok = time.ticks_ms(), machine.Pin\n"          # the Pico has these: no error
    )
    res = run(str(tmp_path / "firmware" / "pyrightconfig.json"), capture=True)
    out = res.stdout
    assert res.returncode != 0, out
    assert 'cpython_only.py:1:8 - error: Import "dataclasses" could not be resolved' in out, out
    assert 'cpython_only.py:5:10 - error: "perf_counter" is not a known attribute of module "time"' in out, out
    assert "2 errors" in out, out          # and nothing else: the real tree is clean
