"""A raw JSON-RPC client over the server's stdio: frames written byte for byte (malformed
ones too) and every message the server sends collected, for the protocol-robustness tests."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from typing import Any

from tests.conftest import ROOT

SERVER = [sys.executable, "-m", "m2lsp", "serve"]


class RawClient:
    def __init__(self, answers_requests: bool = True) -> None:
        self.answers_requests = answers_requests  # False: the server's requests go unanswered
        self.process = subprocess.Popen(SERVER, cwd=ROOT, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.messages: queue.Queue[dict | None] = queue.Queue()
        self.answers: dict[str, list[dict]] = {}  # by the id's JSON (an id may be any value)
        self.unanswerable: list[dict] = []  # responses with a null id
        self.notifications: list[dict] = []  # what the server told the client
        self.asked: list[str] = []  # the methods of the server's requests
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self.process.stderr.read, daemon=True).start()

    def _read(self) -> None:
        stdout = self.process.stdout
        length = None
        while line := stdout.readline():
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
            elif line == b"\r\n" and length is not None:
                self.messages.put(json.loads(stdout.read(length)))
                length = None
        self.messages.put(None)

    def frame(self, body: bytes, header: bytes | None = None) -> None:
        head = header if header is not None else b"Content-Length: %d\r\n\r\n" % len(body)
        self.process.stdin.write(head + body)
        self.process.stdin.flush()

    def frames(self, messages: list[dict]) -> None:
        """Several messages in one write (a burst the server finds waiting at once)."""
        bodies = [json.dumps({"jsonrpc": "2.0", **m}).encode() for m in messages]
        self.process.stdin.write(b"".join(b"Content-Length: %d\r\n\r\n" % len(body) + body
                                          for body in bodies))
        self.process.stdin.flush()

    def send(self, message: dict) -> None:
        self.frame(json.dumps({"jsonrpc": "2.0", **message}).encode())

    def request(self, msg_id: Any, method: str, params: Any = None) -> None:
        message: dict = {"id": msg_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)

    def notify(self, method: str, params: Any = None) -> None:
        self.send({"method": method, **({} if params is None else {"params": params})})

    def answer(self, msg_id: Any, timeout: float = 60) -> dict:
        """The response to `msg_id` (a null id: the next such response), collecting the
        rest; the server's own requests are answered with null."""
        while True:
            if msg_id is not None and self.answers.get(_key(msg_id)):
                return self.answers[_key(msg_id)].pop(0)
            if msg_id is None and self.unanswerable:
                return self.unanswerable.pop(0)
            message = self.messages.get(timeout=timeout)
            if message is None:
                raise EOFError("the server closed its output")
            self._sort(message)

    def _sort(self, message: dict) -> None:
        if "method" in message:
            if "id" in message:  # the server asks (configuration, refresh): answer null
                self.asked.append(message["method"])
                if self.answers_requests:
                    self.send({"id": message["id"], "result": None})
            else:
                self.notifications.append(message)
            return
        if message.get("id") is None:
            self.unanswerable.append(message)
        else:
            self.answers.setdefault(_key(message["id"]), []).append(message)

    def initialize(self, root: str | None = None) -> None:
        self.request(0, "initialize", {"capabilities": {}, "processId": None,
                                       "rootUri": root})
        self.answer(0)
        self.notify("initialized", {})

    def stats(self, msg_id: Any) -> dict:
        self.request(msg_id, "m2lsp/serverStats")
        return self.answer(msg_id)["result"]

    def close(self) -> int:
        if self.process.poll() is None:
            self.process.kill()
        return self.process.wait(30)


def _key(msg_id: Any) -> str:
    return json.dumps(msg_id, sort_keys=True)
