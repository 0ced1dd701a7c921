"""At the table: the round ledger and the game sheet."""
