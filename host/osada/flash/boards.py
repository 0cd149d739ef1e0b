"""The boards Osada installs on, in one place: what `make flash` checks an
image for (official.py) and what the build documents say (the parts list,
the wiring diagram: osada.buildguide), so they never disagree."""

BOARD = "RPI_PICO"                                   # MicroPython's name of the board's image
BOARD_NAME = b"Raspberry Pi Pico with RP2040"        # what that image calls its board
NAME = "Raspberry Pi Pico (RP2040)"                  # the board, in words
ONLY = "Osada works with the Raspberry Pi Pico (board %s, RP2040) only" % BOARD
REFUSED = "the Pico W and Pico 2 need other images: not supported yet"
