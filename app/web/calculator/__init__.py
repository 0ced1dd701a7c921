"""The calculator: tile picker and tick-box pages, the embed."""
