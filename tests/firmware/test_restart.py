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


BOOT_MODULES = r'''
import sys
sys.path.insert(0, "/fakes")
import machine, neopixel
from osada_fw.app import App
from osada_fw.config import led_count, validate
from osada_fw.hal.pico import PicoHardware

class Serial:
    data = b""
    def read(self):
        d, self.data = self.data, b""
        return d
    def write(self, d):
        return len(d)

first = []                               # the action rules loaded at the first frame


def boot(serial):
    cfg = validate({"state_dir": "/state"})
    app = App(PicoHardware(cfg, led_count(cfg), serial=serial), cfg)
    draw = app.draw
    def first_draw(now, force=False):
        if len(first) < booted[0]:
            first.append(rules())
        return draw(now, force)
    app.draw = first_draw
    app.boot()
    return app

booted = [1]

def rules():
    rules = ("shared_rules.siege.moves", "shared_rules.siege.plays")
    return ",".join(sorted(n[19:] for n in sys.modules if n in rules)) or "-"

import os
os.mkdir("/state")
s = Serial()
app = boot(s)
print("fresh", first[0], rules(), len(app.siege.game.log))
s.data = b'{"cmd": "act", "action": {"do": "end_turn"}}\n'
app.tick()
print("acted", rules(), len(app.siege.game.log))
for n in ("shared_rules.siege.moves", "shared_rules.siege.plays", "shared_rules.siege.engine", "osada_fw.siege.mode",
          "osada_fw.app"):
    del sys.modules[n]
from osada_fw.app import App            # a restart: the modules load again, the journal holds one action
booted[0] = 2
app = boot(Serial())
print("restored", first[1], rules(), len(app.siege.game.log))
'''


def test_a_board_with_no_game_to_restore_shows_its_first_frame_without_the_action_rules():
    """shared_rules/siege/plays.py and moves.py (~15 ms each of a Pico's boot from
    littlefs) load after the first frame (Siege.warm), or with the first
    action a restore replays, before it: here in real MicroPython, on the
    Pico's hardware layer."""
    import os

    from osada import mpyvm
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    proc = mpyvm.run_code(BOOT_MODULES, mounts=mpyvm.project_mounts() + [
        (os.path.join(root, "firmware", "osada_fw"), "/lib/osada_fw"),
        (os.path.join(root, "tests", "mpy", "fakes"), "/fakes")], timeout=120)
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout.decode().split() == ["fresh", "-", "moves,plays", "0", "acted", "moves,plays", "1",
                                            "restored", "moves,plays", "moves,plays", "1"]
