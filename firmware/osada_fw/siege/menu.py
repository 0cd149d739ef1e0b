# Siege's menus on the device (siege/ui.py): what a press does in one.
# Loaded by UI._menu_event for a press and dropped after (osada_fw.forget),
# so a game played from the host carries none of it.  Runs on MicroPython and
# CPython alike.

from shared_rules.siege.catalog import MODES, VARIANTS


def press(ui, what, value, now):
    """A press (or a long press) in the open menu: BACK closes it (the
    variants menu: starts the game; the marshal's: plays the picked), ACTION
    takes the highlighted item or toggles it in a multi-select."""
    kind, items, picked = ui.menu
    if what == "press" and value == "back":
        if kind == "variants":
            _finish_setup(ui, now)
        elif kind == "marshal":
            from osada_fw.siege import marshal_menu
            marshal_menu.play(ui, now)
        else:
            ui.close()
            ui.setup = None
        return
    if not (what == "press" and value == "action") or not items:
        return
    item = items[ui.sel]
    if picked is not None:                       # multi-select: toggle
        if kind == "marshal":
            from osada_fw.siege import marshal_menu
            if not marshal_menu.may_pick(ui, picked, now):
                return
        picked[ui.sel] = not picked[ui.sel]
        return
    ui.close()
    if kind == "play":
        _play_item(ui, item, now)
    elif kind == "players":
        ui.setup["players"] = item
        ui.open_menu("mode", MODES)
    elif kind == "mode":
        ui.setup["mode"] = item
        if item == "solo":
            ui.setup["players"] = 1
        ui.open_menu("variants", VARIANTS, multi=True)
    elif kind == "sector":
        ui.pending_action["sector"] = item
        ui.act(ui.pending_action, now)
    elif kind == "game":
        ui.pick(item, now)


def _play_item(ui, item, now):
    s, line = ui.cursor_cell()
    if item in ("dot", "rebuild"):
        ui.act({"do": item, "sector": s}, now)
    elif item == "patrol":
        ui.act({"do": "patrol"}, now)
    else:
        e = ui.top_enemy(s, line)
        if e is None:
            ui.flash_red(now, 300)
        else:
            ui.act({"do": item, "enemy": e.id}, now)


def _finish_setup(ui, now):
    kind, items, picked = ui.menu
    ui.close()
    setup = ui.setup
    ui.setup = None
    setup["variants"] = [items[i] for i in range(len(items)) if picked[i]]
    if setup.get("mode") == "marshal" and setup.get("players", 2) > 5:
        setup["players"] = 5
    if setup.get("mode") not in (None, "solo", "marshal") and setup.get("players", 2) < 2:
        setup["players"] = 2
    try:
        ui.siege.new_game(setup)
    except Exception as exc:
        ui.siege.app.push({"ev": "error", "error": str(exc), "source": "buttons"})
        ui.flash_red(now, 600)
