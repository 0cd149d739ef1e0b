"""The rule ids the device's «День Победы» package plays (osada_fw/victory/mode.py's
IMPLEMENTED) are named by tests; that they are Victory Day's rules, marked as
the device's on docs/rules-victory-day.md, is tests/test_rule_ids.py's (the
reading of test names and pages is tests/rule_map.py's)."""

from osada_fw.victory.mode import IMPLEMENTED
from tests.rule_map import ids_named, names_of_tests, page_rows


def test_v8_every_id_the_device_plays_is_named_by_a_test():
    assert IMPLEMENTED and len(set(IMPLEMENTED)) == len(IMPLEMENTED)
    assert sorted(set(IMPLEMENTED) - ids_named(names_of_tests(), "V")) == []


def test_every_id_the_device_declares_is_on_the_rules_page_as_the_devices():
    rows = page_rows("victory")
    assert [i for i in IMPLEMENTED if i not in rows or "device" not in rows[i][1]] == []
