"""The line-of-battle card game's host tools, the `osada line` commands (the
rules are shared_rules.line; rule ids: docs/rules-line.md).

    cli         the command group: eval, claim, odds, status, track
    evaluate    `osada line eval`: a formation's type and key, two sides compared
    claim       `osada line claim`: the claim prover's verdict and proof, or the claimable fields
    draw_odds   `osada line odds`: exact draw odds with the model stated; the first-player draw
    status      `osada line status`: a game-state file at a glance, the winner, the series
    track       `osada line track`: the tracker at the table (track_app.py, the textual app;
                journal.py, its saved game and the events' checks; table_text.py, the fields drawn)
    inputs      the deck from options, the state file (or the tracker's saved game) read, refusals as one line
    words       formations, keys, completions and chances in words
"""
