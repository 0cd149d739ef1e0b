"""Every rule id of the spec has at least one test that names it
(`test_r21_...`, or `test_r40_r42_...` for a test of two rules)."""

import os
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPEC = os.path.join(os.path.dirname(ROOT), "shared", "spec", "siege-rules.md")


def names_of_tests():
    names = set()
    for dirpath, _dirs, files in os.walk(os.path.join(ROOT, "tests")):
        for f in files:
            if f.startswith("test_") and f.endswith(".py"):
                with open(os.path.join(dirpath, f), encoding="utf-8") as fh:
                    names.update(re.findall(r"^\s*def (test_\w+)", fh.read(), re.M))
    return names


def rules_named(names):
    found = set()
    for name in names:
        found.update(int(n) for n in re.findall(r"(?:^test|_)r(\d+)(?=_)", name))
    return found


def test_rule_ids_are_read_from_test_names():
    assert rules_named({"test_r40_r42_case1", "test_r7_x", "test_other_r9"}) == {40, 42, 7}


@pytest.mark.skipif(not os.path.isfile(SPEC), reason="the spec (../shared/spec) is not beside this checkout")
def test_every_rule_id_of_the_spec_has_a_test():
    with open(SPEC, encoding="utf-8") as fh:
        ids = {int(n) for n in re.findall(r"^- R(\d+)\.", fh.read(), re.M)}
    assert len(ids) > 30
    missing = sorted(ids - rules_named(names_of_tests()))
    assert missing == [], "rules with no test naming them: %s" % ", ".join("R%d" % n for n in missing)
