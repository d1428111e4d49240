"""Plain 3x3 tic-tac-toe: the fourth game, registered only by its folders (docs/architecture.md,
"Adding a game": tests/fourth_game/ proves the checklist)."""
