"""Setup -> "Teach a deck": the page asks for each card in turn, takes it from the camera, shows
what it took, learns the deck with a progress bar, shows how surely each card is told from its
look-alikes, and chooses the deck the camera reads with this evening.

The teaching itself is :mod:`vision.teach`; this holds the one deck being taught at this table, the
learning thread, and the deck in use (kept in the data folder, so a restarted server reads on with it).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from flask import Blueprint, Response, current_app, jsonify

from vision.recognize import PHOTO, VIDEO
from vision.recognize.deck import DeckError, load_deck
from vision.recognize.recognizer import ModelMissing, Recognizer
from vision.teach.camera import CardTaker
from vision.teach.deck import Teaching, summaries
from vision.teach.learn import Refused
from vision.teach.packs import PACKS

from .guard import json_body

teach = Blueprint("teach", __name__)

TAKE_WAIT = 4.0  # seconds a take waits for the card to lie still in the camera's frames


@dataclass
class Desk:
    """The deck being taught at this table, and what its learning is doing."""

    data: Path
    teaching: Teaching | None = None
    problem: str | None = None
    learning: dict | None = None  # {"stage", "done", "of"} while it learns
    outcome: dict | None = None  # the last learning's figures, or why it was refused
    lock: threading.Lock = field(default_factory=threading.Lock)
    _recognizer: Recognizer | None = None

    def recognizer(self) -> Recognizer:
        if self._recognizer is None:
            self._recognizer = Recognizer(settings=PHOTO)
        return self._recognizer

    @property
    def in_use_file(self) -> Path:
        return self.data / "deck.txt"

    def in_use(self) -> str | None:
        return self.in_use_file.read_text(encoding="utf-8").strip() or None if self.in_use_file.is_file() else None


def desk() -> Desk:
    return current_app.extensions["teach"]


def _writes(fn: Callable) -> Callable:
    """The table's PIN and a JSON object body (415 for any other kind, 400 for another JSON value)."""
    def wrapper(*args, **kwargs):
        refused = current_app.extensions["pin_guard"].refusal(current_app.extensions["table"])
        if refused:
            return refused
        body, refused = json_body(empty_ok=True)
        return refused or fn(body, *args, **kwargs)
    wrapper.__name__ = fn.__name__
    return wrapper


def _current(d: Desk) -> dict | None:
    t = d.teaching
    if t is None:
        return None
    have = t.captured_codes()
    cards = [{"code": c, "name": t.pack.card_name(c), "captured": c in have} for c in t.pack.codes]
    waiting = [c["code"] for c in cards if not c["captured"]]
    return {"name": t.name, "pack": t.pack.name, "title": t.pack.title, "cards": cards,
            "next": waiting[0] if waiting else None, "problem": d.problem, "learning": d.learning,
            "outcome": d.outcome}


@teach.get("/api/teach")
def status():
    d = desk()
    return jsonify(packs=[{"name": p.name, "title": p.title} for p in PACKS.values()], decks=summaries(),
                   in_use=d.in_use(), current=_current(d))


@teach.post("/api/teach/start")
@_writes
def start(body: dict):
    d = desk()
    name, pack = body.get("name"), body.get("pack")
    if not isinstance(name, str) or (pack is not None and (not isinstance(pack, str) or pack not in PACKS)):
        return jsonify(error=f"'name' must be a deck's name and 'pack' one of {', '.join(PACKS)}"), 400
    try:
        teaching = Teaching(name.strip(), pack)
    except (DeckError, ValueError) as exc:
        return jsonify(error=str(exc)), 400
    with d.lock:
        if d.learning:
            return jsonify(error=f"deck {d.teaching.name!r} is still learning; wait for it"), 409
        d.teaching, d.problem, d.outcome = teaching, None, None
    return status()


@teach.post("/api/teach/capture")
@_writes
def take(body: dict):
    """The card ``code`` from the camera's next frames: taken once it lies still and passes the checks."""
    d, table = desk(), current_app.extensions["table"]
    t = d.teaching
    if t is None:
        return jsonify(error="start a deck first (its name and its pack)"), 409
    code = body.get("code")
    if not isinstance(code, str) or code not in t.pack.codes:
        return jsonify(error=f"'code' must be a card of the {t.pack.title} pack"), 400
    if table.camera_raw is None:
        return jsonify(error="no camera picture: start the server with a camera (chratze serve --source 0)"), 409
    try:
        taker = CardTaker(code, d.recognizer())
    except ModelMissing as exc:
        return jsonify(error=str(exc)), 503
    cap, last, end = None, None, time.monotonic() + TAKE_WAIT
    while cap is None and time.monotonic() < end:
        jpeg = table.camera_raw
        if jpeg is last:
            time.sleep(0.03)
            continue
        last = jpeg
        cap = taker.offer(_decode(jpeg))
    if cap is None:
        d.problem = taker.problem or f"{t.pack.card_name(code)}: the card did not lie still"
        return jsonify(error=d.problem), 422
    t.add(cap)
    d.problem = None
    return status()


@teach.get("/api/teach/<name>/<code>.jpg")
def thumbnail(name: str, code: str):
    import cv2  # noqa: PLC0415

    try:
        cap = Teaching(name).latest(code)
    except (DeckError, ValueError):
        cap = None
    if cap is None:
        return jsonify(error=f"no capture of {code} in deck {name!r}"), 404
    _, buf = cv2.imencode(".jpg", cap.upright()[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 85])
    return Response(buf.tobytes(), mimetype="image/jpeg")


@teach.post("/api/teach/learn")
@_writes
def learn(body: dict):
    d = desk()
    t = d.teaching
    if t is None:
        return jsonify(error="start a deck first (its name and its pack)"), 409
    missing = t.missing()
    if missing:
        return jsonify(error="still to take: " + ", ".join(t.pack.card_name(c) for c in missing)), 409
    with d.lock:
        if d.learning:
            return jsonify(error="already learning"), 409
        d.learning, d.outcome = {"stage": "views", "done": 0, "of": 1}, None
    threading.Thread(target=_learn, args=(d, t), name="teach", daemon=True).start()
    return status()


def _learn(d: Desk, t: Teaching) -> None:
    def progress(stage: str, done: int, of: int) -> None:
        d.learning = {"stage": stage, "done": done, "of": of}

    try:
        profile = t.learn(d.recognizer(), progress=progress)
        d.outcome = {"kept": True, "figures": profile.figures}
    except Refused as exc:
        d.outcome = {"kept": False, "error": str(exc), "figures": exc.figures}
    except Exception as exc:  # noqa: BLE001 - the page must hear of any failure, not a thread dying silently
        d.outcome = {"kept": False, "error": f"learning failed: {exc}"}
    finally:
        d.learning = None


@teach.post("/api/teach/use")
@_writes
def use(body: dict):
    """The deck the camera reads with from now on (``null``: the shipped networks alone)."""
    d = desk()
    name = body.get("name")
    try:
        deck = load_deck(name) if name is not None else None
    except DeckError as exc:
        return jsonify(error=str(exc)), 400
    runner = current_app.extensions.get("camera_runner")
    if runner is not None:
        recognizer = Recognizer(settings=VIDEO, deck=deck)
        with current_app.extensions["table"].lock:
            runner.recognizer = runner.table.recognizer = recognizer  # a looping demo's next run keeps it too
    d.data.mkdir(parents=True, exist_ok=True)
    d.in_use_file.write_text(name or "", encoding="utf-8")
    return status()


def _decode(jpeg: bytes):
    import cv2  # noqa: PLC0415
    import numpy as np  # noqa: PLC0415

    return cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)[..., ::-1].copy()
