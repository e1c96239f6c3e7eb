"""A sixth game that exists only for the tests: tic-tac-toe where each player also holds a
hidden card.  Its two packages (``engine``: the rules; ``tui``: a one-widget screen) are
all a game is; ``tests/test_sixth_game.py`` registers it with the one call
``engine.registry.register_game`` and finds it everywhere the five real games are."""
