"""The page's routes for a host's evening: ruling an earlier hand's flag, house rules between hands."""

import pytest

from engine.rules import HouseRules
from webui import create_app

PIN = "4711"
AUTH = {"X-Table-Pin": PIN}
REVOKE_HAND = ("Beat:As Cla:Ad Doris:9s Anna:8s", "Beat:Ks Cla:Qs Doris:Ts Anna:7s",  # Cla revokes spades
               "Beat:Kd Cla:Jh Doris:Qd Anna:Td", "Cla:9h Doris:8h Anna:6h Beat:Jd")


def post(client, path, body):
    return client.post(path, json=body, headers=AUTH)


def revoke_hand(client) -> dict:
    """A hand, tapped, in which Cla revokes; the state after it."""
    post(client, "/api/hand/start", {"seats": ["Anna", "Beat", "Cla", "Doris"]})
    post(client, "/api/upcard", {"card": "7h"})
    for p, b in (("Beat", "chratze"), ("Cla", "metcho"), ("Doris", "metcho"), ("Anna", "metcho")):
        assert post(client, "/api/bid", {"player": p, "bid": b}).status_code == 200
    for p in ("Beat", "Cla", "Doris", "Anna"):
        post(client, "/api/exchange", {"player": p, "count": 0})
    for trick in REVOKE_HAND:
        for part in trick.split():
            p, c = part.split(":")
            r = post(client, "/api/play", {"player": p, "card": c})
            assert r.status_code == 200, r.json
    return r.json


@pytest.fixture
def client(tmp_path):
    return create_app(tmp_path, pin=PIN, testing=True, rules=HouseRules(revoke_penalty=True)).test_client()


def test_an_earlier_hands_flag_is_listed_read_and_ruled_on(client):
    flag = revoke_hand(client)["hand"]["flags"][0]["id"]
    state = post(client, "/api/hand/start", {}).json
    assert state["flagged_hands"] == [{"hand": 1, "flags": 1, "open": 1}]
    earlier = client.get("/api/hand/1").json
    assert earlier["hand"] == 1 and earlier["flags"][0]["id"] == flag and "Cla" in earlier["settlement"]["failed"]
    r = post(client, "/api/flag", {"flag": flag, "upheld": False, "hand": 1})
    assert r.status_code == 200 and r.json["flagged_hands"] == [{"hand": 1, "flags": 1, "open": 0}]
    assert "Cla" in client.get("/api/hand/1").json["settlement"]["winners"]


def test_a_hand_not_played_is_a_404_and_a_bad_hand_number_a_400(client):
    revoke_hand(client)
    assert client.get("/api/hand/7").status_code == 404
    r = post(client, "/api/flag", {"flag": "x", "upheld": True, "hand": "one"})
    assert r.status_code == 400


def test_house_rules_change_between_hands_only(client):
    post(client, "/api/hand/start", {"seats": ["Anna", "Beat", "Cla"]})
    r = post(client, "/api/rules", {"rules": {"ante": 50}})
    assert r.status_code == 409 and r.json["code"] == "rules_mid_hand"
    revoke_hand(client)  # abandons the first hand, plays one to its end
    r = post(client, "/api/rules", {"rules": {"ante": 50}})
    assert r.status_code == 200 and r.json["rules"]["ante"] == 50 and r.json["next_ante"] == 50
    post(client, "/api/hand/start", {})
    record = client.get("/api/export.json").json
    assert record["events"][-1]["type"] == "hand_started" and record["events"][-1]["ante"] == 50
    assert record["rules"]["ante"] == 20  # the record's head keeps the rules it began with


def test_bad_house_rules_between_hands_are_a_400_in_the_pages_words(client):
    r = post(client, "/api/rules", {"rules": {"ante": -1}})
    assert r.status_code == 400 and r.json["code"] == "rules_bad"


HELD = (("Beat", "9h"), ("Cla", "Th"), ("Cla", "7s"), ("Cla", "8c"), ("Beat", "As"), ("Beat", "6c"))


def held_hand(client) -> dict:
    """Cla lays her trick-3 card (8c) before Beat answered her lead in trick 2: the hand waits for her."""
    post(client, "/api/hand/start", {"seats": ["Anna", "Beat", "Cla"]})
    post(client, "/api/upcard", {"card": "Kh"})
    for p, b in (("Beat", "chratze"), ("Cla", "metcho"), ("Anna", "weg")):
        post(client, "/api/bid", {"player": p, "bid": b})
    post(client, "/api/exchange", {"player": "Beat", "count": 0})
    post(client, "/api/exchange", {"player": "Cla", "count": 0})
    for p, c in HELD:
        r = post(client, "/api/play", {"player": p, "card": c})
        assert r.status_code == 200, r.json
    return r.json


def test_the_page_is_told_which_play_holds_the_hand_up_and_takes_it_as_made_now(client):
    held = held_hand(client)["hand"]["held_up"]
    assert held["player"] == "Cla" and held["card"] == "8c" and held["laid_in"] == 2 and held["trick"] == 3
    r = post(client, "/api/move", {"position": held["position"]})
    assert r.status_code == 200 and r.json["hand"]["held_up"] is None
    assert [c["card"] for c in r.json["hand"]["tricks"][2]["cards"]] == ["6c", "8c"]


def test_the_advisor_answers_a_players_question_and_records_nothing(client):
    before = client.get("/api/state").json
    r = client.get("/api/advise?trump=Kh&hand=As,9s,Jh,7c&seat=2&players=4")
    assert r.status_code == 200
    says = [c["say"] for c in r.json["choices"]]
    assert says == ["chratze", "metcho", "weg"] and r.json["best"] in says
    chratze = r.json["choices"][0]
    assert 0 < chratze["made"] < 1 and chratze["made_half"] < 0.02 and set(chratze["lay"]) <= {"As", "9s", "7c"}
    assert client.get("/api/state").json == before  # a question, not a record


@pytest.mark.parametrize("query", ["trump=Kh&hand=As,9s&seat=2", "trump=Xx&hand=As,9s,Jh,7c&seat=2",
                                   "trump=Kh&hand=As,9s,Jh,Kh&seat=2", "trump=Kh&hand=As,9s,Jh,7c&seat=9",
                                   "trump=Kh&hand=As,9s,Jh,7c&seat=1&players=12", "trump=Kh&hand=As,9s,Jh,7c"])
def test_a_question_the_advisor_cannot_take_is_a_400_with_a_reason(client, query):
    r = client.get(f"/api/advise?{query}")
    assert r.status_code == 400 and r.json["error"] and r.json["code"] == "advise_bad"
