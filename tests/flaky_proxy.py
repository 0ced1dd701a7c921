"""A loopback proxy in front of a test server that plays a table's bad network on the POSTs
that change a shared sheet (…/change); every other request passes untouched.

Modes (set `proxy.mode` at any time):
- "pass": forward the change and its answer;
- "drop": forward the change (the server makes it and answers), then close the connection
  without a byte of the answer: the answer is lost on the way back;
- "portal": answer 200 with a Wi-Fi sign-in page, the server never asked;
- "bad-gateway": answer 502, the server never asked.

The Host header goes on as the browser sent it, so the server sees its pages' own origin.
"""
from __future__ import annotations

import http.client
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

from tests.waiting import free_port

HOP = {"connection", "keep-alive", "transfer-encoding", "proxy-connection", "upgrade", "te", "trailer"}
PORTAL = b"<!doctype html><html><head><title>Sign in</title></head><body><h1>Welcome to the club's Wi-Fi</h1>" \
         b"<form><button>Accept and connect</button></form></body></html>"


class FlakyProxy:
    def __init__(self, upstream: str) -> None:
        parts = urlsplit(upstream)
        self.upstream = (parts.hostname, parts.port)
        self.mode = "pass"
        self.changes_seen = 0      # change POSTs the proxy was sent (whatever it did with them)
        self.forwarded = 0         # of them, those the server got
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), self._handler())
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> FlakyProxy:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()

    def _handler(self):
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args) -> None:
                pass

            def do_GET(self) -> None:
                self._forward(b"")

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if not self.path.split("?")[0].endswith("/change"):
                    self._forward(body)
                    return
                proxy.changes_seen += 1
                mode = proxy.mode
                if mode == "portal":
                    self._answer(200, PORTAL, "text/html; charset=utf-8")
                elif mode == "bad-gateway":
                    self._answer(502, b"<html><body><h1>502 Bad Gateway</h1></body></html>", "text/html")
                elif mode == "drop":
                    self._upstream(body)           # made and answered by the server …
                    self.close_connection = True   # … and the answer lost
                    self.connection.close()
                else:
                    self._forward(body)

            def _upstream(self, body: bytes) -> http.client.HTTPResponse:
                conn = http.client.HTTPConnection(*proxy.upstream, timeout=60)
                headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP}
                conn.request(self.command, self.path, body=body or None, headers=headers)
                answer = conn.getresponse()
                answer.payload = answer.read()
                conn.close()
                if self.path.split("?")[0].endswith("/change"):
                    proxy.forwarded += 1
                return answer

            def _forward(self, body: bytes) -> None:
                answer = self._upstream(body)
                self.send_response(answer.status, answer.reason)
                for key, value in answer.getheaders():
                    if key.lower() not in HOP and key.lower() != "content-length":
                        self.send_header(key, value)
                self.send_header("Content-Length", str(len(answer.payload)))
                self.end_headers()
                self.wfile.write(answer.payload)

            def _answer(self, status: int, payload: bytes, kind: str) -> None:
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        return Handler
