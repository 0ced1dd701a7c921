"""The web calculator: the only package that imports Flask.

`create_app()` loads the rulesets once, registers one blueprint per area (pages, API,
rules) and sets the security headers every response carries. Request bodies are judged before
the app reads them (`bodies`); redirects never name a host the request made up.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from flask import Flask, abort, jsonify, render_template, request
from werkzeug.exceptions import SecurityError

from app.base.i18n import Msg
from app.base.resources import folder, ruleset_dir
from app.rules.loader import load_all
from app.scoring.budget import MAX_SCORINGS, TooMuchWork, close_budget, open_budget
from app.vocabulary.request import price_example
from app.web.common.links import LinkRequest
from app.web.common.present import page_family_fields, page_words
from app.web.serving.bodies import MAX_BODY, REFUSED, BodyLimit
from app.web.serving.headers import security_headers
from app.web.serving.hosts import proxy_hops
from app.web.serving.turns import Turns

from .common import fragments, i18n
from .serving import caching, collector, compression, hosts, privacy, shedding
from .templating import SharedGlobalsEnvironment, template_globals


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build the application; config keys override environment settings."""
    app = Flask(__name__, template_folder=str(folder("templates")),
                static_folder=str(folder("static")), static_url_path="/static")
    app.request_class = LinkRequest   # `house=` read into `rules=` once, for every view
    app.jinja_environment = SharedGlobalsEnvironment   # before app.jinja_env is first made
    app.config.update(_settings())
    app.config.update(config or {})
    i18n.install(app)   # the page language (lang=), its catalogs, and JSON in that language
    app.logger.addFilter(privacy.MaskFilter())   # "Exception on /s/<token>…": masked
    _load(app)
    _register_blueprints(app)
    _install_hooks(app)
    _error_pages(app)
    app.jinja_env.globals.update(template_globals(app))   # templating.py names them all
    return app


def _settings() -> dict[str, Any]:
    """The configuration from the environment (MAHJONG_*) and the built-in limits."""
    return dict(
        # Which sites may frame the calculator (CSP frame-ancestors); "*" = any.
        FRAME_ANCESTORS=os.environ.get("MAHJONG_FRAME_ANCESTORS", "*"),
        DEFAULT_RULES=os.environ.get("MAHJONG_DEFAULT_RULES", "hong-kong"),
        RULESET_DIR=str(ruleset_dir()),
        # The public host name, e.g. "mahjong.example": absolute URLs and redirects name it.
        SERVER_NAME=os.environ.get("MAHJONG_SERVER_NAME") or None,
        # Hosts a request may name ("a.example,.b.example"); others answer 400. Unset: the
        # server name alone when there is one, else any host (then redirects stay relative).
        TRUSTED_HOSTS=_hosts(os.environ.get("MAHJONG_TRUSTED_HOSTS"))
        or _hosts(os.environ.get("MAHJONG_SERVER_NAME")),
        # Proxies in front that set X-Forwarded-For/-Proto/-Host/-Port (each appends its own):
        # only then are those read (hosts.install, werkzeug's ProxyFix). 0: none, nobody's read.
        PROXY_HOPS=proxy_hops(os.environ.get("MAHJONG_PROXY_HOPS")),
        MAX_CONTENT_LENGTH=MAX_BODY,
        # Full scorings one request may ask for (app/scoring/budget.py); past it, 413.
        SCORING_BUDGET=MAX_SCORINGS,
        # New club variants one client address may have a worker build a minute (shedding.py).
        NEW_VARIANTS_PER_MINUTE=int(os.environ.get("MAHJONG_NEW_VARIANTS_PER_MINUTE") or 12),
        # Most rendered fragments each cache keeps (common/fragments.py); 0 renders them all.
        FORM_PART_CACHE_SIZE=max(fragments.SIZES.values()),
    )


def _load(app: Flask) -> None:
    """The rulesets, loaded once, and the caches of rendered parts."""
    # a club variant's rules page shows its family's examples priced under it
    app.extensions["rulesets"] = load_all(Path(app.config["RULESET_DIR"]), price=price_example)
    # a variant let go may be frozen with its cycles: counted, and freed (serving/collector.py)
    app.extensions["rulesets"].on_evict = collector.let_go
    fragments.install(app)
    app.extensions["family_fields"] = page_family_fields
    app.extensions["family_suits"] = lambda: page_words().suits
    if app.config["DEFAULT_RULES"] not in app.extensions["rulesets"]:
        app.config["DEFAULT_RULES"] = sorted(app.extensions["rulesets"])[0]


