"""An evening of Kratzen on the page: tapped through from the cut to the settlement, kept across a
restart, loaded and exported; what only Chratze has is refused in the page's words."""

import random

import pytest

from engine import history
from engine.kratzen_session import KratzenSession
from engine.kratzen import trick_winner_index
from engine.kratzen_simulate import simulate_kratzen_session
from vision.table.games import KratzenTable
from vision.table.watch import Watcher
from webui import create_app

PIN = "4711"
AUTH = {"X-Table-Pin": PIN}
SEATS = ["Anna", "Beat", "Cla", "Doris"]


@pytest.fixture
def data(tmp_path):
    return tmp_path / "table"


@pytest.fixture
def client(data):
    return create_app(data, pin=PIN, testing=True).test_client()


def post(client, path, body=None):
    return client.post(path, json=body if body is not None else {}, headers=AUTH)


def kratzen_evening(client):
    assert post(client, "/api/session/new", {"ruleset": "kratzen"}).status_code == 200
    return post(client, "/api/hand/start", {"seats": SEATS})


def tap(client, ev) -> dict:
    """One event of a simulated hand, tapped as the page taps it."""
    route = {"cut": ("/api/cut", lambda e: {"cards": [c.code for c in e.cards]}),
             "upcard": ("/api/upcard", lambda e: {"card": e.card.code}),
             "bid": ("/api/bid", lambda e: {"player": e.player, "bid": e.bid}),
             "exchange": ("/api/exchange", lambda e: {"player": e.player, "count": e.count}),
             "shown": ("/api/shown", lambda e: {"player": e.player, "cards": [c.code for c in e.cards]}),
             "play": ("/api/play", lambda e: {"player": e.player, "card": e.card.code})}
    path, body = route[ev.type]
    r = post(client, path, body(ev))
    assert r.status_code == 200, r.json
    return r.json


def test_a_new_evening_of_kratzen_starts_with_a_muss_and_asks_for_the_cut(client):
    state = kratzen_evening(client).json
    assert state["ruleset"] == "kratzen" and state["hand"]["muss"] and state["hand"]["phase"] == "cut"
    assert state["hand"]["pot"] == 50 and state["hand"]["actions"] == {"cut": True}  # four antes, the dealer two


@pytest.mark.parametrize("seed", range(4))
def test_an_evening_of_kratzen_tapped_through_is_settled_as_the_referee_settles_it(client, seed):
    """Every hand from the cut to the settlement: contracts, play or drop, buying, cards shown, tricks."""
    assert post(client, "/api/session/new", {"ruleset": "kratzen"}).status_code == 200
    evening = simulate_kratzen_session(random.Random(seed), 4, 4, KratzenSession(), bots="hhrr")
    state = None
    for hand in evening.hands:
        state = post(client, "/api/hand/start", {"seats": list(hand.seats)} if state is None else {}).json
        for ev in hand.events[1:]:
            if ev.type != "hands_known":  # the table never says its hands
                state = tap(client, ev)
        st = state["hand"]
        assert st["phase"] == "done" and st["result"] == hand.result
        assert (st["settlement"]["payouts"], st["settlement"]["penalties"]) == (hand.settlement().payouts,
                                                                                hand.settlement().penalties)
        assert [t["winner"] for t in st["tricks"]] == [
            hand.seats[t[trick_winner_index([x.card for x in t], hand.trump)].player] for t in hand.tricks]
    assert state["balances"] == evening.balances and state["pot"] == evening.pot


def test_the_state_says_whose_contract_it_is_and_what_may_be_said(client):
    kratzen_evening(client)
    session = simulate_kratzen_session(random.Random(5), 1, 4, KratzenSession())
    first = session.hands[0]
    for ev in first.events[1:]:
        if ev.type != "hands_known":
            tap(client, ev)
    state = post(client, "/api/hand/start", {}).json  # the second hand: a Muss only after an emptied pot
    hand = state["hand"]
    assert hand["number"] == 2 and hand["phase"] == "cut"
    assert hand["dealer"] == first.seats[(first.dealer + 1) % 4]  # the deal passes to the left


def test_a_trump_six_swap_a_ruling_and_house_rules_are_chratze_s_and_refused_in_the_pages_words(client):
    kratzen_evening(client)
    for path, body in (("/api/swap", {"player": "Anna"}), ("/api/flag", {"flag": "x", "upheld": True}),
                       ("/api/rules", {"rules": {}}), ("/api/move", {"position": 1})):
        r = post(client, path, body)
        assert r.status_code == 409 and r.json["code"] == "chratze_only", (path, r.json)
    assert client.get("/api/state").json["hand"]["phase"] == "cut"  # nothing recorded


