"""Every W id the War Chest code names (the rules core, the host's tools and
the device's round tracker) is declared (an IMPLEMENTED) or marked as the
table's on docs/rules-war-chest.md.  That every declared id is on the page
and named by a test is tests/test_rule_ids.py's, for every game."""

import os
import re

from osada_fw.warchest import IMPLEMENTED as DEVICE
from shared_rules.warchest import IMPLEMENTED
from tests.rule_map import ROOT, TABLE, kind, page_rows

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


def test_the_ids_left_to_the_table_are_the_pages():
    rows = page_rows("warchest")
    assert sorted(LEFT_TO_THE_TABLE) == sorted(i for i, (_rule, who) in rows.items() if kind(who) == TABLE)
