"""The War Chest rule ids the device plays (osada_fw.warchest.IMPLEMENTED):
each is named by a test and is a rule of the spec, and the device's code
names no id it does not declare.  The test-name scan and the pages' ids are
tests/rule_map.py's, the one home of that reading."""

import os
import re

from osada_fw.warchest import IMPLEMENTED
from tests.rule_map import ROOT, ids_named, names_of_tests, page_rows


def test_every_id_the_device_plays_is_named_by_a_test():
    assert len(IMPLEMENTED) == len(set(IMPLEMENTED)) >= 8
    missing = sorted(set(IMPLEMENTED) - ids_named(names_of_tests(), "WA?"), key=lambda i: (len(i), i))
    assert missing == [], "rules with no test naming them: %s" % ", ".join(missing)


def test_every_id_the_device_declares_is_on_the_rules_page_as_the_devices():
    rows = page_rows("warchest")
    assert [i for i in IMPLEMENTED if i not in rows or "device" not in rows[i][1]] == []


def test_the_device_code_names_only_the_ids_it_declares():
    """W3 and W26 are named as what the initiative fix is for (the players'
    setups that give the marker without a flip: not played by the device)."""
    folder = os.path.join(ROOT, "firmware", "osada_fw", "warchest")
    named = set()
    for f in os.listdir(folder):
        if f.endswith(".py"):
            with open(os.path.join(folder, f), encoding="utf-8") as fh:
                named.update(re.findall(r"\b(WA?\d+)\b", fh.read()))
    assert sorted(named - set(IMPLEMENTED) - {"W3", "W24", "W25", "W26"}) == []
