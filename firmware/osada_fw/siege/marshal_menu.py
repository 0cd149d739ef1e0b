# The field marshal's play from the device's buttons (R60): his hand as a
# multi-select menu that offers only the plays R60 allows, and says why when
# it refuses one.  Loaded only in marshal mode, so other games pay no heap
# for it.  Runs on MicroPython and CPython alike.

from shared_rules.siege.catalog import C_SPECIAL, KIND_CLASS, KIND_IDS


def open_menu(ui, limit):
    """His hand as a multi-select menu; limit 0: his turn's play (R60),
    else the 'up to limit' play after his reveal3/reveal4."""
    hand = ui.siege.game.marshal_hand
    items = tuple(KIND_IDS[k] for k in hand[:6])
    ui.marshal_limit = limit
    ui.open_menu("marshal", items, multi=True)


def refuse(ui, error, now):
    ui.siege.app.push({"ev": "refused", "rule": "R60", "error": error, "source": "buttons"})
    ui.flash_red(now, 600)


def may_pick(ui, picked, now):
    """May one more token be picked?  (Two on his turn, n after reveal3/4.)"""
    most = ui.marshal_limit or 2
    if not picked[ui.sel] and picked.count(True) >= most:
        refuse(ui, "the marshal plays at most %d tokens now" % most, now)
        return False
    return True


def play(ui, now):
    """BACK in the menu: play what is picked, if R60 allows it."""
    kind, items, picked = ui.menu
    toks = [items[i] for i in range(len(items)) if picked[i]]
    lone_tank = len(toks) == 1 and KIND_CLASS[KIND_IDS.index(toks[0])] <= C_SPECIAL
    if len(toks) == 1 and not lone_tank and not ui.marshal_limit:
        # R60: one token alone must be a tank; the menu stays open
        refuse(ui, "a lone %s is no play: one token alone must be a tank, "
                   "or play two, or none" % toks[0], now)
        return
    ui.close()
    action = {"do": "marshal_play", "tokens": toks}
    if lone_tank and not ui.marshal_limit:
        ui.pending_action = action              # a lone tank: where?
        ui.open_menu("sector", (1, 2, 3, 4, 5, 6))
        return
    ui.act(action, now)
