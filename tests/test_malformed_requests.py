"""1000 malformed requests spread over every write route: each a 4xx with a JSON reason, none a 500,
and the record unchanged (issue 42). Fixed seed: the same 1000 every run."""

from __future__ import annotations

import json
import random

import pytest

from webui import create_app

PIN = "4711"
BAD_VALUES = [None, 5, -1, 3.5, True, "", " ", "x" * 300, "Zz", "../../etc", [], [1, "a"], {}, {"a": 1}, "10", "Ah Ah"]
ROUTE_KEYS = {  # each write route and the keys it reads: every value given is of the wrong kind or meaning
    "/api/hand/start": ["seats", "dealer"], "/api/bid": ["player", "bid"], "/api/exchange": ["player", "count"],
    "/api/upcard": ["card"], "/api/play": ["player", "card"], "/api/swap": ["player"],
    "/api/correct": ["position", "card"], "/api/undo": [], "/api/flag": ["flag", "upheld", "hand"], "/api/event": ["event"],
    "/api/camera/excuse": ["card"], "/api/camera/answer": ["ask", "card", "player"], "/api/session/new": ["rules", "meta"],
    "/api/session/load": ["history"], "/api/layout": ["zones", "mat", "space"],
    "/api/teach/start": ["name", "pack"], "/api/teach/capture": ["code"], "/api/teach/learn": ["whole"],
    "/api/teach/use": ["name"], "/api/rules": ["rules"], "/api/move": ["position"],
}


def _malformed(rng: random.Random, route: str):
    """(body bytes, content type) that no route can take."""
    kind = rng.randrange(5)
    if kind == 0:  # not JSON at all
        return rng.choice([b"seats=Anna", b"\x00\xff", b"<xml/>"]), rng.choice(["application/x-www-form-urlencoded",
                                                                                "text/plain", "multipart/form-data"])
    if kind == 1:  # says JSON, is not
        return rng.choice([b"{", b"{'a': 1}", b"[1,", b"nul"]), "application/json"
    if kind == 2:  # JSON, but no object
        return json.dumps(rng.choice([[], "x", 3, None, [1, 2]])).encode(), "application/json"
    keys = ROUTE_KEYS[route]
    if not keys:  # a route that takes {} as a real write: send it something that is no object
        return b"[]", "application/json"
    body = {k: rng.choice(BAD_VALUES) for k in keys if rng.random() < 0.8} or {keys[0]: rng.choice(BAD_VALUES)}
    if route == "/api/teach/use" and body.get("name") is None:
        body["name"] = rng.choice([5, "", "../x", "nope"])  # None is the legal "no deck"
    if route == "/api/hand/start":
        body["seats"] = rng.choice([5, "", [], [1, "a"], ["x" * 300], "Anna"])  # any list of names would be legal
    if route in ("/api/session/new", "/api/rules"):
        body["rules"] = rng.choice(["x", 5, [1], {"ante": "lots"}, {"nope": 1}])
    if route == "/api/layout" and "mat" in body:
        body["mat"] = rng.choice([0, 1, 9, "4", 3.5, True, None])  # 2 to 7 seats would be a legal mat
    if route == "/api/teach/learn":
        body = {"whole": "yes"}
    return json.dumps(body).encode(), "application/json"


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setenv("CHRATZE_DATA", str(tmp_path / "data"))
    app = create_app(tmp_path / "table", pin=PIN, testing=True)
    client = app.test_client()
    h = {"X-Table-Pin": PIN}
    client.post("/api/hand/start", json={"seats": ["Anna", "Beat", "Cla"]}, headers=h)
    client.post("/api/upcard", json={"card": "Kh"}, headers=h)
    return app


def test_a_thousand_malformed_requests_are_4xx_with_a_reason_and_change_nothing(app):
    client, rng = app.test_client(), random.Random(42)
    before = client.get("/api/state").json
    log = len(app.extensions["table"].session.log)
    routes = sorted(ROUTE_KEYS)
    seen = []
    for i in range(1000):
        route = routes[i % len(routes)]
        data, ctype = _malformed(rng, route)
        r = client.post(route, data=data, headers={"X-Table-Pin": PIN, "Content-Type": ctype})
        seen.append((route, r.status_code))
        assert 400 <= r.status_code < 500, (route, data, r.status_code, r.data[:300])
        assert r.is_json and r.json.get("error"), (route, data, r.data[:200])
    after = client.get("/api/state").json
    assert len(app.extensions["table"].session.log) == log
    assert after["hand"] == before["hand"] and after["pot"] == before["pot"]
    assert len({route for route, _ in seen}) == len(routes)
