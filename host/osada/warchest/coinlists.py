"""Coin lists typed by a user, "TYPE:N,TYPE:N,…": the bag and discard of
`osada warchest odds` and the cards' coin counts of `osada warchest track`
(WA1).  A bad list raises ValueError with one line saying what is wrong."""

import os
import re

from osada.files.userfile import UnreadableFile, read_text

NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")


def parse(text, what=""):
    """{name: count} of "archer:2,royal:1" (spaces and newlines may separate
    the items too); an empty text is an empty list.  `what` heads the error."""
    what = what + ": " if what else ""
    out = {}
    for item in re.split(r"[,\s]+", text.strip()):
        if not item:
            continue
        name, sep, count = item.partition(":")
        if not sep or not NAME.match(name):
            raise ValueError("%s%r is not TYPE:N (e.g. archer:2)" % (what, item))
        try:
            n = int(count)
        except ValueError:
            raise ValueError("%sthe count of %s must be a whole number, not %r" % (what, name, count)) from None
        if n < 0:
            raise ValueError("%sthe count of %s is negative (%d)" % (what, name, n))
        if name in out:
            raise ValueError("%s%s is named twice" % (what, name))
        out[name] = n
    return out


def read(value, what):
    """The list in the file `value` names, or in `value` itself."""
    if not os.path.isfile(value):
        if ":" not in value:
            raise ValueError("%s: %r is neither TYPE:N,... nor a file" % (what, value))
        return parse(value, what)
    try:
        text = read_text(value)
    except UnreadableFile as exc:
        raise ValueError("%s: %s" % (what, exc)) from None
    return parse(text, "%s (%s)" % (what, value))
