"""A TCP proxy in front of the sandbox that can lose one answer: the request reaches the service, which
acts on it, and the client's connection is closed before the answer's first byte comes back."""

from __future__ import annotations

import socket
import threading


class DropProxy:
    def __init__(self, upstream_port: int) -> None:
        self.upstream_port = upstream_port
        self._armed: bytes | None = None
        self.dropped = 0
        self.requests: list[bytes] = []
        self._lock = threading.Lock()
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self._listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        threading.Thread(target=self._accept, daemon=True).start()

    def drop_answer_to(self, request_line_start: bytes) -> None:
        """Loses the answer to the next request whose first line starts with this (`POST /api/pix/cash-out `)."""
        with self._lock:
            self._armed = request_line_start

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.upstream_port))
            state = {"drop": False}
            threading.Thread(target=self._forward_requests, args=(client, upstream, state), daemon=True).start()
            threading.Thread(target=self._forward_answers, args=(upstream, client, state), daemon=True).start()

    def _forward_requests(self, client: socket.socket, upstream: socket.socket, state: dict[str, bool]) -> None:
        try:
            while chunk := client.recv(65536):
                with self._lock:
                    for line in chunk.split(b"\r\n"):
                        if line.startswith((b"GET ", b"POST ", b"PUT ", b"PATCH ", b"DELETE ")):
                            self.requests.append(line)
                    if self._armed is not None and chunk.startswith(self._armed):
                        state["drop"] = True
                        self._armed = None
                upstream.sendall(chunk)
        except OSError:
            pass
        finally:
            _close(upstream)

    def _forward_answers(self, upstream: socket.socket, client: socket.socket, state: dict[str, bool]) -> None:
        try:
            while chunk := upstream.recv(65536):
                if state["drop"]:
                    # The service answered, so it acted: the client never learns it.
                    with self._lock:
                        self.dropped += 1
                    break
                client.sendall(chunk)
        except OSError:
            pass
        finally:
            _close(client)
            _close(upstream)

    def close(self) -> None:
        _close(self._listener)


def _close(s: socket.socket) -> None:
    try:
        s.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    s.close()
