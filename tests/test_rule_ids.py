"""The rules pages (docs/rules.md and the pages it lists), the code's
IMPLEMENTED lists and the tests' names agree, for every game; and nothing in
the repository sends its reader outside it.

- Every id a game's code plays is explained on its page, marked played there,
  and named by a test (`test_r21_...`, `test_l10_l11_...`).
- Every id on a page is either played (and declared, and tested) or marked as
  the table's (or not yet built): none is neither.
- The side a page names (device, host) is the list that declares it.
- Every id the game's code or a test name mentions is on the page.
- No tracked file points at the specs and rulebooks kept beside our own
  checkouts: a clone does not have them.  The one exception is
  tests/test_rule_ids_spec.py, which checks the pages against those specs
  where they are present.

The reading of pages, lists and names is tests/rule_map.py's (also the
command `python -m tests.rule_map R25`)."""

import os
import re
import subprocess

import pytest

from tests.rule_map import (
    GAMES,
    NOT_YET,
    ROOT,
    TABLE,
    declared,
    ids_in_code,
    ids_named,
    kind,
    names_of_tests,
    page_rows,
    played,
    sort_key,
)

CROSS_CHECK = "tests/test_rule_ids_spec.py"
# how many ids each page explains: a row lost in an edit fails here
EXPLAINED = {"siege": 34, "forecast": 23, "tank": 53, "warchest": 36, "line": 35, "victory": 48}


def ordered(ids):
    return sorted(ids, key=sort_key)


def test_rule_ids_are_read_from_test_names():
    assert ids_named({"test_r40_r42_case1", "test_r7_x", "test_other_r9", "test_router_r"}, "R") == \
        {"R40", "R42", "R7", "R9"}
    assert ids_named({"test_w1_wa1_w28_counts", "test_l9", "test_wait_w"}, "WA?") == {"W1", "WA1", "W28"}


def test_the_played_by_column_is_read():
    assert [kind(w) for w in ("host", "device, host", "table", "not yet", "device, host: recorded; the cards are "
                              "the table's", "table: the players")] == ["played", "played", TABLE, NOT_YET,
                                                                        "played", TABLE]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_id_is_explained_once_with_who_plays_it(game):
    rows = page_rows(game)
    assert len(rows) == EXPLAINED[game], sorted(rows)
    bad = [i for i in rows if not re.fullmatch(r"%s\d+" % GAMES[game]["prefix"], i)]
    assert bad == [], "ids of another game on %s" % GAMES[game]["page"]
    for i, (rule, who) in rows.items():
        assert len(rule) > 15, "%s: say what the rule is" % i
        assert kind(who) != "played" or re.match(r"(device|host)\b", who), "%s: played by %r" % (i, who)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_id_the_code_plays_is_explained_played_and_tested(game):
    rows = page_rows(game)
    ids = played(game)
    assert len(ids) > 10
    assert ordered(ids - set(rows)) == [], "played but not on %s" % GAMES[game]["page"]
    marked = {i for i, (_rule, who) in rows.items() if kind(who) == "played"}
    assert ordered(ids ^ marked) == [], "the code's lists and the page's played-by column differ"
    missing = ordered(ids - ids_named(names_of_tests(), GAMES[game]["prefix"]))
    assert missing == [], "rules with no test naming them: %s" % ", ".join(missing)


@pytest.mark.parametrize("game", sorted(g for g in GAMES if GAMES[g]["lists"]))
def test_the_side_the_page_names_is_the_list_that_declares_it(game):
    for side, ids in declared(game).items():
        assert len(ids) == len(set(ids)), "%s lists an id twice" % GAMES[game]["lists"][side]
        on_page = {i for i, (_rule, who) in page_rows(game).items() if kind(who) == "played" and side in who}
        if side == "host" and "device" not in GAMES[game]["lists"]:
            on_page = {i for i, (_rule, who) in page_rows(game).items() if kind(who) == "played"}
        assert ordered(set(ids) ^ on_page) == [], "%s (%s)" % (GAMES[game]["lists"][side], side)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_id_the_code_and_the_tests_name_is_on_the_page(game):
    rows = page_rows(game)
    in_code = ids_in_code(game)
    unknown = ["%s (%s)" % (i, in_code[i][0]) for i in ordered(set(in_code) - set(rows))]
    assert unknown == [], "named in the code, not explained"
    assert ordered(ids_named(names_of_tests(), GAMES[game]["prefix"]) - set(rows)) == []


