# The tracker's events, one handler each, checked against W8-W30 (spec (a)).
# Each handler raises RuleError before or while changing the game;
# Game.apply puts the state back when one does.
#
# What may follow an action without a coin from the hand (game.follow):
#   tactic  the side's units may make the maneuvers a tactic gives (W22: the
#           card's text is the players', WA2; archers and lancers attack only by
#           their own tactic, W28)
#   one     [player, type]: one maneuver of that unit (a mercenary recruited
#           while one is on the board; a berserker that paid a coin, W30)
#   move    a swordsman's player, after its attack: a move (W28, text NOT STATED)
#   pay     a berserker's player, after one of its maneuvers: berserker_pay (W30)
#   priest  a warrior priest's player, after its attack or control: priest_draw (W30)

from shared_rules.errors import bad
from shared_rules.warchest.events import DOWN, MANEUVERS
from shared_rules.warchest.units import ROYAL
from shared_rules.warchest.zones import add

NO_NORMAL_ATTACK = ("archer", "lancer")     # W28 (FAQ): they attack only by their tactic


def _own(g, p, t):
    """W13, W3: a type player p may put on the board or maneuver with."""
    if t == ROYAL:
        bad("W13", "the royal coin has no unit: it only pays face-down actions and the royal guard's tactic")
    if t not in g.coins[p].types:
        bad("W3", "%s is not one of player %d's unit types (%s)" % (t, p + 1, ", ".join(g.coins[p].types)))


def _coin_of(ev):
    """The coin an action takes from the hand."""
    if ev["e"] in DOWN or (ev["e"] == "tactic" and ev.get("coin") is not None):
        return ev.get("coin")
    return ev["t"]


def _start(g, ev):
    """W8, W11, W30: a hand action is due, and it is this player's."""
    p = ev["p"]
    if not g.all_drawn():
        waiting = [str(q + 1) for q in range(g.players) if not g.drawn[q]]
        bad("W8", "the round's draw comes first: player %s %s not drawn" % (
            " and ".join(waiting), "has" if len(waiting) == 1 else "have"))
    exp = g.expected()
    if exp < 0:
        bad("W11", "every hand is empty: the next round's draw comes next")
    if g.must >= 0:
        if p != g.must:
            bad("W30", "player %d uses the coin the warrior priest drew at once" % (g.must + 1))
        if g.must_coin is not None and _coin_of(ev) != g.must_coin:
            bad("W30", "the coin the warrior priest drew (%s) is the one used now" % g.must_coin)
    elif p != exp:
        bad("W11", "it is player %d's action (one each in turn, from the initiative holder)" % (exp + 1))
    g.follow = None


def _chain(g, p, by_tactic=None):
    f = g.follow
    if f is None:
        f = {"side": g.side(p), "by": p, "tactic": None, "one": None, "move": -1, "pay": -1, "priest": -1}
        g.follow = f
    if by_tactic is not None:
        f["tactic"], f["side"], f["by"] = by_tactic, g.side(p), p
    return f


def _after_maneuver(g, p, op, t):
    """W30, W28: what the maneuver of unit t lets its player do next."""
    f = _chain(g, p, t if op == "tactic" else None)
    f["pay"] = p if t == "berserker" else -1
    f["priest"] = p if t == "warrior_priest" and op in ("attack", "control") else -1
    f["move"] = p if t == "swordsman" and op == "attack" else -1


# ------------------------------------------------------------ the nine actions (W12)


def deploy(g, ev):
    p, t = ev["p"], ev["t"]
    _own(g, p, t)
    c = g.coins[p]
    limit = 2 if t == "footman" else 1
    if c.unit_count(t) >= limit:
        bad("W14", "%s on the board already: one unit of each type (footman: two)" % (
            "a %s unit is" % t if limit == 1 else "two footman units are"))
    if g.markers[g.side(p)][1] < 1:
        bad("W14", "your side controls no location to deploy on")
    c.play_up(t)
    c.place(t, -1)


