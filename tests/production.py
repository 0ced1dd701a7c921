"""The production command (`make run`'s own line) on a loopback port, for tests of the server.

Every wait is on a deadline and every socket error counts as "not yet" (TimeoutError and
ConnectionResetError included), so a slow start fails with a message instead of hanging.
"""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from tests.waiting import free_port

ROOT = Path(__file__).resolve().parents[1]


def production_command(port: int) -> str:
    """The line `make run HOST=127.0.0.1 PORT=port` runs (`mahjong-calculator serve`), with the
    commands of the virtual environment running the tests, whatever its folder is called (the
    Makefile's BIN, `.venv/bin`, is where `make run` installs them; the tests may run elsewhere)."""
    out = subprocess.run(["make", "-n", "-s", "run", "HOST=127.0.0.1", f"PORT={port}",
                          f"BIN={Path(sys.executable).parent}"], cwd=ROOT,
                         capture_output=True, text=True, check=True, timeout=60).stdout
    lines = out.replace("\\\n", " ").splitlines()
    return next(line for line in lines if "mahjong-calculator serve" in line)


def get(port: int, path: str, timeout: float = 1.0, headers: dict[str, str] | None = None
        ) -> tuple[int, bytes]:
    """A bare HTTP/1.1 GET on a fresh connection: (status, whole answer)."""
    fields = {"Host": "127.0.0.1", "Connection": "close", **(headers or {})}
    lines = [f"GET {path} HTTP/1.1"] + [f"{k}: {v}" for k, v in fields.items()]
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        return read_answer(s, time.monotonic() + timeout)


def read_answer(sock: socket.socket, deadline: float) -> tuple[int, bytes]:
    """Read one answer (to its Content-Length), or until the server closes or the deadline:
    (status of the last answer, bytes)."""
    data = b""
    while time.monotonic() < deadline and not _complete(data):
        sock.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            break
        except OSError:   # a reset after the answer
            break
        if not chunk:
            break
        data += chunk
    statuses = [line.split()[1] for line in data.split(b"\r\n")
                if line.startswith(b"HTTP/1.") and len(line.split()) > 1]
    return (int(statuses[-1]) if statuses else 0), data


def _complete(data: bytes) -> bool:
    head, sep, body = data.partition(b"\r\n\r\n")
    if not sep or head.startswith(b"HTTP/1.1 100"):
        return False
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return len(body) >= int(value)
    return False


class ProductionServer:
    """`make run`'s gunicorn on 127.0.0.1, its log in a file, $HOME in a scratch folder."""

    def __init__(self, tmp: Path, env: dict[str, str | None] | None = None,
                 start_seconds: float = 30):
        self.port = free_port()
        self.home = tmp / "home"
        self.home.mkdir(parents=True, exist_ok=True)
        self.log_path = tmp / "server.log"
        self.env = {**os.environ, "HOME": str(self.home), "FLASK_DEBUG": "1", **(env or {})}
        self.env = {k: v for k, v in self.env.items() if v is not None}   # None: unset it
        self.start_seconds = start_seconds
        self.proc: subprocess.Popen | None = None

    def __enter__(self) -> ProductionServer:
        command = production_command(self.port)
        self._log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(["bash", "-c", f"exec {command}"], cwd=ROOT, env=self.env,
                                     start_new_session=True, stdout=self._log,
                                     stderr=subprocess.STDOUT)
        try:
            self.wait_until_up()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def wait_until_up(self) -> None:
        deadline = time.monotonic() + self.start_seconds
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}:\n{self.log()}")
            try:
                if get(self.port, "/api/health")[0] == 200 and len(self.workers()) >= 1:
                    return
            except OSError:   # refused, reset, timed out: not up yet
                pass
            time.sleep(0.1)
        raise RuntimeError(f"no answer within {self.start_seconds} s:\n{self.log()}")

    def workers(self) -> list[int]:
        """The worker processes' ids (the master's children)."""
        pid = self.proc.pid
        try:
            text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
        except OSError:
            return []
        return [int(p) for p in text.split()]

    def log(self) -> str:
        self._log.flush()
        return self.log_path.read_text(errors="replace")

    def signal(self, sig: int) -> None:
        os.kill(self.proc.pid, sig)

    def stop(self) -> None:
        if self.proc is None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=15)
        self._log.close()


def taken_and_read(server_port: int, client: socket.socket) -> bool:
    """Whether the server has accepted this client's connection and read all it was sent: the
    server's end of it, in /proc/net/tcp, has a socket inode (0 until a process accepts it) and
    an empty receive queue."""
    client_port = client.getsockname()[1]
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote, queues, inode = fields[1], fields[2], fields[4], fields[9]
        if (int(local.split(":")[1], 16), int(remote.split(":")[1], 16)) == (server_port, client_port):
            return inode != "0" and int(queues.split(":")[1], 16) == 0
    return False


def peak_rss_kib(pid: int) -> int:
    """A process's peak resident set (VmHWM), in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmHWM for {pid}")
