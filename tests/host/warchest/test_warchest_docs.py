"""docs/war-chest.md says what the commands print (its `$ .venv/bin/osada
warchest ...` blocks are rerun by tests/host/test_doc_examples.py); the
tracker's screen shown there holds the spec's example 6 estimate as the
tracker draws it; its key table names every key of the app."""

import os
import re

from osada.warchest import render
from osada.warchest.app import KEYS
from osada.warchest.journal import Journal

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
DOC = os.path.join(ROOT, "docs", "war-chest.md")


def blocks():
    with open(DOC, encoding="utf-8") as f:
        text = f.read()
    return re.findall(r"```[a-z]*\n(.*?)```", text, re.S), text


def test_w24_the_docs_screen_is_the_trackers_for_the_example_game():
    g = Journal.load(os.path.join(ROOT, "tests", "host", "warchest", "example-game.json")).game()
    panel = render.panel(g, 1).splitlines()
    assert "  archer   3/8 (37.5%)" in panel and "  cavalry  9/14 (64.3%)" in panel
    screen = next(b for b in blocks()[0] if "public view" in b)
    for line in panel[-5:]:
        assert line in screen
    assert render.round_line(g) in screen


def test_the_docs_key_table_names_every_key():
    text = blocks()[1]
    table = text[text.index("### Keys"):text.index("## A saved game")]
    for key, _action, _shown, _what in KEYS:
        assert "`%s`" % ("?" if key == "question_mark" else key) in table
