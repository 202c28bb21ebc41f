"""``chratze replay`` on the shipped examples."""

import json
from pathlib import Path

from chratze.cli import main

ROOT = Path(__file__).parent.parent
EVENING = ROOT / "docs" / "examples" / "evening.json"


def test_replay_prints_tricks_flags_payouts_and_balances(capsys):
    assert main(["replay", str(EVENING)]) == 0
    out = capsys.readouterr().out
    assert "Hand 1: dealer Anna" in out
    assert "Payouts: Cla 0.50, Doris 0.50" in out  # the worked example of RULES.md §4
    assert "Penalties: Beat 2.00, Erich 1.00" in out
    assert "FLAG trick 1 Erich Kd: revoke" in out
    assert "Cla is the Susi" in out
    assert "Balances:" in out and "Settle-up:" in out


def test_replay_json(capsys):
    assert main(["replay", "--json", str(EVENING)]) == 0
    doc = json.loads(capsys.readouterr().out)
    h1 = doc["hands"][0]
    assert [t["winner"] for t in h1["tricks"]] == ["Beat", "Doris", "Doris", "Cla"]
    assert h1["settlement"]["carried_out"] + 5 * 20 == 400
    assert sum(doc["balances"].values()) + doc["pot"] == 0


def test_replay_every_shipped_example():
    for path in (ROOT / "docs" / "examples").glob("*.json"):
        assert main(["replay", str(path)]) == 0, path


def test_replay_reports_problems_and_exits_1_but_prints_what_it_could_read(capsys):
    assert main(["replay", str(ROOT / "tests" / "data" / "broken.json")]) == 1
    captured = capsys.readouterr()
    assert "events[2] (hand 1): field 'card': unknown card 'Xx'" in captured.err
    assert "Hand 4" in captured.out


def test_replay_of_a_record_not_in_utf8_says_which_byte_of_which_file_and_exits_1(capsys, tmp_path):
    latin = tmp_path / "latin.json"
    latin.write_bytes('{"players": ["Zo\u00eb"]}'.encode("latin-1"))
    assert main(["replay", str(latin)]) == 1
    err = capsys.readouterr().err
    assert f"{latin}: not UTF-8: byte 0xeb at offset 16" in err


def test_replay_a_missing_file_is_a_clear_error(capsys, tmp_path):
    assert main(["replay", str(tmp_path / "nope.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_eval_detector_lists_the_real_ranks_read_right_over_their_count_in_rank_order():
    from chratze.cli import per_rank

    confusion = {("K", "K"): 62, ("K", "Q"): 33, ("9", "9"): 64, ("9", "8"): 25, ("A", "A"): 1}
    assert per_rank(confusion) == "9 64/89, K 62/95, A 1/1"


def test_eval_detector_looks_for_the_real_photos_in_the_shared_folder_and_says_when_they_are_missing(
        capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("CHRATZE_SHARED", str(tmp_path))
    assert main(["eval-detector", "--scenes", "0"]) == 1
    assert f"real photos not found at {tmp_path / 'real' / 'poker-photos'}" in capsys.readouterr().err


def test_the_scene_options_give_held_out_scenes_from_the_held_out_seed_when_that_world_is_asked_for():
    import argparse

    from chratze.options import chosen_scenes, scene_options
    from datasets.held_out import HELD_OUT_SEED

    p = argparse.ArgumentParser()
    scene_options(p)
    _, title = chosen_scenes(p.parse_args(["--world", "held-out", "--seed", "6000"]))
    assert title == f"held-out still scenes from seed {HELD_OUT_SEED + 6000}"
    _, title = chosen_scenes(p.parse_args(["--world", "held-out"]))
    assert title == f"held-out still scenes from seed {HELD_OUT_SEED}"
    _, title = chosen_scenes(p.parse_args([]))
    assert title == "generated validation scenes"


def test_every_recognizer_setting_is_an_option_and_the_preset_fills_what_is_not_given():
    import argparse
    from dataclasses import fields

    from chratze.options import model_options, settings_from
    from vision.recognize import FRAME, PHOTO, RecognizerSettings

    p = argparse.ArgumentParser()
    model_options(p)
    for f in fields(RecognizerSettings):
        assert f"--{f.name.replace('_', '-')}" in p.format_help()
    args = p.parse_args(["--conf", "0.45"])
    assert settings_from(args) == RecognizerSettings(conf=0.45)
    assert settings_from(p.parse_args(["--views", "2"])) == PHOTO
    assert settings_from(p.parse_args(["--no-fit-input"])).fit_input is False
    assert settings_from(p.parse_args([])) == FRAME


def test_advise_prints_the_odds_of_each_choice_and_the_best(capsys):
    assert main(["advise", "--trump", "Kh", "--hand", "As 9s Jh 7c", "--seat", "2", "--players", "4"]) == 0
    out = capsys.readouterr().out
    assert "chratze:" in out and "metcho:" in out and "weg:" in out and "best: " in out and "lay down" in out


def test_advise_with_a_card_that_is_no_card_says_so(capsys):
    assert main(["advise", "--trump", "Kx", "--hand", "As 9s Jh 7c", "--seat", "2"]) == 2
    assert "chratze advise:" in capsys.readouterr().err


def test_simulate_takes_a_bot_per_seat_and_writes_an_evening_the_referee_replays(tmp_path, capsys):
    from engine import history

    out = tmp_path / "bots.json"
    assert main(["simulate", "--bots", "hhrr", "--hands", "20", "--seed", "4", "--out", str(out)]) == 0
    session = history.loads(out.read_text(encoding="utf-8"))
    assert len(session.hands) == 20 and [h.seats for h in session.hands][0] == ("Anna", "Beat", "Cla", "Doris")
    assert sum(session.balances.values()) + session.pot == 0  # money is conserved
    assert main(["simulate", "--bots", "hx", "--out", str(tmp_path / "x.json")]) == 2


def test_simulate_plays_an_evening_of_kratzen_that_replay_reads(tmp_path, capsys):
    out = tmp_path / "kratzen.json"
    assert main(["simulate", "--ruleset", "kratzen", "--bots", "hhr", "--hands", "5", "--out", str(out)]) == 0
    assert '"ruleset": "kratzen"' in out.read_text(encoding="utf-8")
    assert main(["replay", str(out)]) == 0
    assert "(Kratzen, Muss)" in capsys.readouterr().out
