"""`osada line`: the line-of-battle card game's command group, added to the
CLI's: `eval` (evaluate.py), `claim` (claim.py), `odds` (draw_odds.py) and
`status` (status.py).  Every refusal is one line on stderr and exit status 2
(inputs.py)."""

import argparse

from osada.argparsing import OneLineParser
from osada.line import claim, draw_odds, evaluate, status, track
from osada.line.inputs import command
from osada.words.game_names import game_name
from shared_rules.line.formation import SIZES, TYPES
from shared_rules.line.outcome import SIDES


def _int_at_least(lo, what):
    def parse(text):
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError("%s must be a whole number, not %r" % (what, text)) from None
        if v < lo:
            raise argparse.ArgumentTypeError("%s must be %d or more (got %d)" % (what, lo, v))
        return v
    return parse


def _deck_options(p):
    p.add_argument("--colours", default=None, metavar="LETTERS",
                   help="the deck's colours, one letter each (default RBGYPO; L1: not in the rulebook)")
    p.add_argument("--values", default=None, metavar="RANGE", help="the deck's values, e.g. 1-10 (the default)")


def add_parser(sub):
    """The `line` command group, added to the CLI's subparsers."""
    ln = sub.add_parser("line", help="%s: formations, claims proved from the table, draw odds" % game_name("line"),
                        description="%s, the two-player card game of nine fields in a line (its rulebook gives no "
                                    "title): the formation evaluator, the claim prover and the draw odds. Cards are a "
                                    "colour letter and a value, e.g. R10. The rules, L1-L25: docs/rules-line.md."
                                    % game_name("line"))
    ln.error = OneLineParser.error.__get__(ln)      # the CLI's own parser class: a wrong command in one line too
    lsub = ln.add_subparsers(dest="line_cmd", metavar="LINE_COMMAND", parser_class=OneLineParser)
    _eval_parser(lsub)
    _claim_parser(lsub)
    _odds_parser(lsub)
    st = lsub.add_parser("status", help="a game-state file at a glance: fields, claims, winner, series",
                         description="Each field's formations and claim, the winner (L22), the series score (L23).")
    st.add_argument("--state", required=True, metavar="FILE", help="the game-state file (JSON)")
    st.add_argument("--json", action="store_true", help="print JSON for tools")
    st.set_defaults(func=command("status", status.run))
    tr = lsub.add_parser("track", help="the tracker at the table: cards entered as played, claims proved as made",
                         description="Follow a game card by card: the fields drawn, each claim proved as it is "
                                     "made; saved after every event, resumed from FILE. Other commands read FILE "
                                     "as a state file (--state FILE).")
    tr.add_argument("file", nargs="?", default=None,
                    help="the saved game (default: %s)" % track.DEFAULT_FILE.replace("%", "%%"))
    tr.add_argument("--me", choices=SIDES, default=None, help="your side (default south)")
    tr.add_argument("--hand", nargs="+", default=None, metavar="CARD", help="a new game: the 7 cards you were dealt")
    _deck_options(tr)
    tr.set_defaults(func=command("track", track.run))

    def no_command(_args):
        ln.print_help()
        return 2
    ln.set_defaults(func=no_command)
    return ln


def _eval_parser(lsub):
    ev = lsub.add_parser("eval", help="a formation's type and key; with --against, who takes the field",
                         description="The formation of up to SIZE cards: type and key (rank, sum), or incomplete "
                                     "k/size (L9-L12); with --against, which side takes the field (L10, L11).")
    ev.add_argument("cards", nargs="*", metavar="CARD", help="the side's cards, e.g. R3 R4 R5")
    ev.add_argument("--against", nargs="*", default=None, metavar="CARD", help="the other side's cards")
    ev.add_argument("--first", choices=("cards", "against"), default=None,
                    help="which side completed first, for equal keys (L11)")
    ev.add_argument("--size", type=int, default=3, metavar="|".join(map(str, SIZES)),
                    help="cards in a complete formation (3; 4 where a card says so, L12)")
    ev.add_argument("--state", default=None, metavar="FILE", help="a game-state file: evaluate its --field")
    ev.add_argument("--field", type=int, default=None, metavar="N", help="the field of --state (1-9)")
    ev.add_argument("--json", action="store_true", help="print JSON for tools")
    _deck_options(ev)
    ev.set_defaults(func=command("eval", evaluate.run))


