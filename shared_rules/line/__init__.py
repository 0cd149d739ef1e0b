"""Rules core of the line-of-battle card game (its rulebook gives no title):
nine fields in a line, three-card formations, claims proved from the table.
Host-only plain Python: the deploy leaves the folder `line/` off the board.
Rule ids (L1..., LA1...): docs/rules-line.md.

    cards.py      the deck as a parameter (colours x values, one card per pair) and card names (L1)
    formation.py  the evaluator: type, key (rank, sum), incomplete k/size; two sides compared (L8-L12)
    prover.py     the claim prover over the unseen cards, exact for size 3 and 4 (L17-L20)
    claims.py     the fields a side can claim now, or after playing one more card (L17-L21)
    odds.py       the draw odds over the unknown cards, exact fractions; the first-player draw (L2, L5)
    state.py      the game-state file: fields, sides, completion turns, claims, checked (L1, L6, L8, L16, L21)
    outcome.py    the win check (3 adjacent or 5 any, L22) and the series score (L23)
    combin.py     binomials, k-subsets and products in plain Python

Refusals raise shared_rules.errors.RuleError naming the rule ("format" for a
malformed input that breaks no rule).
"""

# Every rule id this package implements, the rulings (LA) it follows among them: each is
# named by a test and explained in docs/rules-line.md (tests/test_rule_ids.py); the rest are the players'.
IMPLEMENTED = ("L1", "L2", "L5", "L6", "L8", "L9", "L10", "L11", "L12", "L14", "L16", "L17", "L18", "L19", "L20",
               "L21", "L22", "L23", "LA1", "LA2", "LA3", "LA5", "LA10")
