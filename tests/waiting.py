"""Waiting for a server the tests started: on a deadline, through every way a socket can fail."""
from __future__ import annotations

import http.client
import os
import signal
import subprocess
import time
import urllib.request

# Everything a request to a server that is still starting can raise: refused or reset
# connections, read time-outs (TimeoutError is not a URLError), a half-written answer.
NOT_YET = (OSError, http.client.HTTPException)


def wait_until_up(url: str, proc: subprocess.Popen | None = None, seconds: float = 60) -> None:
    """Return once `url` answers 2xx; fail when the deadline passes or the server exits."""
    deadline = time.monotonic() + seconds
    last: BaseException | None = None
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"the server exited with {proc.returncode} before answering")
        try:
            with urllib.request.urlopen(url, timeout=min(5.0, max(0.5, deadline - time.monotonic()))) as r:
                r.read()
                return
        except NOT_YET as err:
            last = err
            time.sleep(0.1)
    raise RuntimeError(f"{url} did not answer within {seconds} s (last: {last!r})")


def stop_group(proc: subprocess.Popen, seconds: float = 30) -> None:
    """Stop a server started with start_new_session=True, its workers with it (SIGTERM, then KILL)."""
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