def _claim_parser(lsub):
    cl = lsub.add_parser("claim", help="prove a claim from the table: PROVEN, or every completion that beats it",
                         description="The claim prover (L17-L20) over the unseen cards, your own hand included "
                                     "(L18). With --state and no --field: every field the side can claim now, "
                                     "and those it could claim after playing one more card there.")
    cl.add_argument("--state", default=None, metavar="FILE", help="the game-state file (JSON)")
    cl.add_argument("--field", type=int, default=None, metavar="N", help="the field to prove (1-9)")
    cl.add_argument("--side", choices=SIDES, default=None, help="the claimant (default: the file's \"me\")")
    cl.add_argument("--mine", nargs="*", default=None, metavar="CARD", help="inline: the claimant's complete side")
    cl.add_argument("--theirs", nargs="*", default=None, metavar="CARD", help="inline: the other side")
    cl.add_argument("--seen", nargs="*", default=None, metavar="CARD",
                    help="inline: every other unit card face up on the table")
    cl.add_argument("--first", choices=("mine", "theirs"), default=None,
                    help="inline, both sides complete with equal keys: who completed first (L11)")
    cl.add_argument("--size", type=int, default=3, metavar="|".join(map(str, SIZES)),
                    help="inline: the field's size (3 or 4, L12)")
    cl.add_argument("--limit", type=int, default=claim.LIMIT, metavar="N",
                    help="list at most N beating completions (default %d)" % claim.LIMIT)
    cl.add_argument("--all", action="store_true", help="list every beating completion")
    cl.add_argument("--json", action="store_true", help="print JSON for tools")
    _deck_options(cl)
    cl.set_defaults(func=command("claim", claim.run))


def _odds_parser(lsub):
    od = lsub.add_parser("odds", help="exact odds of drawing a card that completes a formation",
                         description="P(at least one good card within your next k draws) = 1 - C(M-g,k)/C(M,k) "
                                     "over the M unknown cards (unseen less your hand), exact; the model is "
                                     "stated. --first-draw: the tie of the first-player draw (L2).")
    od.add_argument("--state", default=None, metavar="FILE", help="the game-state file, with your \"hand\"")
    od.add_argument("--field", type=int, default=None, metavar="N", help="your side one card short on field N")
    od.add_argument("--target", choices=tuple(reversed(TYPES)), default=None,
                    help="the formation to complete (at least that type)")
    od.add_argument("--need", nargs="+", default=None, metavar="CARD", help="a named set of good cards instead")
    od.add_argument("--draws", nargs="+", type=_int_at_least(1, "draws"), default=[1], metavar="K",
                    help="within the next K draws (one or more K; default 1)")
    od.add_argument("--good", type=_int_at_least(0, "--good"), default=None, metavar="G",
                    help="without a state file: the good cards among the unknown")
    od.add_argument("--unknown", type=_int_at_least(1, "--unknown"), default=None, metavar="M",
                    help="without a state file: the unknown cards")
    od.add_argument("--deck", type=_int_at_least(0, "--deck"), default=None, metavar="D",
                    help="without a state file: unit cards left in the deck (caps K at ceil(D/2), L5)")
    od.add_argument("--first-draw", action="store_true", help="the chance that the first-player draw ties (L2)")
    od.add_argument("--json", action="store_true", help="print JSON for tools")
    _deck_options(od)
    od.set_defaults(func=command("odds", draw_odds.run))
