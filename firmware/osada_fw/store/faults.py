# What a failing flash means to a player, in words: the journal's status
# when an OSError stops a write (the game goes on in RAM meanwhile, issue 19;
# the app flashes its sign on the ring).  Loaded only when flash fails: a
# board whose flash works carries none of it.
# Runs on MicroPython and CPython alike.

_ERRNO_WORDS = {28: "flash full", 30: "flash not writable", 13: "flash not writable",
                1: "flash not writable", 19: "no filesystem", 5: "flash I/O error"}


def words(exc):
    """What an OSError from the file system means to a player, in words."""
    code = exc.args[0] if exc.args else None
    return _ERRNO_WORDS.get(code, "flash error")
