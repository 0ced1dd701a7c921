"""The club's pages (/club, /c/<token>…): members, seasons, nights seated at tables of four,
standings and ratings, their CSV and JSON (app/store/clubs.py keeps the club, app/club/ works
out seatings, standings and ratings)."""
