"""The README welcomes (issue 26 item 11): its picture is the monitor as it
is now, and no link in the repository's Markdown is dead.

- docs/monitor.svg, shown at the top of README.md, is the monitor mid-game
  drawn by textual's own screenshot export (what the snapshot tests use) over
  a seeded game (monitor_fakes.mid_game).  It is drawn again here and must be
  the same; after a change to what the monitor shows, redraw it:

      OSADA_UPDATE_SCREENSHOTS=1 .venv/bin/python -m pytest tests/host/test_readme.py

- Every relative link and image in every Markdown file of the repository
  points at a file of the repository (not at the specs and rulebooks
  outside it, nor at build output), and every #anchor at a heading of that
  file, as GitHub makes them, or at an anchor of its own (`<a id="R25">`).
  A path written as code that leaves the repository (`../elsewhere/…`) is
  dead for a reader of a clone as well."""

import os
import re
import subprocess
import time

import pytest

from osada import monitor
from tests.support.monitor_fakes import ROOT, SimPortSession, mid_game

PICTURE = os.path.join(ROOT, "docs", "monitor.svg")
PICTURE_MD = "![The Osada monitor mid-game](docs/monitor.svg)"
PICTURE_SIZE = (120, 36)
UPDATE = "OSADA_UPDATE_SCREENSHOTS=1 .venv/bin/python -m pytest tests/host/test_readme.py"


# ------------------------------------------------------------------ the picture


PictureSession = SimPortSession   # connected as `make run` is, to the simulator's port


def draw_picture():
    """The monitor at 120×36 over mid_game(): turn 5 of a three-player game,
    enemies on the board, nothing pending; the cursor on a Tiger.  As SVG, with
    the random id rich puts in its class names taken out."""
    from pytest_textual_snapshot import normalize_svg
    from textual._doc import take_svg_screenshot

    g, history = mid_game()
    app = monitor.MonitorApp(port="fake", session=lambda resolve, retry=None, post=None:
                             PictureSession(g, post, history))

    async def run_before(pilot):
        end = time.monotonic() + 10
        while not (app.state is not None and len(app.log_entries) >= len(history) + 1):
            assert time.monotonic() < end, "timed out waiting for the first sync"
            await pilot.pause(0.02)
        await pilot.press("down")              # the cursor on sector 1's artillery line: a Tiger
        await pilot.pause(0.1)

    try:
        svg = take_svg_screenshot(app=app, terminal_size=PICTURE_SIZE, run_before=run_before)
    finally:
        app.shutdown()
    return normalize_svg(svg)


def test_the_readme_shows_the_picture_first():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    assert PICTURE_MD in readme, "README.md: " + PICTURE_MD
    assert readme.index(PICTURE_MD) < readme.index("\n## "), "the picture comes before the first section"


def test_the_picture_is_the_monitor_as_it_is_now():
    pytest.importorskip("pytest_textual_snapshot")
    svg = draw_picture()
    if os.environ.get("OSADA_UPDATE_SCREENSHOTS"):
        with open(PICTURE, "w", encoding="utf-8", newline="\n") as f:
            f.write(svg)
    assert os.path.exists(PICTURE), "docs/monitor.svg is missing; draw it: " + UPDATE
    with open(PICTURE, encoding="utf-8", newline="") as f:
        kept = f.read()
    assert kept == svg, "docs/monitor.svg (the README's picture) is not the monitor as it is now; redraw " \
                        "it and look at it before committing: " + UPDATE


def test_the_picture_shows_a_game_under_way():
    """What the caption says: a game some turns in, enemies on the board, the panel's next step."""
    with open(PICTURE, encoding="utf-8") as f:
        text = f.read().replace("&#160;", " ")
    for words in ("Turn 5", "Phase 4", "Next:", "Tgr3", "Maus*3#", "Trophies", "events", "connected to /tmp/osada-sim"):
        assert words in text, words
    assert "Pending choice" not in text


# ------------------------------------------------------------------ the links


def markdown_files():
    """The repository's Markdown files: tracked, or new and not ignored."""
    try:
        out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
                             cwd=ROOT, capture_output=True, check=True).stdout.decode("utf-8")
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: the repository's files are not known")
    files = {p for p in out.split("\0") if p}
    return files, sorted(p for p in files if p.endswith(".md") and os.path.exists(os.path.join(ROOT, p)))


