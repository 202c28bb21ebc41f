"""The tablet page's server (webui): every endpoint, bad input, the PIN, persistence."""

import csv
import io
import json

import pytest

from webui import create_app

PIN = "4711"
AUTH = {"X-Table-Pin": PIN}
SEATS = ["Anna", "Beat", "Cla"]


@pytest.fixture
def data(tmp_path):
    return tmp_path / "table"


@pytest.fixture
def client(data):
    return create_app(data, pin=PIN, testing=True).test_client()


def post(client, path, body=None, headers=AUTH):
    return client.post(path, json=body if body is not None else {}, headers=headers)


def play_to_first_trick(client):
    post(client, "/api/hand/start", {"seats": SEATS})
    post(client, "/api/upcard", {"card": "Kh"})
    for p, b in (("Beat", "chratze"), ("Cla", "metcho"), ("Anna", "weg")):
        assert post(client, "/api/bid", {"player": p, "bid": b}).status_code == 200
    post(client, "/api/exchange", {"player": "Beat", "count": 0})
    return post(client, "/api/exchange", {"player": "Cla", "count": 0}).json


def whole_hand(client):
    play_to_first_trick(client)
    for player, c in (("Beat", "9h"), ("Cla", "Th"), ("Cla", "Ah"), ("Beat", "6h"),
                      ("Cla", "7s"), ("Beat", "As"), ("Beat", "8c"), ("Cla", "9c")):
        r = post(client, "/api/play", {"player": player, "card": c})
        assert r.status_code == 200, r.json
    return r.json


# ------------------------------------------------------------------ pages and reads
@pytest.mark.parametrize("path", ["/", "/review", "/ledger", "/camera", "/setup"])
def test_every_page_is_served_with_its_assets_from_the_server(client, path):
    page = client.get(path)
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "/static/app.js" in html and "/static/app.css" in html and "http" not in html.split("<body")[0]
    assert client.get("/static/app.js").status_code == 200


def test_an_unknown_page_is_a_404(client):
    assert client.get("/nowhere").status_code == 404


def test_anyone_may_read_the_state_without_the_pin(client):
    state = client.get("/api/state").json
    assert state["hand"] is None and state["pot"] == 0


def test_the_live_stream_sends_the_state_as_a_server_sent_event(client):
    play_to_first_trick(client)
    body = client.get("/api/events?once=1").get_data(as_text=True)
    assert body.startswith("retry: 1000\n\nid: ") and "event: state" in body
    state = json.loads(body.split("data: ", 1)[1])
    assert state["hand"]["phase"] == "exchange" or state["hand"]["turn"] == "Beat"


# ------------------------------------------------------------------ the PIN
@pytest.mark.parametrize("headers", [{}, {"X-Table-Pin": "0000"}])
def test_a_write_without_the_right_pin_is_refused_and_changes_nothing(client, headers):
    r = post(client, "/api/hand/start", {"seats": SEATS}, headers)
    assert r.status_code == 403 and "PIN" in r.json["error"]
    assert client.get("/api/state").json["hand"] is None


# ------------------------------------------------------------------ a hand by tapping
def test_a_whole_hand_tapped_through_shows_trick_winners_and_settlement(client):
    state = whole_hand(client)
    hand = state["hand"]
    assert hand["phase"] == "done"
    assert [t["winner"] for t in hand["tricks"]] == ["Cla", "Cla", "Beat", "Cla"]
    assert hand["settlement"]["payouts"] == {"Cla": 60}  # the whole pot: the Chratzer failed (RULES.md §4)
    assert hand["settlement"]["penalties"] == {"Beat": 120}
    assert state["pot"] == hand["settlement"]["carried_out"]


def test_the_state_says_whose_turn_and_which_bids_may_be_tapped(client):
    post(client, "/api/hand/start", {"seats": SEATS})
    state = post(client, "/api/upcard", {"card": "Kh"}).json
    assert state["hand"]["turn"] == "Beat"
    assert state["hand"]["actions"]["bids"]["Beat"] == ["chratze", "weg"]


