"""War Thunder: Siege (Осада), the home game: its engine and every rule it plays (R ids, docs/rules.md)."""
