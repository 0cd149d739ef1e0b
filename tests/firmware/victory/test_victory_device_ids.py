"""The rule ids the device's «День Победы» package plays (osada_fw/victory/mode.py's
IMPLEMENTED) are rules of the spec, each named by a test; the rest of the spec
is the host's rules core's (shared_rules.victory.IMPLEMENTED) or the players'.
The scan of test names and of the spec is tests/test_spec_coverage.py's."""

import os

import pytest
from test_spec_coverage import SPECS, ids_named, names_of_tests, spec_ids

from osada_fw.victory.mode import IMPLEMENTED

SPEC = "victory-day.md"


def test_v8_every_id_the_device_plays_is_named_by_a_test():
    assert IMPLEMENTED and len(set(IMPLEMENTED)) == len(IMPLEMENTED)
    assert sorted(set(IMPLEMENTED) - ids_named(names_of_tests(), "V")) == []


def test_every_id_the_device_declares_is_a_rule_of_the_spec():
    if not os.path.isfile(os.path.join(SPECS, SPEC)):
        pytest.skip("the spec (../shared/spec) is not beside this checkout")
    assert sorted(set(IMPLEMENTED) - spec_ids(SPEC, "V")) == []
