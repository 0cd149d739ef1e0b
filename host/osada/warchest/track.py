"""`osada warchest track [FILE]`: a new game from its setup options, or the
game saved in FILE resumed (its events checked again first); then the
tracker app.  The setup: 2 or 4 players (W3, W25), their unit types (the
first game's sets, W3; a scenario's, W27; or the cards dealt), the cards' coin
counts (WA1), who holds the initiative (W3, W6) and whose coins are entered
(the owner view)."""

import os

from osada import trackerfile
from osada.files.paths import OUTPUT
from shared_rules.errors import RuleError
from shared_rules.warchest.units import CARD_COUNTS, SCENARIOS, TYPES, preset

from . import coinlists
from .journal import Journal

DEFAULT_FILE = os.path.join(OUTPUT, "warchest", "game.json")
INSTEAD = "`osada warchest replay FILE`"   # in a script: the tracker needs a terminal
SETUP_OPTIONS = ("players", "units", "counts", "initiative", "owner")


def parse_units(text, players):
    """--units: "first", a scenario's name, or the cards dealt: the players'
    types split by "/", each list split by ","."""
    if text in ("first",) + tuple(SCENARIOS):
        if players != 2:
            raise ValueError("--units %s is a 2-player set (W3, W27): with 4 players give each one's 3 types" % text)
        return preset(text)
    groups = [[t.strip() for t in g.split(",") if t.strip()] for g in text.split("/")]
    for g in groups:
        for t in g:
            if t not in TYPES:
                raise ValueError("--units: %r is not a unit type (the types: %s)" % (t, ", ".join(TYPES)))
    return groups


def parse_players(text, players, what):
    """"1,2" -> [0, 1]; "none" -> []."""
    if text in ("none", ""):
        return []
    out = []
    for part in text.split(","):
        if not part.strip().isdigit() or not 1 <= int(part) <= players:
            raise ValueError("%s: a player is 1..%d, not %r" % (what, players, part))
        out.append(int(part) - 1)
    return out


def card_counts_words():
    """The published cards' counts in words: "archer, cavalry, … 4; the others 5"."""
    by = {}
    for t in sorted(CARD_COUNTS):
        by.setdefault(CARD_COUNTS[t], []).append(t)
    most = max(by, key=lambda n: len(by[n]))
    return "; ".join(["%s %d" % (", ".join(by[n]), n) for n in sorted(by) if n != most] + ["the others %d" % most])


def new_setup(args):
    """The setup of a new game from the options; ValueError says what is missing or wrong."""
    players = args.players or 2
    if not args.units:
        raise ValueError("a new game needs --units: first, %s, or the cards dealt "
                         "(e.g. archer,cavalry,lancer,scout/swordsman,pikeman,crossbowman,light_cavalry)"
                         % ", ".join(sorted(SCENARIOS)))
    types = parse_units(args.units, players)
    counts = dict(CARD_COUNTS)                  # the published cards' (WA1); --counts changes any of them
    if args.counts:
        counts.update(coinlists.read(args.counts, "--counts"))
    if args.initiative:
        holder = parse_players(args.initiative, players, "--initiative")
        if len(holder) != 1:
            raise ValueError("--initiative: one player holds the marker")
        holder = holder[0]
    elif args.units == "first":
        holder = 0                              # W3: player A
    else:
        raise ValueError("who holds the initiative? flip the marker (W6) and give --initiative N")
    known = parse_players(args.owner or "none", players, "--owner")
    return {"players": players, "types": types, "counts": counts, "initiative": holder, "known": known}


def open_journal(args, write=True):
    """(Journal, None) or (None, exit status after the one error line); a new game's file is
    written only when `write`."""
    given = [o for o in SETUP_OPTIONS if getattr(args, o, None)]
    return trackerfile.open_journal("warchest track", args.file or DEFAULT_FILE, given, _resume,
                                    lambda path: _start(args, path), write)


def _resume(path):
    try:
        journal = Journal.load(path)              # JournalError: said as it is
        journal.game()
    except RuleError as exc:
        raise trackerfile.Refusal("%s: the setup: %s" % (path, exc))
    return journal


def _start(args, path):
    try:
        return Journal.new(path, new_setup(args))     # ValueError: said as it is
    except RuleError as exc:
        raise trackerfile.Refusal(str(exc))


def cmd_track(args):
    def app(journal):
        from .app import TrackerApp
        return TrackerApp(journal, rounds=args.rounds)

    return trackerfile.run("warchest track", INSTEAD, lambda write: open_journal(args, write), app, lambda where: (
        "War Chest: the game is saved in %s (osada warchest track %s resumes it)" % (where, where)))
