"""«День Победы» (Victory Day)'s tools: the `osada victory` command group.

    cli.py       the group and its arguments (add_parser), one-line errors
    odds.py      `victory odds`: the starting hand and the redeal, exact (V9, V10)
    pay.py       `victory pay`: paying a cost, substitution included (V15)
    unitspec.py  units as typed in (options or a small file) -> rules-core units
    combat.py    `victory combat`: one combat, what each side can destroy (V26-V30, V37, V38)
    clock.py     `victory clock`: the deck clock, mills simulated turn by turn (V39)
    numbers.py   exact chances as players read them: 4829/35853 ≈ 0.1347 (13.5%)
    toss.py      `victory toss`: the device's lot for the first player (V8)
    toss_words.py  the toss in words and checked (V8); runs on MicroPython too (the static site)
    picture.py   the toss as the table's page draws it

The rules are shared_rules.victory's; these modules read arguments and lay out words.
"""
