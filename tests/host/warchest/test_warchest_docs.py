"""docs/war-chest.md says what the commands print: every `$ .venv/bin/osada
warchest ...` block is run and its output compared, line for line; the
tracker's screen shown there holds the spec's example 6 estimate as the
tracker draws it; its key table names every key of the app."""

import os
import re
import shlex

import pytest

from osada import cli
from osada.warchest import render
from osada.warchest.app import KEYS
from osada.warchest.journal import Journal

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
DOC = os.path.join(ROOT, "docs", "war-chest.md")


def blocks():
    with open(DOC, encoding="utf-8") as f:
        text = f.read()
    return re.findall(r"```[a-z]*\n(.*?)```", text, re.S), text


def commands():
    found = []
    for block in blocks()[0]:
        if block.startswith("$ .venv/bin/osada warchest "):
            first, _sep, rest = block.partition("\n")
            found.append((shlex.split(first[len("$ .venv/bin/osada "):]), rest))
    return found


def test_the_doc_shows_commands():
    assert len(commands()) >= 4


@pytest.mark.parametrize("argv,printed", commands(), ids=[" ".join(c[0][:2]) + " " + str(i)
                                                        for i, c in enumerate(commands())])
def test_w8_w9_w29_the_doc_prints_what_the_command_prints(argv, printed, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert cli.main(argv) == 0
    assert capsys.readouterr().out == printed


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
