"""Power-safe: a device restarted (a power cut) comes back with the game,
its seq and a pending choice as they were (osada_fw/store/), says so in its
boot event, and the restored game plays on, from the buttons too."""

from tests.support.device import Dev, choice_dev, random_session


def test_restart_restores_game_seq_and_pending_choice(tmp_path):
    dev = choice_dev(tmp_path)
    dev.ok("act", action={"do": "patrol"})
    dev.ok("act", action={"do": "hit", "enemy": 1})
    dev.ok("undo")
    dev.ok("act", action={"do": "move"})
    st, seq = dev.state()
    assert st["pending"] is not None and st["pending"]["choice"] == "damage"
    assert seq == 2
    log = dev.log()
    del dev                                                  # power cut

    dev2 = Dev(tmp_path, seed=99)
    assert dev2.boot_msgs == [{"ev": "boot", "restored": True, "seq": 2}]
    assert dev2.state() == (st, 2)
    assert dev2.ok("hello")[0]["seq"] == 2
    assert dev2.log() == log
    # the restored choice can be answered, from the buttons
    cand = st["pending"]["candidates"][0]
    dev2.press("action")
    assert dev2.app.siege.game.log.dicts()[-1] == {"do": "choose", "enemy": cand}
    assert dev2.app.siege.game.pending is None
    # and once more
    st3, seq3 = dev2.state()
    dev3 = Dev(tmp_path, seed=7)
    assert dev3.state() == (st3, seq3) == (st3, 3)


def test_restart_restores_a_long_random_game(tmp_path):
    dev = Dev(tmp_path)
    accepted = random_session(dev, {"players": 3, "seed": 31}, 8, attempts=150, undo_every=9)
    st = dev.state()
    assert st[1] == accepted
    dev2 = Dev(tmp_path, seed=1)
    assert dev2.boot_msgs == [{"ev": "boot", "restored": True, "seq": accepted}]
    assert dev2.state() == st
