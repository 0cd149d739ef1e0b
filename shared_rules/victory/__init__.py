"""Rules core of «День Победы» (Victory Day, a two-player card game of the
«ВОЙНА» system): the exact tools the host's `osada victory` commands print.

Rule ids (V1..., VA1...): docs/rules-victory-day.md, written from the
Russian rulebook.  Card values (attack, defence, costs,
bombing) come from the physical cards as input: there is no card database.

    toss.py       who starts this game and the next (V8)
    deal.py       the starting hand of 7 and the redeal (V9, V10): exact counts of hands
    resources.py  paying a cost with resource cards, the substitution of V15 (V14, V15)
    units.py      a unit as typed in from its card: type, line, modifiers, state (V17, V31, ...)
    combat.py     one combat: effective values, who can damage whom, what each side can destroy (V26-V30)
    air.py        the aviation rules that shape a combat: interception, escort, 0/0 (V37, V38)
    clock.py      the deck clock: draws and mills turn by turn, who cannot draw first (V12, V39)

Plain Python with integers only (the host turns counts into fractions); host-only:
the device bundle leaves this folder out.  Every refusal is a RuleError naming the rule.
"""

# The rule ids this package implements, the rulings (VA) it follows among them: each is
# named by a test and explained in docs/rules-victory-day.md (tests/test_rule_ids.py).
IMPLEMENTED = ("V2", "V5", "V6", "V8", "V9", "V10", "V12", "V14", "V15", "V17", "V19", "V21", "V22", "V23",
               "V26", "V27", "V28", "V29", "V30", "V31", "V34", "V37", "V38", "V39", "VA1", "VA2", "VA3", "VA5", "VA7")