def test_the_pages_link_each_other_and_the_games_docs_link_their_page():
    with open(os.path.join(ROOT, "docs", "rules.md"), encoding="utf-8") as f:
        index = f.read()
    for game, g in GAMES.items():
        assert g["page"] == "docs/rules.md" or "(%s)" % os.path.basename(g["page"]) in index, game
    for doc, page in (("tank.md", "rules-tank.md"), ("war-chest.md", "rules-war-chest.md"),
                      ("line-of-battle.md", "rules-line.md"), ("victory-day.md", "rules-victory-day.md"),
                      ("monitor.md", "rules.md"), ("monitor.md", "rules-forecast.md")):
        with open(os.path.join(ROOT, "docs", doc), encoding="utf-8") as f:
            assert "](%s" % page in f.read(), "docs/%s does not link %s" % (doc, page)


# ------------------------------------------------------------------ nothing points outside the clone

# The names are put together so that this file, which must name them, does not point there itself:
# `git grep` for the folder beside the checkout finds only the cross-check (tests/test_rule_ids_spec.py).
_S = "sha" + "red"
OUTSIDE = re.compile(r"\.\./%s(?!_rules)|%s/spec|/work/%s|\"%s\", \"spec\"|" % (_S, _S, _S, _S) +
                     r"siege-rules\.md|siege-forecast\.md|tank-battle\.md")
# the other specs share their names with our own docs (docs/war-chest.md): they count beside "spec"
SPEC_NAMES = re.compile(r"(?<![\w/(-])(?:war-chest|line-of-battle|victory-day)\.md")


def tracked_files():
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: the tracked files are not known")
    return [p for p in out.decode("utf-8").split("\0") if p]


def outside_references(text):
    """[(line number, line)] of the lines that point at the specs or rulebooks beside a checkout."""
    return [(n, line.strip()) for n, line in enumerate(text.split("\n"), 1)
            if OUTSIDE.search(line) or (SPEC_NAMES.search(line) and re.search(r"\bspec", line, re.I))]


def test_the_outside_check_finds_what_it_should():
    lines = ["Rule ids refer to ../@/spec/war-chest.md", "see docs/war-chest.md", "[War Chest](war-chest.md)",
             "the spec (@/spec) is not here", "tank-battle%'s part (b)", "spec: line-of-battle%",
             "/work/@/spec/siege-rules%", "docs/rules-line.md", "import ../@_rules",
             'os.path.join(ROOT, "@", "spec")', 'SPEC = "victory-day%"',
             'DOC = os.path.join(ROOT, "docs", "victory-day.md")']
    text = "\n".join(lines).replace("@", _S).replace("%", ".md")
    assert [n for n, _l in outside_references(text)] == [1, 4, 5, 6, 7, 10, 11]


def test_nothing_points_outside_the_clone():
    found = []
    for path in tracked_files():
        if path == CROSS_CHECK or not os.path.isfile(os.path.join(ROOT, path)):
            continue
        try:
            with open(os.path.join(ROOT, path), encoding="utf-8") as f:
                text = f.read()
        except UnicodeDecodeError:
            continue
        found += ["%s:%d: %s" % (path, n, line[:120]) for n, line in outside_references(text)]
    assert found == [], "cite the project's rules pages (docs/rules.md#R25) instead:\n" + "\n".join(found)


# ------------------------------------------------------------------ words a user cannot follow

