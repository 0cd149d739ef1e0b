"""The host's terminal helpers: keys from a terminal split whole (termkeys), a game's ring
drawn as text rows (ringtext)."""
