"""Tiles and hands: notation, the hand and its context, readings (groupings), tile efficiency."""
