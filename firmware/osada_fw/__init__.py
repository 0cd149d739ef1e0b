"""Osada firmware: the app that runs on the Pico (and, with fake hardware, in the simulator)."""