def test_tricks_against_target(client):
    play_to_first_trick(client)
    post(client, "/api/play", {"player": "Beat", "card": "9h"})
    state = post(client, "/api/play", {"player": "Cla", "card": "Th"}).json
    targets = {t["player"]: (t["won"], t["target"]) for t in state["hand"]["targets"] if t["active"]}
    assert targets == {"Beat": (0, 2), "Cla": (1, 1)}


def test_a_play_without_a_player_is_for_whoever_is_to_play(client):
    play_to_first_trick(client)
    state = post(client, "/api/play", {"card": "9h"}).json
    assert state["hand"]["current_trick"]["cards"][0]["player"] == "Beat"


def test_a_misread_card_is_corrected_by_its_position(client):
    play_to_first_trick(client)
    state = post(client, "/api/play", {"player": "Beat", "card": "9h"}).json
    pos = state["hand"]["current_trick"]["cards"][0]["position"]
    state = post(client, "/api/correct", {"position": pos, "card": "8h"}).json
    assert state["hand"]["current_trick"]["cards"][0]["card"] == "8h"


def test_the_review_says_which_plays_rest_on_a_persons_word(client):
    play_to_first_trick(client)
    state = post(client, "/api/play", {"player": "Beat", "card": "9h"}).json
    assert state["hand"]["said"] == {"9h": {"by": "tablet"}}  # tapped on the tablet, not read by the camera
    pos = state["hand"]["current_trick"]["cards"][0]["position"]
    state = post(client, "/api/correct", {"position": pos, "card": "8h"}).json
    assert state["hand"]["said"] == {"8h": {"by": "tablet"}}


def test_a_named_card_answer_is_shown_as_the_tables_word_in_the_review(data):
    client = _asking_table(data)
    (ask,) = client.get("/api/state").json["camera"]["asks"]
    r = post(client, "/api/camera/answer", {"ask": ask["id"], "card": "9s"})
    assert r.json["hand"]["said"] == {"9s": {"by": "table"}}


def test_undo_takes_back_the_last_tap(client):
    play_to_first_trick(client)
    post(client, "/api/play", {"player": "Beat", "card": "9h"})
    state = post(client, "/api/undo").json
    assert state["hand"]["current_trick"] is None or state["hand"]["current_trick"]["cards"] == []


def test_the_trump_six_swap_is_tapped_by_player(client):
    play_to_first_trick(client)
    state = post(client, "/api/swap", {"player": "Cla"}).json
    assert "6h" in state["hand"]["upcards"] or state["hand"]["actions"]["swap"] == []


def test_a_flag_is_ruled_upheld_or_dismissed_and_the_settlement_follows(data):
    client = create_app(data, pin=PIN, testing=True).test_client()
    play_to_first_trick(client)
    post(client, "/api/play", {"player": "Beat", "card": "9h"})
    post(client, "/api/play", {"player": "Cla", "card": "7s"})  # Cla does not follow hearts ...
    post(client, "/api/play", {"player": "Cla", "card": "Th"})  # ... and leads a heart: revoke proven
    state = client.get("/api/state").json
    flag = next(f for f in state["hand"]["flags"] if f["rule"] == "revoke")
    assert flag["player"] == "Cla" and flag["evidence"]
    state = post(client, "/api/flag", {"flag": flag["id"], "upheld": False}).json
    assert next(f for f in state["hand"]["flags"] if f["id"] == flag["id"])["status"] == "dismissed"


def test_the_next_hand_carries_the_pot_and_passes_the_deal(client):
    whole_hand(client)
    state = post(client, "/api/hand/start").json
    assert state["hand"]["hand"] == 2 and state["hand"]["dealer"] == "Beat"
    assert state["hand"]["settlement"]["pot"] == state["pot"]


