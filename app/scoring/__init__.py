"""Scoring: the patterns that count under a ruleset, the dials, the payments, one request's calculation."""
