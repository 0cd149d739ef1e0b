"""War Chest's («Сундук войны») host tools, the `osada warchest` commands.

    cli        the command group: odds, track, replay, watch
    odds       `osada warchest odds`: the exact draw odds of a bag and discard
    coinlists  the TYPE:N,… lists a user types (bag, discard, the cards' counts)
    track      `osada warchest track`: a new game's setup, or a saved one resumed
    app        the tracker at the table (textual): events by key, both views, undo
    render     the tracker's screen as text: the round, the players' panels, the log
    journal    the saved game: setup and events, written atomically after each event
    replay     `osada warchest replay`: a saved game checked again, event by event
    names      the types' words: English ids and the Russian edition's names
    watch      `osada warchest watch`: the device's round tracker live, keys as its buttons
    device_words  the round tracker's counts and events in words (what watch prints)
    picture    the round tracker as the table's page draws it (but its ring: also on MicroPython,
               for the static site)

The rules, the odds and the views are the rules core's, shared_rules.warchest."""
