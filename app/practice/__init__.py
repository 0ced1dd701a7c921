"""Practice: seeded deals, answer marking, the discard drill (a teacher's quiz is read in app/vocabulary/quiz.py)."""
