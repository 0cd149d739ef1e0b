"""docs/victory-day.md shows real output: every `$ .venv/bin/osada victory ...`
block there is run again (the file blocks it reads written first) and must
print exactly what the page shows."""

import os
import shlex
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
DOC = os.path.join(ROOT, "docs", "victory-day.md")
try:
    import osada  # noqa: F401
except ImportError:  # run from the tree
    sys.path[:0] = [ROOT, os.path.join(ROOT, "host")]

from osada.victory import cli  # noqa: E402

PROMPT = "$ .venv/bin/osada victory "


def blocks():
    """The page's fenced blocks, each as its list of lines."""
    with open(DOC, encoding="utf-8") as f:
        text = f.read()
    out, cur = [], None
    for line in text.split("\n"):
        if line.startswith("```"):
            if cur is None:
                cur = []
            else:
                out.append(cur)
                cur = None
        elif cur is not None:
            cur.append(line)
    return out


def examples():
    """The blocks of one command each; `toss` needs a board: test_victory_toss_cli.py replays those."""
    return [b for b in blocks() if b and b[0].startswith(PROMPT) and not b[0].startswith(PROMPT + "toss")]


def test_the_page_has_the_spec_examples():
    commands = [b[0][len(PROMPT):] for b in examples()]
    assert "odds 40 16" in commands and "clock 40 --vs 40 --new-game" in commands
    assert len(commands) >= 10


@pytest.mark.parametrize("block", examples(), ids=lambda b: b[0][len(PROMPT):][:40])
def test_each_example_prints_what_the_page_shows(block, capsys, tmp_path, monkeypatch):
    for b in blocks():
        if b and b[0].startswith("# file: "):
            name = b[0][len("# file: "):].split()[0]
            (tmp_path / name).write_text("\n".join(b) + "\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert cli.run(shlex.split(block[0][len(PROMPT):])) == 0
    got = capsys.readouterr()
    assert got.err == ""
    assert got.out.split("\n") == block[1:] + [""]