def _register_blueprints(app: Flask) -> None:
    """One blueprint per area."""
    from .advice import routes as discard
    from .api import routes as api
    from .calculator import routes as pages
    from .club import bring as _club_bring  # noqa: F401 - bringing a sheet into a night joins club_member.bp
    from .club import embed as _club_embed  # noqa: F401 - its embedded views join club_member.bp
    from .club import member as club_member
    from .house import routes as house
    from .lesson import card, oembed, preview
    from .practice import routes as practice
    from .rules import routes as rules
    from .table import rounds, sheet, stored
    app.register_blueprint(pages.bp)
    app.register_blueprint(discard.bp)   # /discard and /embed/discard (what to discard)
    app.register_blueprint(card.bp)      # /card (a hand as a figure)
    app.register_blueprint(oembed.bp)    # /oembed (a permalink as a frame)
    app.register_blueprint(preview.bp)   # /og/*.png (a link preview's picture)
    app.register_blueprint(rounds.bp)
    app.register_blueprint(sheet.bp)
    app.register_blueprint(stored.bp)    # /s/<token>: shared sheets, kept on the server
    app.register_blueprint(api.bp)
    app.register_blueprint(rules.bp)
    app.register_blueprint(house.bp)     # /house (a club's rules, shared by a link)
    app.register_blueprint(practice.bp)   # /points (fan → payment) and /practice (Count the Fan)
    app.register_blueprint(club_member.bp)   # /club, /c/<token>: a club's members, nights and standings


def _install_hooks(app: Flask) -> None:
    """What wraps every request: the body limit and turns, hosts, the budget, headers, caching."""
    rulesets = app.extensions["rulesets"]   # heavy work waits in a lane of its own (turns.py)
    app.wsgi_app = BodyLimit(Turns(app.wsgi_app, heavy=lambda environ: shedding.heavy(environ, rulesets)))
    hosts.install(app)   # outside the body limit: a trusted proxy's headers, read first
    app.before_request(_refuse_body)
    shedding.install(app)   # a request past its wait answered 503; new variants counted
    app.before_request(_open_budget)   # every request's scorings counted (app/scoring/budget.py)
    app.teardown_request(lambda _error: close_budget())
    app.after_request(_security_headers)
    app.after_request(caching.not_modified_after)   # after compression: the tag it sends
    compression.install(app)   # runs after caching's headers: it suffixes their ETag
    caching.install(app)
    app.after_request(_no_foreign_host)   # runs first: the headers go on its new answer


def _hosts(value: str | None) -> list[str] | None:
    """A comma-separated host list from the environment; None when unset or empty."""
    hosts = [h.strip() for h in (value or "").split(",") if h.strip()]
    return hosts or None


# The field a request's scorings come from, as a refusal names it (others: the hand).
BUDGET_FIELDS = {"sheet.sheet_page": "hands", "sheet.sheet_csv": "hands", "api.sheet": "hands", "rounds.round_page": "round",
                 "rounds.settle_api": "events", "practice.practice": "hands",
                 "practice.practice_embed": "hands"}


def _open_budget():
    from flask import current_app
    open_budget(BUDGET_FIELDS.get(request.endpoint or "", "hand"), current_app.config["SCORING_BUDGET"])


def _refuse_body():
    """Answer the verdict `bodies.BodyLimit` reached before the app (413 or 400)."""
    refused = request.environ.get(REFUSED)
    if refused is not None:
        abort(refused[0], description=refused[1])


def _no_foreign_host(response):
    """Keep a redirect (its Location and its body) off any host but the configured name."""
    from flask import current_app, redirect
    location = response.headers.get("Location")
    if location:
        parts = urlsplit(location)
        if parts.netloc and parts.netloc != current_app.config["SERVER_NAME"]:
            path = "/" + parts.path.lstrip("/")   # "//x" would name host x
            relative = urlunsplit(("", "", path, parts.query, parts.fragment))
            return redirect(relative, response.status_code)
    return response


