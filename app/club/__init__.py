"""A club's nights as values: seating the members present at tables of four (seating.py), the
season's standings over its priced sheets (standings.py), and a rating across nights (rating.py).

Pure functions of what they are given: the store (app/store/clubs.py) keeps the club, the
sheets price its tables, the web (app/web/club/) shows them.
"""
