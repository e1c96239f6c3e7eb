"""``atlantis serve-web``: the app in a browser, each session a client of one table server."""
