"""Shared test setup.

Tests marked `micropython` run code in the real MicroPython VM (Node.js and
the npm package from package.json).  Without Node.js at all they are skipped
with the reason; with Node.js but without the VM installed they fail with the
fix, because `make test` always installs it first."""

import os

import pytest
import suite_order

_vm_checked = []

# the threat forecast's live workers (osada/siege/forecast_worker.py) at normal priority: at
# their nice 19 they would wait behind the suite's own two busy processes for minutes
os.environ.setdefault("OSADA_FORECAST_NICE", "0")


@pytest.fixture(params=["compiled", "python"])
def forecast_backend(request, monkeypatch):
    """A threat-forecast test run through both of its searches: the compiled one
    (host/osada/siege/forecast/csrc/, skipped with its reason where `make
    setup` could not build it) and the same search in Python."""
    from osada.siege.forecast import compiled
    if request.param == "python":
        monkeypatch.setattr(compiled, "CORE", None)
    elif compiled.CORE is None:
        pytest.skip("the forecast's compiled search is not built (make setup needs a C compiler for it)")
    return request.param


def pytest_collection_modifyitems(items):
    suite_order.heavy_first(items)


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


def pytest_terminal_summary(terminalreporter):
    """`make test`'s skipped tests, one line per reason with a count, not one per
    file: runs before the short summary folds them (it folds the same path,
    line and reason into one line; the same reason in many files is one now)."""
    fold_skips(terminalreporter.stats.get("skipped", []), str(terminalreporter.startpath))


def fold_skips(reports, root):
    """Give the skipped `reports` of one reason the same place: the one file, or the
    files' common folder and how many files (the summary then counts them as one line)."""
    import os
    by_reason = {}
    for r in reports:
        if isinstance(r.longrepr, tuple) and len(r.longrepr) == 3:
            by_reason.setdefault(r.longrepr[2], []).append(r)
    for reason, group in by_reason.items():
        files = sorted({os.path.abspath(str(r.longrepr[0])) for r in group})
        if len(files) == 1:
            where = files[0]
        else:
            common = os.path.commonpath(files)
            folder = common if os.path.isdir(common) else os.path.dirname(common)
            where = os.path.join(folder, "*.py (%d files)" % len(files))
        for r in group:
            r.longrepr = (where if len(files) > 1 else r.longrepr[0], None if len(files) > 1 else r.longrepr[1],
                          reason)
