"""`osada victory toss`: the device's lot for the first player (V8), in words.

The device (osada_fw/victory/mode.py) draws one random bit for the first game
of a match and counts the games; it answers the `toss` request (the lot, drawn
now or kept from before) and the `next` request (the next game).  Which seat
starts is worked out here again with shared_rules.victory.toss.starter (the
lot in game 1, then alternating, V8) and checked against what the device says.

    Seat A (USSR) starts game 1: the lot
    game 2: Seat B (Germany) starts: alternating, V8

A device that runs another game is switched with --switch and left in Victory
Day, its ring showing who starts; --start-sim starts the simulator when there
is no device, and stops it (its game switched back) at the end.  A failure is
one line on stderr and exit status 2.  The toss in words is toss_words.py's
(the page with no host says it too)."""

import json

from osada.link import ports, simproc
from osada.link.device import device_cmd, fail, open_link
from osada.victory.numbers import ratio
from osada.words.game_names import game_name
from shared_rules.errors import RuleError
from shared_rules.victory.toss import SEATS

from .toss_words import LOT, TossError, checked, describe, faction

GAME = "victory"


def as_json(state, tossed):
    seat = state["starter"]
    return json.dumps({"game": state["game"], "starter": seat, "faction": faction(state, seat),
                       "how": "lot" if state["game"] == 1 else "alternating", "lot": state["lot"],
                       "lot_chance": ratio(*LOT), "tossed": tossed,
                       "ussr": state["ussr"], "next_starter": SEATS[1 - SEATS.index(seat)], "rule": "V8"})


def _refused(reply):
    rule = reply.get("rule")
    return TossError("%s%s" % ("%s: " % rule if rule else "", reply.get("error", "refused")))


def switch_to(link, switch):
    """Make the device run Victory Day: returns the game it ran before if it was
    switched (--switch), else None; TossError if it runs another and may not be switched."""
    was = (link.mirror.hello or {}).get("game")
    if was == GAME:
        return None
    if not switch:
        raise TossError("the device runs %s: --switch switches it to %s (or its game menu: hold ACTION "
                        "and BACK)" % (game_name(was, short=True), game_name(GAME, short=True)))
    reply = link.request("game", game=GAME)
    if not reply.get("ok"):
        raise TossError("the device cannot switch to %s: %s (an older firmware? make flash)"
                        % (game_name(GAME, short=True), reply.get("error")))
    return was


def ask(link, next_game=False, ussr=None, new_match=False):
    """Toss on the device (or read its lot; ussr: the seat that plays the USSR;
    new_match: a new lot, for a new match), or with next_game go on to the
    next game.  Returns (its state, True if the lot was drawn now).  TossError
    if the device refuses."""
    fields = {} if ussr is None else {"ussr": ussr}
    if new_match:
        fields["again"] = True
    reply = link.request("next") if next_game else link.request("toss", **fields)
    if not reply.get("ok"):
        raise _refused(reply)
    return reply, bool(reply.get("tossed"))


def cmd_toss(args):
    if args.next and (args.ussr or args.new_match):
        return fail("victory toss: %s goes with the toss, not with --next" % ("--ussr" if args.ussr else "--new-match"))
    proc = None
    if args.start_sim and args.port in (None, "auto") and ports.find_device() is None:
        proc = simproc.SimProcess()
        proc.start()
        why = proc.wait_for(lambda: ports.find_device() is not None)
        if why is not None:                             # its config refused, say: the whole reason
            proc.stop()
            return fail("victory toss: %s" % why)
    try:
        return device_cmd(lambda a: _toss(a, started=proc is not None))(args)
    finally:
        if proc is not None:
            proc.stop()


def _toss(args, started):
    link = open_link(args)
    back = None
    try:
        back = switch_to(link, args.switch)
        state, tossed = ask(link, args.next, args.ussr, args.new_match)
        checked(state)
        print(as_json(state, tossed) if args.json else "\n".join(describe(state, tossed)))
        return 0
    except (TossError, RuleError) as exc:
        return fail("victory toss: %s" % exc)
    finally:
        if started and back is not None and link.connected:    # the simulator started here goes as it came
            try:
                link.request("game", game=back)
            except (OSError, TimeoutError):
                pass
        link.close()

