# The optional buzzer's tones (config "buzzer": {"pin": N}, hardware/README.md):
# one (Hz, ms) for each thing a player must not miss; other events are
# silent.  App.push loads this only on a board with a buzzer: without one,
# the table costs no heap.

TONES = {"refused": (330, 90), "building_destroyed": (220, 250), "won": (880, 500), "lost": (147, 800)}
