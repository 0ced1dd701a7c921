"""The table over a night: a blood-battle round's ledger, its steps, the game sheet."""
