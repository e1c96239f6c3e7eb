"""Tic-tac-toe with a hidden card: each player's card names a lucky square, and a line
through your own lucky square scores double."""

from engine.manifest import GameManifest

MANIFEST = GameManifest(
    slug="hidden-tic-tac-toe",
    title="Tic-tac-toe with a hidden card",
    min_players=2,
    max_players=2,
    rules="sixth_game.engine.rules:TicTacToeGame",
    screen="sixth_game.tui",
    seat_names=("Crosses", "Noughts"),
    rerandomise="sixth_game.engine.rules:rerandomise",
)
