"""gunicorn's settings for the production command (`mahjong-calculator serve`, `make run`).

Read from the environment: HOST and PORT (where to listen), WEB_CONCURRENCY (workers; one a
core by default, since rendering is CPU-bound and threads would only queue behind the GIL).
"""
from __future__ import annotations

import os

bind = f"{os.environ.get('HOST') or '0.0.0.0'}:{os.environ.get('PORT') or '8000'}"
workers = int(os.environ.get("WEB_CONCURRENCY") or os.cpu_count() or 1)
worker_class = "sync"
# gunicorn's largest request line, so an over-long address reaches the app's own limit (4096)
# and its answer, security headers included, rather than gunicorn's bare 414.
limit_request_line = 8190
accesslog = "-"
# gunicorn 25.1+ opens a control socket in $HOME/.gunicorn/, shared by every instance: not used.
control_socket_disable = True
