"""From a rule id to its page, its code and its tests, in one step.

    .venv/bin/python -m tests.rule_map R25          one rule: its line, who plays it, the code and tests naming it
    .venv/bin/python -m tests.rule_map W            every id of a game (R F T W L V) as a table
    .venv/bin/python -m tests.rule_map              every game, a line each: ids explained, played, left to the table

Nothing here is kept by hand but GAMES: the rules are read from the project's
rules pages (docs/rules*.md: a table row per id, `| <a id="R25"></a>R25 | the
rule | played by |`), what the code plays from the IMPLEMENTED lists the
packages declare, and the tests from the names of the test functions, which
carry the ids they check (`test_r21_...`, `test_l10_l11_...`).
tests/test_rule_ids.py checks that the three agree; this module is its one home
of the reading (tests/test_rule_ids.py and the device's id tests import it)."""

import importlib
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# game: its rules page, the ids' pattern, the lists that declare what the code plays (a side of the
# "played by" column: the module whose IMPLEMENTED it is; Siege has none: its engine, on the device
# and the host alike, plays every R id its page does not leave to the table), and the folders of its code.
GAMES = {
    "siege": {"page": "docs/rules.md", "prefix": "R", "lists": {},
              "code": ("shared_rules/siege", "firmware/osada_fw/siege", "host/osada/siege", "host/osada/monitor")},
    "forecast": {"page": "docs/rules-forecast.md", "prefix": "FA?",
                 "lists": {"host": "osada.siege.forecast", "device": "osada_fw.siege.forecast_ring"},
                 "code": ("host/osada/siege/forecast", "host/osada/siege",
                          "firmware/osada_fw/siege/forecast_ring.py")},
    "tank": {"page": "docs/rules-tank.md", "prefix": "TA?", "lists": {"host": "osada.tank"},
             "code": ("shared_rules/tank", "firmware/osada_fw/tank", "host/osada/tank",
                      "host/osada/words/tank_rolls.py")},
    "warchest": {"page": "docs/rules-war-chest.md", "prefix": "WA?",
                 "lists": {"host": "shared_rules.warchest", "device": "osada_fw.warchest"},
                 "code": ("shared_rules/warchest", "firmware/osada_fw/warchest", "host/osada/warchest")},
    "line": {"page": "docs/rules-line.md", "prefix": "LA?", "lists": {"host": "shared_rules.line"},
             "code": ("shared_rules/line", "host/osada/line")},
    "victory": {"page": "docs/rules-victory-day.md", "prefix": "VA?",
                "lists": {"host": "shared_rules.victory", "device": "osada_fw.victory.mode"},
                "code": ("shared_rules/victory", "firmware/osada_fw/victory", "host/osada/victory")},
}
TABLE, NOT_YET = "table", "not yet"
ROW = re.compile(r'^\| <a id="([A-Z]+\d+)"></a>([A-Z]+\d+) \| (.+) \| ([^|]+?) \|\s*$', re.M)


def game_of(rule_id):
    """'R25' -> 'siege', 'WA1' -> 'warchest', or None."""
    for game, g in GAMES.items():
        if re.fullmatch(r"%s\d+" % g["prefix"], rule_id):
            return game
    return None


def page_rows(game):
    """{id: (the rule, played by)} from the game's rules page, in the page's order."""
    with open(os.path.join(ROOT, GAMES[game]["page"]), encoding="utf-8") as f:
        text = f.read()
    rows = {}
    for anchor, shown, rule, played in ROW.findall(text):
        if anchor != shown or anchor in rows:
            raise ValueError("%s: the row of %s (anchor %s) is wrong or twice" % (GAMES[game]["page"], shown, anchor))
        rows[anchor] = (rule.strip(), played.strip())
    return rows


def kind(played):
    """'table', 'not yet' or 'played' (by the device, the host or both)."""
    for k in (TABLE, NOT_YET):
        if played == k or played.startswith(k + " ") or played.startswith(k + ":"):
            return k
    return "played"


def declared(game):
    """{side: the ids its IMPLEMENTED lists} ('host', 'device')."""
    return {side: tuple(importlib.import_module(module).IMPLEMENTED) for side, module in GAMES[game]["lists"].items()}


def played(game):
    """The ids the code plays: the union of the lists (Siege: every id its page says is played)."""
    lists = declared(game)
    if not lists:
        return {i for i, (_rule, who) in page_rows(game).items() if kind(who) == "played"}
    return {i for ids in lists.values() for i in ids}