# ------------------------------------------------------------------ bad input
@pytest.mark.parametrize("path,body,code", [
    ("/api/upcard", {"card": "Xz"}, 400),
    ("/api/upcard", {"card": 7}, 400),
    ("/api/upcard", {}, 400),
    ("/api/bid", {"player": "Beat", "bid": "maybe"}, 400),
    ("/api/bid", {"player": "Beat", "bid": "chratze"}, 409),  # no upcard yet
    ("/api/exchange", {"player": "Beat", "count": "two"}, 400),
    ("/api/play", {"player": "Zora", "card": "Ah"}, 409),
    ("/api/correct", {"position": 99, "card": "Ah"}, 409),
    ("/api/flag", {"flag": "nope", "upheld": "yes"}, 400),
    ("/api/hand/start", {"seats": "Anna Beat"}, 400),
    ("/api/hand/start", {"seats": ["Anna"]}, 409),
    ("/api/event", {"event": {"type": "teleport"}}, 400),
    ("/api/session/new", {"rules": {"ante": "lots"}}, 400),
    ("/api/session/load", {"history": "{broken"}, 400),
    ("/api/camera/excuse", {"card": "Ah"}, 400),
])
def test_a_bad_request_gets_a_4xx_with_a_reason_and_leaves_the_record_unchanged(client, path, body, code):
    post(client, "/api/hand/start", {"seats": SEATS})
    before = client.get("/api/export.json").get_data(as_text=True)
    r = post(client, path, body)
    assert r.status_code == code and r.json["error"]
    assert client.get("/api/export.json").get_data(as_text=True) == before


def test_a_body_that_is_not_json_is_a_400(client):
    r = client.post("/api/bid", data="player=Beat", headers={**AUTH, "Content-Type": "application/json"})
    assert r.status_code == 400


def test_a_page_that_lost_track_of_the_hand_is_told_to_reload(client):
    post(client, "/api/hand/start", {"seats": SEATS})
    r = post(client, "/api/upcard", {"card": "Kh", "expect_hand": 3})
    assert r.status_code == 409 and "reload" in r.json["error"]


# ------------------------------------------------------------------ ledger, export, reload
def test_the_ledger_exports_the_history_and_a_csv(client):
    whole_hand(client)
    history = client.get("/api/export.json")
    assert history.status_code == 200 and json.loads(history.data)["format"] == "chratze-hand-history"
    rows = list(csv.DictReader(io.StringIO(client.get("/api/ledger.csv").get_data(as_text=True))))
    assert {r["player"]: int(r["balance_rappen"]) for r in rows} == {"Anna": -20, "Beat": -140, "Cla": 40}


def test_a_saved_session_is_reloaded_and_the_old_one_archived(client, data):
    whole_hand(client)
    saved = client.get("/api/export.json").get_data(as_text=True)
    post(client, "/api/session/new", {"rules": {"ante": 50}})
    assert client.get("/api/state").json["rules"]["ante"] == 50
    state = post(client, "/api/session/load", {"history": saved}).json
    assert state["hands_played"] == 1 and state["hand"]["phase"] == "done"
    assert len(list((data / "archive").glob("*.json"))) == 1  # the evening replaced by the new one


def test_the_settle_up_squares_every_balance_and_the_pot(client):
    whole_hand(client)
    state = client.get("/api/state").json
    net = {**state["balances"], "pot": -sum(state["balances"].values())}  # the pot holds what players lost
    for p in state["settle_up"]:
        net[p["payer"]] += p["amount"]
        net[p["payee"]] -= p["amount"]
    assert all(v == 0 for v in net.values()) and len(state["settle_up"]) == 3


# ------------------------------------------------------------------ persistence
def test_every_event_is_stored_and_a_restarted_server_shows_the_same_hand(data):
    first = create_app(data, pin=PIN, testing=True).test_client()
    play_to_first_trick(first)
    post(first, "/api/play", {"player": "Beat", "card": "9h"})
    before = first.get("/api/state").json
    second = create_app(data, pin=PIN, testing=True).test_client()  # as after a crash: nothing flushed by hand
    after = second.get("/api/state").json
    assert after["hand"] == before["hand"] and after["pot"] == before["pot"]


def test_the_database_uses_a_write_ahead_log(data):
    app = create_app(data, pin=PIN, testing=True)
    mode = app.extensions["table"].store.db.execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


# ------------------------------------------------------------------ layout
def test_zones_drawn_on_the_calibration_screen_are_saved(client, data):
    zones = {"zones": {"upcard": [[0, 0], [10, 0], [10, 10]], "1": [[20, 0], [30, 0], [30, 10]]}}
    assert post(client, "/api/layout", zones).status_code == 200
    assert set(client.get("/api/layout").json["zones"]) == {"upcard", "1"}
    assert post(client, "/api/layout", {"zones": {"1": [[0, 0]]}}).status_code == 400
    assert post(client, "/api/layout", {"mat": 5}).json["space"] == "mat"
    assert post(client, "/api/layout", zones, headers={}).status_code == 403


