"""A small HTTP client for a board's page, as a person's browser or an owner's
phone talks to it: JSON in and out, with the cookies it is given."""

from __future__ import annotations

import http.cookiejar
import json
import urllib.error
import urllib.request
from typing import Any

TIMEOUT = 5.0


class PageClient:
    def __init__(self, base: str, timeout: float = TIMEOUT) -> None:
        self.base = base if base.endswith("/") else base + "/"
        self.timeout = timeout
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def call(self, path: str, body: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
        """GET (no body) or POST ``body``; (status, JSON).  :raises OSError: when unreachable."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.base + path.lstrip("/"),
            data=data,
            headers={"Content-Type": "application/json"} if data is not None else {},
        )
        try:
            with self.opener.open(request, timeout=self.timeout) as response:
                return response.status, json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as exc:
            text = exc.read()
            try:
                return exc.code, json.loads(text or b"{}")
            except ValueError:
                return exc.code, {"error": text.decode(errors="replace")}

    def owner(self, pin: str) -> None:
        status, body = self.call("api/login", {"pin": pin})
        assert status == 200, body
