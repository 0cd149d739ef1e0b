"""Every rule id the War Chest rules core declares (IMPLEMENTED) is in the
spec and has a test whose name holds it in lower case (`test_w14_...`,
`test_wa1_...`), and every W id the package's code names is declared or
listed here as the players' own."""

import os
import re

import pytest

from shared_rules.warchest import IMPLEMENTED

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SPEC = os.path.join(os.path.dirname(ROOT), "shared", "spec", "war-chest.md")
# left to the players: the initiative flip (W6: the tracker is told who holds it) and the draft (W26)
LEFT_TO_THE_TABLE = ("W6", "W26", "WA2")


def names_of_tests():
    names = set()
    for dirpath, _dirs, files in os.walk(os.path.join(ROOT, "tests")):
        for f in files:
            if f.startswith("test_") and f.endswith(".py"):
                with open(os.path.join(dirpath, f), encoding="utf-8") as fh:
                    names.update(re.findall(r"^\s*(?:async )?def (test_\w+)", fh.read(), re.M))
    return names


def ids_named(names):
    found = set()
    for name in names:
        found.update(i.upper() for i in re.findall(r"(?<=_)(wa?\d+)(?=_)", name))
    return found


def test_ids_are_read_from_test_names():
    assert ids_named({"test_w1_wa1_w28_counts", "test_w9_x", "test_other_w30_y", "test_wait_w"}) == \
        {"W1", "WA1", "W28", "W9", "W30"}


def test_every_declared_id_has_a_test_named_after_it():
    missing = sorted(set(IMPLEMENTED) - ids_named(names_of_tests()))
    assert missing == []


def test_every_id_the_code_names_is_declared_or_left_to_the_table():
    named = set()
    for folder in (os.path.join(ROOT, "shared_rules", "warchest"), os.path.join(ROOT, "host", "osada", "warchest")):
        for f in os.listdir(folder):
            if f.endswith(".py"):
                with open(os.path.join(folder, f), encoding="utf-8") as fh:
                    named.update(re.findall(r"\b(WA?\d+)\b", fh.read()))
    assert sorted(named - set(IMPLEMENTED) - set(LEFT_TO_THE_TABLE)) == []


@pytest.mark.skipif(not os.path.isfile(SPEC), reason="the spec (../shared/spec) is not beside this checkout")
def test_every_declared_id_is_in_the_spec():
    with open(SPEC, encoding="utf-8") as fh:
        text = fh.read()
    in_spec = set(re.findall(r"\*\*(W\d+)\.\*\*", text)) | set(re.findall(r"\*\*(WA\d+)\*\*", text))
    assert len(in_spec) == 36                           # W1-W30, WA1-WA6
    assert sorted(set(IMPLEMENTED) - in_spec) == []
    assert sorted(set(LEFT_TO_THE_TABLE) - in_spec) == []
