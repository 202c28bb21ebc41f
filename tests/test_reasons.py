"""Every refusal of the referee has a code, its values, and a German sentence on the page."""

import re
from pathlib import Path

import pytest

from engine.events import BidMade, CardCorrected, HandStarted, TrumpSixSwapped, UpcardShown
from engine.cards import card
from engine.reasons import REASONS, IllegalEvent
from engine.session import Session
from webui import create_app

ROOT = Path(__file__).resolve().parent.parent
PIN = "4711"


def _german() -> dict[str, str]:
    text = (ROOT / "webui" / "static" / "i18n.js").read_text()
    de = text[text.index("\n  de: {"):text.index("\n  en: {")]
    return dict(re.findall(r'(\w+): "((?:[^"\\]|\\.)*)"', de))


def _codes_in_source() -> set[str]:
    found = set()
    for path in [*(ROOT / "engine").glob("*.py"), *(ROOT / "webui").glob("*.py")]:
        text = path.read_text()
        found |= set(re.findall(r'refused\("(\w+)"', text)) | set(re.findall(r'return "(\w+)"  # reason', text))
    return found


def test_every_refusal_in_the_code_has_a_known_code():
    codes = _codes_in_source()
    assert len(codes) > 40 and codes <= set(REASONS)


@pytest.mark.parametrize("code", sorted(REASONS))
def test_every_refusal_is_said_in_german_with_the_same_values(code):
    german = _german().get(f"err_{code}")
    assert german, f"i18n.js has no German for {code}"
    assert set(re.findall(r"\{(\w+)", german)) == set(re.findall(r"\{(\w+)", REASONS[code]))


def test_a_refusal_carries_its_code_and_values():
    s = Session(events=[HandStarted(("Anna", "Beat", "Cla"), "Anna", 20), UpcardShown(card("Kh"))])
    with pytest.raises(IllegalEvent) as exc:
        s.record(BidMade("Anna", "chratze"))
    assert exc.value.code == "bid_turn" and exc.value.values == {"player": "Beat"}
    assert str(exc.value) == "it is Beat's turn to bid"


def test_a_correction_refused_carries_the_reason_it_wraps():
    s = Session(events=[HandStarted(("Anna", "Beat", "Cla"), "Anna", 20), UpcardShown(card("Kh"))])
    with pytest.raises(IllegalEvent) as exc:
        s.record(CardCorrected(target=0, card=card("Kh")))  # the start of the hand is no card
    assert exc.value.code == "not_correctable"
    for p, b in (("Beat", "chratze"), ("Cla", "metcho"), ("Anna", "weg")):
        s.record(BidMade(p, b))
    s.record(TrumpSixSwapped("Beat"))
    with pytest.raises(IllegalEvent) as exc:  # the upcard was the trump 6 itself: nobody swapped it
        s.record(CardCorrected(target=1, card=card("6h")))
    assert exc.value.code == "correction_impossible"
    inner = exc.value.to_dict()["values"]["reason"]
    assert inner == {"error": "the upcard is the trump 6 itself", "code": "swap_six_up", "values": {}}


def test_the_server_answers_a_refusal_with_its_code_and_values(tmp_path):
    client = create_app(tmp_path, pin=PIN, testing=True).test_client()
    auth = {"X-Table-Pin": PIN}
    client.post("/api/hand/start", json={"seats": ["Anna", "Beat", "Cla"]}, headers=auth)
    client.post("/api/upcard", json={"card": "Kh"}, headers=auth)
    r = client.post("/api/bid", json={"player": "Anna", "bid": "chratze"}, headers=auth)
    assert r.status_code == 409
    assert r.json == {"error": "it is Beat's turn to bid", "code": "bid_turn", "values": {"player": "Beat"}}


def test_every_bad_request_a_page_can_make_is_said_in_german():
    text = (ROOT / "webui" / "api.py").read_text()
    codes = set(re.findall(r'BadRequest\(.*, "(\w+)"', text))
    assert {"name_long", "rules_bad", "opening_pot_bad", "history_bad", "no_camera"} <= codes
    german = _german()
    assert all(f"err_{c}" in german for c in codes)


def test_a_name_too_long_is_refused_with_its_code(tmp_path):
    client = create_app(tmp_path, pin=PIN, testing=True).test_client()
    r = client.post("/api/hand/start", json={"seats": ["A" * 25, "Beat"]}, headers={"X-Table-Pin": PIN})
    assert r.status_code == 400 and r.json["code"] == "name_long" and r.json["values"] == {"max": 24}
