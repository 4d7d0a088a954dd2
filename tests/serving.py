"""A real ``sudoku serve`` for the tests: a process of its own on 127.0.0.1, on a free port."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServeProcess:
    """``sudoku serve OPTIONS`` in its own process group, answering at ``url``
    (started within 90 s, or a RuntimeError that says why)."""

    def __init__(self, *options: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc = subprocess.Popen(["sudoku", "serve", "--port", str(self.port), *options],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     start_new_session=True)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"sudoku serve exited: {self.proc.stdout.read()}")
            try:
                with urllib.request.urlopen(self.url + "/", timeout=2) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError("sudoku serve did not answer within 90 s")

    def alive(self) -> bool:
        return self.proc.poll() is None

    def stop(self) -> str:
        """Stop the server (and its workers); what it printed."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)
        return self.proc.stdout.read()

    def send(self, path: str, body: "dict | bytes", headers: dict | None = None,
             timeout: float = 60) -> tuple[int, bytes, str]:
        """POST ``body`` (JSON, or bytes as they are): the status, the raw answer, its content type."""
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method="POST",
                                         headers={"Content-Type": "application/json", **(headers or {})})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return response.status, response.read(), response.headers.get("content-type", "")
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read(), exc.headers.get("content-type", "")
