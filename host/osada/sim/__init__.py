"""`osada sim`: the firmware app run on this PC, with a virtual board.

    simulator  Simulator: the app on fake hardware, its serial side a
               pseudo-terminal symlinked at --link; main() is `osada sim`
    view       what it shows and reads in a terminal: the LEDs where they
               sit on the board (Screen); the keys: osada.terminal.termkeys
    ptylink    PtyLink: the pty, its link and the locks that keep one app
               per state directory and per link (`osada device` uses it too)"""
