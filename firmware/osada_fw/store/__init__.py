"""Siege's game record on flash: the journal's common part (core.py), its two
backends (journal.py: a littlefs file; flashlog.py: a log on raw NOR flash,
inside a littlefs file made by lfsregion.py, read back by flashscan.py) and
the record format they share (records.py, records_read.py)."""
