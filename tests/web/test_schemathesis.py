"""schemathesis against /api/openapi.json: every operation, through the WSGI app (no network).

Every check schemathesis has runs on every generated call (server errors, status codes,
content types, response schemas, negative data rejected, unsupported methods …). One
setting is ours: a query that fits the document's types may still not price (a `hand`
string that is not 14 tiles, a curve of another ruleset), and the document says such a
request is answered 400 with field errors, so 400 counts as an answer to schema-valid data;
its body must still be the documented Errors object.
"""
from __future__ import annotations

import os

import schemathesis
from hypothesis import HealthCheck, settings

from tests.apps import shared_app

CONFIG = schemathesis.Config.from_dict({
    "checks": {"positive_data_acceptance": {"expected-statuses": ["2xx", "400"]}},
})
APP = shared_app()
schema = schemathesis.openapi.from_wsgi("/api/openapi.json", APP, config=CONFIG)


@schema.parametrize()
@settings(max_examples=int(os.environ.get("MAHJONG_SCHEMATHESIS_EXAMPLES", "150")), deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
def test_every_operation_conforms_to_the_document(case):
    # Through WSGI nothing undoes gzip, as every HTTP client would: ask for the plain bytes
    # (test_caching and the browser tests cover the compressed answers).
    response = case.call_and_validate(headers={"Accept-Encoding": "identity"})
    assert response.status_code < 500
    assert "Set-Cookie" not in response.headers
