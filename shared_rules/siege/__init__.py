"""Siege (War Thunder: Siege): the host-side tools built on its rules core."""
