"""Every command output the docs show is what the command prints (issue 42,
item 1): the one checker for every page of the repository.

In any Markdown file git tracks, a fenced block holds examples: a line
`$ .venv/bin/osada ARGS` (or `$ osada ARGS`) and the lines after it, up to the
next `$ ` line or the block's end, are what it prints (stdout, then stderr).
Each is run again here, in a folder that has the repository's docs/, tests/
and shared_rules/ and the page's `# file: NAME` blocks written as files, and
compared line for line.  A command that needs a board or a terminal cannot be
run here: LIVE says, for each, the tests that replay it instead (one of them
must name the page)."""

import os
import re
import shlex
import subprocess

import pytest

from osada import cli

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROMPTS = ("$ .venv/bin/osada ", "$ osada ")
# commands (their first words) run on a board or in a terminal: the test that checks their examples
LIVE = {
    "send": ("tests/host/pi/test_pi_docs.py", "tests/host/victory/test_victory_toss_cli.py"),
    "device": ("tests/host/pi/test_pi_docs.py",),
    "victory toss": ("tests/host/victory/test_victory_toss_cli.py",),
    "tank watch": ("tests/host/tank/test_tank_host.py",),
    "web": None,                                # a server: it runs until stopped (its own tests drive it)
}
LINKED = ("docs", "tests", "shared_rules", "firmware")


def pages():
    out = subprocess.run(["git", "ls-files", "*.md"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    if not out:                                 # not a git checkout (an unpacked tarball): every .md but deps
        for dirpath, dirs, files in os.walk(ROOT):
            dirs[:] = [d for d in dirs if not d.startswith(".") and d not in ("node_modules", "build")]
            out += [os.path.relpath(os.path.join(dirpath, f), ROOT) for f in files if f.endswith(".md")]
    return sorted(p for p in out if not p.startswith("node_modules"))


def blocks(page):
    """The page's fenced blocks, each a list of lines."""
    with open(os.path.join(ROOT, page), encoding="utf-8") as f:
        text = f.read()
    return [b.split("\n")[:-1] for b in re.findall(r"^```[^\n]*\n(.*?)^```", text, re.S | re.M)]


def examples():
    """(page, command line, the lines shown after it) of every example."""
    found = []
    for page in pages():
        for block in blocks(page):
            cur = None
            for line in block:
                if line.startswith("$ "):
                    cur = None
                    if line.startswith(PROMPTS):
                        cur = (page, line, [])
                        found.append(cur)
                elif cur is not None:
                    cur[2].append(line)
    return found


def argv_of(line):
    prompt = next(p for p in PROMPTS if line.startswith(p))
    return shlex.split(line[len(prompt):], comments=True)


def live(argv):
    for words, test in LIVE.items():
        if argv[:len(words.split())] == words.split():
            return words, test
    return None


def rerun():
    return [e for e in examples() if live(argv_of(e[1])) is None]


def test_the_docs_have_examples_and_each_is_checked_somewhere():
    found = examples()
    assert len(rerun()) >= 40
    pages_with = {page for page, _line, _out in found}
    assert {"docs/line-of-battle.md", "docs/victory-day.md", "docs/war-chest.md", "docs/tank.md"} <= pages_with
    for page, line, _out in found:
        what = live(argv_of(line))
        if what is not None and what[1] is not None:
            texts = []
            for test in what[1]:
                with open(os.path.join(ROOT, test), encoding="utf-8") as f:
                    texts.append(f.read())
            assert any(os.path.basename(page) in t for t in texts), "%s: none of %s checks %s" % (line, what[1], page)


def test_a_doc_example_that_is_not_what_its_command_prints_fails(tmp_path, capsys, monkeypatch):
    """The checker itself: a changed line is found."""
    page, line, shown = rerun()[0]
    with pytest.raises(AssertionError):
        check(page, line, shown[:-2] + ["not what it prints"] + shown[-1:], tmp_path, capsys, monkeypatch)


def check(page, line, shown, tmp_path, capsys, monkeypatch):
    for name in LINKED:
        os.symlink(os.path.join(ROOT, name), tmp_path / name)
    for block in blocks(page):
        if block and block[0].startswith("# file: "):
            (tmp_path / block[0][len("# file: "):].split()[0]).write_text("\n".join(block) + "\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    try:
        cli.main(argv_of(line))
    except SystemExit:                          # argparse's refusals
        pass
    got = capsys.readouterr()
    printed = (got.out + got.err).split("\n")
    while shown and shown[-1] == "":
        shown = shown[:-1]
    assert printed == shown + [""], "%s: %s" % (page, line)


@pytest.mark.parametrize("page,line,shown", rerun(), ids=[e[1][2:60] for e in rerun()])
def test_the_doc_example_is_what_the_command_prints(page, line, shown, tmp_path, capsys, monkeypatch):
    check(page, line, shown, tmp_path, capsys, monkeypatch)
