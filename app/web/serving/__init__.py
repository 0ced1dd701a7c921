"""Serving the open internet: gunicorn settings, body limits, caching and compression."""
