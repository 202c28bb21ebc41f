"""Scoring the detector on labelled real photos (vision.training.evaluate.evaluate_real)."""

import cv2
import numpy as np

from vision.training.evaluate import Report, evaluate_real, interval
from vision.recognize.recognizer import Detection

VOC = """<annotation>{}</annotation>"""
OBJECT = ("<object><name>{}</name><bndbox><xmin>{}</xmin><ymin>{}</ymin><xmax>{}</xmax><ymax>{}</ymax>"
          "</bndbox></object>")


def photo(folder, name, labels):
    cv2.imwrite(str(folder / f"{name}.JPG"), np.zeros((100, 100, 3), np.uint8))
    (folder / f"{name}.xml").write_text(VOC.format("".join(OBJECT.format(r, *b) for r, b in labels)))


def seen(box, rank="A", confidence=0.9):
    x1, y1, x2, y2 = box
    return Detection(rank + "h", confidence, box, [(x1, y1), (x2, y1), (x2, y2), (x1, y2)], confidence, [])


def test_a_card_found_alone_and_an_overlapped_card_missed_are_counted_apart(tmp_path):
    # A lone ace; a nine lying over a king, whose label boxes only the strip of it left in view.
    photo(tmp_path, "IMG_1", [("ace", (0, 0, 30, 40)), ("king", (45, 0, 57, 40)), ("nine", (55, 0, 85, 40))])
    found = [seen((0, 0, 30, 40)), seen((55, 0, 85, 40), "9"), seen((45, 0, 75, 40), "K", 0.5)]  # the whole king
    report = evaluate_real(lambda _: found, tmp_path)
    assert report.alone == (1, 1) and report.overlapped == (1, 2)
    assert report.recall == 2 / 3 and report.precision == 2 / 3 and report.accuracy == 1.0
    assert "  recall, overlapped cards:  0.500 (1/2)" in report.lines("real", "rank accuracy")


def test_a_report_on_generated_scenes_has_no_alone_or_overlapped_lines():
    lines = Report(2, 5, 5, 5, 4, 0.9, 0.7).lines("generated", "per-card accuracy")
    assert lines[-1] == "  mAP50-95           0.700" and not any("alone" in line for line in lines)


def test_each_share_is_printed_with_its_counts_and_its_95_percent_interval():
    line = Report(200, 520, 560, 513, 505).lines("generated", "per-card accuracy")[3]
    assert line == "  per-card accuracy  0.984  (505/513; 95 % 0.970-0.992)"


def test_the_interval_narrows_with_more_cards_and_stays_within_0_and_1():
    assert interval(0, 10)[0] == 0.0 and interval(10, 10)[1] == 1.0
    few, many = interval(95, 100), interval(950, 1000)
    assert few[0] < many[0] < 0.95 < many[1] < few[1]
    assert interval(0, 0) == (0.0, 1.0)


def test_a_card_under_another_is_matched_by_its_part_in_view_and_the_whole_box_recall_is_kept(tmp_path):
    # the same photo: the king's whole box misses its strip, the part of it in view meets it
    photo(tmp_path, "IMG_1", [("ace", (0, 0, 30, 40)), ("king", (45, 0, 57, 40)), ("nine", (55, 0, 85, 40))])
    king = seen((45, 0, 75, 40), "K", 0.5)
    king.visible, king.under = (45, 0, 55, 40), (1,)
    report = evaluate_real(lambda _: [seen((0, 0, 30, 40)), seen((55, 0, 85, 40), "9"), king], tmp_path)
    assert report.recall == 1.0 and report.overlapped == (2, 2) and report.accuracy == 1.0
    assert report.whole_recall == 2 / 3
    assert "  (whole-card boxes: recall@0.5 0.667; above, each card's part in view)" in report.lines("real", "rank")


def test_the_real_photos_split_into_a_tuning_and_a_reporting_half_by_name(tmp_path):
    from vision.training.evaluate import real_files

    for k in range(40):
        (tmp_path / f"photo{k}.xml").write_text("<annotation/>")
    tune, report = real_files(tmp_path, half="tune"), real_files(tmp_path, half="report")
    assert not set(tune) & set(report) and len(tune) + len(report) == 40
    assert 10 <= len(tune) <= 30  # about half
    (tmp_path / "photo99.xml").write_text("<annotation/>")  # a new photo moves none of the others
    assert set(tune) <= set(real_files(tmp_path, half="tune"))
