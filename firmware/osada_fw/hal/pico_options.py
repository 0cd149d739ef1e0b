# The Pico's optional parts, as /config.json enables them: the watchdog
# ("watchdog": true) and the buzzer ("buzzer": {"pin": N}).  Loaded by
# hal/pico.py only on a board that has them, so a board without them keeps
# none of their code in its heap.
# MicroPython only (machine).

import time

import machine


class Watchdog:
    def __init__(self, ms=8000):
        self.wdt = machine.WDT(timeout=ms)

    def feed(self):
        self.wdt.feed()


class Buzzer:
    def __init__(self, pin):
        self.pwm = machine.PWM(machine.Pin(pin))
        self.pwm.duty_u16(0)
        self.until = 0

    def tone(self, freq, ms):
        self.pwm.freq(freq)
        self.pwm.duty_u16(16384)
        self.until = time.ticks_add(time.ticks_ms(), ms)

    def poll(self, now):
        if self.until and time.ticks_diff(now, self.until) >= 0:
            self.pwm.duty_u16(0)
            self.until = 0
