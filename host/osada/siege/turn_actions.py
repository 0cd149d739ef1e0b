"""How many actions of this turn the board has taken, for the forecast's
stamp (issue 60: "turn 2, 3 actions into it", not the game's count).

The state says the turn, not where it began; the host learns it two ways:
live, a state whose turn is one more than the last one's began at its seq
(the end_turn just before it is the last turn's); otherwise (a host that
came in mid-turn, an undo back over an end_turn) from the game's log, whose
last end_turn before the seq ends the previous turn.

    ta = TurnActions()
    ta.see(turn, seq)   -> the actions of this turn, or None until it is known
    ta.ask()            -> {"from": n}: the log request that tells it (once a turn), or None
    ta.learn(reply, turn, seq)   a `log` reply (its `from` and `actions`)
    ta.reset()          a new game
"""

LOG_PAGE = 40            # the device's actions per `log` reply (firmware/osada_fw/siege/commands.py)


class TurnActions:
    def __init__(self):
        self.reset()

    def reset(self):
        self.starts = {}            # turn -> the seq its first action would have
        self.last = None            # (turn, seq) of the last state seen
        self.asked = None           # the turn a log request was made for: once a turn

    def see(self, turn, seq):
        if not isinstance(turn, int) or not isinstance(seq, int):
            return None
        for t in [t for t in self.starts if t > turn or self.starts[t] > seq]:
            del self.starts[t]                     # an undo went back before them
        if turn not in self.starts and self.last is not None and self.last[0] == turn - 1 \
                and self.last[1] < seq:
            self.starts[turn] = seq                # seen live: the turn began with this state
        self.last = (turn, seq)
        start = self.starts.get(turn)
        return None if start is None else seq - start

    def ask(self):
        """The `log` request's fields that would tell this turn's start, once a turn (a turn
        the log does not tell stays unknown: no request per action)."""
        if self.last is None or self.last[0] in self.starts or self.asked == self.last[0]:
            return None
        self.asked = self.last[0]
        return {"from": max(0, self.last[1] - LOG_PAGE)}

    def learn(self, reply, turn, seq):
        """From a `log` reply: the last end_turn before seq ends the turn before this one."""
        start = reply.get("from")
        actions = reply.get("actions")
        if not isinstance(start, int) or not isinstance(actions, list) or not isinstance(turn, int):
            return
        upto = actions[:max(0, seq - start)]
        for i in range(len(upto) - 1, -1, -1):
            a = upto[i]
            if isinstance(a, dict) and a.get("do") == "end_turn":
                self.starts[turn] = start + i + 1
                return
        if start == 0 and turn == 1:
            self.starts[turn] = 0                  # the first turn begins with the game
