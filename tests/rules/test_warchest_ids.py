"""Every W id the War Chest code names (the rules core, the host's tools and
the device's round tracker) is declared (an IMPLEMENTED) or listed here as
the players' own.  That every declared id is in the spec and named
by a test is tests/test_spec_coverage.py's, for every game."""

import os
import re

import pytest

from osada_fw.warchest import IMPLEMENTED as DEVICE
from shared_rules.warchest import IMPLEMENTED

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SPEC = os.path.join(os.path.dirname(ROOT), "shared", "spec", "war-chest.md")
# left to the players: the draft (W26), the unit cards' own texts (WA2).  The initiative flip (W6)
# is the device's (osada_fw/warchest/); the host's tracker is told who holds it.
LEFT_TO_THE_TABLE = ("W26", "WA2")


def test_every_id_the_code_names_is_declared_or_left_to_the_table():
    named = set()
    for folder in (os.path.join(ROOT, "shared_rules", "warchest"), os.path.join(ROOT, "host", "osada", "warchest"),
                   os.path.join(ROOT, "firmware", "osada_fw", "warchest")):
        for f in os.listdir(folder):
            if f.endswith(".py"):
                with open(os.path.join(folder, f), encoding="utf-8") as fh:
                    named.update(re.findall(r"\b(WA?\d+)\b", fh.read()))
    assert sorted(named - set(IMPLEMENTED) - set(DEVICE) - set(LEFT_TO_THE_TABLE)) == []
    assert not set(LEFT_TO_THE_TABLE) & (set(IMPLEMENTED) | set(DEVICE))


@pytest.mark.skipif(not os.path.isfile(SPEC), reason="the spec (../shared/spec) is not beside this checkout")
def test_the_ids_left_to_the_table_are_rules_of_the_spec():
    with open(SPEC, encoding="utf-8") as fh:
        text = fh.read()
    in_spec = set(re.findall(r"\*\*(W\d+)\.\*\*", text)) | set(re.findall(r"\*\*(WA\d+)\*\*", text))
    assert sorted(set(LEFT_TO_THE_TABLE) - in_spec) == []
