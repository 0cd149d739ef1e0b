"""docs/victory-day.md shows real output: its `$ .venv/bin/osada victory ...`
blocks are run again by tests/host/test_doc_examples.py (the file blocks they
read written first); here, that the page has the spec's examples."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
DOC = os.path.join(ROOT, "docs", "victory-day.md")
try:
    import osada  # noqa: F401
except ImportError:  # run from the tree
    sys.path[:0] = [ROOT, os.path.join(ROOT, "host")]


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
