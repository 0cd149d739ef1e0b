"""`make test` starts the longest files first (tests/suite_order.py) so that its
processes end together; a file renamed or removed there would silently lose its place."""

import os

from suite_order import HEAVY_FIRST, heavy_first

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_every_heavy_file_exists_and_is_named_once():
    assert len(set(HEAVY_FIRST)) == len(HEAVY_FIRST)
    for path in HEAVY_FIRST:
        assert os.path.isfile(os.path.join(ROOT, path)), path


class _Item:
    def __init__(self, nodeid):
        self.nodeid = nodeid


def test_heavy_files_come_first_and_every_file_stays_whole_in_its_order():
    ids = ["tests/a_test.py::t1", "%s::t1" % HEAVY_FIRST[1], "tests/a_test.py::t2",
           "%s::t1" % HEAVY_FIRST[0], "%s::t2" % HEAVY_FIRST[1], "tests/b_test.py::t1"]
    items = [_Item(i) for i in ids]
    heavy_first(items)
    assert [i.nodeid for i in items] == [
        "%s::t1" % HEAVY_FIRST[0], "%s::t1" % HEAVY_FIRST[1], "%s::t2" % HEAVY_FIRST[1],
        "tests/a_test.py::t1", "tests/a_test.py::t2", "tests/b_test.py::t1"]
