"""JSON API: GET /api/score, /api/waits, /api/discard, /api/sheet, /api/health and their OpenAPI description."""
from __future__ import annotations

from flask import Blueprint, current_app, jsonify, request

from app import vocabulary
from app.base.errors import FieldError, HandError
from app.base.i18n import Msg
from app.vocabulary.discard import calculate_discards
from app.web.advice.routes import asked_outlook, discard_json
from app.web.common.present import (
    MAX_QUERY,
    TooMuch,
    errors_json,
    params_from,
    score_json,
    waits_json,
)
from app.web.serving import turns
from app.web.table.sheet import MAX_SHEET_QUERY, night_json, request_night

from .openapi import openapi_document

bp = Blueprint("api", __name__, url_prefix="/api")


def _params():
    if len(request.query_string) > MAX_QUERY:
        raise HandError([FieldError("", Msg("the query is {n} characters; at most {most}",
                                            n=len(request.query_string), most=MAX_QUERY))])
    try:
        params = params_from(request.args)
    except TooMuch as err:
        raise HandError([FieldError("", err.args[0] if err.args else str(err))]) from None
    params.setdefault("rules", current_app.config["DEFAULT_RULES"])
    return params


@bp.get("/score")
def score():
    try:
        params = _params()
        result = vocabulary.score(params, current_app.extensions["rulesets"])
    except HandError as err:
        return jsonify(errors_json(err.errors)), 400
    return jsonify(score_json(result, params))


@bp.get("/waits")
def waits():
    try:
        params = _params()
        result = vocabulary.waits(params, current_app.extensions["rulesets"])
    except HandError as err:
        return jsonify(errors_json(err.errors)), 400
    return jsonify(waits_json(result))


@bp.get("/discard")
def discard():
    try:
        params = _params()
        result = calculate_discards(params, current_app.extensions["rulesets"])
        found = asked_outlook(result, params, current_app.extensions["rulesets"])
    except HandError as err:
        return jsonify(errors_json(err.errors)), 400
    return jsonify(discard_json(result, found))


@bp.get("/sheet")
def sheet():
    """A game sheet (the /sheet and /sheet.csv query) as JSON: the same night, priced once."""
    if len(request.query_string) > MAX_SHEET_QUERY:
        return jsonify(errors_json([FieldError("", Msg("the query is {n} characters; at most {most}",
                                                       n=len(request.query_string), most=MAX_SHEET_QUERY))])), 400
    try:
        night = request_night(request.args)   # refuses an empty or unknown rules= (rules_errors)
    except HandError as err:
        return jsonify(errors_json(err.errors)), 400
    return jsonify(night_json(night))   # past the work budget: the app's 413 (TooMuchWork)


@bp.get("/health")
def health():
    """Liveness, and the trivial route the load test compares the real ones with."""
    return jsonify({"ok": True})


@bp.get("/ready")
def ready():
    """Readiness, for a balancer: 503 while requests wait past their deadline in this worker
    (app/web/serving/turns.py); `/api/health` stays liveness."""
    is_ready, wait = turns.ready()
    response = jsonify({"ready": is_ready, "wait": round(wait, 3)})
    if not is_ready:
        response.status_code = 503
        response.headers["Retry-After"] = str(turns.RETRY_AFTER)
    return response


@bp.get("/openapi.json")
def openapi():
    return jsonify(openapi_document(current_app.extensions["rulesets"]))
