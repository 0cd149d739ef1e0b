"""Every rule id shared_rules.victory declares (IMPLEMENTED) is a rule of the
spec and is named by a test (`test_v15_...`, or `test_v37_v38_...` for two)."""

import os
import re

import pytest

from shared_rules.victory import IMPLEMENTED

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SPEC = os.path.join(os.path.dirname(ROOT), "shared", "spec", "victory-day.md")


def ids_named_by_tests():
    found = set()
    for dirpath, _dirs, files in os.walk(os.path.join(ROOT, "tests")):
        for f in files:
            if f.startswith("test_") and f.endswith(".py"):
                with open(os.path.join(dirpath, f), encoding="utf-8") as fh:
                    for name in re.findall(r"^\s*def (test_\w+)", fh.read(), re.M):
                        found.update("V" + n for n in re.findall(r"(?:^test|_)v(\d+)(?=_)", name))
    return found


def test_ids_are_read_from_test_names():
    assert re.findall(r"(?:^test|_)v(\d+)(?=_)", "test_v37_v38_v40_worked_example_8") == ["37", "38", "40"]


def test_every_declared_id_is_named_by_a_test():
    missing = sorted(set(IMPLEMENTED) - ids_named_by_tests(), key=lambda v: int(v[1:]))
    assert missing == [], "declared but named by no test: %s" % ", ".join(missing)


@pytest.mark.skipif(not os.path.isfile(SPEC), reason="the spec (../shared/spec) is not beside this checkout")
def test_every_declared_id_is_in_the_spec():
    with open(SPEC, encoding="utf-8") as fh:
        spec = {"V" + n for n in re.findall(r"^- \*\*V(\d+)\.\*\*", fh.read(), re.M)}
    assert len(spec) == 40
    assert sorted(set(IMPLEMENTED) - spec) == []
