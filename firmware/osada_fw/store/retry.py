# A journal record that could not be written (its page's read-back differed,
# or the file would not take it): the change is not left in RAM only.  Before
# it is acknowledged the whole game, with it, goes into a snapshot in a fresh
# place, as compact() writes one (the raw-flash log: a new sector; the file
# journal: journal.tmp renamed over journal.bin).  Only if that fails too is
# the flash itself failing: the change is taken back out of the journal's
# memory and again() says so; its caller raises the write's own OSError (what
# the table is told: "flash full", "flash not writable"), not the snapshot's
# (issue 64).
# Loaded by store/core.py only when a write fails, dropped after.
# Runs on MicroPython 1.2x and CPython.


def again(j, payload, n):
    """Save the change journal j could not write: the action `payload`
    (its n encoded bytes), or an undo when payload is None.  True when it
    is saved; False, the journal's memory as before the change, when the
    snapshot failed too."""
    from osada_fw import forget
    forget("osada_fw.store.retry")             # dropped once this call is done
    if payload is not None:
        j._push(payload, n)
    else:
        j._pop()
    try:
        j.compact()
    except OSError:
        if payload is not None:
            j._pop()
        else:
            j._used += j._sizes[j._count]
            j._count += 1
        return False
    return True