def test_zones_saved_while_the_camera_runs_are_used_from_the_next_frame(data):
    from vision.table.layout import MatFinder
    from webui.camera import CameraRunner

    app = create_app(data, pin=PIN, testing=True)
    runner = CameraRunner(app.extensions["table"], "unused.avi", None, recognizer=lambda img: [])
    app.extensions["camera_runner"] = runner  # not started: no frames needed to see the layout change
    assert post(app.test_client(), "/api/layout", {"mat": 4}).status_code == 200
    assert runner.table.watcher.layout.space == "mat" and isinstance(runner.table.mat, MatFinder)


def test_an_error_in_the_camera_stops_the_camera_and_never_locks_the_page(data, tmp_path):
    import cv2
    import numpy as np

    from webui.camera import CameraRunner

    def broken(img):
        raise ValueError("a reader that fails")

    app = create_app(data, pin=PIN, testing=True)
    client = app.test_client()
    play_to_first_trick(client)
    kept = client.get("/api/export.json").get_data(as_text=True)
    (tmp_path / "frames").mkdir()
    cv2.imwrite(str(tmp_path / "frames" / "0001.png"), np.full((240, 320, 3), (40, 110, 50), np.uint8))
    runner = CameraRunner(app.extensions["table"], str(tmp_path / "frames"), None, recognizer=broken).start()
    runner.thread.join(30)
    lock = app.extensions["table"].lock
    assert lock.acquire(timeout=5), "the camera thread died holding the table's lock"
    lock.release()
    state = client.get("/api/state").json
    assert state["camera"]["state"] == "stopped" and "a reader that fails" in state["camera"]["reason"]
    assert client.get("/api/export.json").get_data(as_text=True) == kept
    assert post(client, "/api/undo").status_code == 200  # taps go on


def test_camera_pictures_are_404_until_a_camera_runs(client):
    assert client.get("/camera/frame.jpg").status_code == 404
    assert client.get("/camera.mjpg?once=1").status_code == 404
    assert client.get("/snapshots/../table.sqlite").status_code == 404


def _asking_table(data):
    """A table whose camera asks which card Beat laid (its reads split 9s / Ts)."""
    from vision.table.live import LiveTable
    from vision.table.sources import Frame
    from webui.camera import CameraRunner

    app = create_app(data, pin=PIN, testing=True)
    client = app.test_client()
    play_to_first_trick(client)
    s = app.extensions["table"]
    runner = CameraRunner(s, "unused.avi", None, recognizer=lambda img: [])
    box = (100, 100, 160, 190)
    reads = [_Read("9s", box, [("Ts", 0.4)]), _Read("Ts", box, [("9s", 0.4)])]
    table = LiveTable(s.watcher, lambda img: [reads[frame_no[0] % 2]], s.snapshots)
    frame_no = [0]
    image = __import__("numpy").zeros((240, 320, 3), "uint8")
    for k in range(40):
        frame_no[0] = k
        with s.lock:
            s.note(table.process(Frame(image, k * 0.05, k)))
            s.bump()
    assert runner.table.watcher is s.watcher
    return client


class _Read:
    def __init__(self, card, box, alternatives):
        self.card, self.box, self.alternatives, self.confidence, self.corners = card, box, alternatives, 0.8, []


def test_a_card_the_camera_is_unsure_of_is_asked_on_the_page_with_its_picture_and_a_tap_names_it(data):
    client = _asking_table(data)
    (ask,) = client.get("/api/state").json["camera"]["asks"]
    assert {"9s", "Ts"} <= set(ask["choices"]) and ask["player"] == "Beat"
    assert client.get(f"/camera/asks/{ask['id']}.jpg").mimetype == "image/jpeg"
    r = post(client, "/api/camera/answer", {"ask": ask["id"], "card": "9s"})
    assert r.status_code == 200 and r.json["camera"]["asks"] == []
    assert "9s" in r.json["hand"]["play_positions"]