def bolster(g, ev):
    p, t = ev["p"], ev["t"]
    _own(g, p, t)
    c = g.coins[p]
    c.height(t, ev["u"])                    # W14: an undeployed type cannot bolster
    c.play_up(t)
    c.place(t, ev["u"])                     # W15: no height limit


def initiative(g, ev):
    p = ev["p"]
    if g.holder == p:
        bad("W16", "player %d holds the initiative marker already" % (p + 1))
    if g.moved:
        bad("W16", "the initiative marker has changed hands this round already")
    if g.side(g.holder) == g.side(p):
        bad("W25", "player %d is your teammate: no claiming the marker from a teammate" % (g.holder + 1))
    g.coins[p].play_down(ev["coin"])
    g.holder = p
    g.moved = 1


def recruit(g, ev):
    p, t = ev["p"], ev["t"]
    for q in range(g.players):
        if q != p and g.side(q) == g.side(p) and t in g.coins[q].types:
            bad("W25", "%s is player %d's type: no recruiting for a teammate" % (t, q + 1))
    _own(g, p, t)
    c = g.coins[p]
    if c.supply.get(t, 0) < 1:
        bad("W17", "no %s coin is left in the supply to recruit (WA4)" % t)
    c.play_down(ev["coin"])
    add(c.supply, t, -1)
    add(c.up, t)                            # shown, face up in the discard
    if t == "mercenary" and c.unit_count(t):
        _chain(g, p)["one"] = [p, t]         # W28, W30: a free maneuver, no coin


def pass_turn(g, ev):
    g.coins[ev["p"]].play_down(ev["coin"])  # W18


def _control(g, ev):
    s = g.side(ev["p"])
    mine, theirs = g.markers[s], g.markers[1 - s]
    if ev["taken"]:
        if theirs[1] < 1:
            bad("W20", "the enemy has no control marker on the board to give back")
        theirs[1] -= 1
        theirs[0] += 1
    mine[0] -= 1
    mine[1] += 1
    if not mine[0]:
        g.winner = s                        # W7, W20: the last marker placed wins at once


def _attack(g, ev, tactic):
    p, t, q, y = ev["p"], ev["t"], ev["q"], ev["y"]
    if g.side(q) == g.side(p):
        bad("W21", "player %d's %s is not an enemy unit" % (q + 1, y))
    if t in NO_NORMAL_ATTACK and tactic != t:
        bad("W28", "%s attack only by their own tactic" % ("archers" if t == "archer" else "lancers"))
    me, them = g.coins[p], g.coins[q]
    h = me.height(t, ev["u"])
    if not them.unit_count(y):
        bad("W21", "player %d has no %s unit on the board to attack" % (q + 1, y))
    them.height(y, ev["yu"])
    if t == "lancer" and y == "knight" and h == 1:
        bad("W28", "an unbolstered lancer cannot attack knights")
    them.lose(y, ev["yu"], "box")           # W21: to the box, even its only coin
    if y == "pikeman":
        me.lose(t, ev["u"], "box")          # W28, W30: the pikemen take a coin of the attacker


def _maneuver(g, ev, tactic):
    """W12: move, control, attack or tactic by a unit on the board."""
    p, t = ev["p"], ev["t"]
    _own(g, p, t)
    g.coins[p].height(t, ev["u"])           # W14: an undeployed type cannot maneuver
    op = ev["e"]
    if op == "control":
        _control(g, ev)
    elif op == "attack":
        _attack(g, ev, tactic)


def maneuver(g, ev):
    """A maneuver paid with a coin from the hand: the coin goes face up (W12)."""
    p, t, op = ev["p"], ev["t"], ev["e"]
    _own(g, p, t)
    coin = t
    if op == "tactic" and ev["coin"] is not None:
        if ev["coin"] != ROYAL or t != "royal_guard":
            bad("W13", "a tactic is paid with a coin of its unit's type; the royal coin pays the royal guard's only")
        coin = ROYAL
    c = g.coins[p]
    c.height(t, ev["u"])
    c.play_up(coin)
    add(c.up, coin)
    _maneuver(g, ev, t if op == "tactic" else None)
    _after_maneuver(g, p, op, t)


