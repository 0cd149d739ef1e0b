"""The USB line to the host: JSON-line framing and the bounded outbox
(protocol.py, CommandError at the bottom), the dispatcher and the requests
every game answers (commands.py)."""
