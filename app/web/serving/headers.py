"""The security headers every answer carries: the app's own, and gunicorn's bare refusals."""
from __future__ import annotations


def security_headers(frame_ancestors: str) -> dict[str, str]:
    """CSP with no inline script, no sniffing, a strict referrer policy.

    >>> security_headers("*")["X-Content-Type-Options"]
    'nosniff'
    """
    return {
        "Content-Security-Policy": (
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            "object-src 'none'; base-uri 'none'; form-action 'self'; "
            f"frame-ancestors {frame_ancestors}"),
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "strict-origin-when-cross-origin",
    }
