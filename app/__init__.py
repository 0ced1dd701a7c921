"""Mahjong scoring calculator: hand analysis, rulesets as data, scoring and payments."""
