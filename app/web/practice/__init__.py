"""Practice pages: fan to payment, Count the Fan, teachers' quizzes."""
