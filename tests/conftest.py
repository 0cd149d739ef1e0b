"""Shared test setup.

Tests marked `micropython` run code in the real MicroPython VM (Node.js and
the npm package from package.json).  Without Node.js at all they are skipped
with the reason; with Node.js but without the VM installed they fail with the
fix, because `make test` always installs it first."""

import pytest

_vm_checked = []


def pytest_runtest_setup(item):
    if item.get_closest_marker("micropython") is None:
        return
    from osada import mpyvm
    if not _vm_checked:
        if mpyvm.find_node() is None:
            _vm_checked.append(("skip", "Node.js not found; install Node 18+ to run the MicroPython VM tests"))
        else:
            try:
                mpyvm.ensure_vm()
                _vm_checked.append(("ok", None))
            except mpyvm.MicroPythonUnavailable as exc:
                _vm_checked.append(("fail", str(exc)))
    verdict, reason = _vm_checked[0]
    if verdict == "skip":
        pytest.skip(reason)
    if verdict == "fail":
        pytest.fail(reason, pytrace=False)
