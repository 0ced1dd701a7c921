"""Lesson figures: the hand card and the oEmbed answer."""
