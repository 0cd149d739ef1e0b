"""Osada host tool: the PC side of the project, in packages by audience.

    cli          the `osada` command line, on top: it imports the rest, nothing imports it
    link/        the link to a device: the protocol client, the serial ports, what a
                 command needs of a device, the simulator a tool starts
    words/       words for people: token and event texts, a roll in words, the games' names
    tank/        Tank battle's tools (`osada tank odds | watch | replay`, the ring)
    monitor/     `osada monitor`, the full-screen live view (textual)
    sim/         `osada sim`: the firmware on this PC with a virtual board
    flash/       build and flash: the Pico bundle, the UF2, the official MicroPython image
    buildguide/  `make hardware`: the build documents
    mpyvm/       code run in real MicroPython (`osada scenario --runtime micropython`)
    paths, config_file   where files are; a config a user names
    termkeys     the keys in what one read of a terminal holds (escape sequences whole)

The test harness (the emulated Pico, firmware helpers only tests call) is tests/support/,
not part of the installed package."""
