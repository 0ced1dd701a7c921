"""What to discard: every discard weighed by tiles from ready, improving tiles and the value of the waits."""