def github_anchors(text):
    """The #anchors GitHub makes of a file's headings: lower case, punctuation
    out, spaces to hyphens; a repeated one gets -1, -2, …"""
    seen, out = {}, set()
    for line in strip_code_blocks(text).split("\n"):
        m = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        slug = re.sub(r"[^\w\- ]", "", m.group(1).lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else "%s-%d" % (slug, n))
    return out | set(re.findall(r'<a (?:id|name)="([^"]+)"', text))


def strip_code_blocks(text):
    return re.sub(r"(?ms)^\s*```.*?^\s*```[^\n]*$", "", text)


LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HTML_LINK = re.compile(r"""(?:src|href)\s*=\s*["']([^"']+)["']""")
CODE_PATH = re.compile(r"`([^`\s]*\.\./[^`\s]*)`")


def links(text):
    body = strip_code_blocks(text)
    return LINK.findall(body) + HTML_LINK.findall(body)


def check_links(path, text, files):
    """What is dead in one Markdown file: [(link, why)]."""
    here = os.path.dirname(path)
    dead = []
    for target in links(text):
        if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I):      # https:, mailto:: not ours to check
            continue
        ref, _, anchor = target.partition("#")
        dest = os.path.normpath(os.path.join(here, ref)) if ref else path
        if dest.startswith(".."):
            dead.append((target, "outside the repository"))
            continue
        is_dir = any(f.startswith(dest + "/") for f in files)
        if dest not in files and not is_dir:
            dead.append((target, "no such file in the repository"))
            continue
        if anchor and dest.endswith(".md"):
            if dest == path:
                there = text
            else:
                with open(os.path.join(ROOT, dest), encoding="utf-8") as f:
                    there = f.read()
            if anchor not in github_anchors(there):
                dead.append((target, "no heading #%s in %s" % (anchor, dest)))
    for code in CODE_PATH.findall(text):
        dest = os.path.normpath(os.path.join(here, code)).rstrip("/")
        if dest.startswith(".."):
            dead.append(("`%s`" % code, "a path outside the repository"))
        elif dest not in files and not any(f.startswith(dest + "/") for f in files):
            dead.append(("`%s`" % code, "no such file in the repository"))
    return dead


def test_no_relative_link_in_the_markdown_is_dead():
    files, mds = markdown_files()
    assert "README.md" in mds
    dead = []
    for path in mds:
        with open(os.path.join(ROOT, path), encoding="utf-8") as f:
            dead += ["%s: %s (%s)" % (path, t, why) for t, why in check_links(path, f.read(), files)]
    assert not dead, "dead links:\n" + "\n".join(dead)


def test_the_link_check_finds_what_is_dead():
    """The checker itself, on links made to be dead (and some that are fine)."""
    files = {"README.md", "docs/monitor.md", "docs/tank/fire.svg", "firmware/README.md"}
    text = "\n".join([
        "# Tank battle", "## «Кубики»: the dice on the ring", "## Two", "## Two",
        "[ok](docs/monitor.md) [ok](#tank-battle) [ok](#кубики-the-dice-on-the-ring) [ok](#two-1)",
        "![ok](docs/tank/fire.svg) [ok](docs/tank) [ok](https://example.com/x) [ok](firmware/README.md)",
        "[spec](../elsewhere/rules.md) [gone](docs/gone.md) [anchor](#nowhere) [ok](#R25)",
        "![pic](build/x.svg) `../elsewhere/seeds/` [f](firmware/README.md#no-such-part)", '<a id="R25"></a>',
        "```", "[in a code block](nowhere.md)", "```",
    ])
    assert [t for t, _why in check_links("shared_rules/README.md", "`../elsewhere/x.md` `../README.md`", files)] \
        == ["`../elsewhere/x.md`"]
    dead = [t for t, _why in check_links("README.md", text, files)]
    assert dead == ["../elsewhere/rules.md", "docs/gone.md", "#nowhere", "build/x.svg",
                    "firmware/README.md#no-such-part", "`../elsewhere/seeds/`"], dead
