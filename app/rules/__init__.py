"""The rule families as data: the ruleset model, its loader and checks, the detectors, the table conditions."""
