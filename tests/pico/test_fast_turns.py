"""A fast turn of the encoder while the board is busy answering the host: no
step may be lost.  The encoder is decoded in hard pin interrupts
(hal/pico.py), which run even inside a long C call (json.dumps of a state
reply) or a collection; soft ones (run when the VM next gets to them) read
two edges as one there and lost steps in this very test."""

from pico_support import PINS, connect, press

from shared_rules.siege.autoplay import random_setup

T = 60.0
SETUP = random_setup(0)        # solo, enemy k on line 1 of sector k (see test_inputs.py)


def fast_turn(detents, edge_ms):
    """Quadrature edges edge_ms apart, A leading B (forward)."""
    a, b = PINS["a"], PINS["b"]
    steps = []
    for _ in range(detents):
        steps += [(a, False, edge_ms), (b, False, edge_ms), (a, True, edge_ms), (b, True, edge_ms)]
    return steps


def test_a_fast_turn_while_the_host_floods_requests_loses_no_step(pico):
    link = connect(pico)
    assert link.request("new", timeout=T, **SETUP)["ok"]
    for _ in range(40):                               # each reply is the whole state: json.dumps, in C
        link.send("state")
    pico.play(fast_turn(6, 1.0))                      # 6 detents in 24 ms: the cursor to sector 2, line 1
    pico.play(press(PINS["action"]))                  # hit there: enemy 2
    pico.play([(PINS["switch"], True, 150)])          # idle level again: time for the press to count
    link.request("hello", timeout=T)
    assert link.fetch_log()["actions"] == [{"do": "hit", "enemy": 2}]