def test_a_card_the_camera_is_unsure_of_that_is_no_card_is_answered_none_and_nothing_is_recorded(data):
    client = _asking_table(data)
    (ask,) = client.get("/api/state").json["camera"]["asks"]
    r = post(client, "/api/camera/answer", {"ask": ask["id"], "card": "none"})
    assert r.status_code == 200 and r.json["camera"]["asks"] == []
    assert r.json["hand"]["play_positions"] == {} and r.json["camera"]["pending"] == []


def test_a_bid_refused_for_an_upcard_the_camera_never_saw_asks_for_it_with_the_frame_and_is_taken_after(data):
    from tests.stepped import SteppedCamera

    app = create_app(data, pin=PIN, testing=True)
    client = app.test_client()
    camera = SteppedCamera(app.extensions["table"])  # it sees no card at all
    post(client, "/api/hand/start", {"seats": SEATS})
    camera.frames(5)
    assert post(client, "/api/bid", {"player": "Beat", "bid": "chratze"}).status_code == 409
    camera.frames(40)
    (ask,) = client.get("/api/state").json["camera"]["asks"]
    assert ask["kind"] == "upcard" and "never saw the upcard" in ask["why"] and ask["snapshot"]
    picture = client.get(f"/camera/asks/{ask['id']}.jpg")  # no zones: the whole frame it was asked on
    assert picture.status_code == 200 and picture.mimetype == "image/jpeg"
    r = post(client, "/api/camera/answer", {"ask": ask["id"], "card": "Kh"})
    assert r.status_code == 200 and r.json["camera"]["asks"] == [] and r.json["hand"]["upcards"] == ["Kh"]
    assert post(client, "/api/bid", {"player": "Beat", "bid": "chratze"}).status_code == 200


@pytest.mark.parametrize("body", [{"ask": 99, "card": "9s"}, {"ask": "1", "card": "9s"}, {"ask": 1, "card": "1x"},
                                  {"ask": 1, "card": "9s", "player": "Cla"}, {"ask": 1, "card": "9s", "player": 5}])
def test_a_bad_answer_is_a_400_and_the_question_stays_open(data, body):
    client = _asking_table(data)
    r = post(client, "/api/camera/answer", body)
    assert r.status_code == 400 and r.json["error"]
    assert len(client.get("/api/state").json["camera"]["asks"]) == 1


# ------------------------------------------------------------------ the host's evening (issue 42)
@pytest.mark.parametrize("path", ["/api/undo", "/api/hand/start", "/api/session/new", "/api/layout"])
def test_a_write_that_is_not_json_is_refused_with_415_and_changes_nothing(client, path):
    post(client, "/api/hand/start", {"seats": SEATS})
    before = client.get("/api/state").json
    for kwargs in ({"data": {"pin": PIN}}, {"data": "seats=x", "content_type": "text/plain"}, {}):
        r = client.post(path, headers=AUTH, **kwargs)
        assert r.status_code == 415 and "application/json" in r.json["error"]
    after = client.get("/api/state").json
    assert after["hand"] == before["hand"] and after["version"] == before["version"]


def test_house_rules_that_are_not_an_object_are_a_400_not_a_500(client):
    r = post(client, "/api/session/new", {"rules": "x"})
    assert r.status_code == 400 and "house rules" in r.json["error"]


def test_a_zone_with_a_point_that_is_no_number_is_a_400_not_a_500(client):
    r = post(client, "/api/layout", {"zones": {"1": [[0, 0], ["a", 1], [2, 2]]}, "space": "image"})
    assert r.status_code == 400 and "polygon" in r.json["error"]


@pytest.fixture
def clocked(data):
    """A client, and the clock its PIN guard reads (seconds, moved by hand)."""
    app = create_app(data, pin=PIN, testing=True)
    now = [1000.0]
    app.extensions["pin_guard"].clock = lambda: now[0]
    return app.test_client(), now


