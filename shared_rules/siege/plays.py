# The players' actions, one handler per action op (actions.OPS): the phase 4
# card plays (R10-R17, checked against the card when one is named), `move`,
# `reveal` and `end_turn`, the damage choice (R25) and the marshal's play
# (R60).  Each handler, handler(game, a, b) with the action tuple's a and b,
# checks everything first (RuleError, nothing changed) and then changes the
# game; engine.Game.apply_tuple calls it, and its turn machine carries the
# game on from there.

from shared_rules.errors import bad
from shared_rules.siege import actions as A
from shared_rules.siege.catalog import CITY, LINES, PHASE_PLAY, PHASE_REVEAL, REAR, SECTOR_COLOR
from shared_rules.siege.moves import reveal_from_pool


def _target(g, eid, rule, what):
    """Enemy eid of a phase 4 play `what`; RuleError if it is not phase 4
    or there is no such enemy."""
    g.need_phase(PHASE_PLAY, what)
    e = g.enemy(eid)
    if e is None:
        bad(rule, "there is no enemy %d on the board" % eid)
    return e


def _reach(g, e, code, rule):
    """Can this strike card or counterattack hit enemy e?  (R10)"""
    t = code & 7
    color = SECTOR_COLOR[e.sector]
    if t == A.CARD_STRIKE or t == A.CARD_PRECISE_STRIKE:
        if e.line == CITY:
            bad(rule, "a strike card cannot reach an enemy in the city; only IL-2, hedgehog and push-back do")
        arm = A.card_arm(code)
        if LINES[e.line] != arm:
            bad(rule, "a %s card hits the %s line; enemy %d is in %s"
                % (arm, arm, e.id, LINES[e.line]))
        c = A.card_color(code)
        if c != "any" and c != color:
            bad(rule, "a %s card hits %s sectors; enemy %d is in %s sector %d"
                % (c, c, e.id, color, e.sector))
    else:   # counterattack
        c = A.card_color(code)
        if c != color:
            bad(rule, "a %s counterattack hits %s sectors; enemy %d is in %s sector %d"
                % (c, c, e.id, color, e.sector))
        if e.line == CITY and not g.one_for_all:
            bad(rule, "a counterattack reaches the city only with the one_for_all variant")


def _hit(g, eid, code):
    e = _target(g, eid, "R10", "hit")
    if e.line == REAR:
        bad("R10", "enemies in the rear cannot be hit (enemy %d)" % eid)
    t = code & 7
    if t == A.CARD_NONE:
        if e.line == CITY and not g.one_for_all:
            bad("R10", "only IL-2, hedgehog and push-back affect an enemy in the city (enemy %d)" % eid)
    elif t == A.CARD_STRIKE or t == A.CARD_COUNTER:
        _reach(g, e, code, "R10")
    else:
        bad("R12", "that card destroys outright: play it with kill")
    e.armor -= 1
    g.events.append({"ev": "hit", "enemy": eid, "armor": e.armor})
    if e.armor <= 0:
        g.destroy(e, "play")                               # R11


def _kill(g, eid, code):
    e = _target(g, eid, "R12", "kill")
    if e.line == REAR:
        bad("R12", "enemies in the rear cannot be destroyed by cards (enemy %d)" % eid)
    t = code & 7
    if t == A.CARD_PRECISE_STRIKE:
        _reach(g, e, code, "R12")
    elif t == A.CARD_ALL_FOR_ONE:
        if not g.all_for_one:
            bad("R12", "three strike cards of one colour destroy only with the all_for_one variant")
        c = A.card_color(code)
        if SECTOR_COLOR[e.sector] != c:
            bad("R12", "all_for_one in %s destroys an enemy in a %s sector; enemy %d is in sector %d"
                % (c, c, eid, e.sector))
    elif t == A.CARD_STRIKE or t == A.CARD_COUNTER:
        bad("R12", "a strike card alone only hits; destroy with precise_shot, IL-2 or all_for_one")
    g.events.append({"ev": "kill", "enemy": eid})
    g.destroy(e, "play")                                   # R11


def _hedgehog(g, eid, _):
    _target(g, eid, "R13", "hedgehog")
    if g.hedgehog:
        bad("R13", "the only hedgehog already holds enemy %d this turn" % g.hedgehog)
    g.hedgehog = eid
    g.events.append({"ev": "hedgehog", "enemy": eid})


def _dot(g, s, _):
    g.need_phase(PHASE_PLAY, "dot")
    if not g.walls[s]:
        bad("R14", "a dot goes on a standing wall; sector %d has none" % s)
    if g.dots[s]:
        bad("R14", "the wall of sector %d already has a dot" % s)
    if sum(g.dots) >= 2:
        bad("R14", "both dot tokens are already on the board")
    g.dots[s] = 1
    g.events.append({"ev": "dot", "sector": s})


def _push_back(g, eid, _):
    e = _target(g, eid, "R15", "push_back")
    if e.line == REAR:
        bad("R15", "enemy %d is already in the rear" % eid)
    e.line = REAR
    g.events.append({"ev": "push_back", "enemy": eid, "sector": e.sector})


def _rebuild(g, s, _):
    g.need_phase(PHASE_PLAY, "rebuild")
    if g.walls[s]:
        bad("R16", "sector %d already has a wall; never a second one" % s)
    g.walls[s] = 1
    g.events.append({"ev": "rebuild", "sector": s})


def _patrol(g, _a, _b):
    g.need_phase(PHASE_PLAY, "patrol")
    if g.patrol:
        bad("R17", "patrol is already played this turn")
    g.patrol = True
    g.events.append({"ev": "patrol"})


def _move(g, _a, _b):
    if g.phase != PHASE_PLAY:
        bad("turn", "enemies move once, after phase 4; it is phase %d" % g.phase)
    g.start_move()


def _reveal(g, _a, _b):
    g.need_phase(PHASE_REVEAL, "reveal")
    if g.reveals <= 0:
        bad("R30", "no more tokens to reveal this turn%s; end the turn"
            % (" (patrol, R17)" if g.patrol else ""))
    reveal_from_pool(g)


def _end_turn(g, _a, _b):
    g.ending = True
    g.events.append({"ev": "end_turn", "player": g.player})


def _choose(g, eid, _):
    p = g.pending
    if p is None or p["choice"] != "damage":
        bad("R25", "there is no pending choice")
    if eid not in p["candidates"]:
        bad("R25", "enemy %d is not one of the candidates %s" % (eid, p["candidates"]))
    cause = g.tasks.pop(0)[0]
    g.pending = None
    g.damage(g.enemy(eid), cause)


def _marshal_play(g, sector, kinds):
    if g.mode != "marshal":
        bad("R60", "marshal_play is for mode marshal")
    from shared_rules.siege import marshal  # his mode's rules: loaded in a marshal game only
    marshal.play(g, sector, kinds)


# index = op (actions.OPS)
HANDLERS = (_hit, _kill, _hedgehog, _dot, _push_back, _rebuild, _patrol,
            _move, _reveal, _end_turn, _choose, _marshal_play)