def test_a_later_hand_is_dealt_by_the_next_player_to_the_left_and_another_dealer_is_refused(client):
    kratzen_evening(client)
    session = simulate_kratzen_session(random.Random(5), 1, 4, KratzenSession())
    for ev in session.hands[0].events[1:]:
        if ev.type != "hands_known":
            tap(client, ev)
    right = client.get("/api/state").json["next_dealer"]
    wrong = next(p for p in SEATS if p != right)
    r = post(client, "/api/hand/start", {"dealer": wrong})
    assert r.status_code == 409 and r.json["code"] == "kratzen_dealer"
    assert post(client, "/api/hand/start", {"dealer": right}).json["hand"]["dealer"] == right


def test_a_chratze_bid_at_a_kratzen_table_is_a_bad_request(client):
    kratzen_evening(client)
    assert post(client, "/api/bid", {"player": "Anna", "bid": "chratze"}).status_code == 400


def test_an_evening_of_kratzen_survives_a_restart(data):
    client = create_app(data, pin=PIN, testing=True).test_client()
    kratzen_evening(client)
    post(client, "/api/cut", {"cards": ["9h"]})
    again = create_app(data, pin=PIN, testing=True).test_client().get("/api/state").json
    assert again["ruleset"] == "kratzen" and again["hand"]["phase"] == "deal"


def test_an_evening_of_kratzen_is_loaded_exported_and_its_ledger_written(client):
    session = simulate_kratzen_session(random.Random(3), 3, 4, KratzenSession())
    r = post(client, "/api/session/load", {"history": history.dumps(session)})
    assert r.status_code == 200 and r.json["ruleset"] == "kratzen" and r.json["hands_played"] == 3
    assert r.json["balances"] == session.balances
    assert history.loads(client.get("/api/export.json").get_data(as_text=True)).balances == session.balances
    rows = client.get("/api/ledger.csv").get_data(as_text=True).strip().splitlines()
    assert len(rows) == 1 + 3 * 4 and rows[-1].split(",")[-1] == str(session.balances[rows[-1].split(",")[1]])
    assert client.get("/api/hand/2").json["number"] == 2


def test_a_camera_running_referees_a_new_evening_of_kratzen_and_the_page_shows_it(client):
    service = client.application.extensions["table"]
    service.watcher = Watcher(service.session)  # a camera running
    assert post(client, "/api/session/new", {"ruleset": "kratzen"}).status_code == 200
    assert service.watcher.session is service.session and service.watcher.game is KratzenTable
    state = client.get("/api/state").json
    assert state["ruleset"] == "kratzen" and state["camera"]["state"] == "watching"


def test_the_demo_keeps_its_evening_of_chratze(client):
    service = client.application.extensions["table"]
    service.watcher, service.demo = Watcher(service.session), True  # the demo's video: a hand of Chratze
    r = post(client, "/api/session/new", {"ruleset": "kratzen"})
    assert r.status_code == 409 and r.json["code"] == "chratze_only" and r.json["values"]["what"] == "demo"
    assert client.get("/api/state").json.get("ruleset") is None


def test_a_new_evening_of_an_unknown_game_is_a_bad_request(client):
    assert post(client, "/api/session/new", {"ruleset": "poker"}).status_code == 400
    assert post(client, "/api/session/new", {"ruleset": "kratzen", "rules": {"ante": -1}}).status_code == 400


def test_the_server_points_a_camera_at_an_evening_of_kratzen_and_keeps_it(client, tmp_path):
    import argparse

    from webui.serve import _run_camera

    kratzen_evening(client)
    import cv2
    import numpy as np

    (tmp_path / "frames").mkdir()  # a folder of one picture of the bare cloth: the source ends after it
    cv2.imwrite(str(tmp_path / "frames" / "0001.png"), np.full((240, 320, 3), (40, 110, 50), np.uint8))
    args = argparse.Namespace(demo=False, source=str(tmp_path / "frames"), layout=None, data=".", deck=None)
    assert _run_camera(client.application, args) == 0
    runner = client.application.extensions["camera_runner"]
    runner.thread.join(30)
    assert not runner.thread.is_alive()
    state = client.get("/api/state").json
    assert state["ruleset"] == "kratzen" and state["hand"]["number"] == 1  # the evening is kept
    assert state["camera"]["state"] == "ended"
