"""Setup -> Teach a deck: the page's API (the camera's frames stand in for a table laying each card)."""

from __future__ import annotations

import time

import cv2
import numpy as np
import pytest

from datasets.art import scanned_pack
from datasets.held_out import capture_frame
from webui import create_app

PIN = "1234"
H = {"X-Table-Pin": PIN}


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setenv("CHRATZE_DATA", str(tmp_path / "data"))
    return create_app(tmp_path / "table", pin=PIN, testing=True)


@pytest.fixture
def client(app):
    return app.test_client()


def _show(app, rgb: np.ndarray) -> None:
    ok, buf = cv2.imencode(".jpg", rgb[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 92])
    app.extensions["table"].camera_raw = buf.tobytes()


def _still_card(app, code: str, seed: int = 123_460):
    """The camera's frames: the card lying still (a new frame object every few milliseconds)."""
    rgb = capture_frame(scanned_pack("swiss-french")[code], seed)
    import threading

    stop = threading.Event()
    _show(app, rgb)

    def feed():
        while not stop.is_set():
            _show(app, rgb)
            time.sleep(0.02)

    threading.Thread(target=feed, daemon=True).start()
    return stop


def test_the_setup_page_lists_the_packs_a_table_can_teach(client):
    body = client.get("/api/teach").get_json()
    assert [p["name"] for p in body["packs"]] == ["swiss-french", "swiss-german", "poker-36", "tell-33"]
    assert body["decks"] == [] and body["current"] is None and body["in_use"] is None


def test_teaching_starts_with_a_name_and_a_pack_and_asks_for_the_first_card(client):
    body = client.post("/api/teach/start", json={"name": "ours", "pack": "swiss-german"}, headers=H).get_json()
    cur = body["current"]
    assert cur["name"] == "ours" and len(cur["cards"]) == 36 and cur["next"] == "6h"
    assert cur["cards"][0]["name"] == "Rosen 6"


def test_teaching_writes_need_the_pin_and_json(client):
    r = client.post("/api/teach/start", data="name=ours", headers={**H, "Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code == 415
    r = client.post("/api/teach/start", json={"name": "../etc", "pack": "poker-36"}, headers=H)
    assert r.status_code == 400 and "deck name" in r.get_json()["error"]
    assert client.post("/api/teach/start", json={"name": "ours", "pack": "poker-36"}).status_code == 403


def test_a_take_without_a_camera_says_so(client):
    client.post("/api/teach/start", json={"name": "ours", "pack": "poker-36"}, headers=H)
    r = client.post("/api/teach/capture", json={"code": "6h"}, headers=H)
    assert r.status_code == 409 and "no camera picture" in r.get_json()["error"]


def test_a_card_lying_still_is_taken_and_shown_as_a_thumbnail(app, client):
    client.post("/api/teach/start", json={"name": "ours", "pack": "swiss-french"}, headers=H)
    stop = _still_card(app, "6h")
    try:
        r = client.post("/api/teach/capture", json={"code": "6h"}, headers=H)
    finally:
        stop.set()
    assert r.status_code == 200, r.get_json()
    cur = r.get_json()["current"]
    assert cur["cards"][0]["captured"] and cur["next"] == "7h"
    thumb = client.get("/api/teach/ours/6h.jpg")
    assert thumb.status_code == 200 and thumb.mimetype == "image/jpeg"


def test_an_empty_table_is_not_taken_and_the_page_says_why(app, client, monkeypatch):
    import sys

    monkeypatch.setattr(sys.modules["webui.teach"], "TAKE_WAIT", 0.5)  # the take's wait for a still card, shortened
    client.post("/api/teach/start", json={"name": "ours", "pack": "swiss-french"}, headers=H)
    _show(app, np.full((480, 640, 3), 90, np.uint8))
    r = client.post("/api/teach/capture", json={"code": "6h"}, headers=H)
    assert r.status_code == 422 and "no card found" in r.get_json()["error"]
    assert client.get("/api/teach").get_json()["current"]["problem"].startswith("6h: no card found")


def test_learning_waits_for_every_card(client):
    client.post("/api/teach/start", json={"name": "ours", "pack": "swiss-french"}, headers=H)
    r = client.post("/api/teach/learn", json={}, headers=H)
    assert r.status_code == 409 and "still to take" in r.get_json()["error"]


def test_an_untaught_deck_cannot_be_chosen_for_the_evening(client):
    r = client.post("/api/teach/use", json={"name": "nope"}, headers=H)
    assert r.status_code == 400 and "no deck 'nope'" in r.get_json()["error"]
    assert client.post("/api/teach/use", json={"name": None}, headers=H).get_json()["in_use"] is None
