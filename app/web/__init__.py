"""The web calculator: the only package that imports Flask.

`create_app()` loads the rulesets once, registers one blueprint per area (pages, API,
rules) and sets the security headers every response carries.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from flask import Flask, jsonify, render_template, request

from ..resources import folder, ruleset_dir
from ..rulesets import load_all


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build the application; config keys override environment settings."""
    app = Flask(__name__, template_folder=str(folder("templates")),
                static_folder=str(folder("static")), static_url_path="/static")
    app.config.update(
        # Which sites may frame the calculator (CSP frame-ancestors); "*" = any.
        FRAME_ANCESTORS=os.environ.get("MAHJONG_FRAME_ANCESTORS", "*"),
        DEFAULT_RULES=os.environ.get("MAHJONG_DEFAULT_RULES", "hong-kong"),
        RULESET_DIR=str(ruleset_dir()),
    )
    app.config.update(config or {})
    app.json.sort_keys = False   # keep answers in the order INTERFACE.md shows
    app.extensions["rulesets"] = load_all(Path(app.config["RULESET_DIR"]))
    if app.config["DEFAULT_RULES"] not in app.extensions["rulesets"]:
        app.config["DEFAULT_RULES"] = sorted(app.extensions["rulesets"])[0]

    from . import api, discard, pages, practice, rounds, rules
    app.register_blueprint(pages.bp)
    app.register_blueprint(discard.bp)   # /discard and /embed/discard (what to discard)
    app.register_blueprint(rounds.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(rules.bp)
    app.register_blueprint(practice.bp)   # /points (fan → payment) and /practice (Count the Fan)
    app.after_request(_security_headers)
    _error_pages(app)
    from ..payments import fmt
    from .present import tile_img
    app.jinja_env.globals.update(fmt=fmt, embed=False, tile_img_tag=tile_img)
    return app


def _security_headers(response):
    """CSP with no inline script, no sniffing, a strict referrer policy; never a cookie."""
    from flask import current_app
    ancestors = current_app.config["FRAME_ANCESTORS"]
    response.headers["Content-Security-Policy"] = (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "object-src 'none'; base-uri 'none'; form-action 'self'; "
        f"frame-ancestors {ancestors}")
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "strict-origin-when-cross-origin"
    response.headers.pop("X-Frame-Options", None)
    response.headers.pop("Set-Cookie", None)
    return response


def _error_pages(app: Flask) -> None:
    def wants_json() -> bool:
        return request.path.startswith("/api/")

    def page(code: int, title: str, message: str):
        if wants_json():
            return jsonify({"valid": False, "errors": [{"field": "", "message": message}]}), code
        return render_template("error.html", code=code, title=title, message=message), code

    def not_allowed(e):
        allowed = sorted(set(e.valid_methods or ["GET"]) - {"HEAD", "OPTIONS"})
        response, code = page(405, "Method not allowed",
                              f"This address answers {' and '.join(allowed)} requests only.")
        response = app.make_response((response, code))
        response.headers["Allow"] = ", ".join(e.valid_methods or ["GET"])   # RFC 9110: a 405 says
        return response

    app.register_error_handler(404, lambda e: page(404, "Not found", "There is no page at this address."))
    app.register_error_handler(405, not_allowed)
    app.register_error_handler(400, lambda e: page(400, "Bad request", "The request could not be read."))
    app.register_error_handler(414, lambda e: page(414, "Address too long",
                                                  "The address is longer than any hand description."))
    app.register_error_handler(500, lambda e: page(500, "Something went wrong",
                                                  "The calculator hit an internal error."))
