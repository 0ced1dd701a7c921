"""The rules pages, rendered from the ruleset files."""
