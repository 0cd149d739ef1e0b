"""Chains of power cuts on the emulated Pico (issue 64): one flash, cut after
cut.  Each trial powers the board on from the flash the last cut left, checks
that its game is the last acknowledged one (or that and the change in
flight), plays on, and is cut again: inside a flash erase or program (torn
bit by bit, NOR-style, at a random fraction: pico.mjs's cut_in_flash with a
fraction) or at a random moment while a request is being handled.

Used by tests/pico/test_power_cut.py (a short chain) and by
`python -m tests.bench.pico_cuts` (the long measurement: the figures of the
issue)."""

import os
import random
import time

from pico_support import IDLE_HIGH, connect, mirror_after
from rules_support import engine_state

from shared_rules.siege.autoplay import play
from tests.support import pico_emu as pe

T = 300.0                # a reply's wait (see BOOT_S)
BOOT_S = 600.0           # a boot's: on a machine kept busy by other work the emulator runs at a
                         # fraction of its speed (a boot of 10 s took over 60 with two forecasts
                         # beside it); a board that never boots is still caught, just later


class ChainError(AssertionError):
    """An acknowledged action lost, a boot that failed, or damage announced after a cut."""


class Chain:
    """Cut after cut on one flash image.  setup: the game; uf2: the one-file
    install the first trial boots; work: a directory for the flash images."""

    def __init__(self, setup, uf2, work, seed=1, undo_every=9):
        self.setup = setup
        self.rng = random.Random(seed)
        self.actions = []                  # a whole autoplayed game's actions
        play(setup, seed, keep=lambda g, a, e: self.actions.append(a), skill=2)
        self.uf2 = uf2
        self.work = work
        self.image = None                  # the flash the last cut left (None: boot the uf2)
        self.acked = []                    # the actions the host saw acknowledged
        self.ok = [[]]                     # what a power on may show: acked, or that with the change in flight
        self.undo_every = undo_every
        self.step = 0
        self.cuts = 0
        self.in_flash = {"erase": 0, "program": 0}
        self.lost = 0
        self.failed_boots = 0
        self.started = False

    def _boot(self):
        if self.image is None:
            p = pe.EmulatedPico(uf2=self.uf2, high=IDLE_HIGH)
        else:
            p = pe.EmulatedPico(flash=self.image, high=IDLE_HIGH)
        try:
            p.wait_text(b'"ev": "boot"', timeout=BOOT_S)
        except Exception as exc:
            p.stop()
            self.failed_boots += 1
            raise ChainError("the board did not boot after cut %d (%s): %r" % (self.cuts, exc, bytes(p.text[-300:])))
        return p

    def _check(self, pico, link):
        st = link.request("state", timeout=T)
        seq = st["seq"]
        allowed = [len(a) for a in self.ok]
        if seq not in allowed or st["state"] != engine_state(mirror_after(self.setup, self.actions[:seq])):
            self.lost += 1
            raise ChainError("after cut %d the board holds %d actions; %s allowed (acknowledged: %d)"
                             % (self.cuts, seq, allowed, len(self.acked)))
        if b'"kept"' in pico.text or st["journal"] != "ok":
            raise ChainError("after cut %d the board announced damage or an unsaved game: %r"
                             % (self.cuts, pico.text[pico.text.find(b'"ev": "boot"'):][:300]))
        self.acked = list(self.actions[:seq])
        self.ok = [self.acked]

    def _change(self, link):
        """The next change: an action, an undo now and then, a new game at the end.
        Returns its request id."""
        self.step += 1
        if self.undo_every and self.acked and self.step % self.undo_every == 0:
            self.ok = [self.acked, self.acked[:-1]]
            return link.send("undo", confirm=True), self.acked[:-1]
        if len(self.acked) == len(self.actions):
            self.ok = [self.acked, []]
            return link.send("new", **self.setup), []
        nxt = self.acked + [self.actions[len(self.acked)]]
        self.ok = [self.acked, nxt]
        return link.send("act", action=self.actions[len(self.acked)]), nxt

    def trial(self):
        """Power on, check, play on until the next cut.  Returns where the cut fell."""
        pico = self._boot()
        cut_path = os.path.join(self.work, "flash-%d.bin" % (self.cuts % 2))
        try:
            link = connect(pico)
            if not self.started:
                assert link.request("new", timeout=T, **self.setup)["ok"]
                self.started = True
            else:
                self._check(pico, link)
            rng = self.rng
            in_flash = rng.random() < 0.6
            if in_flash:
                pico.cut_power_in_flash(rng.randint(1, 3), cut_path, fraction=rng.random(),
                                        seed=rng.randrange(1, 1 << 30))
            when = None if in_flash else rng.randint(0, 4)
            k = 0
            while True:
                try:
                    rid, after = self._change(link)
                    if when is not None and k == when:       # cut while it is being handled
                        time.sleep(rng.random() * 0.4)
                        pico.cut_power(cut_path)
                        where = "time"
                        break
                    reply = link.wait_reply(rid, T)
                except (OSError, TimeoutError):
                    where = pico.wait_off()["cut"]           # the armed cut fell in this change
                    break
                if not reply.get("ok") or "saved" in reply:
                    raise ChainError("a change was refused or not saved: %r" % (reply,))
                self.acked = after
                self.ok = [self.acked]
                k += 1
        finally:
            pico.stop()
        self.cuts += 1
        if where in self.in_flash:
            self.in_flash[where] += 1
        self.image = cut_path
        return where

    def final_check(self):
        pico = self._boot()
        try:
            self._check(pico, connect(pico))
        finally:
            pico.stop()

    def figures(self):
        return {"cuts": self.cuts, "in_erase": self.in_flash["erase"], "in_program": self.in_flash["program"],
                "acknowledged_lost": self.lost, "failed_boots": self.failed_boots}
