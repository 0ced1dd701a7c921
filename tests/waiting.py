"""Servers the tests start and what they wait on: a free port, and every wait on a deadline
(never a fixed sleep), through every way a socket can fail."""
from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import time
import urllib.request
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

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


def free_port() -> int:
    """A loopback port no one listens on now (the kernel's choice: distinct for each caller, so
    parallel test workers do not collide)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(measure: Callable[[], T], done: Callable[[T], bool], seconds: float,
             pause: Callable[[float], object] = time.sleep, every: float = 0.05) -> T:
    """Measure until `done(measure())` or the deadline passes, and return the last measurement:
    the caller asserts on it, so a miss fails with the values seen last, never after a fixed
    sleep. `pause(seconds)` waits between tries: time.sleep, or a browser page's own wait
    (`lambda s: page.wait_for_timeout(s * 1000)`), which lets the page run meanwhile."""
    deadline = time.monotonic() + seconds
    while True:
        value = measure()
        if done(value) or time.monotonic() > deadline:
            return value
        pause(every)


# The height of the page inside a frame, as the frame's own script measures it to tell its host.
CONTENT_HEIGHT = "Math.ceil(document.documentElement.getBoundingClientRect().height)"


def fitted_frame(page, frame, box_height: Callable[[], float],
                 fits: Callable[[float, float], bool], seconds: float = 30,
                 ready: Callable[[], object] = lambda: None) -> tuple[float, float]:
    """Wait until a frame's box on its host page fits the page inside it, `fits(height,
    content)`, on a deadline (generous: a busy machine lays frames out, and tells their new
    height, late); the (height, content) seen last, for the caller's assert and its message.
    `page` is the host's Playwright page, `frame` the Frame inside, `box_height` reads the box;
    `ready()` runs before each look (e.g. waiting for a frame that navigates to load)."""
    def measure() -> tuple[float, float]:
        ready()
        content = frame.evaluate(CONTENT_HEIGHT)
        return box_height(), content
    return wait_for(measure, lambda seen: fits(*seen), seconds,
                    pause=lambda wait: page.wait_for_timeout(wait * 1000))
