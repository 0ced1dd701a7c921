"""Stored game sheets: a sheet as an ordered log of versioned entries, behind two capability links.

The only package that writes anything at run time. SQLite by default (a file in the data
folder, WAL), PostgreSQL when MAHJONG_DATABASE_URL names one; one schema (schema.py), DB-API
only (database.py); the log and its rules (sheets.py).
"""
