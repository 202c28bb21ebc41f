"""The live-table commands answer bad input with a clear message and exit code 2."""

import pytest

from chratze.cli import main


def test_watch_with_a_source_that_does_not_exist(capsys):
    assert main(["watch", "--source", "/no/such/camera"]) == 2
    assert "no camera, folder, file or stream" in capsys.readouterr().err


def test_watch_with_an_unreadable_layout(capsys, tmp_path):
    assert main(["watch", "--source", str(tmp_path), "--layout", str(tmp_path / "none.json")]) == 2
    assert "cannot read table layout" in capsys.readouterr().err


def test_a_mat_for_too_many_seats(capsys, tmp_path):
    assert main(["mat", "--players", "9", "--out", str(tmp_path / "m.png")]) == 2
    assert "2 to 7 seats" in capsys.readouterr().err


def test_serve_with_broken_house_rules(capsys):
    assert main(["serve", "--rules", '{"ante": "lots"}']) == 2
    assert "house rules" in capsys.readouterr().err


def test_serve_with_an_empty_pin_refuses_rather_than_switching_the_pin_off(capsys, tmp_path):
    assert main(["serve", "--pin", " ", "--data", str(tmp_path)]) == 2
    assert "--no-pin" in capsys.readouterr().err


def test_the_default_pin_has_six_digits(tmp_path):
    from webui import create_app

    pin = create_app(tmp_path).extensions["table"].pin
    assert len(pin) == 6 and pin.isdigit()


def test_virtual_table_of_a_hand_the_record_does_not_have(tmp_path):
    with pytest.raises(SystemExit, match="has 1 hand"):
        main(["virtual-table", "tests/data/one-hand.json", "--hand", "5", "--out", str(tmp_path)])


def test_watch_with_an_answer_file_that_is_no_hand_history(capsys, tmp_path):
    bad = tmp_path / "answers.json"
    bad.write_text("{not json", encoding="utf-8")
    assert main(["watch", "--source", str(tmp_path), "--answers", str(bad)]) == 2
    assert "chratze watch:" in capsys.readouterr().err


def test_watch_with_an_answer_file_that_is_not_there(capsys, tmp_path):
    assert main(["watch", "--source", str(tmp_path), "--answers", str(tmp_path / "none.json")]) == 2
    assert "none.json" in capsys.readouterr().err


def test_the_printed_address_is_a_numeric_one_a_tablet_can_reach():
    import ipaddress

    from webui.join import lan_address

    assert ipaddress.ip_address(lan_address()).version == 4


def test_watch_starts_a_new_record_with_a_carried_pot_and_ante(tmp_path, capsys):
    from engine import history

    record = tmp_path / "evening.json"
    frames = tmp_path / "frames"
    frames.mkdir()
    import cv2
    import numpy as np

    cv2.imwrite(str(frames / "000.png"), np.full((120, 160, 3), 90, np.uint8))  # an empty table
    assert main(["watch", "--source", str(frames), "--record", str(record), "--seats", "Anna,Beat,Cla",
                 "--pot", "340", "--ante", "50", "--corners", "none"]) == 0
    session = history.loads(record.read_text())
    assert session.opening_pot == 340 and session.rules.ante == 50 and session.pot == 340 + 150
    assert main(["watch", "--source", str(frames), "--record", str(record), "--pot", "10"]) == 2
    assert "its own pot and ante" in capsys.readouterr().err


def test_watch_starts_a_new_evening_of_kratzen_and_keeps_each_record_to_its_game(tmp_path, capsys):
    import cv2
    import numpy as np

    from engine import history

    record, frames = tmp_path / "kratzen.json", tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "000.png"), np.full((120, 160, 3), 90, np.uint8))  # an empty table
    assert main(["watch", "--source", str(frames), "--record", str(record), "--seats", "Anna,Beat,Cla",
                 "--ruleset", "kratzen", "--corners", "none"]) == 0
    session = history.loads(record.read_text())
    assert session.ruleset == "kratzen" and session.current.muss and session.current.phase == "cut"
    with pytest.raises(SystemExit, match="Kratzen, not Chratze"):
        main(["watch", "--source", str(frames), "--record", str(record), "--ruleset", "chratze"])


@pytest.mark.slow
def test_a_hand_of_kratzen_rendered_from_its_record_is_refereed_by_watch_from_the_video(tmp_path, capsys):
    """The second hand of an evening (a hop, Oder turning three cards, a drop, cards bought face up): the
    networks read the video, ``--record`` continues the evening before it, the answers file the asks."""
    import random

    from engine import history
    from engine.kratzen_session import KratzenSession
    from engine.kratzen_simulate import simulate_kratzen_session
    from vision.table.check import check_hand

    evening = simulate_kratzen_session(random.Random(74), 2, 4, KratzenSession(), bots="rrrr")
    path, out = tmp_path / "kratzen.json", tmp_path / "table"
    path.write_text(history.dumps(evening), encoding="utf-8")
    assert main(["virtual-table", str(path), "--hand", "2", "--out", str(out), "--pack", "swiss-german"]) == 0
    assert main(["watch", "--source", str(out / "table.avi"), "--layout", str(out / "layout.json"),
                 "--taps", str(out / "taps.json"), "--record", str(out / "evening.json"),
                 "--answers", str(out / "answers.json")]) == 0
    session = history.loads((out / "evening.json").read_text(encoding="utf-8"))
    check = check_hand([ev for ev in evening.hands[1].events if ev.type != "hands_known"], session)
    assert check.details == [] and check.same_result and check.wrong_card_events == 0
    assert session.balances == evening.balances