def test_a_wrong_pin_makes_the_next_try_wait_twice_as_long_each_time(clocked):
    client, now = clocked
    wrong = {"X-Table-Pin": "0000"}
    assert post(client, "/api/undo", headers=wrong).status_code == 403
    r = post(client, "/api/undo")  # the right PIN, but at once: it waits too
    assert r.status_code == 429 and "try again in 1 s" in r.json["error"]
    now[0] += 1.0
    assert post(client, "/api/undo", headers=wrong).status_code == 403
    now[0] += 1.5
    assert post(client, "/api/undo", headers=wrong).status_code == 429  # 2 s this time
    now[0] += 0.5
    assert post(client, "/api/hand/start", {"seats": SEATS}).status_code == 200  # right: the count is cleared
    assert post(client, "/api/undo", headers=wrong).status_code == 403
    assert post(client, "/api/undo").status_code == 429  # back to 1 s


def test_ten_wrong_pins_in_a_row_lock_the_client_out(clocked):
    client, now = clocked
    for _ in range(10):
        assert post(client, "/api/undo", headers={"X-Table-Pin": "0000"}).status_code == 403
        now[0] += 600
    r = post(client, "/api/undo")
    assert r.status_code == 429 and "locked after 10 wrong PINs" in r.json["error"]
    now[0] += 3600
    assert post(client, "/api/hand/start", {"seats": SEATS}).status_code == 200


def test_one_client_guessing_does_not_lock_out_another(clocked):
    client, _ = clocked
    assert post(client, "/api/undo", headers={"X-Table-Pin": "0000"}).status_code == 403
    r = client.post("/api/hand/start", json={"seats": SEATS}, headers=AUTH, environ_base={"REMOTE_ADDR": "10.0.0.7"})
    assert r.status_code == 200


def test_the_page_cannot_be_shown_in_another_sites_frame(client):
    r = client.get("/")
    assert r.headers["X-Frame-Options"] == "DENY" and "frame-ancestors 'none'" in r.headers["Content-Security-Policy"]


def test_a_request_over_the_size_limit_is_a_json_413(client):
    r = client.post("/api/session/load", data=b"x" * (5 * 2 ** 20), headers={**AUTH, "Content-Type": "application/json"})
    assert r.status_code == 413 and "MB" in r.json["error"]


def test_a_players_name_has_a_length_limit(client):
    r = post(client, "/api/hand/start", {"seats": ["A" * 25, "Beat"]})
    assert r.status_code == 400 and "24 characters" in r.json["error"]


def test_a_write_from_a_page_of_an_earlier_server_start_is_refused(client):
    epoch = client.get("/api/state").json["epoch"]
    post(client, "/api/hand/start", {"seats": SEATS})
    before = client.get("/api/state").json
    r = post(client, "/api/undo", headers={**AUTH, "X-Table-Epoch": "0" * 12})
    assert r.status_code == 409 and r.json["reload"] and "restarted" in r.json["error"]
    assert client.get("/api/state").json["version"] == before["version"]
    assert post(client, "/api/undo", headers={**AUTH, "X-Table-Epoch": epoch}).status_code == 200


def test_every_server_start_has_its_own_epoch(data):
    first = create_app(data, pin=PIN, testing=True).test_client().get("/api/state").json
    second = create_app(data, pin=PIN, testing=True).test_client().get("/api/state").json
    assert first["version"] == second["version"] and first["epoch"] != second["epoch"]


def test_a_video_stream_with_no_picture_ends_instead_of_holding_a_thread(client, monkeypatch):
    import sys
    import threading

    monkeypatch.setattr(sys.modules["webui.camera"], "NO_PICTURE_END", 0.3)
    done = threading.Event()

    def watch():
        client.get("/camera.mjpg").get_data()
        done.set()

    threading.Thread(target=watch, daemon=True).start()
    assert done.wait(10)


def test_other_tablets_join_by_a_qr_code_of_the_tables_lan_address(client):
    import ipaddress

    url = client.get("/api/join", base_url="http://localhost:8123").json["url"]
    host, port = url.removeprefix("http://").rstrip("/").split(":")
    assert ipaddress.ip_address(host).version == 4 and port == "8123"
    svg = client.get("/join.svg", base_url="http://localhost:8123")
    assert svg.mimetype == "image/svg+xml" and b"<svg" in svg.data[:300]