def free_maneuver(g, ev):
    """W22, W23, W30: a maneuver no coin pays, when a tactic or a property gives it."""
    p, t, op = ev["p"], ev["t"], ev["e"]
    if op == "tactic" and ev["coin"] is not None:
        bad("format", "a free tactic takes no coin")
    if g.must >= 0:
        bad("W30", "player %d uses the coin the warrior priest drew at once" % (g.must + 1))
    f = g.follow
    tactic = None
    if f is not None and f["one"] == [p, t]:
        f["one"] = None
    elif f is not None and op == "move" and t == "swordsman" and f["move"] == p:
        f["move"] = -1
    elif f is not None and f["tactic"] is not None and g.side(p) == f["side"]:
        tactic = f["tactic"] if f["by"] == p else None
    else:
        bad("W11", "no tactic or property gives a free %s now: an action costs a coin from the hand" % op)
    _maneuver(g, ev, tactic)
    _after_maneuver(g, p, op, t)


# ------------------------------------------------------------ draws and the unit exceptions


def draw(g, ev):
    """W8-W10: the round's draw; the first draw after a finished round starts the next."""
    p = ev["p"]
    if g.round_over():
        g.new_round()
    elif g.drawn[p]:
        if g.all_drawn():
            bad("W11", "the round goes on until every hand is empty (player %d's action)" % (g.expected() + 1))
        bad("W8", "player %d has drawn this round already" % (p + 1))
    g.coins[p].draw(3, ev["coins"])
    g.drawn[p] = 1
    g.follow = None
    if g.all_drawn():
        g.first = g.holder                  # W11: the holder starts
        g.last = -1


def priest_due(g, p):
    """W30, W10: refused unless player p may make the warrior priest's draw now."""
    f = g.follow
    if f is None or f["priest"] != p:
        bad("W30", "the warrior priest's draw comes right after its attack or control")
    if not g.coins[p].drawable():
        bad("W10", "no coin is left in the bag or the discard to draw")


def priest_draw(g, ev):
    """W28, W30: after its attack or control the warrior priest's player draws
    a coin (refilling the bag if it is empty, W9) and uses it at once."""
    p = ev["p"]
    priest_due(g, p)
    c = g.coins[p]
    c.draw(1, ev["coins"])
    g.must = p
    g.must_coin = ev["coins"][0] if c.known else None
    g.follow = None


def berserker_pay(g, ev):
    """W30: a coin taken off the berserker unit pays its next maneuver; it goes
    face up to the discard (WA3)."""
    p = ev["p"]
    f = g.follow
    if f is None or f["pay"] != p:
        bad("W30", "a berserker pays with a coin off its unit right after one of its maneuvers")
    c = g.coins[p]
    if c.height("berserker", 0) < 2:
        bad("W30", "the berserker unit's last coin cannot pay: the unit would leave the board")
    c.lose("berserker", 0, "up")
    f["pay"] = -1
    f["one"] = [p, "berserker"]


HAND_ACTIONS = {"deploy": deploy, "bolster": bolster, "initiative": initiative, "recruit": recruit,
                "pass": pass_turn, "move": maneuver, "control": maneuver, "attack": maneuver, "tactic": maneuver}
OTHERS = {"draw": draw, "priest_draw": priest_draw, "berserker_pay": berserker_pay}


def play(g, ev):
    """Play a checked event on game g (Game.apply puts the state back if it is refused)."""
    op = ev["e"]
    if op in OTHERS:
        OTHERS[op](g, ev)
        return
    if op in MANEUVERS and ev["free"]:
        free_maneuver(g, ev)
        return
    _start(g, ev)
    HAND_ACTIONS[op](g, ev)
    g.last = ev["p"]
    g.must = -1
    g.must_coin = None
