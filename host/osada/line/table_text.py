"""The line-of-battle table as text, 80 columns: the nine fields side by
side, North's cards above the line (his first card nearest it), South's below,
each side's formation by its type (or k/size while it grows), the claims; then
my hand, the counts, and the claims the table proves now.  What `osada line
track` draws (and its tests read)."""

from osada.line import words
from shared_rules.line import outcome
from shared_rules.line.cards import name

LABEL = 8            # the rows' labels
COL = 8              # one field's column (its text at most COL - 1)
SHORT = {"skirmish": "skirm."}


def form_text(f, side):
    """A side's formation in at most 7 characters: 'wedge', 'phalanx', '2/3', '' for none."""
    form = f.formation(side)
    if not form.cards:
        return ""
    if not form.complete:
        return form.progress()
    return SHORT.get(form.type, form.type)


def _row(label, cells):
    return (label.ljust(LABEL) + "".join(c[:COL - 1].ljust(COL) for c in cells)).rstrip()


def grid(st):
    """The fields as rows of text."""
    fields = [st.fields[n] for n in range(1, outcome.FIELDS + 1)]
    depth = max(f.size for f in fields)
    rows = [_row("field", ["%d" % f.number + (" [%s]" % "+".join(f.tactics) if f.tactics else "")
                           for f in fields])]
    rows.append(_row("North", [form_text(f, "north") for f in fields]))
    for i in range(depth - 1, -1, -1):
        rows.append(_row("", [name(f.cards["north"][i]) if i < len(f.cards["north"]) else "" for f in fields]))
    rows.append(_row("", ["=" * (COL - 1)] * len(fields)))
    for i in range(depth):
        rows.append(_row("", [name(f.cards["south"][i]) if i < len(f.cards["south"]) else "" for f in fields]))
    rows.append(_row("South", [form_text(f, "south") for f in fields]))
    rows.append(_row("claimed", [words.side(f.claimed) if f.claimed else "" for f in fields]))
    return rows


def claimable(st):
    """{side: [fields]} each side could claim now: its side complete, the claim proved (L17-L20)."""
    out = {s: [] for s in outcome.SIDES}
    if st.winner():
        return out
    for f in st.fields.values():
        if f.claimed or f.tactics:
            continue
        for side in outcome.SIDES:
            if f.formation(side).complete and st.proof(f.number, side).proven:
                out[side].append(f.number)
    return out


def lines(st, turn):
    """The whole picture: a head line, the grid, the hand and counts, what is claimable or who has won."""
    them = outcome.other(st.me)
    out = ["Line of battle · you: %s · turn %d · deck %d · %s's hand %d" % (
        words.side(st.me), turn, st.draw_pile, words.side(them), st.their_hand)]
    out += grid(st)
    out.append("Your hand: %s" % (" ".join(name(c) for c in st.deck.sort(st.hand)) if st.hand else "empty"))
    won = st.winner()
    if won:
        out.append("%s has won: %s (L22)." % (words.side(won[0]), "%s in a row" % words.fields_text(won[2])
                                               if won[1] == "adjacent" else "%d fields" % len(won[2])))
        return out
    can = claimable(st)
    said = ["%s can claim %s" % (words.side(s), words.fields_text(can[s])) for s in (st.me, them) if can[s]]
    out.append(("Proved now: " + "; ".join(said) + ".") if said else "No claim is proved yet (L17-L20).")
    return out
