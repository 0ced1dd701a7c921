"""Practice: seeded deals, teachers' quizzes, answer marking, the discard drill."""