def _security_headers(response):
    """CSP with no inline script, no sniffing, a strict referrer policy; never a cookie.

    An answer whose address names a shared sheet's token (every `/s/` answer, a page carrying
    `sheet=stored=…`) sends no referrer; an edit page (`privacy.edit_page`) may not be framed."""
    from flask import current_app
    edit = privacy.edit_page()
    response.headers.update(security_headers("'none'" if edit else current_app.config["FRAME_ANCESTORS"]))
    if edit:
        response.headers["X-Frame-Options"] = "DENY"
    else:
        response.headers.pop("X-Frame-Options", None)
    if privacy.private_request():
        response.headers["Referrer-Policy"] = "no-referrer"
    response.headers.pop("Set-Cookie", None)
    return response


def _error_pages(app: Flask) -> None:
    def wants_json() -> bool:
        return request.path.startswith("/api/")

    def page(code: int, title: str, message: str):   # Msg values: said in the page language
        if wants_json():
            return jsonify({"valid": False, "errors": [{"field": "", "message": message}]}), code
        return render_template("error.html", code=code, title=title, message=message), code

    def not_allowed(e):
        allowed = sorted(set(e.valid_methods or ["GET"]) - {"HEAD", "OPTIONS"})
        joiner = " and " if i18n.page_lang() == "en" else "、"
        response, code = page(405, Msg("Method not allowed"),
                              Msg("This address answers {methods} requests only.",
                                  methods=joiner.join(allowed)))
        response = app.make_response((response, code))
        response.headers["Allow"] = ", ".join(e.valid_methods or ["GET"])   # RFC 9110: a 405 says
        return response

    app.register_error_handler(404, lambda e: page(404, Msg("Not found"),
                                                  Msg("There is no page at this address.")))
    app.register_error_handler(405, not_allowed)
    app.register_error_handler(400, lambda e: page(400, Msg("Bad request"),
                                                  _told(e, Msg("The request could not be read."))))
    # A Host outside TRUSTED_HOSTS: no address can be built for it, so a plain answer.
    app.register_error_handler(SecurityError, lambda e: app.response_class(
        "This server does not answer for that host name.\n", 400, mimetype="text/plain"))
    app.register_error_handler(413, lambda e: page(413, Msg("Request too large"), _told(
        e, Msg("A request may carry at most {most} bytes.", most=MAX_BODY))))
    def too_much_work(e: TooMuchWork):
        if wants_json():
            return jsonify({"valid": False, "errors": [{"field": e.field, "message": e.message}]}), 413
        return page(413, Msg("Too much to work out"), Msg("{field}: {message}", field=e.field,
                                                           message=e.message))

    app.register_error_handler(TooMuchWork, too_much_work)

    def busy(e: shedding.Busy):
        # a shed request costs next to nothing: its answer is made once a language and kind
        key = (wants_json(), e.status, e.field, e.message, i18n.page_lang(),
               request.args.get("rules", "").partition("~")[0])   # its family's words
        body = shed_bodies.get(key)
        if body is None:
            if wants_json():
                body = jsonify({"valid": False, "errors": [{"field": e.field, "message": e.message}]})
            else:
                title = Msg("Too many requests") if e.status == 429 else Msg("Busy")
                said = Msg("{field}: {message}", field=e.field, message=e.message) if e.field else e.message
                body = app.make_response(page(e.status, title, said)[0])
            body = shed_bodies[key] = (body.get_data(), body.mimetype)
            if len(shed_bodies) > 64:
                shed_bodies.pop(next(iter(shed_bodies)))
        response = app.response_class(body[0], mimetype=body[1])
        response.status_code = e.status
        response.headers["Retry-After"] = str(e.retry)
        response.headers["Cache-Control"] = "no-store"
        return response

    shed_bodies: dict[tuple, tuple[bytes, str]] = {}
    app.register_error_handler(shedding.Busy, busy)
    app.register_error_handler(414, lambda e: page(414, Msg("Address too long"),
                                                  Msg("The address is longer than any hand description.")))
    app.register_error_handler(501, lambda e: page(501, Msg("Not implemented"),
                                                  _told(e, Msg("This address does not serve that."))))
    app.register_error_handler(500, lambda e: page(500, Msg("Something went wrong"),
                                                  Msg("The calculator hit an internal error.")))


def _told(error, default: str) -> str:
    """An abort()'s own description, else the page's default message."""
    own = getattr(error, "description", None)
    return own if own and own != type(error).description else default