USER_DOCS = ("README.md", "firmware/README.md", "hardware/README.md")
UNFOLLOWABLE = re.compile(r"\bseed \d{3}\b|\bissue #\d+|\bthe spec\b|\bspec's\b|\bthe spec's\b", re.I)


def user_docs():
    out = [p for p in USER_DOCS if os.path.isfile(os.path.join(ROOT, p))]
    return out + sorted("docs/" + f for f in os.listdir(os.path.join(ROOT, "docs")) if f.endswith(".md"))


def bare_rulings(text):
    """Ruling ids (WA1, LA3, …) written outside a link: a reader cannot look them up.  A
    command's output (a code block, `code`) prints what the command prints."""
    body = re.sub(r"(?ms)^\s*```.*?^\s*```[^\n]*$", "", text)
    body = re.sub(r"`[^`\n]*`", "", body)
    body = re.sub(r"\[[^\]]*\]\([^)]*\)", "", body)          # links
    body = re.sub(r'<a id="[^"]*"></a>', "", body)
    return re.findall(r"\b(?:FA|TA|WA|LA|VA)\d+\b", body)


def test_the_user_docs_say_nothing_a_user_cannot_follow():
    found = []
    for path in user_docs():
        with open(os.path.join(ROOT, path), encoding="utf-8") as f:
            text = f.read()
        for n, line in enumerate(text.split("\n"), 1):
            if UNFOLLOWABLE.search(line):
                found.append("%s:%d: %s" % (path, n, line.strip()[:120]))
        if not os.path.basename(path).startswith("rules"):
            found += ["%s: %s written bare: link it to its rules page" % (path, i) for i in bare_rulings(text)]
    assert found == [], "\n".join(found)


def test_the_words_check_finds_what_it_should():
    assert [bool(UNFOLLOWABLE.search(s)) for s in ("the card game of seed 002", "issue #28", "the spec's example 6",
                                                   "a special tank", "seeds", "the rulebook's example 2")] == \
        [True, True, True, False, False, False]
    assert bare_rulings("counts (WA1) and [WA4](rules-war-chest.md#WA4), LA10\n```\n$ x\nTA9\n```\n`FA1`") == \
        ["WA1", "LA10"]


def help_texts():
    """{command: its --help} for `osada` and every command and subcommand."""
    import contextlib
    import io

    from osada import cli

    def helps(argv):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
            cli.main(argv + ["--help"])
        return out.getvalue()

    texts = {"osada": helps([])}
    commands = re.findall(r"^    (\w[\w-]*) ", texts["osada"], re.M)
    assert "line" in commands and "warchest" in commands
    for cmd in commands:
        texts[cmd] = helps([cmd])
        for subcmd in re.findall(r"^    (\w[\w-]*) ", texts[cmd], re.M):
            texts["%s %s" % (cmd, subcmd)] = helps([cmd, subcmd])
    return texts


def test_the_help_texts_say_nothing_a_user_cannot_follow():
    texts = help_texts()
    assert "line odds" in texts and "docs/rules-line.md" in texts["line"]
    found = ["osada %s --help: %s" % (cmd, m.group(0)) for cmd, text in sorted(texts.items())
             for m in [UNFOLLOWABLE.search(text) or OUTSIDE.search(text) or SPEC_NAMES.search(text)] if m]
    assert found == []


def test_the_rule_map_in_the_development_guide_is_what_the_command_prints():
    import contextlib
    import io

    from tests.rule_map import main
    with open(os.path.join(ROOT, "docs", "development.md"), encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"^\$ \.venv/bin/python -m tests\.rule_map (\S+)\n(.*?)^```", text, re.M | re.S)
    assert m, "docs/development.md shows tests.rule_map at work"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main([m.group(1)]) == 0
    assert m.group(2) == out.getvalue()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["R99", "W"])
    assert out.getvalue().startswith("R99: no such rule id") and "\nW16   host, device" in out.getvalue()
