"""The games the device runs, by id, as players are told them: one home for
every tool (the monitor, the simulator's window, `osada tank watch`, the log's
texts).  A leaf: it imports nothing."""

# "line": the card game of nine fields in a line, whose rulebook gives no title (docs/rules-line.md)
GAME_NAMES = {"siege": "Siege («Осада»)", "tank": "Tank battle («Танковый бой»)", "line": "Line of battle",
              "victory": "Victory Day («День Победы»)",
              "warchest": "War Chest («Сундук войны»)"}


def game_name(gid, short=False):
    """'Tank battle («Танковый бой»)', or short 'Tank battle'; an unknown id as it is."""
    name = GAME_NAMES.get(gid, str(gid))
    return name.split(" («")[0] if short else name