def test_a_new_evening_can_start_with_money_already_in_the_pot_and_keeps_it_over_a_restart(data):
    client = create_app(data, pin=PIN, testing=True).test_client()
    r = post(client, "/api/session/new", {"rules": {"ante": 50}, "opening_pot": 340})
    assert r.status_code == 200 and r.json["pot"] == 340
    post(client, "/api/hand/start", {"seats": SEATS})
    again = create_app(data, pin=PIN, testing=True).test_client().get("/api/state").json
    assert again["pot"] == 340 + 3 * 50
    assert post(client, "/api/session/new", {"opening_pot": -10}).status_code == 400


def _folder_video(tmp_path, n: int = 3):
    import cv2
    import numpy as np

    folder = tmp_path / "video"
    folder.mkdir()
    for i in range(n):
        cv2.imwrite(str(folder / f"{i:03d}.png"), np.full((120, 160, 3), 90, np.uint8))
    return str(folder)


def test_a_video_that_has_ended_says_so_instead_of_watching(data, tmp_path):
    from webui.camera import CameraRunner

    app = create_app(data, pin=PIN, testing=True)
    runner = CameraRunner(app.extensions["table"], _folder_video(tmp_path), None, recognizer=lambda img: []).start()
    runner.thread.join(10)
    assert not runner.thread.is_alive()
    cam = app.test_client().get("/api/state").json["camera"]
    assert cam["state"] == "ended" and "ended" in cam["reason"]


def test_the_demo_loops_as_a_fresh_evening_each_time(data, tmp_path):
    import time

    from engine.events import HandStarted
    from webui.camera import CameraRunner

    app = create_app(data, pin=PIN, testing=True)
    s = app.extensions["table"]
    taps = [(0.0, HandStarted(("Anna", "Beat", "Cla"), "Anna", 20, 0))]
    runner = CameraRunner(s, _folder_video(tmp_path), None, recognizer=lambda img: [], taps=taps, loop=True)
    first = s.watcher
    runner.start()
    deadline = time.monotonic() + 10
    while s.watcher is first and time.monotonic() < deadline:
        time.sleep(0.02)
    runner.stop.set()
    runner.thread.join(10)
    assert s.watcher is not first  # a new run, with no track of the last
    assert len(s.session.hands) <= 1  # each loop its own evening, the hand started again from its taps
    assert not (data / "archive").exists()  # the demo's replays are not archived


def test_the_demo_page_is_served_while_its_video_renders_and_says_so(data, monkeypatch):
    import argparse
    import threading

    from webui import serve

    started = threading.Event()
    go = threading.Event()

    def slow_render(*a, **k):
        started.set()
        go.wait(10)
        raise RuntimeError("no renderer here")

    monkeypatch.setattr(serve, "render_record_hand", slow_render)
    app = create_app(data, pin=PIN, testing=True)
    args = argparse.Namespace(demo=True, data=str(data), source=None, layout=None, deck=None)
    assert serve._start_camera(app, args) == 0  # returns at once: the page is up while it renders
    assert started.wait(10)
    client = app.test_client()
    assert client.get("/api/state").json["camera"]["state"] == "preparing"
    go.set()
    for _ in range(100):
        cam = client.get("/api/state").json["camera"]
        if cam["state"] != "preparing":
            break
        threading.Event().wait(0.05)
    assert cam["state"] == "camera_lost" and "could not be rendered" in cam["reason"]


def test_a_request_for_another_host_name_is_refused_so_no_site_can_reach_in_by_dns_rebinding(data):
    client = create_app(data, pin=PIN, testing=True).test_client()
    for path in ("/api/state", "/"):
        r = client.get(path, headers={"Host": "evil.example:8000"})
        assert r.status_code == 400 and "not served as 'evil.example:8000'" in r.json["error"]
    r = client.post("/api/hand/start", json={"seats": ["Anna", "Beat"]}, headers={**AUTH, "Host": "evil.example"})
    assert r.status_code == 400 and client.get("/api/state").json["hand"] is None
    assert client.get("/", headers={"Host": "127.0.0.1:8000"}).status_code == 200


def test_a_host_name_the_host_allows_is_served(data):
    client = create_app(data, pin=PIN, testing=True, hosts=["table.home"]).test_client()
    assert client.get("/api/state", headers={"Host": "table.home:8000"}).status_code == 200

