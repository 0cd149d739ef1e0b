"""`make hardware`: the build documents, generated from the firmware's config.

    python -m osada.buildguide [--config firmware/config.json] [--out hardware/]
                               [--diameter-mm 500] [--check]

From firmware/config.json (the one hardware description: pins, LED layout,
brightness, power budget) and firmware/osada_fw/layouts.py it writes into
--out:

    wiring.svg                   the Pico's header with every pin the config
                                 uses, wired to the LED strip (330 ohm series
                                 resistor, 1000 uF bulk capacitor, 5 V from
                                 VBUS), the encoder, the two buttons and the
                                 optional buzzer
    placement-<layout>.svg       a 1:1 drilling/placement template for a board
    placement-<layout>-city.svg  of --diameter-mm, for each shipped layout,
                                 without and with the 12 city LEDs
    leds.md                      every LED's index, cell, polar and x/y
                                 position, per layout

and rewrites the generated sections of <out>/README.md (between
`<!-- NAME:begin -->` and `<!-- NAME:end -->`): the bill of materials
(quantities from the config), the pin table, the LED maps, the power
budget and the Raspberry Pi build (its parts, the wiring of the config's
"pi" pins, what differs).  The power figures come from real frames: every state class and
animation is drawn by the firmware's own frame and board painter and measured with
frame_ma(), before and after its power cap (see power.power_budget()).

--check writes nothing: it exits 1 and lists the files that differ from what
would be generated (tests/test_hardware.py runs it).  The output is
deterministic, byte for byte: no dates, fixed number formats.

Modules, one concern each:

    common     paths, defaults, HardwareError, the fixed number format
    svg        drawing through drawsvg, every number in the fixed format
    pico       the Pico's header: which pin is which, what the config wires
    pi         the Raspberry Pi build: its header, parts, wiring and differences
    wiring     wiring.svg
    labels     finding a clear spot for a label
    geometry   where each LED sits on the board (angle, radius)
    placement  each LED in mm, and the placement-*.svg templates
    ledmaps    leds.md and the README's LED maps
    bom        the README's bill of materials
    power      the power budget, measured on real frames
    build      every file at once, and the README's generated sections
    cli        the command line; __main__ runs it
"""
