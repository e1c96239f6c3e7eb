"""One session per way of playing: hot-seat (with bots), hosted (this keyboard plays
seats of a LAN table it hosts), remote (a client of a LAN host or a table server) and
replay.  Each owns its seat links, the curtain, the bot timer and who sits at the
keyboard, and tells the game screen when to draw (``base.Session``)."""
