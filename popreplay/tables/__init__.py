"""Tables: one game recorded live by several phones (docs/table.md).

``service`` keeps a table's append-only entries (database) and checks each one with the engine
(the recorder's ``choices``: no rule here); ``gather`` collects the parts of one entry that
several seats enter (POP!'s simultaneous reveal, private hands); ``views`` is what each seat and
each spectator may see; ``fanout`` tells every follower of a table that it changed (in memory, or
through Redis with several hosts); ``qr`` draws the join link's QR code.
"""
