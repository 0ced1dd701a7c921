"""What to discard: the adviser page, its embed and the discard drill."""
