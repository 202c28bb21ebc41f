"""The door of every write: the table's PIN, the wait that makes guessing it hopeless, and the body.

A 6-digit PIN tried at 550 guesses a second falls in half an hour; so after each wrong PIN from one
client its next try waits twice as long as the last (1 s, 2 s, 4 s ...) and after ``LOCK_AFTER`` wrong
tries in a row it is shut out for ``LOCKED_FOR``. A right PIN clears the count. Counted per client
address, so a stranger's guessing never locks the table's own tablets out.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

from flask import jsonify, request

FIRST_WAIT = 1.0  # seconds after the first wrong PIN; each further one doubles it
LOCK_AFTER = 10  # wrong PINs in a row that shut a client out
LOCKED_FOR = 3600.0  # seconds a client is shut out (or until the server is restarted)


@dataclass
class _Tries:
    wrong: int = 0
    not_before: float = 0.0


@dataclass
class PinGuard:
    clock: callable = time.monotonic
    _tries: dict[str, _Tries] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def refusal(self, service) -> tuple | None:
        """None where the request may go on; else the JSON response that refuses it."""
        who, given, now = request.remote_addr or "?", request.headers.get("X-Table-Pin"), self.clock()
        with self._lock:
            tries = self._tries.setdefault(who, _Tries())
            if now < tries.not_before:
                wait = tries.not_before - now
                why = (f"locked after {LOCK_AFTER} wrong PINs: try again in {wait / 60:.0f} min or restart the server"
                       if tries.wrong >= LOCK_AFTER else f"wrong PIN just now: try again in {wait:.0f} s")
                code = "pin_locked" if tries.wrong >= LOCK_AFTER else "pin_wait"
                return (jsonify(error=why, code=code, wait=int(wait) + 1), 429,  # code: the page words it
                        {"Retry-After": str(int(wait) + 1)})
            if service.check_pin(given):
                self._tries.pop(who, None)
                return None
            tries.wrong += 1
            tries.not_before = now + (LOCKED_FOR if tries.wrong >= LOCK_AFTER else FIRST_WAIT * 2 ** (tries.wrong - 1))
        return jsonify(error="wrong or missing table PIN", code="wrong_pin"), 403


def json_body(empty_ok: bool = False) -> tuple[dict | None, tuple | None]:
    """A write's body, a JSON object, or the response refusing it: 415 for anything not sent as JSON (a
    form or a plain HTML page's post is no tap: it must never run as ``{}``), 400 for another JSON value.
    ``empty_ok``: a request with no body at all stands for ``{}``."""
    sent = (request.content_length or 0) > 0
    if (sent or not empty_ok) and not request.is_json:
        return None, (jsonify(error="send the request as application/json", code="not_json"), 415)
    body = request.get_json(silent=True) if sent or not empty_ok else {}
    if not isinstance(body, dict):
        return None, (jsonify(error="the request body must be a JSON object"), 400)
    return body, None
