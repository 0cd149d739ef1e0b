"""What `osada line` reads: the deck from --colours/--values, cards typed on
the command line, and the game-state file (shared_rules.line.state), each
refused in one line naming what is wrong (and the rule, when a rule refuses
it); `command` runs a command so that no refusal ends in a traceback."""

import json

from osada.files.userfile import UnreadableFile, read_text
from osada.link.device import fail
from shared_rules.errors import RuleError
from shared_rules.line.cards import DEFAULT_COLOURS, DEFAULT_VALUES, Deck
from shared_rules.line.state import from_dict


class Refused(Exception):
    """Bad input found by the host (a file, an option): its message is the whole line."""


def refusal(exc):
    """One line for a refusal: 'the message (L8)' for a rule, the message alone for a format error."""
    if isinstance(exc, RuleError):
        return exc.message if exc.rule == "format" else "%s (%s)" % (exc.message, exc.rule)
    return str(exc)


def command(name, run):
    """The command function argparse calls: run(args), any refusal as one line
    `osada: line NAME: ...` on stderr and exit status 2."""
    def cmd(args):
        try:
            return run(args)
        except (RuleError, Refused) as exc:
            return fail("line %s: %s" % (name, refusal(exc)))
    return cmd


def deck(args):
    """The deck of --colours and --values (the spec's 6 x 1-10 by default)."""
    return Deck(args.colours or DEFAULT_COLOURS, args.values or DEFAULT_VALUES)


def no_deck_with_state(args):
    if getattr(args, "colours", None) or getattr(args, "values", None):
        raise Refused("the deck comes from the state file (its \"deck\"): leave out --colours and --values")


def read_state(path):
    """The checked GameState of a state file, or of the tracker's saved game (journal.py)."""
    try:
        text = read_text(path, "state file")
    except UnreadableFile as exc:
        raise Refused(str(exc)) from None
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise Refused("the state file %s is not JSON: %s" % (path, exc)) from None
    from osada.line import journal
    if journal.is_journal(data):                   # the tracker's saved game: the state its events make
        try:
            return journal.Journal.load(path, data).table().state
        except journal.JournalError as exc:
            raise Refused(str(exc)) from None
    try:
        return from_dict(data)
    except RuleError as exc:
        raise Refused("%s: %s" % (path, refusal(exc))) from None


def print_json(obj):
    print(json.dumps(obj, ensure_ascii=False))
