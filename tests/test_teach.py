"""Teaching a deck: each rule of a capture, of a folder of photos and of a deck profile, one test each."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from datasets.art import scanned_pack
from datasets.held_out import capture_frame
from vision.recognize import PHOTO
from vision.recognize.deck import DeckError, DeckProfile, deck_folder, listed, load_deck
from vision.recognize.recognizer import Recognizer
from vision.teach.captures import CaptureError, capture
from vision.teach.deck import Teaching
from vision.teach.learn import Refused
from vision.teach.packs import PACKS
from vision.teach.photos import read_photos
from vision.teach.settings import TEACH

QUICK = replace(TEACH, views=3, check_views=2, steps=30)  # learning's code paths, not its accuracy
SEED = 123_456


@pytest.fixture(scope="module")
def rec() -> Recognizer:
    return Recognizer(settings=PHOTO)


@pytest.fixture(scope="module")
def french() -> dict[str, np.ndarray]:
    return scanned_pack("swiss-french")


@pytest.fixture(autouse=True)
def data(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("CHRATZE_DATA", str(tmp_path / "data"))
    return tmp_path / "data"


def _frame(face: np.ndarray, k: int = 0) -> np.ndarray:
    """A table of the held-out world with one card on it, whose detector finds it at once."""
    for seed in range(SEED + 10 * k, SEED + 10 * k + 10):
        rgb = capture_frame(face, seed)
        if min(rgb.shape[:2]) <= 600:  # small frames: quick
            return rgb
    return rgb


def _captured(rec, face: np.ndarray, code: str, k: int):
    """A capture of the card, retaken on the next table where one is refused (as a table would)."""
    for j in range(k * 5, k * 5 + 5):
        try:
            return capture(_frame(face, j), code, rec)
        except CaptureError:
            continue
    raise AssertionError(f"{code} refused on 5 tables")


def _photos(folder: Path, pack: dict, codes: list[str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for i, code in enumerate(codes):
        cv2.imwrite(str(folder / f"{code}.jpg"), _frame(pack[code], i)[..., ::-1])
    return folder


def test_a_card_alone_is_captured_with_its_outline(rec, french):
    cap = capture(_frame(french["Ah"]), "Ah", rec)
    assert cap.code == "Ah" and cap.quad.shape == (4, 2)
    assert cap.upright().shape == (180, 120, 3)


def test_no_card_in_the_picture_is_refused_naming_the_card(rec):
    with pytest.raises(CaptureError, match="Ah: no card found"):
        capture(np.full((480, 640, 3), 90, np.uint8), "Ah", rec)


def test_two_cards_in_the_picture_are_refused(rec, french):
    left, right = _frame(french["Ah"]), _frame(french["Kh"], 1)
    h = min(left.shape[0], right.shape[0])
    both = np.concatenate([left[:h], right[:h]], axis=1)
    with pytest.raises(CaptureError, match=r"[23] cards in the picture"):
        capture(both, "Ah", rec)


def test_a_blurred_card_is_refused(rec, french):
    blurred = cv2.GaussianBlur(_frame(french["7s"]), (0, 0), 6)
    with pytest.raises(CaptureError, match="blurred|no card found"):
        capture(blurred, "7s", rec)


def test_a_dark_card_is_refused(rec, french):
    dark = (_frame(french["Qc"]) * 0.12).astype(np.uint8)
    with pytest.raises(CaptureError, match="too dark|no card found"):
        capture(dark, "Qc", rec)


def test_photos_named_by_code_are_captured_and_problems_named(rec, french, tmp_path):
    folder = _photos(tmp_path / "p", french, ["Ah", "6d"])
    cv2.imwrite(str(folder / "AH.png"), _frame(french["Ah"])[..., ::-1])  # the ace again
    (folder / "9s.jpg").write_bytes(b"not a picture")
    cv2.imwrite(str(folder / "joker.jpg"), np.zeros((10, 10, 3), np.uint8))
    read = read_photos(folder, PACKS["swiss-french"], rec)
    assert sorted(c.code for c in read.captures) == ["6d", "Ah"]
    text = "\n".join(read.problems)
    assert "AH.png" in text and "again" in text
    assert "9s.jpg" in text and "cannot be read" in text
    assert "joker.jpg" in text and "not a card code" in text


def test_a_folder_of_another_pack_is_refused_whole(rec, french, tmp_path):
    folder = _photos(tmp_path / "p", french, ["6h", "6s", "6c"])  # the Tell pack has no 6 but the Weli
    with pytest.raises(ValueError, match="another pack"):
        read_photos(folder, PACKS["tell-33"], rec)


def test_the_weli_is_taught_as_the_schellen_6_of_the_tell_pack(rec, french, tmp_path):
    folder = tmp_path / "p"
    folder.mkdir()
    cv2.imwrite(str(folder / "Weli.jpg"), _frame(french["6d"])[..., ::-1])
    read = read_photos(folder, PACKS["tell-33"], rec)
    assert [c.code for c in read.captures] == ["6d"] and PACKS["tell-33"].card_name("6d") == "Weli"
    assert len(PACKS["tell-33"].codes) == 33


def test_a_deck_keeps_its_pack_and_a_new_deck_needs_one():
    with pytest.raises(DeckError, match="say which pack"):
        Teaching("ours")
    Teaching("ours", "swiss-german")._begin()
    with pytest.raises(DeckError, match="swiss-german pack, not poker-36"):
        Teaching("ours", "poker-36")
    assert Teaching("ours").pack.name == "swiss-german"


def test_a_deck_name_is_a_folder_name_and_nothing_else():
    for bad in ("", "../x", "a/b", ".hidden", "x" * 41):
        with pytest.raises(DeckError, match="deck name"):
            deck_folder(bad)


def test_nothing_taught_is_lost_by_bad_photos_or_an_unfinished_deck(rec, french, tmp_path):
    teaching = Teaching("ours", "swiss-french")
    for cap in read_photos(_photos(tmp_path / "a", french, ["Ah", "Kh"]), teaching.pack, rec).captures:
        teaching.add(cap)
    bad = tmp_path / "b"
    bad.mkdir()
    (bad / "Ah.jpg").write_bytes(b"broken")
    read = read_photos(bad, teaching.pack, rec)
    for cap in read.captures:
        teaching.add(cap)
    assert read.problems and sorted(teaching.captured()) == ["Ah", "Kh"]
    with pytest.raises(ValueError, match="missing: .*Queen of hearts"):
        teaching.learn(rec, QUICK)
    assert sorted(teaching.captured()) == ["Ah", "Kh"]
    assert not (teaching.folder / "deck.json").exists()


def test_a_retaken_card_replaces_its_capture(rec, french):
    teaching = Teaching("ours", "swiss-french")
    teaching.add(capture(_frame(french["Ah"]), "Ah", rec))
    teaching.add(capture(_frame(french["Ah"], 1), "Ah", rec))
    assert len(teaching.captured()["Ah"]) == 1
    assert [p.name for p in teaching.captures_dir.glob("*.png")] == ["Ah-1.png"]


@pytest.fixture(scope="module")
def learned(rec, french, tmp_path_factory) -> tuple[Path, DeckProfile]:
    """A Swiss-French deck taught quickly from one capture per card (module-wide: 36 captures)."""
    data = tmp_path_factory.mktemp("data")
    mp = pytest.MonkeyPatch()
    mp.setenv("CHRATZE_DATA", str(data))
    teaching = Teaching("scans", "swiss-french")
    for i, code in enumerate(teaching.pack.codes):
        teaching.add(_captured(rec, french[code], code, i))
    profile = teaching.learn(rec, QUICK)
    mp.undo()
    return data, profile


def test_a_learned_deck_is_listed_and_reads_through_the_recognizer(learned, french, monkeypatch):
    data, profile = learned
    monkeypatch.setenv("CHRATZE_DATA", str(data))
    assert listed() == ["scans"]
    deck = load_deck("scans")
    assert deck.codes == profile.codes and deck.weights.shape[0] == 36
    assert {"profile_right", "shipped_right", "cards", "confusable"} <= set(deck.figures)
    with_deck = Recognizer(settings=PHOTO, deck=deck)
    found = with_deck(_frame(french["9h"], 3))
    assert len(found) == 1 and found[0].card in deck.codes


def test_a_deck_reads_a_face_down_card_as_the_shipped_network_does(learned, monkeypatch):
    data, _ = learned
    monkeypatch.setenv("CHRATZE_DATA", str(data))
    deck = load_deck("scans")
    names = [f"c{i}" for i in range(36)] + ["back"]
    names[:36] = deck.codes
    shipped = np.zeros((1, 37), np.float32)
    shipped[0, 36] = 0.9
    shipped[0, 0] = 0.1
    out = deck.read(shipped, np.zeros((1, deck.weights.shape[1]), np.float32), names, 36)
    assert out[0, 36] == pytest.approx(0.9) and out[0].sum() == pytest.approx(1.0, abs=1e-5)


def test_a_deck_learned_on_another_classifier_is_refused(learned, monkeypatch):
    data, _ = learned
    monkeypatch.setenv("CHRATZE_DATA", str(data))
    meta = deck_folder("scans") / "deck.json"
    text = meta.read_text()
    try:
        meta.write_text(text.replace(json.loads(text)["classifier"], "0" * 16))
        with pytest.raises(DeckError, match="another classifier"):
            load_deck("scans")
    finally:
        meta.write_text(text)


def test_an_unknown_deck_names_the_decks_there_are(learned, monkeypatch):
    data, _ = learned
    monkeypatch.setenv("CHRATZE_DATA", str(data))
    with pytest.raises(DeckError, match="taught decks: scans"):
        load_deck("nope")


def test_a_deck_reading_worse_than_the_shipped_network_is_refused_and_the_old_kept(learned, rec, monkeypatch):
    data, _ = learned
    monkeypatch.setenv("CHRATZE_DATA", str(data))
    teaching = Teaching("scans")
    before = (teaching.folder / "head.npz").read_bytes()
    with pytest.raises(Refused, match="shipped network") as refused:
        teaching.learn(rec, replace(QUICK, steps=1, rate=5.0))  # one wild step: worse than what it started from
    assert refused.value.figures["profile_right"] < refused.value.figures["shipped_right"]
    assert (teaching.folder / "head.npz").read_bytes() == before


def test_teach_from_photos_keeps_what_it_took_and_names_what_is_missing(french, tmp_path, capsys):
    from chratze.cli import main

    folder = _photos(tmp_path / "p", french, ["Ah", "Kh"])
    assert main(["teach", "ours", "--pack", "swiss-french", "--photos", str(folder)]) == 1
    out = capsys.readouterr().out
    assert "2 card(s) captured" in out and "34 of 36 cards still to capture" in out and "Queen of hearts (Qh)" in out
    assert main(["decks"]) == 0
    assert "ours" in capsys.readouterr().out and "has not been learned yet"


def test_teach_refuses_a_new_deck_without_its_pack(tmp_path, capsys):
    from chratze.cli import main

    assert main(["teach", "ours", "--photos", str(tmp_path)]) == 2
    assert "say which pack" in capsys.readouterr().err


def test_watch_with_an_unknown_deck_says_so(tmp_path, capsys):
    from chratze.cli import main

    assert main(["watch", "--source", str(tmp_path), "--deck", "nope"]) == 2
    assert "no deck 'nope'" in capsys.readouterr().err


def test_teach_from_the_camera_takes_a_card_once_it_lies_still(french, tmp_path, capsys):
    from chratze.cli import main

    frames = tmp_path / "frames"
    frames.mkdir()
    rgb = _frame(french["6h"])
    for i in range(3):  # three frames of the card lying still, then the source ends
        cv2.imwrite(str(frames / f"{i:03d}.png"), rgb[..., ::-1])
    assert main(["teach", "ours", "--pack", "swiss-french", "--source", str(frames)]) == 1
    out = capsys.readouterr().out
    assert "lay the 6 of hearts (6h) alone on the trump spot" in out and "taken: 6 of hearts" in out
    assert "lay the 7 of hearts" in out and "no more frames" in out
    assert list(Teaching("ours").captured()) == ["6h"]


@pytest.mark.slow
def test_a_deck_taught_whole_reads_with_its_own_classifier(learned, rec, french, monkeypatch):
    pytest.importorskip("torch", reason="--whole needs the training extra")
    from vision.training.deck_finetune import finetune

    data, _ = learned
    monkeypatch.setenv("CHRATZE_DATA", str(data))
    profile = finetune(Teaching("scans"), rec, QUICK, epochs=1)
    deck = load_deck("scans")
    assert deck.own_classifier and deck.classifier_path == deck_folder("scans") / "classifier.onnx"
    assert profile.figures["whole"] and 0 <= profile.figures["profile_right"] <= 1
    with_deck = Recognizer(settings=PHOTO, deck=deck)
    assert with_deck.cls_path == deck.classifier_path and with_deck.deck is None
    found = with_deck(_frame(french["9h"], 3))
    assert len(found) == 1 and found[0].card in deck.codes