def test_functions():
    """[(path, name)] of every test function under tests/."""
    found = []
    for dirpath, dirs, files in os.walk(os.path.join(ROOT, "tests")):
        dirs.sort()
        for f in sorted(files):
            if f.startswith("test_") and f.endswith(".py"):
                path = os.path.join(dirpath, f)
                with open(path, encoding="utf-8") as fh:
                    for name in re.findall(r"^\s*(?:async )?def (test_\w+)", fh.read(), re.M):
                        found.append((os.path.relpath(path, ROOT), name))
    return found


def names_of_tests():
    return {name for _path, name in test_functions()}


def ids_in_name(name, prefix):
    """The ids (upper case) one test name carries: 'test_l10_l11_x' -> {'L10', 'L11'}."""
    return {i.upper() for i in re.findall(r"(?:^test|_)(%s\d+)(?=_|$)" % prefix.lower(), name)}


def ids_named(names, prefix):
    found = set()
    for name in names:
        found |= ids_in_name(name, prefix)
    return found


def code_files(game):
    """The game's Python files (relative paths)."""
    out = []
    for top in GAMES[game]["code"]:
        full = os.path.join(ROOT, top)
        if os.path.isfile(full):
            out.append(top)
            continue
        for dirpath, dirs, files in os.walk(full):
            dirs.sort()
            out += [os.path.relpath(os.path.join(dirpath, f), ROOT) for f in sorted(files) if f.endswith(".py")]
    return out


def ids_in_code(game):
    """{id: [file:line, ...]} for every id of the game's pattern its code names."""
    found = {}
    for path in code_files(game):
        with open(os.path.join(ROOT, path), encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                for i in re.findall(r"\b(%s\d+)\b" % GAMES[game]["prefix"], line):
                    found.setdefault(i, []).append("%s:%d" % (path, n))
    return found


def sort_key(rule_id):
    m = re.match(r"([A-Z]+)(\d+)", rule_id)
    return (len(m.group(1)), m.group(1), int(m.group(2)))


def one_rule(rule_id):
    game = game_of(rule_id)
    rows = page_rows(game) if game else {}
    if rule_id not in rows:
        return "%s: no such rule id (the rules pages: docs/rules.md and the pages it lists)" % rule_id
    rule, who = rows[rule_id]
    lines = ["%s (%s#%s)" % (rule_id, GAMES[game]["page"], rule_id), "  " + re.sub(r"<[^>]+>", "", rule),
             "  played by: " + who]
    sides = [side for side, ids in declared(game).items() if rule_id in ids]
    if sides:
        lines.append("  declared in: " + ", ".join("%s.IMPLEMENTED (%s)" % (GAMES[game]["lists"][s], s) for s in sides))
    files = sorted({place.rsplit(":", 1)[0] for place in ids_in_code(game).get(rule_id, [])})
    lines.append("  code naming it:" + ("" if files else " none"))
    lines += ["    " + path for path in files]
    tests = ["%s::%s" % (p, n) for p, n in test_functions() if rule_id in ids_in_name(n, GAMES[game]["prefix"])]
    lines.append("  tests naming it:" + ("" if tests else " none"))
    lines += ["    " + t for t in tests]
    return "\n".join(lines)


def one_game(game):
    prefix = GAMES[game]["prefix"]
    code = ids_in_code(game)
    tests = {}
    for p, n in test_functions():
        for i in ids_in_name(n, prefix):
            tests.setdefault(i, []).append(n)
    lines = ["%s (%s): id, played by, files of code naming it, tests naming it" % (game, GAMES[game]["page"])]
    for i, (_rule, who) in page_rows(game).items():
        files = sorted({c.rsplit(":", 1)[0] for c in code.get(i, [])})
        lines.append("%-5s %-28s %-60s %d" % (i, who[:28], ", ".join(os.path.basename(f) for f in files)[:60],
                                              len(tests.get(i, []))))
    return "\n".join(lines)


def summary():
    lines = ["game      page                        explained  played  table  not yet"]
    for game, g in GAMES.items():
        kinds = [kind(who) for _rule, who in page_rows(game).values()]
        lines.append("%-9s %-27s %9d %7d %6d %8d" % (game, g["page"], len(kinds), kinds.count("played"),
                                                     kinds.count(TABLE), kinds.count(NOT_YET)))
    return "\n".join(lines)


def main(argv):
    if not argv:
        print(summary())
        return 0
    for arg in argv:
        arg = arg.upper()
        games = [g for g, spec in GAMES.items() if spec["prefix"][0] == arg]
        print(one_game(games[0]) if games else one_rule(arg))
    return 0


if __name__ == "__main__":
    sys.path[:0] = [os.path.join(ROOT, "host"), ROOT, os.path.join(ROOT, "firmware")]
    sys.exit(main(sys.argv[1:]))
