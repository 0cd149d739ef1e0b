# The game's vocabulary and the enemy catalogue, as data.
#
# Everything the engine knows about a token kind lives in the KINDS table
# (spec: "Keep armor, counts and trophy values as data (one table)").
# Runs on MicroPython: plain tuples, no enum/dataclasses.

# Lines, outermost first; the city is index 4.  (spec: Vocabulary)
LINES = ("rear", "air", "artillery", "tank", "city")
REAR = 0
AIR = 1
ARTILLERY = 2
TANK = 3
CITY = 4

# Sector colours, index = sector (1..6); index 0 unused.
COLORS = ("red", "green", "blue")
SECTOR_COLOR = (None, "red", "red", "green", "green", "blue", "blue")
# The three strike arms: a strike card of arm X hits line X.
ARMS = ("air", "artillery", "tank")

# Token classes.
C_TANK = 0      # plain tank: sdkfz, pz3, tiger
C_SPECIAL = 1   # special enemy: placed like a tank, then an effect (R32)
C_BOMBER = 2    # He-111 (R40-R42)
C_EVENT = 3     # everything else: resolved and discarded

# One row per kind: (id, count, armor, trophy points, class, look).
# Counts add up to 49 (spec table).  Events have no armor and no trophy.
# look: how the LEDs show it on the board: None for the plain tanks (their
# colour says their CURRENT armor, osada_fw/colors.py), or its own hue
# (r, g, b) for a special (chosen for how it looks after gamma 2.5).
# A new kind is one row here, one row of words in host/osada/words/texts.py
# (its printed name, gloss and tag), and its effect in moves.py if it has one.
KINDS = (
    ("sdkfz", 6, 1, 1, C_TANK, None),
    ("pz3", 11, 2, 2, C_TANK, None),
    ("tiger", 10, 3, 3, C_TANK, None),
    ("pz2h", 1, 2, 4, C_SPECIAL, (0, 230, 255)),        # cyan
    ("pz4h", 1, 3, 4, C_SPECIAL, (175, 0, 255)),        # violet
    ("maus", 1, 3, 4, C_SPECIAL, (255, 0, 190)),        # magenta
    ("panther", 1, 2, 4, C_SPECIAL, (175, 255, 0)),     # lime
    ("he111", 4, 0, 0, C_BOMBER, None),
    ("move_red", 2, 0, 0, C_EVENT, None),
    ("move_green", 2, 0, 0, C_EVENT, None),
    ("move_blue", 2, 0, 0, C_EVENT, None),
    ("move_cw", 1, 0, 0, C_EVENT, None),
    ("move_ccw", 1, 0, 0, C_EVENT, None),
    ("sabotage_air", 1, 0, 0, C_EVENT, None),
    ("sabotage_artillery", 1, 0, 0, C_EVENT, None),
    ("sabotage_tank", 1, 0, 0, C_EVENT, None),
    ("discard_one", 1, 0, 0, C_EVENT, None),
    ("reveal3", 1, 0, 0, C_EVENT, None),
    ("reveal4", 1, 0, 0, C_EVENT, None),
)
TOTAL_TOKENS = 49

KIND_IDS = tuple(row[0] for row in KINDS)
# Small ints by kind index, as bytes: one 20-byte buffer each on the Pico's
# heap, where a tuple takes a word an entry.
KIND_ARMOR = bytes([row[2] for row in KINDS])
KIND_TROPHY = bytes([row[3] for row in KINDS])
KIND_CLASS = bytes([row[4] for row in KINDS])

# Kind index by id (built once at import).
KIND_INDEX = {}
for _i in range(len(KINDS)):
    KIND_INDEX[KINDS[_i][0]] = _i


def kind_index(name):
    """Kind index for a kind id such as 'tiger'; ValueError if unknown."""
    k = KIND_INDEX.get(name)
    if k is None:
        raise ValueError("unknown enemy kind %r" % (name,))
    return k


# Colour-move events and the sectors they move (R33).
MOVE_COLOR = {"move_red": "red", "move_green": "green", "move_blue": "blue"}
REVEAL_MORE = {"reveal3": 3, "reveal4": 4}

MODES = ("standard", "shoulder", "solo", "marshal")
VARIANTS = ("caught_off_guard", "simple_battles", "one_for_all",
            "all_for_one", "my_house", "supplies_low")

# Phases the engine knows (1-3 are the players' own, with physical cards).
PHASE_PLAY = 4      # plays
PHASE_MOVE = 5      # movement being resolved (only seen with a pending choice)
PHASE_REVEAL = 6    # reveal tokens
PHASE_MARSHAL = 7   # field marshal draws and plays (mode marshal, R60)


# "The strongest enemy" of a cell: what the device's ACTION key hits, the LED
# shows first in a shared cell, and the monitor selects by default.  One
# definition for all three: the highest current armor; on a tie the higher
# trophy value (a special before a tiger before a pz3 before an sdkfz); on a
# tie still, the lower id (the enemy that came first).
def strength(k, armor, eid):
    """The enemy's strength as one small int (higher = stronger), so the
    device can rank enemies without allocating.  armor is clamped to 0-7 and
    eid to 1-1023, which no game reaches."""
    if armor < 0:
        armor = 0
    elif armor > 7:
        armor = 7
    if eid > 1023:
        eid = 1023
    return (armor * 8 + KIND_TROPHY[k]) * 1024 + 1023 - eid


def opposite(s):
    """The opposite sector: 1<->4, 2<->5, 3<->6."""
    return (s + 2) % 6 + 1


def cw(s):
    """The next sector clockwise (6 -> 1)."""
    return s % 6 + 1


def ccw(s):
    """The next sector counter-clockwise (1 -> 6)."""
    return (s + 4) % 6 + 1
